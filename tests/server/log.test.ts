import { beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema';
import { dumpDatabase, insertUser } from './support/db';
import type { Client, Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

const notLoggedIn = '无权进行此操作，未登录且未提供 access token';
const invalidToken = '无权进行此操作，access token 无效';
const banned = '用户已被封禁';
const forbidden = '无权进行此操作，权限不足';

/** The 16 fields of a log entry (contract §2.1.5). */
const logFields = [
  'id', 'user_id', 'created_at', 'type', 'content', 'username', 'token_name', 'model_name', 'quota',
  'prompt_tokens', 'completion_tokens', 'channel', 'request_id', 'elapsed_time', 'is_stream', 'system_prompt_reset',
].sort();

/** A log as the API answers it. */
interface LogJson {
  id: number; user_id: number; created_at: number; type: number; content: string; username: string;
  token_name: string; model_name: string; quota: number; prompt_tokens: number; completion_tokens: number;
  channel: number; request_id: string; elapsed_time: number; is_stream: boolean; system_prompt_reset: boolean;
}

const tokens = {
  common: 'c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0',
  admin: 'a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0',
  root: 'f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0',
  banned: 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0',
} as const;

const base = 1_700_000_000;

/** Inserts one log row; returns the row as the admin API should answer it. */
async function insertLog(db: Kysely<Database>, row: Omit<LogJson, 'id'>): Promise<LogJson> {
  const { channel, ...rest } = row;
  const inserted = await db
    .insertInto('logs')
    .values({ ...rest, channel_id: channel })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: inserted.id, ...row };
}

/** Newest first. */
const byIdDesc = (rows: readonly LogJson[]) => [...rows].sort((a, b) => b.id - a.id);

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`logs — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    const users = { common: 0, admin: 0, root: 1, banned: 0 };
    /** Every seeded row (the model the answers are compared with). */
    let seeded: LogJson[] = [];

    /** A request as `who` (by access token), or anonymous. */
    const as = (who: keyof typeof tokens | 'anonymous' | 'bogus', method: string, path: string): Promise<Reply> => {
      const headers: Record<string, string> =
        who === 'anonymous' ? {} : { Authorization: who === 'bogus' ? 'Bearer nope' : `Bearer ${tokens[who]}` };
      return suite.client().request(method, path, { headers });
    };
    const adminGet = (path: string) => as('admin', 'GET', path);
    const commonGet = (path: string) => as('common', 'GET', path);

    beforeAll(async () => {
      users.common = await insertUser(db(), { username: 'alice', password: 'alice-pass', accessToken: tokens.common });
      users.admin = await insertUser(db(), { username: 'boss', password: 'boss-pass1', role: 10, accessToken: tokens.admin });
      users.banned = await insertUser(db(), { username: 'mallory', password: 'mall-pass1', status: 2, accessToken: tokens.banned });
      await db().updateTable('users').set({ access_token: tokens.root }).where('id', '=', 1).execute();
      const owners = [
        { id: users.common, name: 'alice' },
        { id: users.admin, name: 'boss' },
        { id: 1, name: 'root' },
      ];
      seeded = [];
      for (let i = 0; i < 30; i += 1) {
        const owner = owners[i % 3]!;
        seeded.push(
          await insertLog(db(), {
            user_id: owner.id,
            created_at: base + i * 100,
            type: (i % 5) + 1,
            content: i % 2 === 0 ? `倍率：${i}.00 × 1.00` : `通过兑换码充值 ${i}`,
            username: owner.name,
            token_name: i % 2 === 0 ? 'tk-even' : 'tk-odd',
            model_name: i % 4 === 0 ? 'gpt-4o' : 'gpt-3.5-turbo',
            quota: i * 10 + 1,
            prompt_tokens: i,
            completion_tokens: i * 2,
            channel: (i % 6) + 1,
            request_id: `req-${i}`,
            elapsed_time: i * 7,
            is_stream: i % 2 === 1,
            system_prompt_reset: i % 3 === 1,
          }),
        );
      }
    });

    /** The admin list page the model predicts for `pred`. */
    const expectedPage = (pred: (r: LogJson) => boolean, page: number) =>
      byIdDesc(seeded.filter(pred)).slice(page * 10, page * 10 + 10);

    describe('guards', () => {
      const adminRoutes: [string, string][] = [
        ['GET', '/api/log/'],
        ['GET', '/api/log/search?keyword=1'],
        ['GET', '/api/log/stat'],
        ['DELETE', '/api/log/?target_timestamp=1'],
      ];
      const userRoutes: [string, string][] = [
        ['GET', '/api/log/self/'],
        ['GET', '/api/log/self/search?keyword=2'],
        ['GET', '/api/log/self/stat'],
      ];

      it('anonymous → 401, bogus token → invalid, banned → 封禁 on every route', async () => {
        for (const [method, path] of [...adminRoutes, ...userRoutes]) {
          const anon = await as('anonymous', method, path);
          expect(anon.status, path).toBe(401);
          expect(anon.body).toEqual({ success: false, message: notLoggedIn });
          expect((await as('bogus', method, path)).body).toEqual({ success: false, message: invalidToken });
          expect((await as('banned', method, path)).body).toEqual({ success: false, message: banned });
        }
      });

      it('admin routes refuse a common user and admit admin and root; self routes admit everyone enabled', async () => {
        const before = await dumpDatabase(db());
        for (const [method, path] of adminRoutes) {
          const reply = await as('common', method, path);
          expect(reply.status).toBe(200);
          expect(reply.body, path).toEqual({ success: false, message: forbidden });
        }
        expect(await dumpDatabase(db())).toBe(before);
        for (const who of ['admin', 'root'] as const) {
          for (const [method, path] of adminRoutes.filter(([m]) => m === 'GET')) {
            expect((await as(who, method, path)).body.success, `${who} ${path}`).toBe(true);
          }
        }
        for (const who of ['common', 'admin', 'root'] as const) {
          for (const [method, path] of userRoutes) {
            expect((await as(who, method, path)).body.success, `${who} ${path}`).toBe(true);
          }
        }
      });

      it('a session works as well as an access token, with and without trailing slash', async () => {
        const browser: Client = suite.client();
        await browser.login('alice', 'alice-pass');
        expect((await browser.get('/api/log/self')).body.success).toBe(true);
        expect((await browser.get('/api/log/self/')).body.success).toBe(true);
        expect((await browser.get('/api/log')).body).toEqual({ success: false, message: forbidden });
        expect((await adminGet('/api/log')).body.data).toHaveLength(10);
      });
    });

    describe('GET /api/log/ (admin)', () => {
      it('answers 16-field rows, id desc, 10 per page, zero-based p', async () => {
        const p0 = await adminGet('/api/log/');
        expect(p0.status).toBe(200);
        expect(p0.body).toEqual({ success: true, message: '', data: expectedPage(() => true, 0) });
        for (const row of p0.body.data) expect(Object.keys(row).sort()).toEqual(logFields);
        expect((await adminGet('/api/log/?p=1')).body.data).toEqual(expectedPage(() => true, 1));
        expect((await adminGet('/api/log/?p=2')).body.data).toEqual(expectedPage(() => true, 2));
        expect((await adminGet('/api/log/?p=3')).body).toEqual({ success: true, message: '', data: [] });
        for (const p of ['-1', 'abc', '1.5', '']) {
          expect((await adminGet(`/api/log/?p=${p}`)).body.data, p).toEqual(expectedPage(() => true, 0));
        }
      });

      it('applies every filter (exact matches, inclusive time range, channel), combined', async () => {
        const cases: [string, (r: LogJson) => boolean][] = [
          ['type=2', (r) => r.type === 2],
          ['type=0', () => true],
          ['username=alice', (r) => r.username === 'alice'],
          ['token_name=tk-odd', (r) => r.token_name === 'tk-odd'],
          ['model_name=gpt-4o', (r) => r.model_name === 'gpt-4o'],
          [`start_timestamp=${base + 1000}`, (r) => r.created_at >= base + 1000],
          [`end_timestamp=${base + 1000}`, (r) => r.created_at <= base + 1000],
          ['channel=3', (r) => r.channel === 3],
          ['channel=0', () => true],
          [
            `type=1&username=boss&start_timestamp=${base}&end_timestamp=${base + 2500}&token_name=tk-odd`,
            (r) => r.type === 1 && r.username === 'boss' && r.created_at <= base + 2500 && r.token_name === 'tk-odd',
          ],
          ['model_name=gpt-4o&channel=1', (r) => r.model_name === 'gpt-4o' && r.channel === 1],
          ['username=nobody', () => false],
          ['username=ALICE', () => false],
        ];
        for (const [query, pred] of cases) {
          const reply = await adminGet(`/api/log/?${query}`);
          expect(reply.body.data, query).toEqual(expectedPage(pred, 0));
        }
        const page1 = await adminGet('/api/log/?token_name=tk-even&p=1');
        expect(page1.body.data).toEqual(expectedPage((r) => r.token_name === 'tk-even', 1));
      });

      it('treats unparsable numbers as "no filter" and never fails on hostile text', async () => {
        const before = await dumpDatabase(db());
        for (const query of ['type=abc', 'channel=x', 'start_timestamp=1e9', 'end_timestamp=', 'type=99999999999999999999999']) {
          const reply = await adminGet(`/api/log/?${query}`);
          expect(reply.body.success, query).toBe(true);
        }
        expect((await adminGet('/api/log/?type=abc')).body.data).toEqual(expectedPage(() => true, 0));
        expect((await adminGet('/api/log/?type=99999999999999999999999')).body.data).toEqual([]);
        for (const value of ["x' OR '1'='1", 'a%00b', '%', '<script>alert(1)</script>', 'x'.repeat(5000)]) {
          const q = encodeURIComponent(value);
          const reply = await adminGet(`/api/log/?username=${value === 'a%00b' ? value : q}&token_name=${q}`);
          expect(reply.status).toBe(200);
          expect(reply.body, value).toEqual({ success: true, message: '', data: [] });
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('answers NULL columns of old rows as zero values', async () => {
        const inserted = await db()
          .insertInto('logs')
          .values({ created_at: null, type: null, content: null, user_id: null, channel_id: null })
          .returning('id')
          .executeTakeFirstOrThrow();
        try {
          const row = (await adminGet('/api/log/')).body.data[0];
          expect(row).toEqual({
            id: inserted.id, user_id: 0, created_at: 0, type: 0, content: '', username: '', token_name: '',
            model_name: '', quota: 0, prompt_tokens: 0, completion_tokens: 0, channel: 0, request_id: '',
            elapsed_time: 0, is_stream: false, system_prompt_reset: false,
          });
        } finally {
          await db().deleteFrom('logs').where('id', '=', inserted.id).execute();
        }
      });
    });

    describe('GET /api/log/self/ (user)', () => {
      it("answers only the caller's rows with id 0, paged, and ignores username and channel", async () => {
        const own = (r: LogJson) => r.user_id === users.common;
        const hide = (rows: LogJson[]) => rows.map((r) => ({ ...r, id: 0 }));
        const p0 = await commonGet('/api/log/self/');
        expect(p0.body).toEqual({ success: true, message: '', data: hide(expectedPage(own, 0)) });
        for (const row of p0.body.data) expect(Object.keys(row).sort()).toEqual(logFields);
        expect((await commonGet('/api/log/self/?p=1')).body.data).toEqual([]);
        expect((await commonGet('/api/log/self/?username=root&channel=2')).body.data).toEqual(hide(expectedPage(own, 0)));
        const filtered = await commonGet(`/api/log/self/?type=1&token_name=tk-even&model_name=gpt-4o&start_timestamp=${base}&end_timestamp=${base + 3000}`);
        expect(filtered.body.data).toEqual(
          hide(expectedPage((r) => own(r) && r.type === 1 && r.token_name === 'tk-even' && r.model_name === 'gpt-4o', 0)),
        );
        const rootOwn = await as('root', 'GET', '/api/log/self/?p=0');
        expect(rootOwn.body.data).toEqual(hide(expectedPage((r) => r.user_id === 1, 0)));
      });
    });

    describe('search', () => {
      it('admin search matches type = keyword OR content prefix, newest first', async () => {
        const byType = await adminGet('/api/log/search?keyword=3');
        expect(byType.body).toEqual({ success: true, message: '', data: byIdDesc(seeded.filter((r) => r.type === 3)) });
        const byContent = await adminGet(`/api/log/search?keyword=${encodeURIComponent('通过兑换码')}`);
        expect(byContent.body.data).toEqual(byIdDesc(seeded.filter((r) => r.content.startsWith('通过兑换码'))));
        // Prefix only: a word in the middle does not match.
        expect((await adminGet(`/api/log/search?keyword=${encodeURIComponent('充值')}`)).body.data).toEqual([]);
        // The keyword 2 matches type 2 and the content "倍率：2..." does not start with "2".
        expect((await adminGet('/api/log/search?keyword=2')).body.data).toEqual(byIdDesc(seeded.filter((r) => r.type === 2)));
        for (const keyword of ['', 'zzz', "' OR 1=1 --", 'a\u0000b']) {
          const reply = await adminGet(`/api/log/search?keyword=${encodeURIComponent(keyword)}`);
          expect(reply.status).toBe(200);
          const expected = keyword === '' ? byIdDesc(seeded).slice(0, 100) : [];
          expect(reply.body, JSON.stringify(keyword)).toEqual({ success: true, message: '', data: expected });
        }
      });

      it('self search matches the type only, within the caller, ids hidden', async () => {
        const own = (r: LogJson) => r.user_id === users.common;
        const reply = await commonGet('/api/log/self/search?keyword=4');
        expect(reply.body).toEqual({
          success: true, message: '',
          data: byIdDesc(seeded.filter((r) => own(r) && r.type === 4)).map((r) => ({ ...r, id: 0 })),
        });
        for (const keyword of ['通过兑换码', '', 'abc', '9']) {
          const other = await commonGet(`/api/log/self/search?keyword=${encodeURIComponent(keyword)}`);
          expect(other.body, keyword).toEqual({ success: true, message: '', data: [] });
        }
      });

      it('both searches stop at 100 rows', async () => {
        const rows = Array.from({ length: 105 }, (_, i) => ({
          user_id: users.common, created_at: base + 10_000 + i, type: 7, content: `bulk ${i}`, username: 'alice',
        }));
        await db().insertInto('logs').values(rows).execute();
        try {
          const all = await adminGet('/api/log/search?keyword=7');
          expect(all.body.data).toHaveLength(100);
          expect(all.body.data[0].content).toBe('bulk 104');
          expect(all.body.data[99].content).toBe('bulk 5');
          expect((await adminGet('/api/log/search?keyword=bulk')).body.data).toHaveLength(100);
          const self = await commonGet('/api/log/self/search?keyword=7');
          expect(self.body.data).toHaveLength(100);
          expect(self.body.data[0]).toMatchObject({ id: 0, content: 'bulk 104' });
        } finally {
          await db().deleteFrom('logs').where('type', '=', 7).execute();
        }
      });
    });

    describe('stat', () => {
      const sum = (pred: (r: LogJson) => boolean) =>
        seeded.filter((r) => r.type === 2 && pred(r)).reduce((acc, r) => acc + r.quota, 0);

      it('admin stat sums consume logs only, with the filters; type is ignored', async () => {
        const cases: [string, (r: LogJson) => boolean][] = [
          ['', () => true],
          ['type=1', () => true],
          ['username=alice', (r) => r.username === 'alice'],
          ['token_name=tk-even', (r) => r.token_name === 'tk-even'],
          ['model_name=gpt-3.5-turbo', (r) => r.model_name === 'gpt-3.5-turbo'],
          [`start_timestamp=${base + 1200}&end_timestamp=${base + 2600}`, (r) => r.created_at >= base + 1200 && r.created_at <= base + 2600],
          ['channel=2', (r) => r.channel === 2],
          ['username=nobody', () => false],
        ];
        for (const [query, pred] of cases) {
          const reply = await adminGet(`/api/log/stat?${query}`);
          expect(reply.body, query).toEqual({ success: true, message: '', data: { quota: sum(pred) } });
        }
        expect(sum(() => true)).toBeGreaterThan(0);
      });

      it("self stat sums the caller's consume logs; a username parameter cannot widen it", async () => {
        const own = (r: LogJson) => r.user_id === users.common;
        expect((await commonGet('/api/log/self/stat')).body).toEqual({ success: true, message: '', data: { quota: sum(own) } });
        expect((await commonGet('/api/log/self/stat?username=root')).body.data).toEqual({ quota: sum(own) });
        expect((await commonGet('/api/log/self/stat?channel=1')).body.data).toEqual({ quota: sum((r) => own(r) && r.channel === 1) });
        expect((await commonGet('/api/log/self/stat?model_name=gpt-4o')).body.data).toEqual({ quota: sum((r) => own(r) && r.model_name === 'gpt-4o') });
        const rootStat = await as('root', 'GET', '/api/log/self/stat');
        expect(rootStat.body.data).toEqual({ quota: sum((r) => r.user_id === 1) });
      });
    });

    describe('DELETE /api/log/', () => {
      it('requires a non-zero target timestamp and changes nothing otherwise', async () => {
        const before = await dumpDatabase(db());
        const hostile = `?target_timestamp=${encodeURIComponent('1; DROP TABLE logs')}`;
        for (const query of ['', '?target_timestamp=', '?target_timestamp=0', '?target_timestamp=abc', hostile, '?target_timestamp=1.5e9']) {
          const reply = await as('admin', 'DELETE', `/api/log/${query}`);
          expect(reply.status).toBe(200);
          expect(reply.body, query).toEqual({ success: false, message: 'target timestamp is required' });
        }
        expect((await as('admin', 'DELETE', '/api/log/?target_timestamp=-5')).body).toEqual({ success: true, message: '', data: 0 });
        expect((await as('admin', 'DELETE', `/api/log/?target_timestamp=${base}`)).body).toEqual({ success: true, message: '', data: 0 });
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('deletes logs strictly older than the target and answers the count', async () => {
        const target = base + 1000; // rows 0..9 are older, row 10 sits exactly on the target
        const reply = await as('admin', 'DELETE', `/api/log?target_timestamp=${target}`);
        expect(reply.body).toEqual({ success: true, message: '', data: 10 });
        const left = await db().selectFrom('logs').select('created_at').orderBy('id').execute();
        expect(left.map((r) => r.created_at)).toEqual(seeded.filter((r) => r.created_at >= target).map((r) => r.created_at));
        const again = await as('root', 'DELETE', `/api/log/?target_timestamp=${target}`);
        expect(again.body).toEqual({ success: true, message: '', data: 0 });
        const everything = await as('root', 'DELETE', `/api/log/?target_timestamp=${base + 1_000_000}`);
        expect(everything.body).toEqual({ success: true, message: '', data: 20 });
        expect((await adminGet('/api/log/')).body.data).toEqual([]);
        expect((await adminGet('/api/log/stat')).body.data).toEqual({ quota: 0 });
      });
    });
  });
}
