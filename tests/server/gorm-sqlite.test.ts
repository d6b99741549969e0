import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../../server/config';
import { bootstrap } from '../../server/db/bootstrap';
import { openDatabase } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import { changeMarksTable, changeMarkTriggers } from '../../server/db/migrations/changeMarks';
import { rollupIndexes, rollupTables, rollupTriggers } from '../../server/db/migrations/logRollups';
import { queryIndexesOf } from '../../server/db/migrations/queryIndexes';
import { twoFactorTables } from '../../server/db/migrations/twoFactor';
import { oneRunningIndex, testRunTables } from '../../server/db/migrations/testRuns';
import { channelTagsIndex, channelTagsTables } from '../../server/db/migrations/channelTags';
import { createGormSqlite, fixtureRootPassword, sqliteMaster } from './support/gormSqlite';
import { Client } from './support/http';
import { startApi, testConfig, type RunningApi } from './support/server';

/** Rows of the one-api tables (options excluded: bootstrap adds default rows there). */
function dataRows(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const tables = ['users', 'tokens', 'channels', 'abilities', 'redemptions', 'logs'];
    return JSON.stringify(tables.map((t) => db.prepare(`select * from \`${t}\` order by rowid`).all()));
  } finally {
    db.close();
  }
}

/** Our own indexes, which every migration adds (never one-api's names). */
const ourIndexes = queryIndexesOf('sqlite').map((i) => i.name);
const ourTables = [...rollupTables.map((t) => t.name), changeMarksTable, ...twoFactorTables, ...testRunTables, ...channelTagsTables];
/** Every object of ours in sqlite_master, plus the statistics tables `analyze` creates (stat4 when compiled in). */
const ourObjects = [
  ...ourIndexes,
  ...ourTables,
  ...rollupIndexes.map((i) => i.name),
  ...rollupTriggers,
  ...changeMarkTriggers,
  oneRunningIndex,
  channelTagsIndex,
  'sqlite_stat1',
];
const statTables = new Set(['sqlite_stat1', 'sqlite_stat4']);
const isOurs = (name: string) => /^(idx_)?oa_|^sqlite_stat\d$/.test(name);

