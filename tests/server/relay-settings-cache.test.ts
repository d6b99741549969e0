import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeWatchOf, openDatabase, type DatabaseHandle } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import { relaySettings } from '../../server/relay/relaySettings';
import { loadConfig } from '../../server/config';
import { setOption } from './support/db';

/**
 * The relay keeps its options in memory on SQLite while the options table is unchanged
 * (server/db/connect.ts ChangeWatch). Every way of writing the table must be seen at once:
 * the query builder, raw SQL, a transaction, and another connection (another process).
 */
describe('relay settings kept in memory on SQLite', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let path: string;
  const open = (): DatabaseHandle =>
    openDatabase({ ...loadConfig({ SESSION_SECRET: 'settings-cache' }), database: { kind: 'sqlite', path, busyTimeoutMs: 5000 } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'relay-settings-'));
    path = join(dir, 'one-api.db');
    handle = open();
    await migrate(handle.db, handle.dialect);
  });
  afterAll(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers from memory while nothing writes the options table, reads and other tables included', async () => {
    const watch = changeWatchOf(handle.db);
    expect(watch).toBeDefined();
    const first = await relaySettings(handle.db);
    const generation = watch?.generation('options');
    await handle.db.selectFrom('options').selectAll().execute();
    await handle.db.updateTable('users').set({ quota: 1 }).where('id', '=', -1).execute();
    expect(watch?.generation('options')).toBe(generation);
    expect(await relaySettings(handle.db)).toBe(first);
  });

  it('sees a write through the query builder at once', async () => {
    await setOption(handle.db, 'RetryTimes', '3');
    expect((await relaySettings(handle.db)).retryTimes).toBe(3);
  });

  it('sees raw SQL and a committed transaction at once; a rolled-back one changes nothing', async () => {
    await sql`update options set value = '4' where key = 'RetryTimes'`.execute(handle.db);
    expect((await relaySettings(handle.db)).retryTimes).toBe(4);
    await handle.db.transaction().execute(async (trx) => {
      await trx.updateTable('options').set({ value: '5' }).where('key', '=', 'RetryTimes').execute();
    });
    expect((await relaySettings(handle.db)).retryTimes).toBe(5);
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await trx.updateTable('options').set({ value: '6' }).where('key', '=', 'RetryTimes').execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await relaySettings(handle.db)).retryTimes).toBe(5);
  });

  it('sees a write by another connection at once (the options triggers)', async () => {
    const other = new BetterSqlite3(path);
    try {
      other.prepare(`update options set value = '7' where key = 'RetryTimes'`).run();
    } finally {
      other.close();
    }
    expect((await relaySettings(handle.db)).retryTimes).toBe(7);
    const second = open();
    try {
      await setOption(second.db, 'PreConsumedQuota', '900');
    } finally {
      await second.close();
    }
    expect((await relaySettings(handle.db)).preConsumedQuota).toBe(900);
  });
});
