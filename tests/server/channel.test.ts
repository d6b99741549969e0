import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { dumpDatabase, insertUser, setOption } from './support/db';
import type { Client, Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

const channelModels = JSON.parse(
  readFileSync(new URL('../../server/data/channel-models.json', import.meta.url), 'utf8'),
) as Record<string, string[] | null>;

import { catalogueModelsOf } from '../../server/services/typeModels';

const notLoggedIn = '无权进行此操作，未登录且未提供 access token';
const invalidToken = '无权进行此操作，access token 无效';
const banned = '用户已被封禁';
const forbidden = '无权进行此操作，权限不足';

/** The 20 Channel fields of contract §2.1.3, plus our `tags` (one-api's console ignores it). */
const channelFields = [
  'balance', 'balance_updated_time', 'base_url', 'config', 'created_time', 'group', 'id', 'key', 'model_mapping',
  'models', 'name', 'other', 'priority', 'response_time', 'status', 'system_prompt', 'tags', 'test_time', 'type',
  'used_quota', 'weight',
];

const nowMs = 1_760_000_000_500;
const nowSeconds = 1_760_000_000;

const adminToken = 'a0000000000000000000000000000001';
const commonToken = 'c0000000000000000000000000000001';
const bannedToken = 'b0000000000000000000000000000001';

/** Every route this module serves: method, path, body. */
const routes: ReadonlyArray<readonly [string, string, unknown?]> = [
  ['GET', '/api/channel/?p=0'],
  ['GET', '/api/channel/search?keyword=x'],
  ['GET', '/api/channel/models'],
  ['GET', '/api/channel/1'],
  ['POST', '/api/channel/', { name: 'x', key: 'k', models: 'm', group: 'default', type: 1 }],
  ['PUT', '/api/channel/', { id: 1, priority: 3 }],
  ['DELETE', '/api/channel/disabled'],
  ['DELETE', '/api/channel/999999'],
  ['GET', '/api/group/'],
];

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`channels and groups — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => nowMs });
    const db = () => suite.api.handle.db;
    let root: Client;
    let admin: Client;
    let common: Client;

    beforeAll(async () => {
      await insertUser(db(), { username: 'admin1', password: 'admin-pass', role: 10, accessToken: adminToken });
      await insertUser(db(), { username: 'common1', password: 'common-pass', role: 1, accessToken: commonToken });
      await insertUser(db(), { username: 'banned1', password: 'banned-pass', role: 10, status: 2, accessToken: bannedToken });
      root = suite.client();
      admin = suite.client();
      common = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      expect((await admin.login('admin1', 'admin-pass')).body.success).toBe(true);
      expect((await common.login('common1', 'common-pass')).body.success).toBe(true);
    });

    const send = (client: Client, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      client.request(method, path, { body, headers });
    const create = (body: unknown) => send(root, 'POST', '/api/channel/', body);
    const update = (body: unknown) => send(root, 'PUT', '/api/channel/', body);
    const channelRow = (id: number) => db().selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    const abilities = (id: number) =>
      db().selectFrom('abilities').selectAll().where('channel_id', '=', id).orderBy('group').orderBy('model').execute();
    const lastId = async () =>
      (await db().selectFrom('channels').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    /** Creates one channel through the API and returns its id. */
    const createOne = async (body: Record<string, unknown>): Promise<number> => {
      const reply = await create({ type: 1, key: 'sk-one', models: 'gpt-4o', group: 'default', ...body });
      expect(reply.body).toEqual({ success: true, message: '' });
      return lastId();
    };
    /** Asserts a failure message and an unchanged database. */
    const expectRefused = async (action: () => Promise<Reply>, message: string | RegExp) => {
      const before = await dumpDatabase(db());
      const reply = await action();
      expect(reply.status).toBe(200);
      expect(reply.body.success).toBe(false);
      if (typeof message === 'string') expect(reply.body.message).toBe(message);
      else expect(reply.body.message).toMatch(message);
      expect(Object.keys(reply.body).sort()).toEqual(['message', 'success']);
      expect(await dumpDatabase(db())).toBe(before);
    };

    describe('auth matrix', () => {
      it('answers anonymous callers 401 on every route and changes nothing', async () => {
        const before = await dumpDatabase(db());
        for (const [method, path, body] of routes) {
          const reply = await send(suite.client(), method, path, body);
          expect(reply.status, `${method} ${path}`).toBe(401);
          expect(reply.body).toEqual({ success: false, message: notLoggedIn });
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('refuses common users (session and token), banned users and invalid tokens with HTTP 200', async () => {
        const before = await dumpDatabase(db());
        for (const [method, path, body] of routes) {
          const label = `${method} ${path}`;
          expect((await send(common, method, path, body)).body, label).toEqual({ success: false, message: forbidden });
          const byToken = await send(suite.client(), method, path, body, { Authorization: `Bearer ${commonToken}` });
          expect(byToken.status).toBe(200);
          expect(byToken.body, label).toEqual({ success: false, message: forbidden });
          const bannedReply = await send(suite.client(), method, path, body, { Authorization: bannedToken });
          expect(bannedReply.body, label).toEqual({ success: false, message: banned });
          const invalid = await send(suite.client(), method, path, body, { Authorization: 'nope' });
          expect(invalid.body, label).toEqual({ success: false, message: invalidToken });
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('admits admins (session and access token) and root', async () => {
        for (const client of [root, admin]) {
          expect((await client.get('/api/channel/')).body.success).toBe(true);
          expect((await client.get('/api/group/')).body.success).toBe(true);
        }
        const byToken = await suite.client().get('/api/channel/search?keyword=', { headers: { Authorization: `Bearer ${adminToken}` } });
        expect(byToken.body.success).toBe(true);
        const id = await createOne({ name: 'by-admin' });
        const put = await send(suite.client(), 'PUT', '/api/channel/', { id, priority: 1 }, { Authorization: adminToken });
        expect(put.body.success).toBe(true);
        expect((await send(admin, 'DELETE', `/api/channel/${id}`)).body).toEqual({ success: true, message: '' });
        expect(await channelRow(id)).toBeUndefined();
      });

      it('serves /test and /update_balance behind the admin guard (their behaviour: channel-test and channel-balance suites)', async () => {
        for (const path of ['/api/channel/test', '/api/channel/test/1', '/api/channel/update_balance', '/api/channel/update_balance/1']) {
          const reply = await suite.client().get(path);
          expect(reply.status, path).toBe(401);
          expect(reply.body, path).toEqual({ success: false, message: notLoggedIn });
          expect((await common.get(path)).body, path).toEqual({ success: false, message: forbidden });
        }
      });
    });

    describe('POST /api/channel/', () => {
      it('creates one channel with one-api defaults and its abilities', async () => {
        const reply = await create({
          type: 14, key: 'sk-ant', name: 'claude', models: 'claude-3,claude-3,claude-2', group: 'default,vip',
          base_url: 'https://example.com', other: '', model_mapping: '{"a":"b"}', system_prompt: 'be nice',
          config: '{"region":"us"}', groups: ['default', 'vip'],
        });
        expect(reply.body).toEqual({ success: true, message: '' });
        const id = await lastId();
        expect(await channelRow(id)).toEqual({
          id, type: 14, key: 'sk-ant', status: 1, name: 'claude', weight: 0, created_time: nowSeconds, test_time: 0,
          response_time: 0, base_url: 'https://example.com', other: '', balance: 0, balance_updated_time: 0,
          models: 'claude-3,claude-3,claude-2', group: 'default,vip', used_quota: 0, model_mapping: '{"a":"b"}',
          priority: 0, config: '{"region":"us"}', system_prompt: 'be nice',
        });
        expect(await abilities(id)).toEqual([
          { group: 'default', model: 'claude-2', channel_id: id, enabled: true, priority: 0 },
          { group: 'default', model: 'claude-3', channel_id: id, enabled: true, priority: 0 },
          { group: 'vip', model: 'claude-2', channel_id: id, enabled: true, priority: 0 },
          { group: 'vip', model: 'claude-3', channel_id: id, enabled: true, priority: 0 },
        ]);
      });

      it('defaults group to "default" and status to 1; nullable fields absent stay NULL', async () => {
        const reply = await create({ key: 'sk-min', name: 'minimal', models: 'gpt-4o', group: '' });
        expect(reply.body.success).toBe(true);
        const row = await channelRow(await lastId());
        expect(row).toMatchObject({ type: 0, status: 1, group: 'default', other: null, system_prompt: null, base_url: '', model_mapping: '', priority: 0, weight: 0 });
      });

      it('creates one channel per non-empty key line, keeping \\r, with identical attributes', async () => {
        const before = await lastId();
        const reply = await create({ type: 1, key: 'k1\n\nk2\r\nk3\n', name: 'batch', models: 'm1', group: 'g1', priority: 5, status: 2 });
        expect(reply.body).toEqual({ success: true, message: '' });
        const rows = await db().selectFrom('channels').selectAll().where('id', '>', before).orderBy('id').execute();
        expect(rows.map((r) => r.key)).toEqual(['k1', 'k2\r', 'k3']);
        expect(new Set(rows.map((r) => r.name))).toEqual(new Set(['batch']));
        for (const row of rows) {
          expect(row).toMatchObject({ status: 2, priority: 5, group: 'g1', models: 'm1' });
          expect(await abilities(row.id)).toEqual([{ group: 'g1', model: 'm1', channel_id: row.id, enabled: false, priority: 5 }]);
        }
      });

      it('de-duplicates repeated groups instead of failing half-way (one-api: primary-key error)', async () => {
        const id = await createOne({ group: 'vip,vip,default', models: 'x' });
        expect((await abilities(id)).map((a) => a.group)).toEqual(['default', 'vip']);
      });

      it('ignores a body id and unknown keys, and writes no log rows', async () => {
        const logsBefore = await db().selectFrom('logs').selectAll().execute();
        const reply = await create({ id: 424242, key: 'k-id', name: 'with-id', models: 'm', group: 'default', unknown: { nested: true } });
        expect(reply.body).toEqual({ success: true, message: '' });
        const id = await lastId();
        expect(id).not.toBe(424242);
        expect((await channelRow(id))?.name).toBe('with-id');
        expect(await db().selectFrom('logs').selectAll().execute()).toEqual(logsBefore);
      });

      it('stores SQL and script payloads verbatim', async () => {
        const name = "x'); DROP TABLE channels; --<script>alert(1)</script>";
        const id = await createOne({ name, key: "' OR 1=1 --", models: "a'b" });
        expect(await channelRow(id)).toMatchObject({ name, key: "' OR 1=1 --", models: "a'b" });
        expect((await abilities(id))[0]?.model).toBe("a'b");
      });

      it('refuses an empty or newline-only key with "empty slice found"', async () => {
        await expectRefused(() => create({ name: 'n', models: 'm', key: '' }), 'empty slice found');
        await expectRefused(() => create({ name: 'n', models: 'm', key: '\n\n' }), 'empty slice found');
        await expectRefused(() => create({ name: 'n', models: 'm' }), 'empty slice found');
      });

      it('refuses bad bodies with Go binding errors and leaves the database unchanged', async () => {
        const cases: Array<[unknown, string]> = [
          [{ type: '1', key: 'k' }, 'json: cannot unmarshal string into Go struct field Channel.type of type int'],
          // priority, weight, models and group: the check an edit by tag makes too (its words, zh by default)
          [{ key: 'k', weight: -1 }, 'weight 必须在 0 到 9007199254740991 之间'],
          [{ key: 'k', priority: 1.5 }, 'priority 必须是整数'],
          [{ key: 'k', name: 5 }, 'json: cannot unmarshal number into Go struct field Channel.name of type string'],
          [{ key: ['a'] }, 'json: cannot unmarshal array into Go struct field Channel.key of type string'],
          [{ key: 'k', status: true }, 'json: cannot unmarshal bool into Go struct field Channel.status of type int'],
          [{ key: 'k', used_quota: 'x' }, 'json: cannot unmarshal string into Go struct field Channel.used_quota of type int64'],
          [[{ key: 'k' }], 'json: cannot unmarshal array into Go value of type model.Channel'],
          ['k', 'json: cannot unmarshal string into Go value of type model.Channel'],
          [{ key: 'k', group: 'g'.repeat(33) }, 'group 最多 32 个字符'],
          [{ key: 'k', model_mapping: 'm'.repeat(1025) }, 'ERROR: value too long for type character varying(1024) (SQLSTATE 22001)'],
          [{ key: 'k', name: 'a\u0000b' }, 'ERROR: invalid byte sequence for encoding "UTF8": 0x00 (SQLSTATE 22021)'],
        ];
        for (const [body, message] of cases) await expectRefused(() => create(body), message);
        await expectRefused(() => root.request('POST', '/api/channel/', { rawBody: '{"key":' }), /JSON|Unexpected/);
        await expectRefused(() => root.request('POST', '/api/channel/', { rawBody: '' }), 'EOF');
      });

      it('accepts a 32-character group (counted in characters) and null for every field', async () => {
        const id = await createOne({ group: '组'.repeat(32), models: 'm' });
        expect((await channelRow(id))?.group).toBe('组'.repeat(32));
        const nulls = await create({ key: 'k-null', type: null, name: null, weight: null, priority: null, base_url: null, other: null, system_prompt: null, status: null });
        expect(nulls.body.success).toBe(true);
        expect(await channelRow(await lastId())).toMatchObject({ type: 0, name: '', weight: 0, priority: 0, base_url: '', other: null, status: 1 });
      });
    });

    describe('reads', () => {
      let ids: number[] = [];

      beforeAll(async () => {
        await db().deleteFrom('abilities').execute();
        await db().deleteFrom('channels').execute();
        const reply = await create({ type: 1, key: Array.from({ length: 12 }, (_, i) => `secret-${i}`).join('\n'), name: 'page', models: 'm', group: 'default' });
        expect(reply.body.success).toBe(true);
        await createOne({ name: 'Alpha one', key: 'needle-key' });
        await createOne({ name: 'alphabet', key: 'k' });
        ids = (await db().selectFrom('channels').select('id').orderBy('id').execute()).map((r) => r.id);
      });

      it('GET /api/channel/?p= pages 10 per page, id desc, with every field and the key hidden', async () => {
        const desc = [...ids].reverse();
        const first = await root.get('/api/channel/?p=0');
        expect(first.body.success).toBe(true);
        expect(first.body.data.map((c: { id: number }) => c.id)).toEqual(desc.slice(0, 10));
        for (const channel of first.body.data) {
          expect(Object.keys(channel).sort()).toEqual(channelFields);
          expect(channel.key).toBe('');
        }
        expect((await root.get('/api/channel/?p=1')).body.data.map((c: { id: number }) => c.id)).toEqual(desc.slice(10));
        expect((await root.get('/api/channel/?p=5')).body).toEqual({ success: true, message: '', data: [] });
        for (const p of ['-1', 'abc', '', '1.5']) {
          expect((await root.get(`/api/channel/?p=${p}`)).body.data.map((c: { id: number }) => c.id)).toEqual(desc.slice(0, 10));
        }
        expect((await root.get('/api/channel')).body.data).toHaveLength(10);
        expect((await root.get('/api/channel/?p=99999999999999999999')).body.data).toHaveLength(10);
      });

      it('serialises the channel shape of §2.1.3 (pointer fields null when NULL)', async () => {
        const id = ids[ids.length - 1]!;
        await db().updateTable('channels').set({ weight: null, priority: null, base_url: null, model_mapping: null, name: null, models: null, config: null, balance: 1.25 }).where('id', '=', id).execute();
        const reply = await root.get(`/api/channel/${id}`);
        expect(reply.body).toEqual({
          success: true, message: '',
          data: {
            id, type: 1, key: '', status: 1, name: '', weight: null, created_time: nowSeconds, test_time: 0, response_time: 0,
            base_url: null, other: null, balance: 1.25, balance_updated_time: 0, models: '', group: 'default', used_quota: 0,
            model_mapping: null, priority: null, config: '', system_prompt: null, tags: [],
          },
        });
        await db().updateTable('channels').set({ name: 'alphabet', models: 'gpt-4o', config: '', base_url: '', model_mapping: '', weight: 0, priority: 0 }).where('id', '=', id).execute();
      });

      it('GET /api/channel/search matches id = keyword or name prefix, never the key, unpaginated', async () => {
        const search = async (keyword: string) =>
          ((await root.get(`/api/channel/search?keyword=${encodeURIComponent(keyword)}`)).body.data as Array<{ id: number; name: string; key: string }>);
        const all = await search('');
        expect(all.map((c) => c.id)).toEqual(ids);
        expect(all.every((c) => c.key === '')).toBe(true);
        expect((await search('page')).map((c) => c.id)).toEqual(ids.slice(0, 12));
        expect((await search(String(ids[3]))).map((c) => c.id)).toEqual([ids[3]]);
        expect((await search(`+${ids[3]}`)).map((c) => c.id)).toEqual([ids[3]]);
        expect(await search('needle-key')).toEqual([]);
        expect(await search('secret-1')).toEqual([]);
        expect(await search('zzz')).toEqual([]);
        expect(await search('a\u0000')).toEqual([]);
        expect((await search('%')).map((c) => c.id)).toEqual(ids);
        const alpha = await search('alpha');
        // LIKE case sensitivity follows the database collation (SQLite: ASCII case-insensitive).
        expect(alpha.map((c) => c.name).sort()).toEqual(target.kind === 'sqlite' ? ['Alpha one', 'alphabet'] : ['alphabet']);
        const noKeyword = await root.get('/api/channel/search');
        expect(noKeyword.body.data).toHaveLength(ids.length);
      });

      it('GET /api/channel/:id returns one channel with the key hidden; errors as one-api', async () => {
        const reply = await root.get(`/api/channel/${ids[0]}/`);
        expect(reply.body.data).toMatchObject({ id: ids[0], key: '', name: 'page' });
        expect((await root.get('/api/channel/999999')).body).toEqual({ success: false, message: 'record not found' });
        expect((await root.get('/api/channel/0')).body).toEqual({ success: false, message: 'record not found' });
        expect((await root.get('/api/channel/-1')).body).toEqual({ success: false, message: 'record not found' });
        expect((await root.get('/api/channel/abc')).body).toEqual({ success: false, message: 'strconv.Atoi: parsing "abc": invalid syntax' });
        expect((await root.get('/api/channel/99999999999999999999')).body).toEqual({
          success: false, message: 'strconv.Atoi: parsing "99999999999999999999": value out of range',
        });
        expect((await root.get('/api/channel/9007199254740993')).body).toEqual({ success: false, message: 'record not found' });
      });
    });

    describe('GET /api/channel/models', () => {
      it('returns the non-enveloped global catalogue of OpenAI model objects', async () => {
        const reply = await root.get('/api/channel/models');
        expect(reply.status).toBe(200);
        expect(Object.keys(reply.body).sort()).toEqual(['data', 'object']);
        expect(reply.body.object).toBe('list');
        const data = reply.body.data as Array<{ id: string; owned_by: string }>;
        expect(data.find((m) => m.id === 'gpt-4o')).toEqual({
          id: 'gpt-4o', object: 'model', created: 1626777600, owned_by: 'openai',
          permission: [{
            id: 'modelperm-LwHkVFn8AcMItP432fKKDIKJ', object: 'model_permission', created: 1626777600,
            allow_create_engine: true, allow_sampling: true, allow_logprobs: true, allow_search_indices: false,
            allow_view: true, allow_fine_tuning: false, organization: '*', group: null, is_blocking: false,
          }],
          root: 'gpt-4o', parent: null,
        });
        expect(data[0]?.id).toBe(channelModels['1']![0]);
        const owners = (id: string) => data.filter((m) => m.id === id).map((m) => m.owned_by);
        expect(owners('deepseek-chat')).toContain('deepseek');
        expect(data.some((m) => m.owned_by === 'anthropic')).toBe(true);
        expect(data.filter((m) => m.owned_by === 'Cohere').length).toBe(channelModels['35']!.length);
        // Azure, OpenRouter, Bailian, Gemini-OpenAI and the AI Proxy library are not added.
        const sources = [1, 14, 11, 15, 16, 17, 18, 23, 24, 30, 33, 34, 35, 37, 38, 42, 43, 46, 19, 25, 26, 27, 40, 28, 29, 31, 32, 36, 39, 41, 44, 45, 47, 48];
        // one-api's names all stay (the console of one-api keeps working); the gateway's newer names join them
        const ids = data.map((m) => m.id);
        for (const type of sources) expect(ids, `type ${type}`).toEqual(expect.arrayContaining(channelModels[String(type)] ?? []));
        const ownedBy = (owner: string) => data.filter((m) => m.owned_by === owner).map((m) => m.id);
        expect(ownedBy('anthropic')).toEqual(expect.arrayContaining([...channelModels['14']!, 'claude-sonnet-4-20250514', 'claude-opus-4-20250514']));
        expect(ownedBy('google gemini')).toEqual(expect.arrayContaining([...channelModels['24']!, 'gemini-2.5-pro', 'gemini-2.5-flash']));
        expect(ownedBy('aws')).toEqual(expect.arrayContaining([...channelModels['33']!, 'claude-sonnet-4-20250514', 'claude-opus-4-20250514']));
        const expected = sources.reduce((n, type) => n + catalogueModelsOf(type).length, 0);
        expect(data).toHaveLength(expected);
        expect(data.some((m) => m.owned_by === 'openrouter')).toBe(false);
      });
    });

    describe('PUT /api/channel/', () => {
      let id: number;

      beforeAll(async () => {
        id = await createOne({ type: 1, key: 'sk-original', name: 'edit-me', models: 'a,b', group: 'default', priority: 2, config: '{"x":1}', other: 'o' });
      });

      it('writes non-zero fields, rebuilds abilities and never returns the key (§6 #26 fixed)', async () => {
        const before = await channelRow(id);
        const reply = await update({
          ...before, key: '', name: 'edited', models: 'c,d', group: 'vip', used_quota: 777, balance: 9, created_time: 1, test_time: 2,
          response_time: 3, balance_updated_time: 4, groups: ['vip'],
        });
        expect(reply.body.success).toBe(true);
        expect(Object.keys(reply.body.data).sort()).toEqual(channelFields);
        expect(reply.body.data).toMatchObject({ id, key: '', name: 'edited', models: 'c,d', group: 'vip', used_quota: 0, created_time: nowSeconds });
        expect(reply.text).not.toContain('sk-original');
        expect(await channelRow(id)).toMatchObject({ key: 'sk-original', name: 'edited', models: 'c,d', group: 'vip', used_quota: 0, balance: 0, test_time: 0 });
        expect(await abilities(id)).toEqual([
          { group: 'vip', model: 'c', channel_id: id, enabled: true, priority: 2 },
          { group: 'vip', model: 'd', channel_id: id, enabled: true, priority: 2 },
        ]);
      });

      it('ignores zero values of plain fields but writes present pointer fields, including 0 and ""', async () => {
        const reply = await update({ id, name: '', models: '', group: '', config: '', type: 0, status: 0, key: '', priority: 0, weight: 0, base_url: '', other: '', model_mapping: '', system_prompt: '' });
        expect(reply.body.success).toBe(true);
        expect(await channelRow(id)).toMatchObject({
          type: 1, status: 1, name: 'edited', models: 'c,d', group: 'vip', config: '{"x":1}', key: 'sk-original',
          priority: 0, weight: 0, base_url: '', other: '', model_mapping: '', system_prompt: '',
        });
        expect((await abilities(id)).map((a) => a.priority)).toEqual([0, 0]);
      });

      it('partial updates: status toggles abilities, priority is copied, weight stored; key replaced when given', async () => {
        expect((await update({ id, status: 2 })).body.data).toMatchObject({ id, status: 2, key: '' });
        expect((await abilities(id)).map((a) => a.enabled)).toEqual([false, false]);
        expect((await update({ id, status: 1 })).body.data.status).toBe(1);
        expect((await abilities(id)).map((a) => a.enabled)).toEqual([true, true]);
        expect((await update({ id, priority: -3 })).body.data.priority).toBe(-3);
        expect((await abilities(id)).map((a) => a.priority)).toEqual([-3, -3]);
        expect((await update({ id, weight: 7 })).body.data.weight).toBe(7);
        expect((await channelRow(id))?.weight).toBe(7);
        const rekey = await update({ id, key: 'sk-new' });
        expect(rekey.body.data.key).toBe('');
        expect((await channelRow(id))?.key).toBe('sk-new');
        expect((await update({ id })).body.success).toBe(true);
      });

      it('keeps abilities consistent with the row under concurrent updates of one channel', async () => {
        const replies = await Promise.all(
          Array.from({ length: 8 }, (_, i) => update({ id, models: `m${i},n${i}`, group: i % 2 === 0 ? 'default' : 'default,vip' })),
        );
        for (const reply of replies) expect(reply.body.success).toBe(true);
        const row = await channelRow(id);
        const expected = row!.group.split(',').flatMap((group) => row!.models!.split(',').map((model) => `${group}/${model}`)).sort();
        expect((await abilities(id)).map((a) => `${a.group}/${a.model}`).sort()).toEqual(expected);
      });

      it('refuses unknown or missing ids and bad bodies, leaving the database unchanged', async () => {
        await expectRefused(() => update({ id: 999999, status: 2 }), 'record not found');
        await expectRefused(() => update({ status: 2 }), 'record not found');
        await expectRefused(() => update({ id: '1', status: 2 }), 'json: cannot unmarshal string into Go struct field Channel.id of type int');
        await expectRefused(() => update({ id, status: 1.5 }), 'json: cannot unmarshal number 1.5 into Go struct field Channel.status of type int');
        await expectRefused(() => update({ id, weight: -1 }), 'weight 必须在 0 到 9007199254740991 之间');
        await expectRefused(() => update({ id, group: 'x'.repeat(40) }), 'group 最多 32 个字符');
        await expectRefused(() => update({ id, models: 'a\u0000' }), 'models 不能包含 NUL 字符');
        await expectRefused(() => update(null), 'json: cannot unmarshal object into Go value of type model.Channel');
        await expectRefused(() => root.request('PUT', '/api/channel/', { rawBody: 'nope' }), /JSON|Unexpected/);
      });
    });

    describe('deletes', () => {
      it('DELETE /api/channel/:id removes the channel and its abilities; no existence check', async () => {
        const id = await createOne({ models: 'a,b', group: 'default,vip' });
        expect(await abilities(id)).toHaveLength(4);
        expect((await send(root, 'DELETE', `/api/channel/${id}/`)).body).toEqual({ success: true, message: '' });
        expect(await channelRow(id)).toBeUndefined();
        expect(await abilities(id)).toEqual([]);
        const before = await dumpDatabase(db());
        expect((await send(root, 'DELETE', '/api/channel/999999')).body).toEqual({ success: true, message: '' });
        expect(await dumpDatabase(db())).toBe(before);
        await expectRefused(() => send(root, 'DELETE', '/api/channel/abc'), 'strconv.Atoi: parsing "abc": invalid syntax');
      });

      it('DELETE /api/channel/disabled removes status 2 and 3 channels with their abilities (§6 #28 fixed)', async () => {
        const enabled = await createOne({ models: 'e' });
        const manual = await createOne({ models: 'm', status: 2 });
        const auto = await createOne({ models: 'x' });
        await update({ id: auto, status: 3 });
        const disabledCount = await db().selectFrom('channels').select('id').where('status', 'in', [2, 3]).execute();
        const reply = await send(root, 'DELETE', '/api/channel/disabled');
        expect(reply.body).toEqual({ success: true, message: '', data: disabledCount.length });
        expect(await channelRow(manual)).toBeUndefined();
        expect(await channelRow(auto)).toBeUndefined();
        expect(await abilities(manual)).toEqual([]);
        expect(await abilities(auto)).toEqual([]);
        expect(await channelRow(enabled)).toBeDefined();
        expect(await abilities(enabled)).toHaveLength(1);
        expect((await send(root, 'DELETE', '/api/channel/disabled/')).body).toEqual({ success: true, message: '', data: 0 });
      });
    });

    describe('GET /api/group/', () => {
      it('lists the GroupRatio keys (default three, any order) and follows the option', async () => {
        const reply = await admin.get('/api/group/');
        expect(reply.body.success).toBe(true);
        expect([...reply.body.data].sort()).toEqual(['default', 'svip', 'vip']);
        await setOption(db(), 'GroupRatio', '{"default":1,"gold":0.5}');
        expect([...(await admin.get('/api/group')).body.data].sort()).toEqual(['default', 'gold']);
        await setOption(db(), 'GroupRatio', 'not json');
        expect((await admin.get('/api/group/')).body).toEqual({ success: true, message: '', data: [] });
        await setOption(db(), 'GroupRatio', '{"default":1,"svip":1,"vip":1}');
      });
    });
  });
}
