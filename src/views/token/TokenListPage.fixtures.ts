import type { Token } from '../../domain/token';
import type { BulkRun, TableContext } from '../../machines/table';
import type { TableState } from '../table/useTable';
import { phoneViewport, tableContextOf, tableStateOf } from '../table/table.fixtures';

/** Tokens as the list shows them (stories of the token list). Keys are made up, 48 characters. */
export const tokenRows: readonly Token[] = [
  {
    id: 7,
    name: 'chat-client',
    key: 'Qw3rTy7uIoP9aS1d0F1E2D3C4B5A69788A7B6C5D4E3F2A1B',
    status: 1,
    created_time: 1_763_900_000,
    expired_time: -1,
    remain_quota: 250000,
    unlimited_quota: false,
    used_quota: 1234,
    models: '',
    subnet: '',
  },
  {
    id: 6,
    name: 'batch-jobs',
    key: 'Zx9cVb8nMl7kJh6g5A4B3C2D1E0F9A8B7C6D5E4F3A2B1C0D',
    status: 2,
    created_time: 1_763_800_000,
    expired_time: 1_893_456_000,
    remain_quota: 0,
    unlimited_quota: true,
    used_quota: 2_500_000,
    models: 'gpt-4o-mini',
    subnet: '',
  },
  {
    id: 5,
    name: 'old-demo',
    key: 'Pl0oKi9jUh8yGt7fA6B5C4D3E2F1A0B9C8D7E6F5A4B3C2D1',
    status: 3,
    created_time: 1_763_700_000,
    expired_time: 1_763_750_000,
    remain_quota: 10,
    unlimited_quota: false,
    used_quota: 500,
    models: null,
    subnet: null,
  },
  {
    id: 4,
    name: 'spent',
    key: 'Mn8bVc7xZa6sDf5gA4B3C2D1E0F9A8B7C6D5E4F3A2B1C0D9',
    status: 4,
    created_time: 1_763_600_000,
    expired_time: -1,
    remain_quota: 0,
    unlimited_quota: false,
    used_quota: 500000,
  },
];

/** The server address and chat link the stories use. */
export const storyServerAddress = 'https://gw.example.com';

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
export const tableContext = (over: Partial<TableContext<Token>> = {}): TableContext<Token> => tableContextOf(tokenRows, over);

/** What useTableState reads, for view stories. */
export const tableState = (over: Partial<TableState<Token>> = {}): TableState<Token> => tableStateOf(tokenRows, over);

export { phoneViewport };
