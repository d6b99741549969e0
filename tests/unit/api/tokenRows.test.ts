import { describe, expect, it } from 'vitest';
import * as E from 'fp-ts/Either';
import * as TE from 'fp-ts/TaskEither';
import { testToken, tokenRowAction } from '../../../src/api/actors/tokenRows';
import type { RelayApi } from '../../../src/api/relayApi';
import type { TokenApi } from '../../../src/api/tokenApi';
import { failure, type ApiError } from '../../../src/domain/apiError';
import type { ChatCompletion, ChatRequest, RelayModelList } from '../../../src/domain/relay';
import type { Token } from '../../../src/domain/token';
import { tokenActions } from '../../../src/machines/tokenList';

/* The token list's 'test' action against a recorded fake of the relay API (and a fake clock). */

const row: Token = {
  id: 7,
  name: 'chat-client',
  key: 'Qw3rTy7uIoP9aS1d0F1E2D3C4B5A69788A7B6C5D4E3F2A1B',
  status: 1,
  created_time: 1_763_900_000,
  expired_time: -1,
  remain_quota: 250000,
  unlimited_quota: false,
  used_quota: 0,
  models: '',
};
const models: RelayModelList = { data: [{ id: 'gpt-4o-mini' }, { id: 'gpt-3.5-turbo' }] };
const reply = (content: string | null): ChatCompletion => ({ model: 'gpt-4o-mini-2024-07-18', choices: [{ message: { role: 'assistant', content } }] });

function fakeRelay(over: { list?: TE.TaskEither<ApiError, RelayModelList>; chat?: TE.TaskEither<ApiError, ChatCompletion> } = {}) {
  const calls: { name: string; key: string; request?: ChatRequest }[] = [];
  const relay: RelayApi = {
    listModels: (key) => {
      calls.push({ name: 'listModels', key });
      return over.list ?? TE.right(models);
    },
    chat: (key, request) => {
      calls.push({ name: 'chat', key, request });
      return over.chat ?? TE.right(reply('pong'));
    },
  };
  return { relay, calls };
}

/** A clock that advances 420 ms between reads. */
const ticking = () => {
  let now = 1000;
  return () => {
    const at = now;
    now += 420;
    return at;
  };
};

const noTokenApi = {} as TokenApi;

describe("token row action 'test'", () => {
  it('lists the models with the row key, asks the first one, and says model, seconds and reply', async () => {
    const { relay, calls } = fakeRelay();
    const result = await tokenRowAction(noTokenApi, relay, ticking())({ action: tokenActions.test, row, value: '' })();
    expect(result).toEqual(
      E.right({ message: { key: 'tokens.test.success', params: { name: 'chat-client', model: 'gpt-4o-mini', seconds: '0.42', reply: 'pong' } } }),
    );
    expect(calls.map((c) => [c.name, c.key])).toEqual([
      ['listModels', row.key],
      ['chat', row.key],
    ]);
    expect(calls[1]?.request).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }], max_tokens: 8, stream: false });
  });

  it("a restricted token asks its own first model; the row itself is left as it is", async () => {
    const { relay, calls } = fakeRelay();
    const result = await testToken(relay, { ...row, models: 'gpt-3.5-turbo,gpt-4o-mini' }, ticking())();
    expect(calls[1]?.request?.model).toBe('gpt-3.5-turbo');
    expect(E.isRight(result) && Object.keys(result.right)).toEqual(['message']);
  });

  it('an empty reply has its own message', async () => {
    const { relay } = fakeRelay({ chat: TE.right(reply(null)) });
    const result = await testToken(relay, row, ticking())();
    expect(E.isRight(result) && result.right.message).toEqual({
      key: 'tokens.test.successEmpty',
      params: { name: 'chat-client', model: 'gpt-4o-mini', seconds: '0.42', reply: '' },
    });
  });

  it("the relay's refusal of the key ends the test before any completion", async () => {
    const refused = failure('GET /v1/models', '该令牌状态不可用');
    const { relay, calls } = fakeRelay({ list: TE.left(refused) });
    expect(await testToken(relay, row, ticking())()).toEqual(E.left(refused));
    expect(calls.map((c) => c.name)).toEqual(['listModels']);
  });

  it("the completion's failure is the result", async () => {
    const refused = failure('POST /v1/chat/completions', '当前分组 default 下对于模型 gpt-4o-mini 无可用渠道');
    const { relay } = fakeRelay({ chat: TE.left(refused) });
    expect(await testToken(relay, row, ticking())()).toEqual(E.left(refused));
  });

  it('the default clock is monotonic and gives non-negative seconds', async () => {
    const { relay } = fakeRelay();
    const result = await tokenRowAction(noTokenApi, relay)({ action: 'test', row, value: '' })();
    expect(E.isRight(result) && result.right.message && 'params' in result.right.message && Number(result.right.message.params?.seconds)).toBeGreaterThanOrEqual(0);
  });
});
