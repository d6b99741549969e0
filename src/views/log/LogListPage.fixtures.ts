import type { Log } from '../../domain/log';
import type { LogFilterForm } from '../../domain/logQuery';
import { defaultTableQuery } from '../../domain/tableQuery';
import type { TableContext } from '../../machines/table';
import type { TableState } from '../table/useTable';
import { phoneViewport, tableContextOf, tableStateOf } from '../table/table.fixtures';

/** Log rows as the admin list answers them (stories of the log page). */
export const logRows: readonly Log[] = [
  {
    id: 981,
    user_id: 1,
    created_at: 1_763_900_000,
    type: 2,
    content: '模型倍率 2.50，分组倍率 1.00',
    username: 'root',
    token_name: 'default',
    model_name: 'gpt-4o',
    quota: 2713,
    prompt_tokens: 21,
    completion_tokens: 266,
    channel: 7,
    elapsed_time: 2310,
    is_stream: true,
  },
  {
    id: 980,
    user_id: 2,
    created_at: 1_763_899_000,
    type: 1,
    content: '通过兑换码充值 $5.00',
    username: 'alice',
    token_name: '',
    model_name: '',
    quota: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    channel: 0,
    elapsed_time: 0,
    is_stream: false,
  },
  {
    id: 979,
    user_id: 2,
    created_at: 1_763_898_000,
    type: 2,
    content: '模型倍率 15.00，分组倍率 1.00',
    username: 'alice',
    token_name: 'ci-key',
    model_name: 'claude-3-opus',
    quota: 48000,
    prompt_tokens: 1200,
    completion_tokens: 15_000,
    channel: 3,
    elapsed_time: 12_500,
    is_stream: false,
  },
];

/** The filter form with the default range (end one hour after 2025-11-23 12:13 UTC). */
export const defaultForm: LogFilterForm = {
  token_name: '',
  model_name: '',
  start: '',
  end: '2025-11-23T13:13',
  type: '0',
  channel: '',
  username: '',
};

/** A log table context for seeded snapshots: the rows loaded and shown. */
export const logTableContext = (over: Partial<TableContext<Log>> = {}): TableContext<Log> =>
  tableContextOf(logRows, { query: { ...defaultTableQuery, params: {} }, draft: '', baseParams: { scope: 'admin' }, ...over });

/** What useTableState reads, for view stories. */
export const logTableState = (over: Partial<TableState<Log>> = {}): TableState<Log> => tableStateOf(logRows, over);

export { phoneViewport };
