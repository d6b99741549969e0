import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dumpDatabase } from './support/db';
import type { Client, Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Channel tags (not in one-api), on SQLite and PostgreSQL: tags on create and update, kept by a
 * PUT without `tags` (one-api's console), the `tag` filter of the list and the search, the tag
 * list with counts, the edit by tag (priority, weight, models and group with their abilities,
 * enable/disable) and the refusals, which change nothing.
 */
for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`channel tags — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let root: Client;

    beforeAll(async () => {
      root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
    });

    beforeEach(async () => {
      await db().deleteFrom('channels').execute();
      await db().deleteFrom('abilities').execute();
      await db().deleteFrom('oa_channel_tags').execute();
    });

    const send = (method: string, path: string, body?: unknown) => root.request(method, path, { body });
    const safe = Number.MAX_SAFE_INTEGER;
    const lastId = async () => (await db().selectFrom('channels').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    const createOne = async (body: Record<string, unknown>): Promise<number> => {
      const reply = await send('POST', '/api/channel/', { type: 1, key: 'sk-one', models: 'gpt-4o', group: 'default', name: 'c', ...body });
      expect(reply.body).toEqual({ success: true, message: '' });
      return lastId();
    };
    const storedTags = async () =>
      (await db().selectFrom('oa_channel_tags').selectAll().orderBy('channel_id').orderBy('tag').execute()).map((r) => [r.channel_id, r.tag]);
    const abilities = (id: number) =>
      db().selectFrom('abilities').select(['group', 'model', 'enabled', 'priority']).where('channel_id', '=', id).orderBy('group').orderBy('model').execute();
    const channel = (id: number) => db().selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const tagsOfReply = (reply: Reply) => (reply.body.data as { id: number; tags: string[] }[]).map((c) => [c.id, c.tags]);
    /** A refusal with a message naming the field, and nothing changed (one-api's tables and the tags). */
    const expectRefused = async (method: string, path: string, body: unknown, message: string | RegExp) => {
      const before = [await dumpDatabase(db()), JSON.stringify(await storedTags())];
      const reply = await send(method, path, body);
      expect(reply.body.success, JSON.stringify(body)).toBe(false);
      if (typeof message === 'string') expect(reply.body.message).toBe(message);
      else expect(reply.body.message).toMatch(message);
      expect([await dumpDatabase(db()), JSON.stringify(await storedTags())]).toEqual(before);
    };
    /** `expectRefused` with an Accept-Language header. */
    const expectRefusedIn = async (method: string, path: string, body: unknown, message: string, language: string) => {
      const before = [await dumpDatabase(db()), JSON.stringify(await storedTags())];
      const reply = await root.request(method, path, { body, headers: { 'Accept-Language': language } });
      expect(reply.body.success, `${method} ${path} ${JSON.stringify(body)}`).toBe(false);
      expect(reply.body.message, `${method} ${path} ${JSON.stringify(body)} ${language}`).toBe(message);
      expect([await dumpDatabase(db()), JSON.stringify(await storedTags())]).toEqual(before);
    };

    it('stores the tags of a new channel trimmed and once each, and lists them on GET one, list and search', async () => {
      const id = await createOne({ name: 'alpha', tags: [' team-a ', 'prod', 'team-a'] });
      expect(await storedTags()).toEqual([[id, 'prod'], [id, 'team-a']]);
      const one = await send('GET', `/api/channel/${id}`);
      expect((one.body.data as { tags: string[] }).tags).toEqual(['prod', 'team-a']);
      expect(tagsOfReply(await send('GET', '/api/channel/?p=0'))).toEqual([[id, ['prod', 'team-a']]]);
      expect(tagsOfReply(await send('GET', '/api/channel/search?keyword=alp'))).toEqual([[id, ['prod', 'team-a']]]);
      const untagged = await createOne({ name: 'beta' });
      expect((await send('GET', `/api/channel/${untagged}`)).body.data).toMatchObject({ tags: [] });
    });

    it('gives every key line of a multi-key create the same tags', async () => {
      await send('POST', '/api/channel/', { type: 1, key: 'k1\nk2', models: 'm', group: 'default', name: 'multi', tags: ['x'] });
      const rows = await storedTags();
      expect(rows.map(([, tag]) => tag)).toEqual(['x', 'x']);
    });

    it('replaces the tags on a PUT with tags, and keeps them on a PUT without tags (one-api console)', async () => {
      const id = await createOne({ tags: ['a', 'b'] });
      const replaced = await send('PUT', '/api/channel/', { id, name: 'renamed', tags: ['c'] });
      expect(replaced.body.success).toBe(true);
      expect((replaced.body.data as { tags: string[] }).tags).toEqual(['c']);
      // one-api's console sends the whole channel without `tags`.
      const full = { id, type: 1, key: '', name: 'by-one-api', models: 'gpt-4o', group: 'default', priority: 5, weight: 2, status: 1 };
      const kept = await send('PUT', '/api/channel/', full);
      expect(kept.body.success).toBe(true);
      expect((kept.body.data as { tags: string[] }).tags).toEqual(['c']);
      expect(await storedTags()).toEqual([[id, 'c']]);
      expect((await send('PUT', '/api/channel/', { id, priority: 3 })).body.success).toBe(true);
      expect((await send('PUT', '/api/channel/', { id, tags: null })).body.success).toBe(true);
      expect(await storedTags()).toEqual([[id, 'c']]);
      expect((await send('PUT', '/api/channel/', { id, tags: [] })).body.success).toBe(true);
      expect(await storedTags()).toEqual([]);
    });

    it('refuses bad tags with a message naming the field and changes nothing', async () => {
      const id = await createOne({ tags: ['keep'] });
      const cases: [unknown, string][] = [
        ['team-a', 'tags: expected an array of strings'],
        [[1], 'tags: expected an array of strings'],
        [['ok', '  '], 'tags[1]: a tag cannot be empty'],
        [['x'.repeat(33)], 'tags[0]: a tag is at most 32 characters'],
        [['a,b'], 'tags[0]: a tag cannot contain a comma'],
        [['a\u0001'], 'tags[0]: a tag cannot contain control characters'],
        [Array.from({ length: 17 }, (_, i) => `t${String(i)}`), 'tags: at most 16 tags per channel (got 17)'],
      ];
      for (const [tags, message] of cases) {
        await expectRefused('PUT', '/api/channel/', { id, name: 'changed', tags }, message);
        await expectRefused('POST', '/api/channel/', { type: 1, key: 'k', models: 'm', name: 'new', tags }, message);
      }
      // 32 characters (code points) and 16 tags are fine.
      const ok = await send('PUT', '/api/channel/', { id, tags: ['😀'.repeat(32), ...Array.from({ length: 15 }, (_, i) => `t${String(i)}`)] });
      expect(ok.body.success).toBe(true);
      expect((await storedTags()).length).toBe(16);
    });

    it('filters the list and the search by tag, and lists every tag with its channel count', async () => {
      const a1 = await createOne({ name: 'a1', tags: ['team-a'] });
      const b1 = await createOne({ name: 'b1', tags: ['team-b', 'shared'] });
      const a2 = await createOne({ name: 'a2', tags: ['team-a', 'shared'] });
      await createOne({ name: 'none' });
      const ids = (reply: Reply) => (reply.body.data as { id: number }[]).map((c) => c.id);
      expect(ids(await send('GET', '/api/channel/?p=0&tag=team-a'))).toEqual([a2, a1]);
      expect(ids(await send('GET', '/api/channel/?p=0&tag=%20shared%20'))).toEqual([a2, b1]);
      expect(ids(await send('GET', '/api/channel/?p=0&tag=nobody'))).toEqual([]);
      expect(ids(await send('GET', '/api/channel/?p=0&tag=')).length).toBe(4);
      expect(ids(await send('GET', '/api/channel/search?keyword=a&tag=team-a'))).toEqual([a1, a2]);
      expect(ids(await send('GET', '/api/channel/search?keyword=b&tag=team-a'))).toEqual([]);
      const bad = await send('GET', '/api/channel/?p=0&tag=a,b');
      expect(bad.body).toEqual({ success: false, message: 'tag: a tag cannot contain a comma' });
      const list = await send('GET', '/api/channel/tags');
      expect(list.body).toEqual({
        success: true,
        message: '',
        data: [
          { tag: 'shared', count: 2 },
          { tag: 'team-a', count: 2 },
          { tag: 'team-b', count: 1 },
        ],
      });
    });

    it('deletes the tags of deleted channels (single and delete-disabled)', async () => {
      const one = await createOne({ tags: ['x'] });
      const off = await createOne({ tags: ['y'], status: 2 });
      const kept = await createOne({ tags: ['z'] });
      expect((await send('DELETE', `/api/channel/${one}`)).body.success).toBe(true);
      expect((await send('DELETE', '/api/channel/disabled')).body).toEqual({ success: true, message: '', data: 1 });
      expect(await storedTags()).toEqual([[kept, 'z']]);
      expect(off).toBeGreaterThan(one);
    });

    describe('edit by tag', () => {
      it('sets priority and weight on every channel with the tag, and the abilities follow the priority', async () => {
        const a1 = await createOne({ tags: ['team-a'], priority: 0 });
        const a2 = await createOne({ tags: ['team-a'], priority: 1 });
        const other = await createOne({ tags: ['team-b'], priority: 7 });
        const reply = await send('PUT', '/api/channel/tag', { tag: 'team-a', priority: 9, weight: 4 });
        expect(reply.body).toEqual({ success: true, message: '', data: { count: 2 } });
        for (const id of [a1, a2]) {
          expect(await channel(id)).toMatchObject({ priority: 9, weight: 4 });
          expect((await abilities(id)).every((a) => Number(a.priority) === 9)).toBe(true);
        }
        expect(await channel(other)).toMatchObject({ priority: 7 });
      });

      it('sets models and group with the abilities rebuilt as the single update does', async () => {
        const a1 = await createOne({ tags: ['team-a'], models: 'gpt-4o', group: 'default' });
        const other = await createOne({ tags: ['team-b'], models: 'gpt-4o', group: 'default' });
        const reply = await send('PUT', '/api/channel/tag', { tag: 'team-a', models: 'm1, m2,m1', group: 'default,vip' });
        expect(reply.body.data).toEqual({ count: 1 });
        expect(await channel(a1)).toMatchObject({ models: 'm1,m2', group: 'default,vip' });
        expect((await abilities(a1)).map((a) => [a.group, a.model])).toEqual([
          ['default', 'm1'],
          ['default', 'm2'],
          ['vip', 'm1'],
          ['vip', 'm2'],
        ]);
        expect((await abilities(other)).map((a) => [a.group, a.model])).toEqual([['default', 'gpt-4o']]);
        // the same as a single-channel update of the same fields
        const single = await createOne({ models: 'gpt-4o' });
        await send('PUT', '/api/channel/', { id: single, models: 'm1,m2', group: 'default,vip' });
        expect(await abilities(single)).toEqual(await abilities(a1));
      });

      it('disables and enables every channel with the tag, abilities too', async () => {
        const a1 = await createOne({ tags: ['team-a'] });
        const a2 = await createOne({ tags: ['team-a'] });
        expect((await send('PUT', '/api/channel/tag', { tag: 'team-a', status: 2 })).body.data).toEqual({ count: 2 });
        for (const id of [a1, a2]) {
          expect((await channel(id)).status).toBe(2);
          expect((await abilities(id)).every((a) => !a.enabled)).toBe(true);
        }
        expect((await send('PUT', '/api/channel/tag', { tag: ' team-a ', status: 1 })).body.data).toEqual({ count: 2 });
        for (const id of [a1, a2]) {
          expect((await channel(id)).status).toBe(1);
          expect((await abilities(id)).every((a) => Boolean(a.enabled))).toBe(true);
        }
      });

      it('answers 0 for a tag no channel carries', async () => {
        await createOne({ tags: ['team-a'] });
        expect((await send('PUT', '/api/channel/tag', { tag: 'nobody', priority: 1 })).body).toEqual({ success: true, message: '', data: { count: 0 } });
      });

      it('refuses bad edits with a message naming the field and changes nothing', async () => {
        await createOne({ tags: ['team-a'] });
        const cases: [unknown, string | RegExp][] = [
          [undefined, 'invalid tag edit: empty body'],
          [[1], /^invalid tag edit: expected a JSON object/],
          [{ priority: 1 }, 'tag: expected a string'],
          [{ tag: 5, priority: 1 }, 'tag: expected a string'],
          [{ tag: '', priority: 1 }, 'tag: a tag cannot be empty'],
          [{ tag: 'a,b', priority: 1 }, 'tag: a tag cannot contain a comma'],
          [{ tag: 'team-a' }, /^nothing to change: give at least one of priority, weight, models, group, status$/],
          // priority, weight, models and group: the channel write's own check (see "one check" below)
          [{ tag: 'team-a', priority: 1.5 }, 'priority 必须是整数'],
          // absurd numbers: beyond a safe integer, infinite-looking, huge negative
          [{ tag: 'team-a', priority: 1e308 }, `priority 必须在 ${-safe} 到 ${safe} 之间`],
          [{ tag: 'team-a', priority: -(2 ** 60) }, `priority 必须在 ${-safe} 到 ${safe} 之间`],
          [{ tag: 'team-a', weight: 2 ** 53 }, `weight 必须在 0 到 ${safe} 之间`],
          [{ tag: 'team-a', weight: 0.5 }, 'weight 必须是整数'],
          [{ tag: 'team-a', priority: '1' }, 'priority 必须是整数'],
          [{ tag: 'team-a', weight: -1 }, `weight 必须在 0 到 ${safe} 之间`],
          [{ tag: 'team-a', models: ' , ' }, 'models 至少要有一项'],
          [{ tag: 'team-a', group: '' }, 'group 至少要有一项'],
          [{ tag: 'team-a', group: 'g'.repeat(33) }, 'group 最多 32 个字符'],
          [{ tag: 'team-a', status: '1' }, 'status: expected a number'],
          [{ tag: 'team-a', status: 3 }, 'status: expected 1 (enable) or 2 (disable)'],
          [{ tag: 'team-a', status: 1, name: 'x' }, /^name: unknown field/],
        ];
        for (const [body, message] of cases) await expectRefused('PUT', '/api/channel/tag', body, message);
        const notJson = await root.request('PUT', '/api/channel/tag', { body: '{bad', headers: { 'Content-Type': 'application/json' } });
        expect(notJson.body.success).toBe(false);
        // a body nested 200 levels deep, and a 100 KB tag: refused, nothing changed
        let deep: unknown = 1;
        for (let i = 0; i < 200; i++) deep = { tag: deep };
        expect((await root.request('PUT', '/api/channel/tag', { body: deep as Record<string, unknown> })).body.success).toBe(false);
        expect((await root.request('PUT', '/api/channel/tag', { body: { tag: 'x'.repeat(100_000), status: 2 } })).body.success).toBe(false);
      });

      it('is admin only', async () => {
        const anonymous = await suite.client().request('PUT', '/api/channel/tag', { body: { tag: 'x', status: 2 } });
        expect(anonymous.status).toBe(401);
        expect((await suite.client().get('/api/channel/tags')).status).toBe(401);
      });
    });

    it('one check: a channel write and an edit by tag refuse the same priority, weight, models and group with the same words, in the caller\'s language, and change nothing', async () => {
      const id = await createOne({ name: 'target', tags: ['team-a'] });
      // values the two routes used to answer differently (Go's type errors or PostgreSQL's texts
      // on a write, English-only texts on the edit by tag), or not at all
      const cases: [string, unknown, string, string][] = [
        ['priority', 1e308, `priority 必须在 ${-safe} 到 ${safe} 之间`, `priority must be between ${-safe} and ${safe}`],
        ['priority', -(2 ** 60), `priority 必须在 ${-safe} 到 ${safe} 之间`, `priority must be between ${-safe} and ${safe}`],
        ['priority', 0.5, 'priority 必须是整数', 'priority must be an integer'],
        ['priority', '1', 'priority 必须是整数', 'priority must be an integer'],
        ['priority', [1], 'priority 必须是整数', 'priority must be an integer'],
        ['priority', true, 'priority 必须是整数', 'priority must be an integer'],
        ['weight', 2 ** 53, `weight 必须在 0 到 ${safe} 之间`, `weight must be between 0 and ${safe}`],
        ['weight', -1, `weight 必须在 0 到 ${safe} 之间`, `weight must be between 0 and ${safe}`],
        ['weight', 0.5, 'weight 必须是整数', 'weight must be an integer'],
        ['weight', '3', 'weight 必须是整数', 'weight must be an integer'],
        ['weight', { n: 1 }, 'weight 必须是整数', 'weight must be an integer'],
        ['models', 5, 'models 必须是文本', 'models must be text'],
        ['models', ['gpt-4o'], 'models 必须是文本', 'models must be text'],
        ['models', 'a\u0000b', 'models 不能包含 NUL 字符', 'models cannot contain a NUL character'],
        ['group', ['default'], 'group 必须是文本', 'group must be text'],
        ['group', 'g'.repeat(33), 'group 最多 32 个字符', 'group is at most 32 characters'],
        ['group', 'vip\u0000', 'group 不能包含 NUL 字符', 'group cannot contain a NUL character'],
      ];
      for (const [field, value, zh, en] of cases) {
        for (const [language, message] of [['zh-CN', zh], ['en-US,en;q=0.9', en]] as const) {
          const bodies: [string, Record<string, unknown>][] = [
            ['POST', { type: 1, key: 'sk-new', models: 'gpt-4o', group: 'default', name: 'new', [field]: value }],
            ['PUT', { id, [field]: value }],
          ];
          for (const [method, body] of bodies) await expectRefusedIn(method, '/api/channel/', body, message, language);
          await expectRefusedIn('PUT', '/api/channel/tag', { tag: 'team-a', [field]: value }, message, language);
        }
      }
      // the same values pass both: the largest and smallest safe integers, a 32-character group
      const good = { priority: -safe, weight: safe, models: 'm1,m2', group: 'g'.repeat(32) };
      expect((await send('PUT', '/api/channel/', { id, ...good })).body.success).toBe(true);
      expect((await send('PUT', '/api/channel/tag', { tag: 'team-a', ...good })).body).toEqual({ success: true, message: '', data: { count: 1 } });
      expect(await channel(id)).toMatchObject(good);
    });

    it('the tag filter reaches every channel: 300 channels, the tagged ones on the last page; the list, the search, the count and the edit by tag agree', async () => {
      // the oldest three carry the tag: id desc, they are the plain list's last server page
      expect((await send('POST', '/api/channel/', { type: 1, key: 'k1\nk2\nk3', models: 'm', group: 'default', name: 'rare-one', tags: ['rare'] })).body.success).toBe(true);
      const keys = Array.from({ length: 297 }, (_, i) => `k-${String(i)}`).join('\n');
      expect((await send('POST', '/api/channel/', { type: 1, key: keys, models: 'm', group: 'default', name: 'plain' })).body.success).toBe(true);
      const ids = (reply: Reply) => (reply.body.data as { id: number; tags: string[] }[]).map((c) => c.id);
      const tagged = (await db().selectFrom('oa_channel_tags').select('channel_id').where('tag', '=', 'rare').orderBy('channel_id', 'desc').execute()).map((r) => r.channel_id);
      expect(tagged).toHaveLength(3);
      // the plain list: 30 pages of 10, the tagged channels only on the last one
      const pages: number[][] = [];
      for (let p = 0; p < 31; p++) pages.push(ids(await send('GET', `/api/channel/?p=${String(p)}`)));
      expect(pages.flat()).toHaveLength(300);
      expect(pages[29]?.slice(-3)).toEqual(tagged);
      expect(pages.slice(0, 29).flat().some((i) => tagged.includes(i))).toBe(false);
      // filtered on the server: the first page holds all of them, the next none
      expect(ids(await send('GET', '/api/channel/?p=0&tag=rare'))).toEqual(tagged);
      expect(ids(await send('GET', '/api/channel/?p=1&tag=rare'))).toEqual([]);
      expect(ids(await send('GET', '/api/channel/search?keyword=rare&tag=rare'))).toEqual([...tagged].reverse());
      expect(ids(await send('GET', '/api/channel/search?keyword=plain&tag=rare'))).toEqual([]);
      // the count the filter and the dialog show, and what the edit by tag changes
      expect((await send('GET', '/api/channel/tags')).body.data).toEqual([{ tag: 'rare', count: 3 }]);
      expect((await send('PUT', '/api/channel/tag', { tag: 'rare', status: 2 })).body.data).toEqual({ count: 3 });
      const disabled = await db().selectFrom('channels').select('id').where('status', '=', 2).orderBy('id', 'desc').execute();
      expect(disabled.map((r) => r.id)).toEqual(tagged);
    });
  });
}
