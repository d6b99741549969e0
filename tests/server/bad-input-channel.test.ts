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
  type Probe,
} from './support/badInput';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Bad input for the channel write routes (contract §2.9.5–§2.9.12, Admin, sent by a root user).
 * Channels here are of type 14 (Anthropic): no balance endpoint, so nothing leaves the machine.
 */

const notFound = failure('record not found');
const emptySlice = failure('empty slice found');
const nulRefused = failure('ERROR: invalid byte sequence for encoding "UTF8": 0x00 (SQLSTATE 22021)');
const tooLong = (n: number) => failure(`ERROR: value too long for type character varying(${n}) (SQLSTATE 22001)`);
const atoi = (raw: string) => failure(`strconv.Atoi: parsing ${JSON.stringify(raw)}: invalid syntax`);
const atoiRange = (raw: string) => failure(`strconv.Atoi: parsing ${JSON.stringify(raw)}: value out of range`);

/** Every JSON field of one-api's Channel struct with its Go type. */
const channelFields: readonly [string, GoType][] = [
  ['id', 'int'], ['type', 'int'], ['key', 'string'], ['status', 'int'], ['name', 'string'], ['weight', 'uint'],
  ['created_time', 'int64'], ['test_time', 'int64'], ['response_time', 'int'], ['base_url', 'string'],
  ['other', 'string'], ['balance', 'float64'], ['balance_updated_time', 'int64'], ['models', 'string'],
  ['group', 'string'], ['used_quota', 'int64'], ['model_mapping', 'string'], ['priority', 'int64'],
  ['config', 'string'], ['system_prompt', 'string'],
];
const safe = Number.MAX_SAFE_INTEGER;
/** Priority, weight, models and group: checked by the one check an edit by tag makes too (server/services/channelFields.ts). */
const sharedFields: ReadonlySet<string> = new Set(['priority', 'weight', 'models', 'group']);
/** That check's refusal (zh, the default language) of `raw` (JSON text) as `field`. */
const sharedRefusal = (field: string, raw: string): string => {
  if (field === 'models' || field === 'group') return `${field} 必须是文本`;
  const value: unknown = JSON.parse(raw);
  if (typeof value !== 'number' || !Number.isInteger(value)) return `${field} 必须是整数`;
  return field === 'priority' ? `priority 必须在 ${-safe} 到 ${safe} 之间` : `weight 必须在 0 到 ${safe} 之间`;
};
const typeCases = channelFields.flatMap(([field, type]) =>
  wrongTypes(type).map(
    ([label, raw]) => [`${field} as ${label}`, field, raw, sharedFields.has(field) ? sharedRefusal(field, raw) : goTypeError('Channel', field, type, raw)] as const,
  ),
);
const stringFields = channelFields.filter(([, type]) => type === 'string').map(([field]) => field);

