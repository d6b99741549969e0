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

const note = (over: Partial<Log> & Pick<Log, 'id' | 'type' | 'content'>): Log => ({
  user_id: 2,
  created_at: 1_763_897_000,
  username: 'alice',
  token_name: '',
  model_name: '',
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  channel: 0,
  elapsed_time: 0,
  is_stream: false,
  ...over,
});

/**
 * One row of each type, amounts in millionths of a dollar at 500000 a unit: two consume rows of
 * 8 quota ($0.000016), a redemption top-up (quota 0, amount in the content), an API top-up that
 * carries its quota, a manage note and a system note (quota 0, elapsed 0, not stream).
 */
export const logRowsOfEachType: readonly Log[] = [
  { ...logRows[0]!, id: 1, quota: 8, prompt_tokens: 3, completion_tokens: 5, model_name: 'gpt-4o-mini' },
  { ...logRows[2]!, id: 2, quota: 8, prompt_tokens: 4, completion_tokens: 4, model_name: 'qwen-turbo' },
  note({ id: 3, type: 1, content: '通过兑换码充值 $5.00' }),
  note({ id: 4, type: 1, content: '通过 API 充值 $1.00', quota: 500000 }),
  note({ id: 5, type: 3, content: '管理员将用户额度从 $0.00 修改为 $1.00' }),
  note({ id: 6, type: 4, content: '新用户注册赠送 $1.00' }),
];

/** Consume rows with long provider-style model names (no spaces). */
export const longModelLogRows: readonly Log[] = [
  { ...logRows[0]!, id: 11, model_name: 'meta-llama/Llama-3.1-405B-Instruct-Turbo' },
  { ...logRows[2]!, id: 12, model_name: 'anthropic.claude-3-5-sonnet-20241022-v2:0' },
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
