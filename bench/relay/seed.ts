// The relay bench's database: a fresh SQLite file prepared as the server would prepare it
// (migrations + first-start bootstrap: root user, default options), then one OpenAI-compatible
// channel (type 8, custom base URL) pointing at the fake upstream, a token of root with unlimited
// quota, and LogConsumeEnabled on. Also the figures read back after the load.
import * as E from 'fp-ts/Either';
import { loadConfig } from '../../server/config';
import { bootstrap } from '../../server/db/bootstrap';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import { createChannels, decodeChannelBody } from '../../server/services/channel';
import { createToken } from '../../server/services/token';
import { setOption } from '../../tests/server/support/db';

/** The model the bench requests and the channel serves. */
export const benchModel = 'gpt-3.5-turbo';

/** Opens the SQLite file at `path` (migrations not run). */
export const openBenchDatabase = (path: string): DatabaseHandle =>
  openDatabase({ ...loadConfig({ SESSION_SECRET: 'bench-relay' }), database: { kind: 'sqlite', path, busyTimeoutMs: 5000 } });

/** Prepares the file at `path`; returns the relay key (`sk-…`) of the bench token. */
export async function seedRelay(path: string, upstreamUrl: string): Promise<{ apiKey: string }> {
  const handle = openBenchDatabase(path);
  try {
    const config = { ...loadConfig({ SESSION_SECRET: 'bench-relay' }), database: { kind: 'sqlite' as const, path, busyTimeoutMs: 5000 } };
    await migrate(handle.db, handle.dialect);
    await bootstrap(handle.db, handle.dialect, config);
    const root = await handle.db.selectFrom('users').select('id').where('username', '=', 'root').executeTakeFirstOrThrow();
    const now = Math.floor(Date.now() / 1000);
    const body = decodeChannelBody({
      type: 8,
      key: 'sk-bench-upstream-key',
      name: 'bench upstream',
      base_url: upstreamUrl,
      models: benchModel,
      group: 'default',
      model_mapping: '',
    });
    if (E.isLeft(body)) throw new Error(`channel body: ${body.left}`);
    const created = await createChannels(handle.db, body.right, now);
    if (E.isLeft(created)) throw new Error(`channel: ${created.left}`);
    const token = await createToken(handle.db, root.id, { name: 'bench', unlimited_quota: true, remain_quota: 0 }, now);
    await setOption(handle.db, 'LogConsumeEnabled', 'true');
    return { apiKey: `sk-${token.key}` };
  } finally {
    await handle.close();
  }
}

/** What the database says after the load. */
export interface Accounting {
  /** Consume logs (type 2). */
  readonly consumeLogs: number;
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
  const token = await handle.db.selectFrom('tokens').select('used_quota').where('name', '=', 'bench').executeTakeFirstOrThrow();
  const user = await handle.db.selectFrom('users').select(['used_quota', 'request_count']).where('username', '=', 'root').executeTakeFirstOrThrow();
  return {
    consumeLogs: Number(logs.n),
    loggedQuota: Number(logs.quota ?? 0),
    tokenUsedQuota: Number(token.used_quota),
    userUsedQuota: Number(user.used_quota),
    userRequests: Number(user.request_count),
  };
}
