import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectRefused,
  expectSomeFailure,
  failure,
  goTypeError,
  hostileStrings,
  makeCaller,
  malformedBodies,
  oneMegabyte,
  bodyTooLarge,
  overLimitBody,
  send,
  stableDump,
  withRaw,
  wrongTypes,
  type Caller,
  type GoType,
} from './support/badInput';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/** Bad input for the token write routes (contract §2.7.4–§2.7.6), sent by the owning user. */

const nameTooLong = failure('参数错误：令牌名称过长');
const idRequired = failure('id 或 userId 为空！');
const notFound = failure('record not found');
const badSubnet = (entry: string) => failure(`参数错误：无效的网段：failed to parse subnet: invalid CIDR address: ${entry}`);
const nulRefused = failure('invalid byte sequence for encoding "UTF8": 0x00');

/** Every JSON field of one-api's Token struct with its Go type. */
const tokenFields: readonly [string, GoType][] = [
  ['id', 'int'], ['user_id', 'int'], ['key', 'string'], ['status', 'int'], ['name', 'string'],
  ['created_time', 'int64'], ['accessed_time', 'int64'], ['expired_time', 'int64'], ['remain_quota', 'int64'],
  ['unlimited_quota', 'bool'], ['used_quota', 'int64'], ['models', 'string'], ['subnet', 'string'],
];

