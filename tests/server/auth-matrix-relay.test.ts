import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelCatalogue } from '../../server/services/channel';
import { insertToken as insertTokenRow } from './support/db';
import type { Reply } from './support/http';
import { createRelayChannel, createRelayUser, setRelayOptions } from './support/relayFixtures';
import { replyText, startRelayUpstream, type RelayUpstream } from './support/relayUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * The guard matrix of the relay (contract §4.1, §4.2, §4.3 step 2): every /v1 route × every kind
 * of API-key caller → the refusal (HTTP status, OpenAI error body `{error:{message,type}}` with
 * one-api's message and the ` (request id: <id>)` suffix) or "passes auth" (the route answers
 * what it answers a valid caller: a relayed answer from the fake upstream, the model list, the
 * billing objects, or 501 for a route the gateway does not implement). A refused request never
 * reaches the upstream. Tokens whose status the refusal changes (steps 7–8) are made per test.
 */

const clockMs = 1_750_000_000_000;
const nowSeconds = clockMs / 1000;

/** One relay route with a body that passes validation and a check of its normal answer. */
interface RouteRow {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  /** The model the auth step reads (body, path or route default); null for routes whose body is not read. */
  readonly model: string | null;
  /** Asserts the answer a caller that passes auth gets. */
  readonly passes: (reply: Reply) => void;
  /** `anthropic`: the route answers in Anthropic's format, refusals included (`/v1/messages`). */
  readonly format?: 'anthropic';
}

/** Anthropic's error type for a refusal's status (the ones the guards give). */
const anthropicErrorTypes: Readonly<Record<number, string>> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error' };

const chatModel = 'gpt-3.5-turbo';
const completionModel = 'gpt-3.5-turbo-instruct';
const embeddingModel = 'text-embedding-3-small';
const moderationModel = 'text-moderation-stable';
const imageModel = 'dall-e-2';
const servedModels = [chatModel, completionModel, embeddingModel, moderationModel, imageModel].join(',');

const ok = (reply: Reply): void => {
  expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  expect(reply.body, reply.text.slice(0, 300)).toBeTypeOf('object');
  expect(reply.body.error, reply.text.slice(0, 300)).toBeUndefined();
};

const subscriptionKeys = ['access_until', 'hard_limit_usd', 'has_payment_method', 'object', 'soft_limit_usd', 'system_hard_limit_usd'];

/** A billing endpoint's rows, with and without the /v1 prefix: both answer `check` after a 200. */
const billingRows = (endpoint: 'subscription' | 'usage', check: (r: Reply) => void): RouteRow[] =>
  [`/dashboard/billing/${endpoint}`, `/v1/dashboard/billing/${endpoint}`].map((path) => ({
    method: 'GET',
    path,
    model: null,
    passes: (r) => {
      ok(r);
      check(r);
    },
  }));

const routes: readonly RouteRow[] = [
  {
    method: 'POST',
    path: '/v1/chat/completions',
    body: { model: chatModel, messages: [{ role: 'user', content: 'hi' }] },
    model: chatModel,
    passes: (r) => {
      ok(r);
      expect(r.body).toMatchObject({ object: 'chat.completion', choices: [{ message: { content: replyText(chatModel) } }] });
    },
  },
  {
    method: 'POST',
    path: '/v1/messages',
    body: { model: chatModel, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] },
    model: chatModel,
    format: 'anthropic',
    passes: (r) => {
      ok(r);
      expect(r.body).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'text', text: replyText(chatModel) }] });
    },
  },
  {
    method: 'POST',
    path: '/v1/completions',
    body: { model: completionModel, prompt: 'Say hi' },
    model: completionModel,
    passes: (r) => {
      ok(r);
      expect(r.body).toMatchObject({ object: 'text_completion', choices: [{ text: replyText(completionModel) }] });
    },
  },
  {
    method: 'POST',
    path: '/v1/embeddings',
    body: { model: embeddingModel, input: 'hello' },
    model: embeddingModel,
    passes: (r) => {
      ok(r);
      expect(r.body).toMatchObject({ object: 'list', data: [{ object: 'embedding', index: 0 }] });
    },
  },
  {
    method: 'POST',
    path: `/v1/engines/${embeddingModel}/embeddings`,
    body: { input: 'hello' },
    model: embeddingModel,
    passes: (r) => {
      ok(r);
      expect(r.body).toMatchObject({ object: 'list', data: [{ object: 'embedding', index: 0 }] });
    },
  },
  {
    method: 'POST',
    path: '/v1/moderations',
    body: { input: 'hello' },
    model: moderationModel,
    passes: (r) => {
      ok(r);
      expect(r.body).toMatchObject({ results: [{ flagged: false }] });
    },
  },
  {
    method: 'POST',
    path: '/v1/images/generations',
    body: { prompt: 'a cat', size: '256x256' },
    model: imageModel,
    passes: (r) => {
      ok(r);
      expect(r.body.data).toHaveLength(1);
    },
  },
  {
    method: 'GET',
    path: '/v1/models',
    model: null,
    passes: (r) => {
      ok(r);
      expect(r.body.object).toBe('list');
      expect(Array.isArray(r.body.data)).toBe(true);
    },
  },
  {
    method: 'GET',
    path: '/v1/models/gpt-4o',
    model: null,
    passes: (r) => {
      ok(r);
      expect(r.body).toEqual(modelCatalogue.data.findLast((m) => m.id === 'gpt-4o'));
    },
  },
  ...billingRows('subscription', (r) => {
    expect(Object.keys(r.body).sort()).toEqual(subscriptionKeys);
    expect(r.body.object).toBe('billing_subscription');
  }),
  ...billingRows('usage', (r) => expect(r.body).toEqual({ object: 'list', total_usage: expect.any(Number) })),
  {
    method: 'POST',
    path: '/v1/images/variations',
    body: { model: 'dall-e-2', n: 1 },
    model: null,
    passes: (r) => {
      expect(r.status, r.text).toBe(501);
      expect(r.body).toEqual({ error: { message: 'API not implemented', type: 'one_api_error', param: '', code: 'api_not_implemented' } });
    },
  },
];

