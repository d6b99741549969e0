// The relay bench's database: a fresh SQLite file prepared as the server would prepare it
// (migrations + first-start bootstrap: root user, default options), then two OpenAI-compatible
// channels (type 8, custom base URL) to the fake upstream: one at its root serving `benchModel`,
// which answers at once, and one at `<upstream>/slow` serving `slowModel`, which answers after the
// provider-like delay (type 8 appends `/v1/chat/completions` to the base URL, so the prefix
// survives); a third, of type 14 (Anthropic) at `<upstream>/anthropic`, serving `translatedModel`
// through the gateway's Messages wire (requests and answers translated); a token of root with unlimited quota, and LogConsumeEnabled on. Also the figures read
// back after the load.
import * as E from 'fp-ts/Either';
import { loadConfig } from '../../server/config';
import { bootstrap } from '../../server/db/bootstrap';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import { createChannels, decodeChannelBody } from '../../server/services/channel';
import { createToken } from '../../server/services/token';
import { setOption } from '../../tests/server/support/db';

/** The model the bench requests of the instant channel. */
export const benchModel = 'gpt-3.5-turbo';
/** The model of the provider-like channel (a model with a built-in ratio, so it is billed like any other). */
export const slowModel = 'gpt-4o-mini';

/** The model of the Anthropic channel (translated: OpenAI requests in, Anthropic's API upstream). */
export const translatedModel = 'claude-3-5-haiku-20241022';

/** The ids of the seeded channels. */
export interface BenchChannels {
  readonly instant: number;
  readonly slow: number;
  readonly translated: number;
}

/** The database at `path`: a SQLite file, or PostgreSQL when it is a `postgres://` DSN (BENCH_SQL_DSN). */
const benchDatabase = (path: string) =>
  /^postgres(ql)?:\/\//.test(path) ? ({ kind: 'postgres', dsn: path } as const) : ({ kind: 'sqlite', path, busyTimeoutMs: 5000 } as const);

/** Opens the database at `path` (migrations not run). */
export const openBenchDatabase = (path: string): DatabaseHandle =>
  openDatabase({ ...loadConfig({ SESSION_SECRET: 'bench-relay' }), database: benchDatabase(path) });

/** Creates one channel of `type` (8: OpenAI-compatible, custom base URL) serving `model` at `baseUrl`; returns its id. */
async function createBenchChannel(handle: DatabaseHandle, name: string, baseUrl: string, model: string, now: number, type = 8): Promise<number> {
  const body = decodeChannelBody({
    type,
    key: 'sk-bench-upstream-key',
    name,
    base_url: baseUrl,
    models: model,
    group: 'default',
    model_mapping: '',
  });
  if (E.isLeft(body)) throw new Error(`channel body: ${body.left}`);
  const created = await createChannels(handle.db, body.right, now);
  if (E.isLeft(created)) throw new Error(`channel: ${created.left}`);
  const id = created.right[0];
  if (id === undefined) throw new Error(`channel ${name}: none created`);
  return id;
}

/**
 * Refuses a PostgreSQL database that already holds tables (BENCH_SQL_DSN): the bench seeds its
 * own channels, tokens and options and counts every consume log, so a second run on the same
 * database would miscount, and it must never write into a database others use. A SQLite file is
 * always new (a temp dir).
 */
export async function assertEmptyDatabase(path: string): Promise<void> {
  if (!/^postgres(ql)?:\/\//.test(path)) return;
  const handle = openBenchDatabase(path);
  try {
    const tables = await handle.db.introspection.getTables();
    if (tables.length > 0) {
      const name = new URL(path).pathname.slice(1);
      throw new Error(
        `BENCH_SQL_DSN names a database that is not empty (${tables.length} tables, e.g. ${tables[0]!.name}): give the bench a database of its own, ` +
          `e.g. dropdb --if-exists -h <host> -U <user> ${name || '<name>'} && createdb -h <host> -U <user> ${name || '<name>'}`,
      );
    }
  } finally {
    await handle.close();
  }
}

/** Prepares the file at `path`; returns the relay key (`sk-…`) of the bench token and the channel ids. */
export async function seedRelay(path: string, upstreamUrl: string): Promise<{ apiKey: string; channels: BenchChannels }> {
  const handle = openBenchDatabase(path);
  try {
    const config = { ...loadConfig({ SESSION_SECRET: 'bench-relay' }), database: benchDatabase(path) };
    await migrate(handle.db, handle.dialect);
    await bootstrap(handle.db, handle.dialect, config);
    const root = await handle.db.selectFrom('users').select('id').where('username', '=', 'root').executeTakeFirstOrThrow();
    const now = Math.floor(Date.now() / 1000);
    const channels = {
      instant: await createBenchChannel(handle, 'bench upstream', upstreamUrl, benchModel, now),
      slow: await createBenchChannel(handle, 'bench upstream (provider-like)', `${upstreamUrl}/slow`, slowModel, now),
      translated: await createBenchChannel(handle, 'bench upstream (Anthropic)', `${upstreamUrl}/anthropic`, translatedModel, now, 14),
    };
    const token = await createToken(handle.db, root.id, { name: 'bench', unlimited_quota: true, remain_quota: 0 }, now);
    await setOption(handle.db, 'LogConsumeEnabled', 'true');
    return { apiKey: `sk-${token.key}`, channels };
  } finally {
    await handle.close();
  }
}

/** What the database says after the load. */
export interface Accounting {
  /** Consume logs (type 2). */
  readonly consumeLogs: number;
  /** Consume logs per channel id. */
  readonly consumeLogsByChannel: ReadonlyMap<number, number>;
  /** Sum of their quota. */
  readonly loggedQuota: number;
  /** The bench token's used quota. */
  readonly tokenUsedQuota: number;
  /** Root's used quota and request count. */
  readonly userUsedQuota: number;
  readonly userRequests: number;
}

/** Reads the accounting figures (the gateway may still be running: SQLite allows a second reader). */
export async function readAccounting(handle: DatabaseHandle): Promise<Accounting> {
  const logs = await handle.db
    .selectFrom('logs')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('quota').as('quota')])
    .where('type', '=', 2)
    .executeTakeFirstOrThrow();
  const byChannel = await handle.db
    .selectFrom('logs')
    .select((eb) => ['channel_id', eb.fn.countAll<number>().as('n')])
    .where('type', '=', 2)
    .groupBy('channel_id')
    .execute();
  const token = await handle.db.selectFrom('tokens').select('used_quota').where('name', '=', 'bench').executeTakeFirstOrThrow();
  const user = await handle.db.selectFrom('users').select(['used_quota', 'request_count']).where('username', '=', 'root').executeTakeFirstOrThrow();
  return {
    consumeLogs: Number(logs.n),
    consumeLogsByChannel: new Map(byChannel.map((row) => [Number(row.channel_id), Number(row.n)])),
    loggedQuota: Number(logs.quota ?? 0),
    tokenUsedQuota: Number(token.used_quota),
    userUsedQuota: Number(user.used_quota),
    userRequests: Number(user.request_count),
  };
}