const typeCases = tokenFields.flatMap(([field, type]) =>
  wrongTypes(type).map(([label, raw]) => [`${field} as ${label}`, field, raw, goTypeError('Token', field, type, raw)] as const),
);

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`bad input: /api/token — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let alice: Caller;
    let aliceToken: number;
    let bobToken: number;

    beforeAll(async () => {
      alice = await makeCaller(db(), 'tok_alice', 1);
      const bob = await makeCaller(db(), 'tok_bob', 1);
      const mine = await send(suite.client(), alice, { method: 'POST', path: '/api/token/', body: { name: 'mine', remain_quota: 5 } });
      aliceToken = mine.body.data.id;
      const theirs = await send(suite.client(), bob, { method: 'POST', path: '/api/token/', body: { name: 'theirs' } });
      bobToken = theirs.body.data.id;
    });

    const refused = (probe: Parameters<typeof send>[2], body: unknown, status?: number) =>
      expectRefused(db(), suite.client(), alice, probe, { status, body });

    describe.each([
      ['POST', '/api/token/', {}],
      ['PUT', '/api/token/', { id: 0 }],
      ['PUT', '/api/token/?status_only=true', { id: 0 }],
    ] as const)('%s %s', (method, path, base) => {
      const withId = (): Record<string, unknown> => ('id' in base ? { id: aliceToken } : {});

      it.each(malformedBodies('model.Token'))('%s → decoder error, nothing written', async (_label, raw, message) => {
        if (message === null) await expectSomeFailure(db(), suite.client(), alice, { method, path, raw });
        else await refused({ method, path, raw }, failure(message));
      });

      it.each(malformedBodies('model.Token').filter(([, , m]) => m === null))('%s as text/plain → decoder error', async (_l, raw) => {
        await expectSomeFailure(db(), suite.client(), alice, { method, path, raw, headers: { 'content-type': 'text/plain' } });
      });

      it.each(typeCases)('%s → Go type error, nothing written', async (_label, field, raw, message) => {
        await refused({ method, path, raw: withRaw({ ...withId(), name: 'ok' }, field, raw) }, failure(message));
      });

      it.each([
        ['31 ASCII bytes', 'n'.repeat(31)],
        ['11 CJK characters (33 bytes)', '令'.repeat(11)],
        ['1 MiB', oneMegabyte],
      ])('name of %s → too long', async (_label, name) => {
        await refused({ method, path, body: { ...withId(), name } }, nameTooLong);
      });

      it.each([
        ['not an address', 'abc'],
        ['prefix too long', '10.0.0.0/33'],
        ['SQL payload', "' OR '1'='1"],
        ['script', '<script>'],
        ['second entry bad', '10.0.0.0/8, ;DROP TABLE users'],
      ])('subnet %s → invalid subnet', async (_label, subnet) => {
        const entry = subnet.split(',').map((s) => s.trim()).find((s) => !/^\d/.test(s)) ?? subnet;
        await refused({ method, path, body: { ...withId(), name: 'ok', subnet } }, badSubnet(entry === '10.0.0.0/33' ? '10.0.0.0/33' : entry));
      });

      it.each(['name', 'models', 'key'])('NUL byte in %s → refused, nothing written', async (field) => {
        await refused({ method, path, body: { ...withId(), name: 'ok', [field]: 'a\u0000b' } }, nulRefused);
      });

      it('a body over the size limit → invalid parameter', async () => {
        await refused({ method, path, raw: overLimitBody('name') }, bodyTooLarge());
      });
    });

    describe.each(['PUT /api/token/', 'PUT /api/token/?status_only=true'])('%s ids', (route) => {
      const path = route.slice(4);
      it.each([
        ['missing', undefined, idRequired],
        ['zero', 0, idRequired],
        ['null', null, idRequired],
        ['negative', -1, notFound],
        ['nonexistent', 987654, notFound],
        ['largest safe integer', Number.MAX_SAFE_INTEGER, notFound],
      ] as const)('id %s → refused', async (_label, id, body) => {
        await refused({ method: 'PUT', path, body: { id, name: 'x', status: 2 } }, body);
      });

      it("another user's token → record not found, untouched", async () => {
        await refused({ method: 'PUT', path, body: { id: bobToken, name: 'stolen', status: 2 } }, notFound);
      });
    });

    it.each([
      ['non-numeric', 'abc', idRequired],
      ['zero', '0', idRequired],
      ['fraction', '1.5', idRequired],
      ['out of int64 range', '99999999999999999999', idRequired],
      ['SQL payload', encodeURIComponent('1 OR 1=1'), idRequired],
      ['SQL drop', encodeURIComponent("1; DROP TABLE tokens; --"), idRequired],
      ['NUL', '%00', idRequired],
      ['bad percent-encoding', '%zz', idRequired],
      ['negative', '-1', notFound],
      ['nonexistent', '987654', notFound],
    ] as const)('DELETE /api/token/ with a %s id → refused', async (_label, id, body) => {
      await refused({ method: 'DELETE', path: `/api/token/${id}` }, body);
    });

    it("DELETE another user's token → record not found, untouched", async () => {
      await refused({ method: 'DELETE', path: `/api/token/${bobToken}` }, notFound);
    });

    // ---------------------------------------------------------------------------------------
    // What one-api accepts

    it.each(hostileStrings)('stores a %s name and models byte-identical', async (_label, value) => {
      const name = Buffer.byteLength(value) <= 30 ? value : value.slice(0, 10);
      const created = await send(suite.client(), alice, {
        method: 'POST',
        path: '/api/token/',
        body: { name, models: value, remain_quota: 1 },
      });
      expect(created.body, created.text).toMatchObject({ success: true, data: { name, models: value } });
      const id = created.body.data.id as number;
      const read = await send(suite.client(), alice, { method: 'GET', path: `/api/token/${id}` });
      expect(read.body.data.name).toBe(name);
      expect(read.body.data.models).toBe(value);
      const row = await db().selectFrom('tokens').select(['name', 'models']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toEqual({ name, models: value });
      const updated = await send(suite.client(), alice, { method: 'PUT', path: '/api/token/', body: { id, name, models: `${value}2` } });
      expect(updated.body.data.models).toBe(`${value}2`);
      // (A backslash is PostgreSQL's LIKE escape, as in one-api there: such keywords are not searched here.)
      if (!name.includes('\\')) {
        const search = await send(suite.client(), alice, { method: 'GET', path: `/api/token/search?keyword=${encodeURIComponent(name)}` });
        expect(search.body.data.map((t: { id: number }) => t.id)).toContain(id);
      }
    });

    it('ignores unknown keys and server-owned fields; accepts text/plain and a past expiry (a negative quota: numeric-ranges.test.ts)', async () => {
      const before = await db().selectFrom('users').selectAll().execute();
      const reply = await send(suite.client(), alice, {
        method: 'POST',
        path: '/api/token/',
        headers: { 'content-type': 'text/plain' },
        raw: JSON.stringify({
          name: 'extra', remain_quota: 5, expired_time: 1, id: 424242, user_id: 1, key: 'k'.repeat(48), status: 9,
          used_quota: 77, created_time: 5, role: 100, nested: { deep: [1, { x: null }] }, constructor: 'x',
        }).replace('{', '{"__proto__":{"name":"polluted","user_id":1},'),
      });
      expect(reply.body, reply.text).toMatchObject({ success: true, data: { user_id: alice.id, status: 1, used_quota: 0, remain_quota: 5, expired_time: 1 } });
      expect(reply.body.data.id).not.toBe(424242);
      expect(reply.body.data.key).not.toBe('k'.repeat(48));
      expect(await db().selectFrom('users').selectAll().execute()).toEqual(before);
    });

    it('binds keys case-insensitively as Go does, and stores a lone surrogate as U+FFFD as Go does', async () => {
      const reply = await send(suite.client(), alice, { method: 'POST', path: '/api/token/', raw: '{"NAME":"upper","Remain_Quota":3,"models":"a\\ud800b"}' });
      expect(reply.body, reply.text).toMatchObject({ success: true, data: { name: 'upper', remain_quota: 3, models: 'a\ufffdb' } });
      expect(({} as Record<string, unknown>).name).toBeUndefined();
    });

    it('a JSON null body creates a token with zero values (expiry: the column default -1), as one-api does', async () => {
      const reply = await send(suite.client(), alice, { method: 'POST', path: '/api/token/', raw: 'null' });
      expect(reply.body, reply.text).toMatchObject({ success: true, data: { name: '', remain_quota: 0, expired_time: -1, user_id: alice.id } });
    });

    it('a negative remain_quota (not unlimited) is refused on create and update with a message naming the field; nothing changes', async () => {
      const range = failure('remain_quota 必须在 0 到 1000000000000000 之间');
      await refused({ method: 'POST', path: '/api/token/', body: { name: 'neg', remain_quota: -1 } }, range);
      await refused({ method: 'POST', path: '/api/token/', body: { name: 'neg', remain_quota: -500000, unlimited_quota: false } }, range);
      await refused({ method: 'PUT', path: '/api/token/', body: { id: aliceToken, name: 'mine', remain_quota: -1 } }, range);
      await refused(
        { method: 'PUT', path: '/api/token/', body: { id: aliceToken, name: 'mine', remain_quota: -3 }, headers: { 'Accept-Language': 'en' } },
        failure('remain_quota must be between 0 and 1000000000000000'),
      );
      // an unlimited token keeps one-api's -1 there
      const free = await send(suite.client(), alice, { method: 'POST', path: '/api/token/', body: { name: 'free', remain_quota: -1, unlimited_quota: true } });
      expect(free.body, free.text).toMatchObject({ success: true, data: { remain_quota: -1, unlimited_quota: true } });
    });

    it('a status-only update with a body of wrong-typed ignored fields still fails, and the state is unchanged', async () => {
      const before = await stableDump(db());
      const reply = await send(suite.client(), alice, {
        method: 'PUT',
        path: '/api/token/?status_only=true',
        raw: withRaw({ id: aliceToken, status: 2 }, 'used_quota', '"lots"'),
      });
      expect(reply.body).toEqual(failure(goTypeError('Token', 'used_quota', 'int64', '"lots"')));
      expect(await stableDump(db())).toBe(before);
    });
  });
}
