import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import OpenAI from 'openai';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import type { Database } from '../../../server/db/schema';
import { settlementsDone } from '../../../server/relay/billing';
import { heldQuota } from '../../../server/relay/heldReservations';
import { abilityRows } from '../../../server/services/channel';
import { insertUser, setOption } from './db';

/**
 * Rows and arithmetic for the relay suites (issue 6), shared with the e2e and bench helpers:
 * users, tokens and channels with chosen quotas written straight into the database, the
 * quota/log figures a suite compares, one-api's token counting and billing formulas
 * (contract §4.6, §4.13) computed independently of the server, and an openai SDK client.
 */

type Db = Kysely<Database>;

/** Ratios the suites configure (exact in binary, so expected quotas are exact). */
export const testModelRatio: Readonly<Record<string, number>> = {
  'gpt-3.5-turbo': 1.5,
  'gpt-4o-mini': 0.5,
  'gpt-3.5-turbo-instruct': 2,
  'text-embedding-3-small': 0.5,
  'text-moderation-latest': 1,
  'text-moderation-stable': 1,
  'dall-e-2': 8,
  'dall-e-3': 20,
};

/** Completion ratios the suites configure. */
export const testCompletionRatio: Readonly<Record<string, number>> = {
  'gpt-3.5-turbo': 3,
  'gpt-4o-mini': 4,
  'gpt-3.5-turbo-instruct': 1,
  'text-embedding-3-small': 1,
  'text-moderation-latest': 1,
  'text-moderation-stable': 1,
};

/** Writes the options the relay reads (ratios, retries, logging, auto-disable) with test values. */
export async function setRelayOptions(db: Db, overrides: Readonly<Record<string, string>> = {}): Promise<void> {
  const values: Record<string, string> = {
    ModelRatio: JSON.stringify(testModelRatio),
    CompletionRatio: JSON.stringify(testCompletionRatio),
    GroupRatio: JSON.stringify({ default: 1, vip: 2, svip: 1 }),
    PreConsumedQuota: '500',
    RetryTimes: '0',
    LogConsumeEnabled: 'true',
    AutomaticDisableChannelEnabled: 'false',
    AutomaticEnableChannelEnabled: 'false',
    ApproximateTokenEnabled: 'false',
    QuotaRemindThreshold: '0',
    ...overrides,
  };
  for (const [key, value] of Object.entries(values)) await setOption(db, key, value);
}

export interface RelayUserSeed {
  readonly username: string;
  readonly quota: number;
  readonly group?: string;
  /** 1 common (default), 10 admin, 100 root. */
  readonly role?: number;
}

/** Inserts a user with `quota`; returns its id. */
export async function createRelayUser(db: Db, seed: RelayUserSeed): Promise<number> {
  const id = await insertUser(db, { username: seed.username, role: seed.role ?? 1 });
  await db
    .updateTable('users')
    .set({ quota: seed.quota, group: seed.group ?? 'default' })
    .where('id', '=', id)
    .execute();
  return id;
}

export interface RelayTokenSeed {
  readonly userId: number;
  readonly name: string;
  readonly remainQuota: number;
  readonly unlimited?: boolean;
  readonly models?: string | null;
}

export interface RelayToken {
  readonly id: number;
  /** The 48-character key (send as `sk-<key>`). */
  readonly key: string;
  readonly name: string;
}

