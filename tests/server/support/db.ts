import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { tableSpecs, type Database, type Dialect } from '../../../server/db/schema';
import { settlementsDone } from '../../../server/relay/billing';
import { hashPassword } from '../../../server/services/password';

/** Helpers that read and seed a test database directly. */

type Db = Kysely<Database>;

export interface SeedUser {
  readonly username: string;
  readonly password?: string;
  readonly role?: number;
  readonly status?: number;
  readonly email?: string;
  readonly accessToken?: string;
  readonly displayName?: string;
}

let counter = 0;

/** Inserts a user the way one-api would (zero values, 32-hex access token); returns its id. */
export async function insertUser(db: Db, seed: SeedUser): Promise<number> {
  counter += 1;
  const row = await db
    .insertInto('users')
    .values({
      username: seed.username,
      password: seed.password === undefined ? '' : await hashPassword(seed.password),
      display_name: seed.displayName ?? seed.username,
      role: seed.role ?? 1,
      status: seed.status ?? 1,
      email: seed.email ?? '',
      github_id: '',
      wechat_id: '',
      lark_id: '',
      oidc_id: '',
      access_token: seed.accessToken ?? randomUUID().replaceAll('-', ''),
      quota: 0,
      aff_code: `t${String(counter).padStart(3, '0')}${seed.username}`.slice(0, 32),
      inviter_id: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Every row of every table, ordered, as JSON text (for before/after comparisons), once answered relay requests are billed. */
export async function dumpDatabase(db: Db): Promise<string> {
  await settlementsDone(db);
  const out: Record<string, unknown[]> = {};
  for (const spec of tableSpecs) {
    const order = spec.primaryKey ?? [spec.columns.find((c) => c.autoId || c.primaryKey)?.name ?? spec.columns[0]!.name];
    let query = db.selectFrom(spec.name).selectAll();
    for (const column of order) query = query.orderBy(sql.ref(column));
    out[spec.name] = await query.execute();
  }
  return JSON.stringify(out);
}

/** A textual description of tables, columns, defaults and indexes (for idempotency checks). */
export async function schemaSnapshot(db: Db, dialect: Dialect): Promise<string> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
      select type, name, sql from sqlite_master order by type, name`.execute(db);
    return JSON.stringify(rows);
  }
  const columns = await sql`
    select table_name, column_name, data_type, character_maximum_length, column_default, is_nullable
    from information_schema.columns where table_schema = current_schema()
    order by table_name, ordinal_position`.execute(db);
  const indexes = await sql`
    select tablename, indexname, indexdef from pg_indexes where schemaname = current_schema()
    order by tablename, indexname`.execute(db);
  return JSON.stringify({ columns: columns.rows, indexes: indexes.rows });
}

/** Sets one option value directly in the table. */
export async function setOption(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('options')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

let tokenCounter = 0;

/**
 * Inserts an enabled, never-expiring token of `userId` with a fresh 48-character key and one-api's
 * zero values (limited, no quota); `values` override any column. Returns its id and key.
 */
export async function insertToken(db: Db, userId: number, values: Record<string, unknown> = {}): Promise<{ id: number; key: string }> {
  tokenCounter += 1;
  const key = `seeded${String(tokenCounter).padStart(8, '0')}`.padEnd(48, 'k');
  const row = await db
    .insertInto('tokens')
    .values({
      user_id: userId,
      key,
      status: 1,
      name: `tok${tokenCounter}`,
      created_time: 100,
      accessed_time: 100,
      expired_time: -1,
      remain_quota: 0,
      unlimited_quota: false,
      used_quota: 0,
      models: '',
      subnet: '',
      ...values,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, key };
}
