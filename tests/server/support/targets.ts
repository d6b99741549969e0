import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../../server/config';

/**
 * The databases every server suite runs against: a fresh SQLite file in a temp folder, and a
 * fresh PostgreSQL database when a server is reachable (`TEST_PG_DSN`, else
 * postgres://postgres@127.0.0.1:5432/test). When PostgreSQL is unreachable the PostgreSQL suites
 * are declared with `describe.skipIf` and a title that says why, so they show up as skipped.
 */

/** A database created for one suite. */
export interface TestDatabase {
  readonly database: DatabaseConfig;
  /** Removes the database (drops it / deletes the folder). */
  dispose(): Promise<void>;
}

export interface DbTarget {
  readonly kind: 'sqlite' | 'postgres';
  /** Suite title, including the skip reason when skipped. */
  readonly label: string;
  /** Why the target is unavailable, or null. */
  readonly skipReason: string | null;
  create(): Promise<TestDatabase>;
}

export const adminDsn = process.env.TEST_PG_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The DSN with another database name. */
const withDatabase = (dsn: string, name: string): string => {
  const url = new URL(dsn);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Runs one statement on the admin database. */
async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminDsn, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Null when PostgreSQL answers, else the reason it does not. */
async function probePostgres(): Promise<string | null> {
  try {
    await adminQuery('select 1');
    return null;
  } catch (error) {
    return `PostgreSQL unreachable at ${adminDsn}: ${(error as Error).message || String(error)}`;
  }
}

/** A fresh SQLite file in its own temp folder (`settlementThread` false: relay settlements on the main thread). */
export function createSqlite(settlementThread = true): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'oneapi-test-'));
  return Promise.resolve({
    database: { kind: 'sqlite', path: join(dir, 'one-api.db'), busyTimeoutMs: 3000, settlementThread },
    dispose: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  });
}

/** A fresh PostgreSQL database `oneapi_test_<random>`, dropped on dispose. */
export async function createPostgres(): Promise<TestDatabase> {
  const name = `oneapi_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  return {
    database: { kind: 'postgres', dsn: withDatabase(adminDsn, name) },
    dispose: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

const pgSkip = await probePostgres();
if (pgSkip !== null) console.warn(`[server tests] PostgreSQL suites are skipped: ${pgSkip}`);

export const sqliteTarget: DbTarget = { kind: 'sqlite', label: 'sqlite', skipReason: null, create: () => createSqlite() };
/**
 * SQLite with the relay's settlements on the main thread (`SQLITE_SETTLEMENT_THREAD=false`, and
 * what `:memory:` databases do): for the billing suites, which run on all three.
 */
export const sqliteMainThreadTarget: DbTarget = {
  kind: 'sqlite',
  label: 'sqlite, settlements on the main thread',
  skipReason: null,
  create: () => createSqlite(false),
};
export const postgresTarget: DbTarget = {
  kind: 'postgres',
  label: pgSkip === null ? 'postgres' : `postgres — SKIPPED: ${pgSkip}`,
  skipReason: pgSkip,
  create: createPostgres,
};

/** Both targets, SQLite first. */
export const dbTargets: readonly DbTarget[] = [sqliteTarget, postgresTarget];
/** The billing suites' targets: both, and SQLite with settlements on the main thread. */
export const billingTargets: readonly DbTarget[] = [sqliteTarget, sqliteMainThreadTarget, postgresTarget];
