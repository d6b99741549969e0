import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bootstrap, rootQuota } from '../../server/db/bootstrap';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import { verifyPassword } from '../../server/services/password';
import { insertUser, setOption } from './support/db';
import { testConfig } from './support/server';
import { dbTargets, type TestDatabase } from './support/targets';
import type { Env } from '../../server/config';

const defaults = JSON.parse(readFileSync(new URL('../../server/data/options-defaults.json', import.meta.url), 'utf8')) as Record<
  string,
  { value: string }
>;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`bootstrap — ${target.label}`, () => {
    let testDb: TestDatabase;
    let handle: DatabaseHandle;
    const run = (env: Env = {}) => bootstrap(handle.db, handle.dialect, testConfig(testDb.database, env), () => 1_700_000_000_500);

    beforeEach(async () => {
      testDb = await target.create();
      handle = openDatabase(testDb);
      await migrate(handle.db, handle.dialect);
    });
    afterEach(async () => {
      await handle.close();
      await testDb.dispose();
    });

    it('creates root exactly as §3.3 says on an empty users table, without a token', async () => {
      const report = await run();
      expect(report).toMatchObject({ rootCreated: true, rootTokenCreated: false });
      const users = await handle.db.selectFrom('users').selectAll().execute();
      expect(users).toHaveLength(1);
      const root = users[0]!;
      expect(root).toMatchObject({
        id: 1, username: 'root', display_name: 'Root User', role: 100, status: 1, quota: rootQuota,
        used_quota: 0, request_count: 0, group: 'default', aff_code: '', email: '', inviter_id: 0,
      });
      expect(root.password).toMatch(/^\$2a\$10\$/);
      expect(await verifyPassword('123456', root.password)).toBe(true);
      expect(root.access_token).toMatch(/^[0-9a-f]{32}$/);
      expect(await handle.db.selectFrom('tokens').selectAll().execute()).toEqual([]);
    });

    it('uses INITIAL_ROOT_ACCESS_TOKEN and creates token 1 from INITIAL_ROOT_TOKEN', async () => {
      const report = await run({ INITIAL_ROOT_ACCESS_TOKEN: 'feedfacefeedfacefeedfacefeedface', INITIAL_ROOT_TOKEN: 'my-initial-root-token' });
      expect(report).toMatchObject({ rootCreated: true, rootTokenCreated: true });
      const root = await handle.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
      expect(root.access_token).toBe('feedfacefeedfacefeedfacefeedface');
      const token = await handle.db.selectFrom('tokens').selectAll().executeTakeFirstOrThrow();
      expect(token).toEqual({
        id: 1, user_id: root.id, key: 'my-initial-root-token'.padEnd(target.kind === 'postgres' ? 48 : 0), status: 1,
        name: 'Initial Root Token', created_time: 1_700_000_000, accessed_time: 1_700_000_000, expired_time: -1,
        remain_quota: rootQuota, unlimited_quota: true, used_quota: 0, models: null, subnet: '',
      });
      // The next token gets id 2 (the PostgreSQL sequence was moved past the explicit id 1).
      const next = await handle.db.insertInto('tokens').values({ user_id: root.id, key: 'x'.repeat(48), name: 'n' }).returning('id').executeTakeFirstOrThrow();
      expect(next.id).toBe(2);
    });

    it('creates nothing when any user exists, and is idempotent', async () => {
      await run();
      const second = await run({ INITIAL_ROOT_TOKEN: 'late' });
      expect(second).toEqual({ rootCreated: false, rootTokenCreated: false, insertedOptions: [] });
      expect(await handle.db.selectFrom('users').selectAll().execute()).toHaveLength(1);
      expect(await handle.db.selectFrom('tokens').selectAll().execute()).toHaveLength(0);
    });

    it('does not create root when the only users are not root', async () => {
      await insertUser(handle.db, { username: 'alice', password: 'secret-pass' });
      const report = await run();
      expect(report.rootCreated).toBe(false);
      expect((await handle.db.selectFrom('users').select('username').execute()).map((u) => u.username)).toEqual(['alice']);
    });

    it('inserts every default option (Theme from THEME) and never overwrites stored values', async () => {
      await setOption(handle.db, 'SystemName', 'Mine');
      await setOption(handle.db, 'SomethingElse', 'kept');
      const report = await run({ THEME: 'air' });
      expect(report.insertedOptions).toHaveLength(50);
      expect(report.insertedOptions).not.toContain('SystemName');
      const rows = await handle.db.selectFrom('options').selectAll().execute();
      const byKey = new Map(rows.map((r) => [r.key, r.value]));
      expect(rows).toHaveLength(52);
      for (const [key, { value }] of Object.entries(defaults)) {
        if (key === 'SystemName') expect(byKey.get(key)).toBe('Mine');
        else if (key === 'Theme') expect(byKey.get(key)).toBe('air');
        else expect(byKey.get(key), key).toBe(value);
      }
      expect(byKey.get('SomethingElse')).toBe('kept');

      await setOption(handle.db, 'PasswordLoginEnabled', 'false');
      await handle.db.deleteFrom('options').where('key', '=', 'Notice').execute();
      const again = await run();
      expect(again.insertedOptions).toEqual(['Notice']);
      const after = await handle.db.selectFrom('options').select(['key', 'value']).where('key', 'in', ['PasswordLoginEnabled', 'Notice']).orderBy('key').execute();
      expect(after).toEqual([{ key: 'Notice', value: '' }, { key: 'PasswordLoginEnabled', value: 'false' }]);
    });
  });
}