/** The model of the many-streams scenario's channel (its own prices, set here, so the expected quota is plain arithmetic). */
export const streamsModel = 'bench-streams';
/** Its model ratio and completion ratio (ModelRatio / CompletionRatio entries). */
export const streamsRatios = { model: 2.5, completion: 3 } as const;
/** The streams token's starting remain_quota (limited: its remain and used quota move with every stream). */
export const streamsTokenQuota = 1_000_000_000_000;

/**
 * Adds the many-streams scenario to a seeded database: a channel (type 8) at `<upstream>/tokens`
 * serving `streamsModel`, that model's ratios in ModelRatio and CompletionRatio (merged over the
 * configured tables), and a limited token `streams` of root; returns its relay key and the channel.
 */
export async function seedStreams(path: string, upstreamUrl: string): Promise<{ apiKey: string; channel: number }> {
  const handle = openBenchDatabase(path);
  try {
    const now = Math.floor(Date.now() / 1000);
    const channel = await createBenchChannel(handle, 'bench upstream (long streams)', `${upstreamUrl}/tokens`, streamsModel, now);
    for (const [key, ratio] of [
      ['ModelRatio', streamsRatios.model],
      ['CompletionRatio', streamsRatios.completion],
    ] as const) {
      const row = await handle.db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst();
      const table = JSON.parse(row?.value ?? '{}') as Record<string, number>;
      await setOption(handle.db, key, JSON.stringify({ ...table, [streamsModel]: ratio }));
    }
    const root = await handle.db.selectFrom('users').select('id').where('username', '=', 'root').executeTakeFirstOrThrow();
    const token = await createToken(handle.db, root.id, { name: 'streams', unlimited_quota: false, remain_quota: streamsTokenQuota }, now);
    return { apiKey: `sk-${token.key}`, channel };
  } finally {
    await handle.close();
  }
}

/** The quota figures of the streams token and its user (root), and the consume logs of the token. */
export interface StreamsAccounting {
  readonly consumeLogs: number;
  readonly loggedQuota: number;
  readonly loggedPromptTokens: number;
  readonly loggedCompletionTokens: number;
  /** Distinct quota values among the logs (one expected: every stream costs the same). */
  readonly distinctQuotas: readonly number[];
  readonly tokenRemain: number;
  readonly tokenUsed: number;
  readonly userQuota: number;
  readonly userUsed: number;
}

/** Reads the streams token's figures (SQLite allows this second reader while the gateway runs). */
export async function readStreamsAccounting(handle: DatabaseHandle): Promise<StreamsAccounting> {
  const logs = await handle.db
    .selectFrom('logs')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('quota').as('quota'),
      eb.fn.sum<number>('prompt_tokens').as('prompt'),
      eb.fn.sum<number>('completion_tokens').as('completion'),
    ])
    .where('type', '=', 2)
    .where('token_name', '=', 'streams')
    .executeTakeFirstOrThrow();
  const quotas = await handle.db.selectFrom('logs').select('quota').distinct().where('type', '=', 2).where('token_name', '=', 'streams').limit(10).execute();
  const token = await handle.db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('name', '=', 'streams').executeTakeFirstOrThrow();
  const user = await handle.db.selectFrom('users').select(['quota', 'used_quota']).where('username', '=', 'root').executeTakeFirstOrThrow();
  return {
    consumeLogs: Number(logs.n),
    loggedQuota: Number(logs.quota ?? 0),
    loggedPromptTokens: Number(logs.prompt ?? 0),
    loggedCompletionTokens: Number(logs.completion ?? 0),
    distinctQuotas: quotas.map((q) => Number(q.quota)),
    tokenRemain: Number(token.remain_quota),
    tokenUsed: Number(token.used_quota),
    userQuota: Number(user.quota),
    userUsed: Number(user.used_quota),
  };
}