type CallerKind =
  | 'noHeader'
  | 'emptyBearer'
  | 'otherScheme'
  | 'unknownKey'
  | 'disabled'
  | 'expiredStatus'
  | 'expiredTime'
  | 'exhaustedStatus'
  | 'noQuotaLeft'
  | 'ownerBanned'
  | 'outsideSubnet'
  | 'otherModel'
  | 'commonPin'
  | 'adminPinMissing'
  | 'adminPinDisabled'
  | 'adminPinEnabled'
  | 'valid';

const callerTitles: Readonly<Record<CallerKind, string>> = {
  noHeader: 'no Authorization header',
  emptyBearer: 'malformed header: "Bearer sk-" without a key',
  otherScheme: 'malformed header: Basic credentials',
  unknownKey: 'unknown key',
  disabled: 'disabled token (status 2)',
  expiredStatus: 'expired token (status 3)',
  expiredTime: 'token past its expired_time (status 1)',
  exhaustedStatus: 'exhausted token (status 4)',
  noQuotaLeft: 'limited token with remain_quota 0 (status 1)',
  ownerBanned: "banned owner's token",
  outsideSubnet: 'subnet-restricted token from outside its subnet',
  otherModel: 'model-restricted token asking another model',
  commonPin: "common user's key pinned to a channel",
  adminPinMissing: "admin's key pinned to a missing channel",
  adminPinDisabled: "admin's key pinned to a disabled channel",
  adminPinEnabled: "admin's key pinned to an enabled channel",
  valid: 'valid key',
};

const callerKinds = Object.keys(callerTitles) as CallerKind[];

const subnet = '10.0.0.0/8';
const restrictedModels = 'only-this-model';
const exhaustedName = 'spent';

/** What auth does: refuse (status + message, `{id}` replaced by the token id) or let the route run. */
type Outcome = { readonly refuse: true; readonly status: number; readonly message: string } | { readonly refuse: false };

const refuse = (status: number, message: string): Outcome => ({ refuse: true, status, message });

/** The outcome contract §4.2 (and §4.3 step 2 for pins on routed requests) gives `caller` on `row`. */
function expectedOutcome(row: RouteRow, caller: CallerKind): Outcome {
  const routed = row.model !== null;
  switch (caller) {
    case 'noHeader':
    case 'emptyBearer':
      return refuse(401, '未提供令牌');
    case 'otherScheme':
    case 'unknownKey':
      return refuse(401, '无效的令牌');
    case 'disabled':
      return refuse(401, '该令牌状态不可用');
    case 'expiredStatus':
    case 'expiredTime':
      return refuse(401, '该令牌已过期');
    case 'exhaustedStatus':
      return refuse(401, `令牌 ${exhaustedName}（#{id}）额度已用尽`);
    case 'noQuotaLeft':
      return refuse(401, '该令牌额度已用尽');
    case 'ownerBanned':
      return refuse(403, '用户已被封禁');
    case 'outsideSubnet':
      return refuse(403, `该令牌只能在指定网段使用：${subnet}，当前 ip：127.0.0.1`);
    case 'otherModel':
      return routed ? refuse(403, `该令牌无权使用模型：${row.model}`) : { refuse: false };
    case 'commonPin':
      return refuse(403, '普通用户不支持指定渠道');
    case 'adminPinMissing':
      return routed ? refuse(400, '无效的渠道 Id') : { refuse: false };
    case 'adminPinDisabled':
      return routed ? refuse(403, '该渠道已被禁用') : { refuse: false };
    case 'adminPinEnabled':
    case 'valid':
      return { refuse: false };
  }
}

const outcomeTitle = (outcome: Outcome): string => (outcome.refuse ? `${outcome.status} ${outcome.message}` : 'passes auth');

