import { describeApiError, refusedError } from '../../../src/domain/apiError';
import { renderMessage } from '../../../src/i18n';
import { describe, expect, it } from 'vitest';
import * as E from 'fp-ts/Either';
import * as TE from 'fp-ts/TaskEither';
import { channelRowAction, fullUpdateOf } from '../../../src/api/actors/channelRows';
import type { ChannelApi } from '../../../src/api/channelApi';
import { failure } from '../../../src/domain/apiError';
import type { Channel, ChannelPatch, ChannelPayload, ChannelRow } from '../../../src/domain/channel';
import { channelBulkActions, channelRowActions } from '../../../src/domain/channel';

/* The channel list's row actions against a recorded fake of the channel API. */

const stored: Channel = {
  id: 7,
  type: 8,
  name: 'main',
  status: 1,
  models: 'gpt-3.5-turbo,gpt-4o',
  group: 'default',
  key: '',
  base_url: 'http://upstream',
  other: null,
  model_mapping: '',
  system_prompt: null,
  config: '{}',
  priority: 3,
  weight: 0,
  response_time: 0,
  test_time: 0,
};
const row: ChannelRow = { ...stored, test_model: 'gpt-4o' };

function fakeApi(over: Partial<ChannelApi> = {}) {
  const calls: { name: string; arg: unknown }[] = [];
  const record = <A>(name: string, arg: unknown, value: A) => {
    calls.push({ name, arg });
    return TE.right(value);
  };
  const api = {
    get: (id: number) => record('get', id, { ...stored, response_time: 420, test_time: 1700000000 }),
    patch: (p: ChannelPatch) => record('patch', p, { ...stored, ...p, key: 'sk-secret' }),
    update: (p: ChannelPayload & { id: number }) => record('update', p, { ...stored, ...p, key: 'sk-secret' }),
    remove: (id: number) => record('remove', id, undefined),
    test: (id: number, model: string) => record('test', { id, model }, { success: true, message: '', time: 0.42, modelName: model }),
    updateBalance: (id: number) => record('updateBalance', id, 12.5),
    ...over,
  } as unknown as ChannelApi;
  return { api, calls };
}

const run = async (api: ChannelApi, action: string, value = '') => channelRowAction(api)({ action, row, value })();