describe('a SQLite database created by one-api (GORM)', () => {
  let dir: string;
  let path: string;
  let database: DatabaseConfig;
  let api: RunningApi | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'oneapi-gorm-'));
    path = join(dir, 'one-api.db');
    database = { kind: 'sqlite', path, busyTimeoutMs: 3000 };
  });
  afterEach(async () => {
    await api?.stop();
    api = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrates by adding only our sessions table, leaving every one-api object and row untouched', async () => {
    createGormSqlite(path);
    const schemaBefore = sqliteMaster(path);
    const rowsBefore = dataRows(path);
    const handle = openDatabase({ database });
    const report = await migrate(handle.db, handle.dialect);
    const boot = await bootstrap(handle.db, handle.dialect, testConfig(database));
    await handle.close();

    expect(report).toEqual({
      createdTables: ['sessions', 'verification_codes', ...ourTables],
      addedColumns: [],
      createdIndexes: ['idx_sessions_user_id', 'idx_sessions_expires_at', ...ourIndexes],
      warnings: [],
    });
    expect(boot.rootCreated).toBe(false);
    const schemaAfter = sqliteMaster(path);
    for (const [name, ddl] of schemaBefore) expect(schemaAfter.get(name), name).toBe(ddl);
    const added = [...schemaAfter.keys()].filter((k) => !schemaBefore.has(k));
    expect(added.filter((k) => !isOurs(k)).sort()).toEqual(
      ['idx_sessions_expires_at', 'idx_sessions_user_id', 'sessions', 'sqlite_autoindex_sessions_1', 'verification_codes', 'sqlite_autoindex_verification_codes_1'].sort(),
    );
    expect(added.filter(isOurs).filter((k) => k !== 'sqlite_stat4').sort()).toEqual([...ourObjects].sort());
    expect(added.filter((k) => k.startsWith('sqlite_stat')).every((k) => statTables.has(k))).toBe(true);
    expect([...schemaBefore.keys()].filter(isOurs)).toEqual([]);
    expect(dataRows(path)).toBe(rowsBefore);
  });

  it('keeps stored options and adds only the missing defaults', async () => {
    createGormSqlite(path);
    api = await startApi(database);
    const options = await api.handle.db.selectFrom('options').selectAll().execute();
    const byKey = new Map(options.map((o) => [o.key, o.value]));
    expect(options).toHaveLength(51);
    expect(byKey.get('SystemName')).toBe('My Gateway');
    expect(byKey.get('QuotaPerUnit')).toBe('1000');
    expect(byKey.get('GroupRatio')).toBe('{"default":1,"vip":2}');
    expect(byKey.get('PasswordLoginEnabled')).toBe('true');
    const status = await new Client(api.url).get('/api/status');
    expect(status.body.data).toMatchObject({ system_name: 'My Gateway', quota_per_unit: 1000 });
  });

  it('lets root log in with its Go bcrypt hash and reads NULL-bearing rows as zero values', async () => {
    createGormSqlite(path);
    api = await startApi(database);
    const browser = new Client(api.url);
    const login = await browser.login('root', fixtureRootPassword);
    expect(login.body).toMatchObject({ success: true, data: { id: 1, username: 'root', role: 100 } });
    const self = await browser.get('/api/user/self');
    expect(self.body.data).toMatchObject({ id: 1, quota: 500000000000000, group: 'default', access_token: '' });

    const alice = new Client(api.url);
    expect((await alice.login('alice@example.com', 'secret-pass-1')).body.success).toBe(true);
    const aliceSelf = await alice.get('/api/user/self');
    expect(aliceSelf.body.data).toEqual({
      id: 2, username: 'alice', password: '', display_name: 'Alice', role: 1, status: 1,
      email: 'alice@example.com', github_id: '', wechat_id: '', lark_id: '', oidc_id: '',
      verification_code: '', access_token: '', quota: 1234, used_quota: 56, request_count: 7,
      group: 'vip', aff_code: 'Ab12', inviter_id: 1,
    });

    const byToken = await new Client(api.url).get('/api/user/self', {
      headers: { Authorization: 'Bearer 0123456789abcdef0123456789abcdef' },
    });
    expect(byToken.body.data.username).toBe('root');
    const token = await api.handle.db.selectFrom('tokens').selectAll().executeTakeFirstOrThrow();
    expect(token.unlimited_quota).toBe(true);
  });

  it('stays usable by one-api: its own statements still work after our migration', async () => {
    createGormSqlite(path);
    api = await startApi(database);
    await new Client(api.url).login('root', fixtureRootPassword);
    await api.stop();
    api = undefined;
    const db = new Database(path);
    try {
      db.exec(
        "INSERT INTO `users` (`username`,`password`,`display_name`,`email`,`github_id`,`wechat_id`,`lark_id`,`oidc_id`,`access_token`,`aff_code`,`inviter_id`) VALUES ('bob','$2a$10$x','bob','','','','','','00000000000000000000000000000000','Zz99',0)",
      );
      db.exec("UPDATE `users` SET `quota`=`quota`+100 WHERE `username` = 'bob'");
      db.exec("INSERT INTO `options` (`key`,`value`) VALUES ('Notice','hi') ON CONFLICT (`key`) DO UPDATE SET `value`=`excluded`.`value`");
      const bob = db.prepare('SELECT * FROM `users` WHERE `username` = ? LIMIT 1').get('bob') as Record<string, unknown>;
      expect(bob).toMatchObject({ role: 1, status: 1, quota: 100, group: 'default', request_count: 0 });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });

  it('upgrades an older one-api database: adds missing columns and indexes, keeps columns it does not know', async () => {
    createGormSqlite(path, {
      withoutColumns: ['channels.system_prompt', 'logs.system_prompt_reset'],
      withoutIndexes: ['idx_users_oidc_id'],
      extraDdl: ['ALTER TABLE `users` ADD `future_flag` text'],
    });
    const before = sqliteMaster(path);
    const handle = openDatabase({ database });
    const report = await migrate(handle.db, handle.dialect);
    await handle.close();
    expect(report.addedColumns).toEqual(['channels.system_prompt', 'logs.system_prompt_reset']);
    expect(report.createdIndexes).toEqual(['idx_users_oidc_id', 'idx_sessions_user_id', 'idx_sessions_expires_at', ...ourIndexes]);
    const after = sqliteMaster(path);
    expect(after.get('users')).toBe(before.get('users'));
    expect(after.get('channels')).toBe(before.get('channels')!.replace(/\)$/, ', "system_prompt" text)'));
    api = await startApi(database);
    const browser = new Client(api.url);
    expect((await browser.login('root', fixtureRootPassword)).body.success).toBe(true);
    const row = await api.handle.db.selectFrom('logs').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ is_stream: true, system_prompt_reset: false });
  });
});
