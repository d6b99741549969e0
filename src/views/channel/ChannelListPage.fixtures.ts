import type { ChannelTestRunResult } from '../../domain/channel';
import type { ChannelRow } from '../../domain/channel';
import type { BulkRun, TableContext } from '../../machines/table';
import type { TableState } from '../table/useTable';
import { tableContextOf, tableStateOf } from '../table/table.fixtures';

/** Channels as the list shows them (stories of the channel list). */
export const channelRows: readonly ChannelRow[] = [
  {
    id: 7,
    type: 1,
    name: 'openai-main',
    status: 1,
    models: 'gpt-4o,gpt-3.5-turbo,gpt-4o-mini',
    group: 'default,vip',
    tags: ['team-a', 'prod'],
    key: '',
    priority: 10,
    weight: 2,
    response_time: 812,
    test_time: 1_763_900_000,
    balance: 42.5,
    balance_updated_time: 1_763_900_100,
  },
  {
    id: 6,
    type: 8,
    name: 'custom-upstream',
    status: 1,
    models: 'llama-3-70b,qwen-72b',
    group: 'default',
    key: '',
    priority: 5,
    weight: 0,
    response_time: 2600,
    test_time: 1_763_800_000,
    balance: 0,
    balance_updated_time: 0,
  },
  {
    id: 5,
    type: 14,
    name: 'claude-backup',
    status: 2,
    models: 'claude-3-5-sonnet',
    group: 'vip',
    key: '',
    priority: 0,
    weight: 0,
    response_time: 0,
    test_time: 0,
    balance: 0,
    balance_updated_time: 0,
  },
  {
    id: 4,
    type: 24,
    name: 'gemini-free',
    status: 3,
    models: 'gemini-1.5-pro',
    group: 'default',
    key: '',
    priority: 0,
    weight: 0,
    response_time: 6400,
    test_time: 1_763_700_000,
    balance: 0,
    balance_updated_time: 0,
  },
];

export const liveResults: Readonly<Record<number, ChannelTestRunResult>> = {
  7: {
    index: 0,
    channel_id: 7,
    success: true,
    message: 'Hello!',
    time: 0.64,
    model: 'gpt-3.5-turbo',
    status: 1,
    response_time: 640,
    test_time: 1_763_950_000,
  },
  6: {
    index: 1,
    channel_id: 6,
    success: false,
    message: 'http status code: 401, error message: Incorrect API key provided',
    time: 0,
    model: 'llama-3-70b',
    status: 3,
    response_time: 0,
    test_time: 1_763_950_001,
  },
};

export const names: Readonly<Record<number, string>> = Object.fromEntries(channelRows.map((r) => [r.id, r.name]));

export const bulkRun = (over: Partial<BulkRun> = {}): BulkRun => ({
  action: 'disable',
  value: '',
  ids: [7, 6],
  done: 0,
  succeeded: [],
  failures: [],
  cancelled: false,
  ...over,
});

/** A table context for seeded snapshots: the rows loaded and shown, nothing selected. */
export const tableContext = (over: Partial<TableContext<ChannelRow>> = {}): TableContext<ChannelRow> => tableContextOf(channelRows, over);

/** What useTableState reads, for view stories. */
export const tableState = (over: Partial<TableState<ChannelRow>> = {}): TableState<ChannelRow> => tableStateOf(channelRows, over);
