import { sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../schema';

/**
 * Our own tables for two-factor sign-in (server/services/twoFactor.ts). one-api's `users` table
 * is left as it is, so one-api can still open the database (it simply ignores these tables).
 * - `oa_user_totp`: one row per user who started enrolment; `enabled_at` is null until a code
 *   confirmed it; `last_step` is the last TOTP time step accepted (a step is usable once).
 * - `oa_user_recovery_codes`: SHA-256 of each one-time recovery code; `used_at` once used.
 * - `oa_login_challenges`: the pending second step of a password login (id in a signed cookie).
 */
export const twoFactorTables = ['oa_user_totp', 'oa_user_recovery_codes', 'oa_login_challenges'] as const;

type Db = Kysely<Database>;

const ddl = (dialect: Dialect): readonly string[] => {
  const big = dialect === 'sqlite' ? 'integer' : 'bigint';
  // SQLite: no separate autoindex for the non-integer primary keys.
  const noRowid = dialect === 'sqlite' ? ' without rowid' : '';
  return [
    `create table if not exists oa_user_totp (user_id ${big} primary key, secret text not null,
      enabled_at ${big}, created_at ${big} not null, last_step ${big} not null default 0)`,
    `create table if not exists oa_user_recovery_codes (user_id ${big} not null, code_hash text not null,
      created_at ${big} not null, used_at ${big}, primary key (user_id, code_hash))${noRowid}`,
    `create table if not exists oa_login_challenges (id text primary key, user_id ${big} not null,
      password_hash text not null, created_at ${big} not null, expires_at ${big} not null,
      attempts ${big} not null default 0)${noRowid}`,
  ];
};

/** Creates the two-factor tables that are missing; returns the tables created. */
export async function ensureTwoFactor(db: Db, dialect: Dialect, tables: Set<string>): Promise<string[]> {
  const created = twoFactorTables.filter((name) => !tables.has(name));
  if (created.length === 0) return [];
  for (const statement of ddl(dialect)) await sql.raw(statement).execute(db);
  return created;
}
