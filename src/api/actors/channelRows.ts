import * as E from 'fp-ts/Either';
import * as TE from 'fp-ts/TaskEither';
import type { TaskEither } from 'fp-ts/TaskEither';
import { refusedError, type ApiError } from '../../domain/apiError';
import {
  balanceFailureMessage,
  channelModelNames,
  channelStatusEnabled,
  channelStatusManuallyDisabled,
  isChannelAction,
  nextChannelStatus,
  parseInlineNumber,
  type Channel,
  type ChannelPayload,
  type ChannelRow,
} from '../../domain/channel';
import { msg, type Message } from '../../domain/message';
import type { RowActionInput, RowActionOutcome } from '../../domain/rowAction';
import type { ChannelApi } from '../channelApi';

/**
 * What acts on the rows of the channel list: each action name of the list (row actions and bulk
 * actions, src/domain/channel) becomes API calls and a RowActionOutcome.
 */
type Outcome = RowActionOutcome<ChannelRow>;

/** The channel as the server has it, without the key (`PUT` answers it in clear; lists never show it). */
const withoutKey = (channel: Channel): Partial<ChannelRow> => {
  const { key: _key, ...rest } = channel;
  return rest;
};

const refused = (call: string, message: Message): TaskEither<ApiError, never> => TE.left(refusedError(call, message));

/**
 * The body of a full `PUT /api/channel/` that changes only `models` or `group`: every other field
 * as the server has it (the key is blank on reads and the server keeps a blank key), nulls left
 * out (a null is not written anyway).
 */
export function fullUpdateOf(channel: Channel, change: { readonly models?: string; readonly group?: string }): ChannelPayload & { readonly id: number } {
  const optional = <K extends keyof ChannelPayload>(key: K, value: ChannelPayload[K] | null | undefined) =>
    value === null || value === undefined ? {} : { [key]: value };
  return {
    id: channel.id,
    type: channel.type,
    name: channel.name,
    models: change.models ?? channel.models,
    group: change.group ?? channel.group,
    key: '',
    status: channel.status,
    ...optional('base_url', channel.base_url),
    ...optional('other', channel.other),
    ...optional('model_mapping', channel.model_mapping),
    ...optional('system_prompt', channel.system_prompt),
    ...optional('config', channel.config),
    ...optional('priority', channel.priority),
    ...optional('weight', channel.weight),
  };
}

/** Reads the channel, changes its models or group, and saves the whole channel. */
const rewrite = (
  api: ChannelApi,
  id: number,
  change: (channel: Channel) => { readonly models?: string; readonly group?: string } | { readonly refusal: Message },
): TaskEither<ApiError, Outcome> =>
  TE.chain((channel: Channel) => {
    const changed = change(channel);
    if ('refusal' in changed) return refused('PUT /api/channel/', changed.refusal);
    return TE.map((saved: Channel): Outcome => ({ patch: withoutKey(saved) }))(api.update(fullUpdateOf(channel, changed)));
  })(api.get(id));

const patched =
  (message: boolean) =>
  (channel: Channel): Outcome =>
    message ? { patch: withoutKey(channel), message: msg('common.success') } : { patch: withoutKey(channel) };

/** Unix seconds now. */
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * A single test. The test stores `response_time` and `test_time`, so the row is read again and
 * shows them as the server has them, with the result kept as `last_test`. A test that ran and
 * failed (`success: false`: the server's message is the error) is an answer too: the row shows
 * the failure and an error toast names the channel; a call that did not get through is an error.
 */
const testRow = (api: ChannelApi, row: ChannelRow, model: string): TaskEither<ApiError, Outcome> => async () => {
  const tested = await api.test(row.id, model)();
  if (E.isLeft(tested) && tested.left._tag !== 'Failure') return tested;
  const refusal = E.isLeft(tested) && tested.left._tag === 'Failure' ? tested.left.message : null;
  const fresh = await api.get(row.id)();
  const server = E.isRight(fresh) ? withoutKey(fresh.right) : {};
  const test_time = E.isRight(fresh) && (fresh.right.test_time ?? 0) > 0 ? fresh.right.test_time! : nowSeconds();
  if (E.isLeft(tested)) {
    const message = refusal ?? '';
    return E.right({
      patch: { ...server, last_test: { success: false, message, response_time: 0, test_time } },
      message: msg('channels.test.failed', { name: row.name, message }),
      level: 'error',
    });
  }
  const result = tested.right;
  const seconds = result.time ?? 0;
  return E.right({
    patch: {
      ...server,
      last_test: { success: true, message: result.message, response_time: E.isRight(fresh) ? (fresh.right.response_time ?? 0) : Math.round(seconds * 1000), test_time },
    },
    message: msg('channels.test.success', {
      name: row.name,
      model: result.model ?? (result.modelName !== undefined && result.modelName !== '' ? result.modelName : model),
      seconds: seconds.toFixed(2),
    }),
  });
};

/**
 * Asks the provider for the balance again. A refusal (`success: false`: `尚未实现`,
 * `status code: 404` …) is told as a sentence naming the channel (error toast), not the raw text.
 */
const balanceRow = (api: ChannelApi, row: ChannelRow): TaskEither<ApiError, Outcome> => async () => {
  const answer = await api.updateBalance(row.id)();
  if (E.isRight(answer)) {
    return E.right({ patch: { balance: answer.right, balance_updated_time: nowSeconds() }, message: msg('channels.balance.updated') });
  }
  if (answer.left._tag !== 'Failure') return answer;
  return E.right({ message: balanceFailureMessage(row.name, answer.left.message), level: 'error' });
};

/**
 * `runRowAction` of the channel table. `value` is the action's argument: the test model, the
 * typed priority or weight, the bulk priority, model or group.
 */
export const channelRowAction =
  (api: ChannelApi) =>
  ({ action, row, value }: RowActionInput<ChannelRow>): TaskEither<ApiError, Outcome> => {
    if (!isChannelAction(action)) return refused('runRowAction', msg('error.refused.unknownAction', { action }));
    switch (action) {
      case 'test':
        return testRow(api, row, value);
      case 'toggle':
        return TE.map(patched(true))(api.patch({ id: row.id, status: nextChannelStatus(row.status) }));
      case 'enable':
        return TE.map(patched(false))(api.patch({ id: row.id, status: channelStatusEnabled }));
      case 'disable':
        return TE.map(patched(false))(api.patch({ id: row.id, status: channelStatusManuallyDisabled }));
      case 'delete':
        return TE.map((): Outcome => ({ removed: true, message: msg('common.success') }))(api.remove(row.id));
      case 'priority':
      case 'weight': {
        const n = parseInlineNumber(value, action);
        if (n === null) return refused('PUT /api/channel/', msg('error.refused.badValue', { action, value }));
        return TE.map(patched(true))(api.patch(action === 'priority' ? { id: row.id, priority: n } : { id: row.id, weight: n }));
      }
      case 'balance':
        return balanceRow(api, row);
      case 'addModel':
        return rewrite(api, row.id, (channel) => {
          const models = channelModelNames(channel.models);
          return { models: (models.includes(value) ? models : [...models, value]).join(',') };
        });
      case 'removeModel':
        return rewrite(api, row.id, (channel) => {
          const models = channelModelNames(channel.models).filter((m) => m !== value);
          // an empty models field is not written (contract §2.9.6): the last model cannot be removed
          return models.length === 0 ? { refusal: msg('error.refused.lastModel', { model: value }) } : { models: models.join(',') };
        });
      case 'setGroup':
        return rewrite(api, row.id, () => ({ group: value }));
    }
  };