describe('channel row actions', () => {
  it('every action name of the list is handled', async () => {
    const { api } = fakeApi();
    for (const action of [...Object.values(channelRowActions), ...Object.values(channelBulkActions)]) {
      const result = await run(api, action, action === 'priority' || action === 'weight' ? '1' : 'gpt-4o');
      expect(E.isRight(result) || (E.isLeft(result) && !JSON.stringify(result.left).includes('error.refused.unknownAction')), action).toBe(true);
    }
    expect(E.isLeft(await run(api, 'nonsense'))).toBe(true);
  });

  it('test: with the chosen model; the row as stored after the test; the toast names model and seconds', async () => {
    const { api, calls } = fakeApi();
    const result = await run(api, 'test', 'gpt-4o');
    expect(calls.map((c) => c.name)).toEqual(['test', 'get']);
    expect(calls[0]!.arg).toEqual({ id: 7, model: 'gpt-4o' });
    expect(result).toEqual(
      E.right({
        patch: expect.objectContaining({ response_time: 420, test_time: 1700000000 }),
        message: { key: 'channels.test.success', params: { name: 'main', model: 'gpt-4o', seconds: '0.42' } },
      }),
    );
  });

  it('a test that ran and failed: the row read again shows it (last_test with the error), an error toast names the channel', async () => {
    const { api } = fakeApi({
      test: () => TE.left(failure('GET /api/channel/test/7', 'http status code: 401')),
      get: () => TE.right({ ...stored, response_time: 0, test_time: 1700000100 }),
    });
    const result = await run(api, 'test', 'gpt-4o');
    expect(result).toEqual(
      E.right({
        patch: expect.objectContaining({
          response_time: 0,
          test_time: 1700000100,
          last_test: { success: false, message: 'http status code: 401', response_time: 0, test_time: 1700000100 },
        }),
        message: { key: 'channels.test.failed', params: { name: 'main', message: 'http status code: 401' } },
        level: 'error',
      }),
    );
  });

  it('a passed test is kept on the row with the stored time', async () => {
    const { api } = fakeApi();
    const result = await run(api, 'test', 'gpt-4o');
    expect(E.isRight(result) && result.right.patch?.last_test).toEqual({ success: true, message: '', response_time: 420, test_time: 1700000000 });
  });

  it('a test call that did not get through (network, session) stays the error', async () => {
    const { api, calls } = fakeApi({ test: () => TE.left({ _tag: 'Network', call: 'GET /api/channel/test/7', message: 'offline' }) });
    expect(await run(api, 'test', 'gpt-4o')).toEqual(E.left({ _tag: 'Network', call: 'GET /api/channel/test/7', message: 'offline' }));
    expect(calls).toEqual([]);
  });

  it('toggle, enable, disable: status only; the plaintext key never reaches the row', async () => {
    const { api, calls } = fakeApi();
    const toggled = await run(api, 'toggle');
    expect(calls[0]!.arg).toEqual({ id: 7, status: 2 });
    expect(E.isRight(toggled) && toggled.right.patch?.status).toBe(2);
    expect(E.isRight(toggled) && 'key' in (toggled.right.patch ?? {})).toBe(false);
    await run(api, 'enable');
    await run(api, 'disable');
    expect(calls.slice(1).map((c) => c.arg)).toEqual([
      { id: 7, status: 1 },
      { id: 7, status: 2 },
    ]);
  });

  it('priority and weight: integers; weight clamps negatives; empty refused', async () => {
    const { api, calls } = fakeApi();
    await run(api, 'priority', '-4');
    await run(api, 'weight', '-4');
    expect(calls.map((c) => c.arg)).toEqual([
      { id: 7, priority: -4 },
      { id: 7, weight: 0 },
    ]);
    expect(E.isLeft(await run(api, 'priority', ''))).toBe(true);
  });

  it('balance: the new balance and its time', async () => {
    const { api } = fakeApi();
    const result = await run(api, 'balance');
    expect(E.isRight(result) && result.right.patch?.balance).toBe(12.5);
    expect(E.isRight(result) && result.right.message).toEqual({ key: 'channels.balance.updated' });
  });

  it('balance refused by the provider: a sentence naming the channel, as an error toast; the row keeps its balance', async () => {
    const { api } = fakeApi({ updateBalance: () => TE.left(failure('GET /api/channel/update_balance/7/', 'status code: 404')) });
    expect(await run(api, 'balance')).toEqual(
      E.right({ message: { key: 'channels.balance.failed.noEndpoint', params: { name: 'main', detail: 'status code: 404' } }, level: 'error' }),
    );
  });

  it('balance: a failed call (not a refusal) stays the error', async () => {
    const err = { _tag: 'HttpStatus', call: 'GET /api/channel/update_balance/7/', status: 401, message: 'Unauthorized' } as const;
    const { api } = fakeApi({ updateBalance: () => TE.left(err) });
    expect(await run(api, 'balance')).toEqual(E.left(err));
  });

  it('models and group: the channel read first, then saved whole with a blank key', async () => {
    const { api, calls } = fakeApi();
    await run(api, 'addModel', 'claude-3');
    expect(calls.map((c) => c.name)).toEqual(['get', 'update']);
    expect(calls[1]!.arg).toEqual(fullUpdateOf(stored, { models: 'gpt-3.5-turbo,gpt-4o,claude-3' }));
    expect((calls[1]!.arg as ChannelPayload).key).toBe('');
    expect(calls[1]!.arg).toMatchObject({ base_url: 'http://upstream', priority: 3, weight: 0, config: '{}' });
    expect(calls[1]!.arg).not.toHaveProperty('other');

    calls.length = 0;
    await run(api, 'removeModel', 'gpt-4o');
    expect((calls[1]!.arg as ChannelPayload).models).toBe('gpt-3.5-turbo');
    calls.length = 0;
    await run(api, 'setGroup', 'vip');
    expect((calls[1]!.arg as ChannelPayload).group).toBe('vip');
  });

  it('the last model cannot be removed', async () => {
    const { api, calls } = fakeApi({ get: () => TE.right({ ...stored, models: 'gpt-4o' }) });
    const result = await run(api, 'removeModel', 'gpt-4o');
    expect(result).toEqual(E.left(refusedError('PUT /api/channel/', { key: 'error.refused.lastModel', params: { model: 'gpt-4o' } })));
    // said in the person's language (a catalogue key, not a fixed text)
    if (E.isLeft(result)) {
      const said = describeApiError(result.left).message;
      expect(renderMessage('zh', said)).toBe('不能移除渠道的最后一个模型（gpt-4o）');
      expect(renderMessage('en', said)).toBe('The last model (gpt-4o) of a channel cannot be removed');
    }
    expect(calls.filter((c) => c.name === 'update')).toEqual([]);
  });

  it('delete removes the row', async () => {
    const { api } = fakeApi();
    expect(await run(api, 'delete')).toEqual(E.right({ removed: true, message: { key: 'common.success' } }));
  });
});