/** The Authorization header of a caller (null: none) and the id of its token (for messages naming it). */
interface Credential {
  readonly header: string | null;
  readonly tokenId: number;
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay guard matrix: every /v1 route × every caller — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => clockMs });
    const db = () => suite.api.handle.db;
    let upstream: RelayUpstream;
    const ids = { common: 0, admin: 0, banned: 0, enabledChannel: 0, disabledChannel: 0 };
    const shared = new Map<CallerKind, Credential>();

    /** Inserts a token of `userId` (enabled, unlimited, never expiring unless `values` say otherwise). */
    const insertToken = (userId: number, values: Record<string, unknown> = {}) => insertTokenRow(db(), userId, { unlimited_quota: true, ...values });

    /** A credential for `kind`: the shared one, or a fresh token when a refusal rewrites the token's status. */
    async function credentialOf(kind: CallerKind): Promise<Credential> {
      const bearer = async (userId: number, values: Record<string, unknown> = {}, suffix = ''): Promise<Credential> => {
        const { id, key } = await insertToken(userId, values);
        return { header: `Bearer sk-${key}${suffix}`, tokenId: id };
      };
      switch (kind) {
        case 'noHeader':
          return { header: null, tokenId: 0 };
        case 'emptyBearer':
          return { header: 'Bearer sk-', tokenId: 0 };
        case 'otherScheme':
          return { header: 'Basic dXNlcjpwYXNzd29yZA==', tokenId: 0 };
        case 'unknownKey':
          return { header: `Bearer sk-${'n'.repeat(48)}`, tokenId: 0 };
        case 'disabled':
          return bearer(ids.common, { status: 2 });
        case 'expiredStatus':
          return bearer(ids.common, { status: 3 });
        case 'expiredTime':
          return bearer(ids.common, { expired_time: nowSeconds - 60, unlimited_quota: false, remain_quota: 1000 });
        case 'exhaustedStatus':
          return bearer(ids.common, { status: 4, name: exhaustedName });
        case 'noQuotaLeft':
          return bearer(ids.common, { unlimited_quota: false, remain_quota: 0 });
        case 'ownerBanned':
          return bearer(ids.banned);
        case 'outsideSubnet':
          return bearer(ids.common, { subnet });
        case 'otherModel':
          return bearer(ids.common, { models: restrictedModels });
        case 'commonPin':
          return bearer(ids.common, {}, `-${ids.enabledChannel}`);
        case 'adminPinMissing':
          return bearer(ids.admin, {}, '-987654');
        case 'adminPinDisabled':
          return bearer(ids.admin, {}, `-${ids.disabledChannel}`);
        case 'adminPinEnabled':
          return bearer(ids.admin, {}, `-${ids.enabledChannel}`);
        case 'valid':
          return bearer(ids.common);
      }
    }

    /** Kinds whose refusal changes the token (steps 7–8): a fresh token per test. */
    const perTest: ReadonlySet<CallerKind> = new Set(['expiredTime', 'noQuotaLeft']);

    beforeAll(async () => {
      upstream = await startRelayUpstream();
      await setRelayOptions(db());
      ids.common = await createRelayUser(db(), { username: 'mx-common', quota: 100_000_000 });
      ids.admin = await createRelayUser(db(), { username: 'mx-admin', quota: 100_000_000, role: 10 });
      ids.banned = await createRelayUser(db(), { username: 'mx-banned', quota: 100_000_000 });
      await db().updateTable('users').set({ status: 2 }).where('id', '=', ids.banned).execute();
      ids.enabledChannel = await createRelayChannel(db(), { key: 'up-matrix-on', baseUrl: upstream.url, models: servedModels });
      ids.disabledChannel = await createRelayChannel(db(), { key: 'up-matrix-off', baseUrl: upstream.url, models: servedModels, status: 2 });
      for (const kind of callerKinds) if (!perTest.has(kind)) shared.set(kind, await credentialOf(kind));
    });
    afterAll(async () => {
      await upstream.close();
    });

    for (const row of routes) {
      describe(`${row.method} ${row.path}`, () => {
        for (const kind of callerKinds) {
          const outcome = expectedOutcome(row, kind);
          it(`${callerTitles[kind]} → ${outcomeTitle(outcome)}`, async () => {
            const credential = shared.get(kind) ?? (await credentialOf(kind));
            const sentBefore = upstream.requests.length;
            const headers: Record<string, string> = credential.header === null ? {} : { Authorization: credential.header };
            const reply = await suite.client().request(row.method, row.path, { body: row.body, headers });
            const requestId = reply.headers.get('x-oneapi-request-id');
            expect(requestId, 'request id header').toMatch(/^\d+$/);
            if (outcome.refuse) {
              const message = outcome.message.replace('{id}', String(credential.tokenId));
              expect(reply.status, reply.text.slice(0, 300)).toBe(outcome.status);
              const text = `${message} (request id: ${requestId})`;
              expect(reply.body).toEqual(
                row.format === 'anthropic'
                  ? { type: 'error', error: { type: anthropicErrorTypes[outcome.status], message: text } }
                  : { error: { message: text, type: 'one_api_error' } },
              );
              expect(upstream.requests.length, 'a refused request reached the upstream').toBe(sentBefore);
            } else {
              row.passes(reply);
              if (row.model !== null) {
                const sent = upstream.requests.slice(sentBefore);
                expect(sent.map((r) => r.key)).toEqual(['up-matrix-on']);
              }
            }
          });
        }
      });
    }
  });
}
