import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config';
import { hashPassword } from '../services/password';
import { optionDefaults } from '../services/options';
import { withStartupLock } from './migrate';
import type { Database, Dialect } from './schema';

/**
 * First-start data (contract §3.3, §3.4): the root user when `users` is empty, the optional
 * initial root token, and one `options` row for every default key that has none (existing
 * values are never overwritten).
 */

type Db = Kysely<Database>;

/** What one run inserted. */
export interface BootstrapReport {
  readonly rootCreated: boolean;
  readonly rootTokenCreated: boolean;
  readonly insertedOptions: readonly string[];
}

/** Root's starting quota (5×10¹⁴). */
export const rootQuota = 500_000_000_000_000;

/** A fresh 32-hex access token (a UUID without dashes, as one-api makes them). */
export const newAccessToken = (): string => randomUUID().replaceAll('-', '');

/** Inserts an option row for every default key missing from the table. */
async function insertMissingOptions(db: Db, theme: string): Promise<string[]> {
  const present = new Set((await db.selectFrom('options').select('key').execute()).map((r) => r.key));
  const missing = optionDefaults(theme).filter(([key]) => !present.has(key));
  if (missing.length === 0) return [];
  await db
    .insertInto('options')
    .values(missing.map(([key, value]) => ({ key, value })))
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return missing.map(([key]) => key);
}

/** Inserts root as one-api does (zero values written explicitly, no aff code); returns its id. */
async function insertRoot(db: Db, accessToken: string): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      username: 'root',
      password: await hashPassword('123456'),
      display_name: 'Root User',
      role: 100,
      status: 1,
      email: '',
      github_id: '',
      wechat_id: '',
      lark_id: '',
      oidc_id: '',
      access_token: accessToken,
      quota: rootQuota,
      aff_code: '',
      inviter_id: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Inserts the `INITIAL_ROOT_TOKEN` token with id 1 and keeps the PostgreSQL sequence ahead of it. */
async function insertRootToken(db: Db, dialect: Dialect, userId: number, key: string, nowSeconds: number) {
  await db
    .insertInto('tokens')
    .values({
      id: 1,
      user_id: userId,
      key,
      status: 1,
      name: 'Initial Root Token',
      created_time: nowSeconds,
      accessed_time: nowSeconds,
      expired_time: -1,
      remain_quota: rootQuota,
      unlimited_quota: true,
      used_quota: 0,
      subnet: '',
    })
    .execute();
  if (dialect === 'postgres') {
    await sql`select setval(pg_get_serial_sequence('tokens', 'id'), (select max(id) from tokens))`.execute(db);
  }
}

/** Creates root (and its initial token) when there is no user at all. */
async function bootstrapRoot(db: Db, dialect: Dialect, config: Config, nowSeconds: number) {
  const { count } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  if (Number(count) > 0) return { rootCreated: false, rootTokenCreated: false };
  const rootId = await insertRoot(db, config.initialRootAccessToken ?? newAccessToken());
  if (config.initialRootToken === null) return { rootCreated: true, rootTokenCreated: false };
  await insertRootToken(db, dialect, rootId, config.initialRootToken, nowSeconds);
  return { rootCreated: true, rootTokenCreated: true };
}

/** Runs `fn` atomically: SQLite is already inside the start-up write transaction; PostgreSQL opens one. */
const atomically = <T>(db: Db, dialect: Dialect, fn: (db: Db) => Promise<T>): Promise<T> =>
  dialect === 'sqlite' ? fn(db) : db.transaction().execute(fn);

/** Runs the first-start inserts; idempotent. `now` returns epoch milliseconds. */
export async function bootstrap(
  db: Db,
  dialect: Dialect,
  config: Config,
  now: () => number = Date.now,
): Promise<BootstrapReport> {
  return withStartupLock(db, dialect, async (conn) => {
    return atomically(conn, dialect, async (trx) => {
      const insertedOptions = await insertMissingOptions(trx, config.theme);
      const root = await bootstrapRoot(trx, dialect, config, Math.floor(now() / 1000));
      return { ...root, insertedOptions };
    });
  });
}