/** Inserts an enabled, never-expiring token; returns its id and key. */
export async function createRelayToken(db: Db, seed: RelayTokenSeed): Promise<RelayToken> {
  const key = randomBytes(24).toString('hex');
  const row = await db
    .insertInto('tokens')
    .values({
      user_id: seed.userId,
      key,
      status: 1,
      name: seed.name,
      created_time: 1_700_000_000,
      accessed_time: 1_700_000_000,
      expired_time: -1,
      remain_quota: seed.remainQuota,
      unlimited_quota: seed.unlimited ?? false,
      used_quota: 0,
      models: seed.models ?? null,
      subnet: '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, key, name: seed.name };
}

export interface RelayChannelSeed {
  /** The upstream key (the fake's behaviours are chosen by it). */
  readonly key: string;
  readonly baseUrl: string;
  readonly models: string;
  /** 8 Custom (default) or 1 OpenAI. */
  readonly type?: number;
  readonly name?: string;
  readonly group?: string;
  readonly priority?: number;
  readonly status?: number;
  readonly modelMapping?: string;
  readonly systemPrompt?: string | null;
  /** The channel's `config` JSON text (default ''). */
  readonly config?: string;
}

/** Inserts a channel and its abilities (as the channel service builds them); returns its id. */
export async function createRelayChannel(db: Db, seed: RelayChannelSeed): Promise<number> {
  const status = seed.status ?? 1;
  const priority = seed.priority ?? 0;
  const group = seed.group ?? 'default';
  return db.transaction().execute(async (tx) => {
    const { id } = await tx
      .insertInto('channels')
      .values({
        type: seed.type ?? 8,
        key: seed.key,
        status,
        name: seed.name ?? `ch-${seed.key}`,
        weight: 0,
        created_time: 1_700_000_000,
        test_time: 0,
        response_time: 0,
        base_url: seed.baseUrl,
        other: null,
        balance: 0,
        balance_updated_time: 0,
        models: seed.models,
        group,
        used_quota: 0,
        model_mapping: seed.modelMapping ?? '',
        priority,
        config: seed.config ?? '',
        system_prompt: seed.systemPrompt ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx.insertInto('abilities').values(abilityRows({ id, models: seed.models, group, status, priority })).execute();
    return id;
  });
}

/** Quota columns of a user. */
export interface UserQuota {
  readonly quota: number;
  readonly usedQuota: number;
  readonly requestCount: number;
}

/** Quota columns of a token. */
export interface TokenQuota {
  readonly remainQuota: number;
  readonly usedQuota: number;
  readonly status: number;
}

/**
 * The readers below first wait for the billing of answered relay requests (the relay settles
 * after answering, as one-api does), so a suite reads the figures of every request it made.
 * Quotas are as a request sees them: reservations of requests in flight count as taken, whether
 * written (PostgreSQL) or held in the gateway's memory (SQLite; see `Ledger` in heldReservations.ts).
 */
export async function userQuota(db: Db, id: number): Promise<UserQuota> {
  await settlementsDone(db);
  const row = await db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', id).executeTakeFirstOrThrow();
  const held = heldQuota({ db }, id, 0).user;
  return { quota: Number(row.quota) - held, usedQuota: Number(row.used_quota), requestCount: Number(row.request_count) };
}

export async function tokenQuota(db: Db, id: number): Promise<TokenQuota> {
  await settlementsDone(db);
  const row = await db.selectFrom('tokens').select(['remain_quota', 'used_quota', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
  const held = heldQuota({ db }, 0, id).token;
  return { remainQuota: Number(row.remain_quota) - held, usedQuota: Number(row.used_quota) + held, status: row.status };
}

/** A consume log (type 2) as the suites compare it. */
export interface ConsumeLog {
  readonly userId: number;
  readonly username: string;
  readonly tokenName: string;
  readonly modelName: string;
  readonly channelId: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly quota: number;
  readonly content: string;
  readonly isStream: boolean;
}

/** Consume logs (type 2), oldest first; restricted to a user when given. */
export async function consumeLogs(db: Db, userId?: number): Promise<ConsumeLog[]> {
  await settlementsDone(db);
  let query = db.selectFrom('logs').selectAll().where('type', '=', 2);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const rows = await query.orderBy('id').execute();
  return rows.map((r) => ({
    userId: r.user_id ?? 0,
    username: r.username,
    tokenName: r.token_name,
    modelName: r.model_name,
    channelId: r.channel_id ?? 0,
    promptTokens: Number(r.prompt_tokens),
    completionTokens: Number(r.completion_tokens),
    quota: Number(r.quota),
    content: r.content ?? '',
    isStream: Boolean(r.is_stream),
  }));
}

/** A channel's status and whether each of its abilities is enabled. */
export async function channelHealth(db: Db, id: number): Promise<{ status: number; abilitiesEnabled: boolean[]; usedQuota: number }> {
  await settlementsDone(db);
  const row = await db.selectFrom('channels').select(['status', 'used_quota']).where('id', '=', id).executeTakeFirstOrThrow();
  const abilities = await db.selectFrom('abilities').select('enabled').where('channel_id', '=', id).execute();
  return { status: row.status, abilitiesEnabled: abilities.map((a) => Boolean(a.enabled)), usedQuota: Number(row.used_quota) };
}

// ---------------------------------------------------------------------------------------------
// Token counting and billing (contract §4.6, §4.13), computed independently of the server.

/** Tokens of `text` with the encoding one-api uses for `model` (o200k for gpt-4o*, else cl100k). */
export const countText = (text: string, model: string): number => (model.startsWith('gpt-4o') ? countO200k(text) : countCl100k(text));

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
  readonly name?: string;
}

/** Prompt tokens of chat messages: 3 per message + content + role (+ name + 1), plus 3 for the reply. */
export function chatPromptTokens(messages: readonly ChatMessage[], model: string): number {
  let total = 3;
  for (const m of messages) {
    total += 3 + countText(m.content, model) + countText(m.role, model);
    if (m.name !== undefined) total += countText(m.name, model) + 1;
  }
  return total;
}

/** The final quota of a text request: ceil((prompt + completion × completionRatio) × ratio), one-api's edge rules. */
export function textQuota(model: string, promptTokens: number, completionTokens: number, groupRatio = 1): number {
  const ratio = (testModelRatio[model] ?? 30) * groupRatio;
  const completionRatio = testCompletionRatio[model] ?? 1;
  if (promptTokens + completionTokens === 0) return 0;
  const quota = Math.ceil((promptTokens + completionTokens * completionRatio) * ratio);
  return ratio !== 0 && quota <= 0 ? 1 : quota;
}

/** The pre-consumed reservation: floor((PreConsumedQuota + prompt + max_tokens) × ratio). */
export function preConsumedQuota(model: string, promptTokens: number, maxTokens = 0, groupRatio = 1, preConsumed = 500): number {
  return Math.floor((preConsumed + promptTokens + maxTokens) * (testModelRatio[model] ?? 30) * groupRatio);
}

/** The consume log content of a text request: `倍率：<model> × <group> × <completion>` (2 decimals). */
export function textLogContent(model: string, groupRatio = 1): string {
  const f = (n: number) => n.toFixed(2);
  return `倍率：${f(testModelRatio[model] ?? 30)} × ${f(groupRatio)} × ${f(testCompletionRatio[model] ?? 1)}`;
}

/** An openai SDK client for the gateway at `apiUrl` with token `key` (optionally pinned to a channel). */
export function sdkClient(apiUrl: string, key: string, options: { channelId?: number; timeoutMs?: number } = {}): OpenAI {
  const suffix = options.channelId === undefined ? '' : `-${options.channelId}`;
  return new OpenAI({ baseURL: `${apiUrl}/v1`, apiKey: `sk-${key}${suffix}`, maxRetries: 0, timeout: options.timeoutMs ?? 20_000 });
}

/** The error an SDK call rejected with (fails when it resolved). */
export async function sdkError(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error('the SDK call succeeded, an APIError was expected');
}

/** Polls `check` every 20 ms until it holds (billing may land just after the answer); fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The quota figures of one user, one token and one channel (to compare before/after a request). */
export interface QuotaSnapshot {
  readonly user: UserQuota;
  readonly token: TokenQuota;
  readonly channelUsed: number;
  readonly logs: number;
}

export async function quotaSnapshot(db: Db, ids: { userId: number; tokenId: number; channelId: number }): Promise<QuotaSnapshot> {
  return {
    user: await userQuota(db, ids.userId),
    token: await tokenQuota(db, ids.tokenId),
    channelUsed: (await channelHealth(db, ids.channelId)).usedQuota,
    logs: (await consumeLogs(db, ids.userId)).length,
  };
}

/** The quota checks of a relay suite (its user and token are made in `beforeAll`, so both are read when a check runs). */
export interface Ledger {
  snapshot(channelId: number): Promise<QuotaSnapshot>;
  /** One more consume log of exactly `quota`; the user, the token and the channel moved by it, and the user's request count by one. */
  expectCharged(before: QuotaSnapshot, quota: number, channelId: number): Promise<void>;
  /** Nothing moved and nothing was logged (after a moment for a stray settlement to show itself). */
  expectUnchanged(before: QuotaSnapshot, channelId: number): Promise<void>;
  /**
   * One more consume log of some quota above 0 (a stream cut short, billed what was delivered); the
   * user and the token moved by it. Returns the quota; `what` names the case in failures.
   */
  expectPartCharged(before: QuotaSnapshot, channelId: number, what?: string): Promise<number>;
}

export function ledgerOf(db: () => Db, who: () => { readonly userId: number; readonly tokenId: number }): Ledger {
  const snapshot = (channelId: number): Promise<QuotaSnapshot> => quotaSnapshot(db(), { ...who(), channelId });
  return {
    snapshot,
    async expectCharged(before, quota, channelId) {
      const { userId } = who();
      await eventually(async () => (await consumeLogs(db(), userId)).length === before.logs + 1, 'the consume log');
      const after = await snapshot(channelId);
      expect(after.user).toEqual({ quota: before.user.quota - quota, usedQuota: before.user.usedQuota + quota, requestCount: before.user.requestCount + 1 });
      expect(after.token).toMatchObject({ remainQuota: before.token.remainQuota - quota, usedQuota: before.token.usedQuota + quota });
      expect(after.channelUsed).toBe(before.channelUsed + quota);
      expect((await consumeLogs(db(), userId)).at(-1)?.quota).toBe(quota);
    },
    async expectPartCharged(before, channelId, what = 'the request') {
      const { userId } = who();
      await eventually(async () => (await consumeLogs(db(), userId)).length === before.logs + 1, `${what}: the consume log`);
      const after = await snapshot(channelId);
      const charged = before.user.quota - after.user.quota;
      expect(charged, what).toBeGreaterThan(0);
      expect(after.token.remainQuota, what).toBe(before.token.remainQuota - charged);
      expect((await consumeLogs(db(), userId)).at(-1)?.quota, what).toBe(charged);
      return charged;
    },
    async expectUnchanged(before, channelId) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const after = await snapshot(channelId);
      expect(after.user).toEqual(before.user);
      expect(after.token).toEqual(before.token);
      expect(after.logs).toBe(before.logs);
    },
  };
}

/** What an SDK chat stream delivered: its content pieces, the last finish reason, the usage chunk's usage (null without one). */
export async function streamedChat(
  stream: AsyncIterable<OpenAI.ChatCompletionChunk>,
): Promise<{ pieces: string[]; finish: string | null; usage: OpenAI.CompletionUsage | null }> {
  const pieces: string[] = [];
  let finish: string | null = null;
  let usage: OpenAI.CompletionUsage | null = null;
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    if (choice?.delta.content) pieces.push(choice.delta.content);
    if (choice?.finish_reason) finish = choice.finish_reason;
    if (chunk.usage) usage = chunk.usage;
  }
  return { pieces, finish, usage };
}

/** Closes a listening socket and returns its port: connecting to it is then refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * What a request without max_tokens holds while it runs (pricing.ts `reservationRange`, billing.ts
 * `reserveUpTo`): its whole possible price (prompt + RELAY_MAX_COMPLETION_TOKENS at the
 * completion ratio), or when less is free, all that is free but 1 (never less than the estimate).
 */
export function heldReservation(model: string, promptTokens: number, free: number, maxCompletion = 16_384, groupRatio = 1): number {
  const ratio = (testModelRatio[model] ?? 30) * groupRatio;
  const most = Math.max(preConsumedQuota(model, promptTokens, 0, groupRatio), Math.ceil((promptTokens + maxCompletion * (testCompletionRatio[model] ?? 1)) * ratio));
  return most <= free ? most : Math.max(preConsumedQuota(model, promptTokens, 0, groupRatio), free - 1);
}
