import * as TE from 'fp-ts/TaskEither';
import type { TaskEither } from 'fp-ts/TaskEither';
import { refusedError, type ApiError } from '../../domain/apiError';
import {
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

/**
 * `runRowAction` of the channel table. `value` is the action's argument: the test model, the
 * typed priority or weight, the bulk priority, model or group.
 */
export const channelRowAction =
  (api: ChannelApi) =>
  ({ action, row, value }: RowActionInput<ChannelRow>): TaskEither<ApiError, Outcome> => {
    if (!isChannelAction(action)) return refused('runRowAction', msg('error.refused.unknownAction', { action }));
    switch (action) {
      case 'test': {
        const model = value;
        // the test stores response_time and test_time: the row shows them as the server has them
        return TE.chain((result: { readonly time?: number; readonly model?: string; readonly modelName?: string }) =>
          TE.map(
            (fresh: Channel): Outcome => ({
              patch: withoutKey(fresh),
              message: msg('channels.test.success', {
                name: row.name,
                model: result.model ?? (result.modelName !== undefined && result.modelName !== '' ? result.modelName : model),
                seconds: (result.time ?? 0).toFixed(2),
              }),
            }),
          )(api.get(row.id)),
        )(api.test(row.id, model));
      }
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
        return TE.map(
          (balance: number): Outcome => ({
            patch: { balance, balance_updated_time: Math.floor(Date.now() / 1000) },
            message: msg('channels.balance.updated'),
          }),
        )(api.updateBalance(row.id));
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