/** Ids in the path that Go's Atoi refuses, or that match nothing. */
const badPathIds: readonly [string, string, { success: false; message: string }][] = [
  ['non-numeric', 'abc', atoi('abc')],
  ['fraction', '1.5', atoi('1.5')],
  ['SQL payload', '1 OR 1=1', atoi('1 OR 1=1')],
  ['SQL drop', "1; DROP TABLE channels; --", atoi("1; DROP TABLE channels; --")],
  ['script', '<script>', atoi('<script>')],
  ['out of int64 range', '99999999999999999999', atoiRange('99999999999999999999')],
];

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`bad input: /api/channel — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let root: Caller;
    let channelId: number;
    const base = { type: 14, name: 'base', key: 'sk-base', models: 'claude-3', group: 'default', base_url: 'http://127.0.0.1:9' };

    beforeAll(async () => {
      root = await makeCaller(db(), 'ch_root', 100);
      const reply = await send(suite.client(), root, { method: 'POST', path: '/api/channel/', body: base });
      expect(reply.body.success, reply.text).toBe(true);
      channelId = (await db().selectFrom('channels').select('id').executeTakeFirstOrThrow()).id;
    });

    const refused = (probe: Probe, body: unknown) => expectRefused(db(), suite.client(), root, probe, { body });

    describe.each([
      ['POST', false],
      ['PUT', true],
    ] as const)('%s /api/channel/', (method, needsId) => {
      const path = '/api/channel/';
      const body = (): Record<string, unknown> => (needsId ? { ...base, id: channelId } : base);

      it.each(malformedBodies('model.Channel'))('%s → decoder error, nothing written', async (_label, raw, message) => {
        if (message === null) await expectSomeFailure(db(), suite.client(), root, { method, path, raw });
        else await refused({ method, path, raw }, failure(message));
      });

      it.each(typeCases)('%s → type error, nothing written', async (_label, field, raw, message) => {
        await refused({ method, path, raw: withRaw(body(), field, raw) }, failure(message));
      });

      it.each(stringFields)('NUL byte in %s → refused, nothing written', async (field) => {
        await refused({ method, path, body: { ...body(), [field]: 'a\u0000b' } }, sharedFields.has(field) ? failure(`${field} 不能包含 NUL 字符`) : nulRefused);
      });

      it.each([
        ['group of 33 characters', 'group', 'g'.repeat(33), 32],
        ['group of 1 MiB', 'group', oneMegabyte, 32],
        ['model_mapping of 1025 characters', 'model_mapping', `{"a":"${'b'.repeat(1017)}"}`, 1024],
      ] as const)('%s → too long for the column, nothing written', async (_label, field, value, n) => {
        // the group: the shared check's words (an edit by tag answers the same); the rest PostgreSQL's
        await refused({ method, path, body: { ...body(), [field]: value } }, field === 'group' ? failure(`group 最多 ${String(n)} 个字符`) : tooLong(n));
      });

      it('a body over the size limit → invalid parameter', async () => {
        await refused({ method, path, raw: overLimitBody('key') }, bodyTooLarge());
      });
    });

    it.each([
      ['missing key', { ...base, key: undefined }],
      ['empty key', { ...base, key: '' }],
      ['newlines only', { ...base, key: '\n\n\n' }],
      ['null key', { ...base, key: null }],
    ])('POST with %s → empty slice found, nothing written', async (_label, body) => {
      await refused({ method: 'POST', path: '/api/channel/', body }, emptySlice);
    });

    it.each([
      ['missing', undefined],
      ['zero', 0],
      ['null', null],
      ['negative', -1],
      ['nonexistent', 987654],
      ['largest safe integer', Number.MAX_SAFE_INTEGER],
    ] as const)('PUT with id %s → record not found, nothing written', async (_label, id) => {
      await refused({ method: 'PUT', path: '/api/channel/', body: { id, name: 'renamed', status: 2 } }, notFound);
    });

    it.each(badPathIds)('DELETE /api/channel/ with a %s id → Atoi error', async (_label, id, expected) => {
      await refused({ method: 'DELETE', path: `/api/channel/${encodeURIComponent(id)}` }, expected);
    });

    it.each([
      ['zero', '0'],
      ['negative', '-1'],
      ['nonexistent', '987654'],
    ])('DELETE /api/channel/ with a %s id → success (no existence check), nothing written', async (_label, id) => {
      await refused({ method: 'DELETE', path: `/api/channel/${id}` }, { success: true, message: '' });
    });

    it('DELETE /api/channel/disabled with a junk body and query → 0 deleted, nothing written', async () => {
      await refused(
        { method: 'DELETE', path: `/api/channel/disabled?status=1&id=${encodeURIComponent("' OR '1'='1")}`, raw: '{"status":1,"id":"*"}' },
        { success: true, message: '', data: 0 },
      );
    });

    it.each(['test', 'update_balance'])('GET /api/channel/%s/:id with bad ids → Atoi error or record not found, nothing written', async (route) => {
      for (const [, id, expected] of badPathIds) await refused({ method: 'GET', path: `/api/channel/${route}/${encodeURIComponent(id)}` }, expected);
      for (const id of ['0', '-1', '987654']) {
        await refused({ method: 'GET', path: `/api/channel/${route}/${id}?model=${encodeURIComponent("'; DROP TABLE logs; --")}` }, notFound);
      }
    });

    it.each([
      ['unknown', 'nothing'],
      ['SQL payload', "all' OR '1'='1"],
      ['script', '<script>alert(1)</script>'],
      ['NUL', '\u0000'],
    ])('GET /api/channel/test?scope= %s → success, tests nothing, nothing written', async (_label, scope) => {
      await refused({ method: 'GET', path: `/api/channel/test?scope=${encodeURIComponent(scope)}` }, { success: true, message: '' });
    });

    describe('/api/channel/test_run', () => {
      const path = '/api/channel/test_run';
      const badRequest = 'invalid test run request';

      it.each([
        ['empty', ''],
        ['not JSON', '{"ids":[1,'],
        ['a number', '7'],
        ['a string', '"all"'],
        ['both scope and ids', '{"scope":"all","ids":[1]}'],
        ['scope SQL payload', JSON.stringify({ scope: "all' OR '1'='1" })],
        ['scope script', JSON.stringify({ scope: '<script>alert(1)</script>' })],
        ['scope NUL', JSON.stringify({ scope: 'all\u0000' })],
        ['scope null', '{"scope":null}'],
        ['ids null', '{"ids":null}'],
        ['ids empty', '{"ids":[]}'],
        ['ids of strings', '{"ids":["1 OR 1=1"]}'],
        ['ids of objects', '{"ids":[{"id":1}]}'],
        ['ids fraction', '{"ids":[1.5]}'],
        ['ids out of range', '{"ids":[99999999999999999999]}'],
        ['ids too many', JSON.stringify({ ids: Array.from({ length: 10_001 }, () => 1) })],
      ])('POST with %s body → a clear error, no run, nothing written', async (_label, raw) => {
        const reply = await expectSomeFailure(db(), suite.client(), root, { method: 'POST', path, raw });
        expect(reply.body.message).toMatch(new RegExp(`^${badRequest}: `));
        await refused({ method: 'GET', path }, { success: true, message: '', data: null });
      });

      it('POST with a body over the size limit → invalid parameter', async () => {
        await refused({ method: 'POST', path, raw: overLimitBody('scope') }, bodyTooLarge());
      });

      it.each(['GET', 'DELETE'] as const)('%s /api/channel/test_run/:id with bad ids → Atoi error or record not found, nothing written', async (method) => {
        for (const [, id, expected] of badPathIds) await refused({ method, path: `${path}/${encodeURIComponent(id)}` }, expected);
        for (const id of ['0', '-1', '987654']) await refused({ method, path: `${path}/${id}` }, notFound);
      });

      it.each([
        ['negative', '-1'],
        ['fraction', '0.5'],
        ['SQL payload', "0 OR 1=1"],
        ['out of range', '99999999999999999999'],
      ])('GET /api/channel/test_run/:id?after= %s → a clear error, nothing written', async (_label, after) => {
        await refused(
          { method: 'GET', path: `${path}/1?after=${encodeURIComponent(after)}` },
          failure(`invalid after: expected a non-negative integer, got ${JSON.stringify(after)}`),
        );
      });
    });

    it('GET /api/channel/update_balance with junk → success; no channel of a supported type, nothing written', async () => {
      await refused({ method: 'GET', path: `/api/channel/update_balance?id=${encodeURIComponent("1 OR 1=1")}`, raw: undefined }, { success: true, message: '' });
    });

    // -- What one-api accepts ------------------------------------------------------------------

    it.each(hostileStrings)('stores a %s in every free-text field byte-identical', async (_label, value) => {
      const fields = { name: value, models: value, base_url: value, other: value, model_mapping: value, system_prompt: value, config: value };
      const created = await send(suite.client(), root, { method: 'POST', path: '/api/channel/', body: { ...base, ...fields, key: `${value}\n${value}2` } });
      expect(created.body, created.text).toEqual({ success: true, message: '' });
      const rows = await db().selectFrom('channels').selectAll().where('name', '=', value).orderBy('id').execute();
      expect(rows.map((r) => r.key)).toEqual([value, `${value}2`]);
      for (const row of rows) {
        const read = await send(suite.client(), root, { method: 'GET', path: `/api/channel/${row.id}` });
        expect(read.body.data).toMatchObject(fields);
        const abilities = await db().selectFrom('abilities').select('model').where('channel_id', '=', row.id).execute();
        expect(abilities.map((a) => a.model).sort()).toEqual([...new Set(value.split(','))].sort());
      }
      const updated = await send(suite.client(), root, { method: 'PUT', path: '/api/channel/', body: { id: rows[0]!.id, name: `${value}!`, group: `${value}`.slice(0, 32) } });
      expect(updated.body.data).toMatchObject({ name: `${value}!`, group: value.slice(0, 32) });
      for (const row of rows) await send(suite.client(), root, { method: 'DELETE', path: `/api/channel/${row.id}` });
    });

    it('ignores unknown keys and statistics, decodes text/plain, de-duplicates a repeated group', async () => {
      const reply = await send(suite.client(), root, {
        method: 'POST',
        path: '/api/channel/',
        headers: { 'content-type': 'text/plain' },
        raw: JSON.stringify({ ...base, name: 'extra', id: 4242, groups: ['default'], used_quota: 99, balance: 5.5, response_time: 7, group: 'default,default', admin: { role: 100 } }),
      });
      expect(reply.body, reply.text).toEqual({ success: true, message: '' });
      const row = await db().selectFrom('channels').selectAll().where('name', '=', 'extra').executeTakeFirstOrThrow();
      expect(row.id).not.toBe(4242);
      expect([row.used_quota, Number(row.balance ?? 0), row.response_time ?? 0]).toEqual([0, 0, 0]);
      const abilities = await db().selectFrom('abilities').selectAll().where('channel_id', '=', row.id).execute();
      expect(abilities).toHaveLength(1);
      await send(suite.client(), root, { method: 'DELETE', path: `/api/channel/${row.id}` });
    });

    it('an unpaired surrogate escape is stored as U+FFFD, as Go decodes it', async () => {
      const reply = await send(suite.client(), root, { method: 'PUT', path: '/api/channel/', raw: `{"id":${channelId},"other":"a\\udc00b\\ud83d\\ude00"}` });
      expect(reply.body.data.other).toBe('a\ufffdb\u{1f600}');
      const row = await db().selectFrom('channels').select('other').where('id', '=', channelId).executeTakeFirstOrThrow();
      expect(row.other).toBe('a\ufffdb\u{1f600}');
    });

    it('a 1 MiB system prompt comes back byte-identical', async () => {
      const reply = await send(suite.client(), root, { method: 'PUT', path: '/api/channel/', body: { id: channelId, system_prompt: oneMegabyte } });
      expect(reply.body.success).toBe(true);
      const read = await send(suite.client(), root, { method: 'GET', path: `/api/channel/${channelId}` });
      expect(read.body.data.system_prompt).toBe(oneMegabyte);
      await send(suite.client(), root, { method: 'PUT', path: '/api/channel/', body: { id: channelId, system_prompt: '' } });
    });

    it('a 1 MiB name is stored byte-identical (PostgreSQL: its name index refuses, nothing written, the driver text only in the log)', async () => {
      const probe: Probe = { method: 'PUT', path: '/api/channel/', body: { id: channelId, name: oneMegabyte } };
      if (target.kind === 'postgres') {
        const reply = await expectSomeFailure(db(), suite.client(), root, probe);
        expect(reply.body.message).toMatch(/^服务器内部错误/);
      } else {
        const before = await stableDump(db());
        expect((await send(suite.client(), root, probe)).body.success).toBe(true);
        const row = await db().selectFrom('channels').select('name').where('id', '=', channelId).executeTakeFirstOrThrow();
        expect(row.name).toBe(oneMegabyte);
        await send(suite.client(), root, { method: 'PUT', path: '/api/channel/', body: { id: channelId, name: 'base' } });
        expect(await stableDump(db())).toBe(before);
      }
    });
  });
}
