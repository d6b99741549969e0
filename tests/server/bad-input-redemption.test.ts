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
  withRaw,
  wrongTypes,
  type Caller,
  type GoType,
  type Probe,
} from './support/badInput';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Bad input for the redemption write routes (contract §2.8.4–§2.8.6, Admin, sent by a root user)
 * and for redeeming a code (`POST /api/user/topup`, §2.4.6, sent by a common user).
 */

const nameLength = failure('兑换码名称长度必须在1-20之间');
const countPositive = failure('兑换码个数必须大于0');
const countMax = failure('一次兑换码批量生成的个数不能大于 100');
const idRequired = failure('id 为空！');
const notFound = failure('record not found');
const keyMissing = failure('未提供兑换码');
const keyInvalid = failure('兑换失败，无效的兑换码');
const keyUsed = failure('兑换失败，该兑换码已被使用');
const nulRefused = failure('invalid byte sequence for encoding "UTF8": 0x00');

/** Every JSON field of one-api's Redemption struct (plus the request-only `count`). */
const redemptionFields: readonly [string, GoType][] = [
  ['id', 'int'], ['user_id', 'int'], ['key', 'string'], ['status', 'int'], ['name', 'string'],
  ['quota', 'int64'], ['created_time', 'int64'], ['redeemed_time', 'int64'], ['count', 'int'],
];
const typeCases = redemptionFields.flatMap(([field, type]) =>
  wrongTypes(type).map(([label, raw]) => [`${field} as ${label}`, field, raw, goTypeError('Redemption', field, type, raw)] as const),
);

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`bad input: /api/redemption and /api/user/topup — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let root: Caller;
    let user: Caller;
    let codeId: number;
    let usedKey: string;
    let disabledKey: string;

    /** Creates one code through the API; returns its id and key. */
    const createCode = async (name: string, quota = 10) => {
      const reply = await send(suite.client(), root, { method: 'POST', path: '/api/redemption/', body: { name, quota, count: 1 } });
      expect(reply.body.success, reply.text).toBe(true);
      const key = reply.body.data[0] as string;
      const row = await db().selectFrom('redemptions').select('id').where('key', '=', key).executeTakeFirstOrThrow();
      return { id: row.id, key };
    };

    beforeAll(async () => {
      root = await makeCaller(db(), 'rd_root', 100);
      user = await makeCaller(db(), 'rd_user', 1);
      codeId = (await createCode('base')).id;
      const used = await createCode('used');
      usedKey = used.key;
      expect((await send(suite.client(), user, { method: 'POST', path: '/api/user/topup', body: { key: usedKey } })).body.success).toBe(true);
      const disabled = await createCode('disabled');
      disabledKey = disabled.key;
      await send(suite.client(), root, { method: 'PUT', path: '/api/redemption/?status_only=true', body: { id: disabled.id, status: 2 } });
    });

    const refused = (caller: Caller, probe: Probe, body: unknown) => expectRefused(db(), suite.client(), caller, probe, { body });

    describe.each([
      ['POST', '/api/redemption/', false],
      ['PUT', '/api/redemption/', true],
      ['PUT', '/api/redemption/?status_only=true', true],
    ] as const)('%s %s', (method, path, needsId) => {
      const base = (): Record<string, unknown> => (needsId ? { id: codeId, name: 'ok', quota: 1 } : { name: 'ok', quota: 1, count: 1 });

      it.each(malformedBodies('model.Redemption'))('%s → decoder error, nothing written', async (_label, raw, message) => {
        if (message === null) await expectSomeFailure(db(), suite.client(), root, { method, path, raw });
        else await refused(root, { method, path, raw }, failure(message));
      });

      it.each(typeCases)('%s → Go type error, nothing written', async (_label, field, raw, message) => {
        await refused(root, { method, path, raw: withRaw(base(), field, raw) }, failure(message));
      });

      it.each(['name', 'key'])('NUL byte in %s → refused', async (field) => {
        await refused(root, { method, path, body: { ...base(), [field]: 'a\u0000b' } }, nulRefused);
      });

      it('a body over the size limit → invalid parameter', async () => {
        await refused(root, { method, path, raw: overLimitBody('name') }, bodyTooLarge());
      });
    });

    it.each([
      ['empty name', { name: '', count: 1 }, nameLength],
      ['missing name', { count: 1 }, nameLength],
      ['null name', { name: null, count: 1 }, nameLength],
      ['21-byte name', { name: 'n'.repeat(21), count: 1 }, nameLength],
      ['7 CJK characters (21 bytes)', { name: '码'.repeat(7), count: 1 }, nameLength],
      ['1 MiB name', { name: oneMegabyte, count: 1 }, nameLength],
      ['missing count', { name: 'ok' }, countPositive],
      ['zero count', { name: 'ok', count: 0 }, countPositive],
      ['negative count', { name: 'ok', count: -1 }, countPositive],
      ['count 101', { name: 'ok', count: 101 }, countMax],
      ['count 10^15', { name: 'ok', count: 1e15 }, countMax],
    ] as const)('POST /api/redemption/ with %s → refused', async (_label, body, expected) => {
      await refused(root, { method: 'POST', path: '/api/redemption/', body }, expected);
    });

    describe.each(['/api/redemption/', '/api/redemption/?status_only=true'])('PUT %s ids', (path) => {
      it.each([
        ['missing', undefined, idRequired],
        ['zero', 0, idRequired],
        ['null', null, idRequired],
        ['negative', -1, notFound],
        ['nonexistent', 987654, notFound],
        ['largest safe integer', Number.MAX_SAFE_INTEGER, notFound],
      ] as const)('id %s → refused', async (_label, id, expected) => {
        await refused(root, { method: 'PUT', path, body: { id, name: 'x', status: 2 } }, expected);
      });
    });

    it.each([
      ['non-numeric', 'abc', idRequired],
      ['zero', '0', idRequired],
      ['fraction', '1.5', idRequired],
      ['out of int64 range', '99999999999999999999', idRequired],
      ['SQL payload', encodeURIComponent('1 OR 1=1'), idRequired],
      ['NUL', '%00', idRequired],
      ['negative', '-1', notFound],
      ['nonexistent', '987654', notFound],
    ] as const)('DELETE /api/redemption/ with a %s id → refused', async (_label, id, expected) => {
      await refused(root, { method: 'DELETE', path: `/api/redemption/${id}` }, expected);
    });

    // -- POST /api/user/topup ------------------------------------------------------------------

    it.each(malformedBodies('controller.topUpRequest'))('topup: %s → decoder error', async (_label, raw, message) => {
      if (message === null) await expectSomeFailure(db(), suite.client(), user, { method: 'POST', path: '/api/user/topup', raw });
      else await refused(user, { method: 'POST', path: '/api/user/topup', raw }, failure(message));
    });

    it.each(wrongTypes('string'))('topup: key as %s → Go type error', async (_label, raw) => {
      await refused(user, { method: 'POST', path: '/api/user/topup', raw: `{"key":${raw}}` }, failure(goTypeError('topUpRequest', 'key', 'string', raw)));
    });

    it.each([
      ['missing key', {}, keyMissing],
      ['null key', { key: null }, keyMissing],
      ['empty key', { key: '' }, keyMissing],
      ['blank key', { key: '   ' }, keyInvalid],
      ['unknown key', { key: '0123456789abcdef0123456789abcdef' }, keyInvalid],
      ['SQL tautology', { key: "' OR '1'='1" }, keyInvalid],
      ['SQL drop', { key: "'; DROP TABLE users; --" }, keyInvalid],
      ['LIKE wildcard', { key: '%' }, keyInvalid],
      ['script', { key: '<script>alert(1)</script>' }, keyInvalid],
      ['NUL', { key: '\u0000' }, keyInvalid],
      ['1 MiB key', { key: oneMegabyte }, keyInvalid],
    ] as const)('topup: %s → refused, no quota, no log', async (_label, body, expected) => {
      await refused(user, { method: 'POST', path: '/api/user/topup', body }, expected);
    });

    it('topup: a used code and a disabled code → already used, nothing written', async () => {
      await refused(user, { method: 'POST', path: '/api/user/topup', body: { key: usedKey } }, keyUsed);
      await refused(user, { method: 'POST', path: '/api/user/topup', body: { key: disabledKey } }, keyUsed);
    });

    it('topup: a body over the size limit → invalid parameter', async () => {
      await refused(user, { method: 'POST', path: '/api/user/topup', raw: overLimitBody('key') }, bodyTooLarge());
    });

    // -- What one-api accepts ------------------------------------------------------------------

    it.each(hostileStrings)('stores a %s name byte-identical (create and update)', async (_label, value) => {
      const name = Buffer.byteLength(value) <= 20 ? value : value.slice(0, 8);
      const { id } = await createCode(name, 5);
      const read = await send(suite.client(), root, { method: 'GET', path: `/api/redemption/${id}` });
      expect(read.body.data).toMatchObject({ name, quota: 5, status: 1 });
      const updated = await send(suite.client(), root, { method: 'PUT', path: '/api/redemption/', body: { id, name: value, quota: 3 } });
      expect(updated.body, updated.text).toMatchObject({ success: true, data: { name: value, quota: 3 } });
      const row = await db().selectFrom('redemptions').select('name').where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.name).toBe(value);
    });

    it('an unpaired surrogate escape in a name is stored as U+FFFD, as Go decodes it', async () => {
      const reply = await send(suite.client(), root, { method: 'POST', path: '/api/redemption/', raw: '{"name":"a\\ud800","count":1}' });
      const row = await db().selectFrom('redemptions').select('name').where('key', '=', reply.body.data[0]).executeTakeFirstOrThrow();
      expect(row.name).toBe('a\ufffd');
    });

    it('create ignores unknown keys and server-owned fields; text/plain is decoded', async () => {
      const reply = await send(suite.client(), root, {
        method: 'POST',
        path: '/api/redemption/',
        headers: { 'content-type': 'text/plain' },
        raw: JSON.stringify({ name: 'extra', quota: 7, count: 2, id: 4242, user_id: user.id, key: 'f'.repeat(32), status: 3, redeemed_time: 9, admin: true }),
      });
      expect(reply.body.success, reply.text).toBe(true);
      const keys = reply.body.data as string[];
      expect(keys).toHaveLength(2);
      expect(keys).not.toContain('f'.repeat(32));
      const rows = await db().selectFrom('redemptions').selectAll().where('key', 'in', keys).execute();
      expect(rows.map((r) => [r.user_id, r.status, r.redeemed_time, r.quota])).toEqual([
        [root.id, 1, 0, 7],
        [root.id, 1, 0, 7],
      ]);
      expect(rows.map((r) => r.id)).not.toContain(4242);
    });

    it('update has no length check on the name: 1 MiB comes back byte-identical (PostgreSQL: its index refuses, nothing written, the driver text only in the log)', async () => {
      const { id } = await createCode('big');
      const probe: Probe = { method: 'PUT', path: '/api/redemption/', body: { id, name: oneMegabyte, quota: 1 } };
      if (target.kind === 'postgres') {
        const reply = await expectSomeFailure(db(), suite.client(), root, probe);
        expect(reply.body.message).toMatch(/^服务器内部错误/);
      } else {
        const updated = await send(suite.client(), root, probe);
        expect(updated.body.success, updated.text.slice(0, 300)).toBe(true);
        expect(updated.body.data.name).toBe(oneMegabyte);
      }
      await send(suite.client(), root, { method: 'DELETE', path: `/api/redemption/${id}` });
    });
  });
}
