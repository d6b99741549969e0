import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectRefused,
  failure,
  goTypeError,
  hostileStrings,
  invalidParameter,
  makeCaller,
  oneMegabyte,
  bodyTooDeep,
  bodyTooLarge,
  deeplyNested,
  overLimitBody,
  smallBodyTooLarge,
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
 * Bad input for the account and user-administration write routes (contract §2.3.2, §2.3.3,
 * §2.4.2–§2.4.5, §2.5.4–§2.5.7) and the API top-up (§2.6). Self routes are sent by the owning
 * user, admin routes by a root user (and by an admin where the role rules matter).
 */

// Ours: one message per rule that names the field, in the caller's language (zh without Accept-Language);
// one-api answers SQLite's "UNIQUE constraint failed: users.username", Go's validator text or invalid_input.
const duplicate = failure('用户名已被占用，请换一个');
const nulIn: Readonly<Record<string, string>> = { username: '用户名', password: '密码', display_name: '显示名称' };
const recordNotFound = failure('record not found');
const userNotFound = failure('用户不存在');

/** Every JSON field of one-api's User struct with its Go type. */
const userFields: readonly [string, GoType][] = [
  ['id', 'int'], ['username', 'string'], ['password', 'string'], ['display_name', 'string'], ['role', 'int'],
  ['status', 'int'], ['email', 'string'], ['github_id', 'string'], ['wechat_id', 'string'], ['lark_id', 'string'],
  ['oidc_id', 'string'], ['verification_code', 'string'], ['access_token', 'string'], ['quota', 'int64'],
  ['used_quota', 'int64'], ['request_count', 'int'], ['group', 'string'], ['aff_code', 'string'], ['inviter_id', 'int'],
];
const userTypeCases = userFields.flatMap(([field, type]) => wrongTypes(type).map(([label, raw]) => [`${field} as ${label}`, field, raw] as const));

/** Bodies no User-decoding route accepts (all → i18n invalid_parameter). */
const undecodable: readonly [string, string][] = [
  ['empty body', ''],
  ['form encoding', 'username=x&password=y'],
  ['truncated JSON', '{"username":"x"'],
  ['JSON array', '[{"username":"x"}]'],
  ['JSON string', '"x"'],
  ['JSON number', '42'],
  ['JSON boolean', 'false'],
  ['deeply nested JSON', deeplyNested],
];

/** Field values over the validator's limits (contract §2.1.1): field, value, the message naming field and rule. */
const overLimits: readonly [string, string, string, string][] = [
  ['13-character username', 'username', 'u'.repeat(13), '用户名长度不能超过 12 个字符'],
  ['1 MiB username', 'username', oneMegabyte, '用户名长度不能超过 12 个字符'],
  ['7-character password', 'password', 'p'.repeat(7), '密码长度必须在 8 到 20 个字符之间'],
  ['21-character password', 'password', 'p'.repeat(21), '密码长度必须在 8 到 20 个字符之间'],
  ['1 MiB password', 'password', oneMegabyte, '密码长度必须在 8 到 20 个字符之间'],
  ['21-character display name', 'display_name', '名'.repeat(21), '显示名称长度不能超过 20 个字符'],
  ['51-character e-mail', 'email', `${'e'.repeat(45)}@x.com`, '邮箱地址长度不能超过 50 个字符'],
];

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`bad input: /api/user and /api/topup — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let root: Caller;
    let root2: Caller;
    let admin: Caller;
    let alice: Caller;
    let bob: Caller;

    beforeAll(async () => {
      root = await makeCaller(db(), 'us_root', 100);
      root2 = await makeCaller(db(), 'us_root2', 100);
      admin = await makeCaller(db(), 'us_admin', 10);
      alice = await makeCaller(db(), 'us_alice', 1);
      bob = await makeCaller(db(), 'us_bob', 1);
    });

    const refused = (caller: Caller | null, probe: Probe, body: unknown, status?: number) =>
      expectRefused(db(), suite.client(), caller, probe, { body, status });

    // -- Bodies decoded as a User: register, self update, admin create/update ---------------------

    describe.each([
      ['POST /api/user/register', null, { username: 'newbie', password: 'password123' }],
      ['PUT /api/user/self', 'alice', { display_name: 'Alice' }],
      ['POST /api/user/', 'root', { username: 'made', password: 'password123' }],
      ['PUT /api/user/', 'root', { id: -1, display_name: 'X' }],
    ] as const)('%s', (route, who, base) => {
      const [method, path] = route.split(' ') as [string, string];
      const caller = (): Caller | null => (who === null ? null : who === 'root' ? root : alice);
      const body = (): Record<string, unknown> => ('id' in base ? { ...base, id: alice.id } : { ...base });

      it.each(undecodable)('%s → invalid parameter, nothing written', async (_label, raw) => {
        const deepReply = route === 'POST /api/user/register' ? smallBodyTooLarge : bodyTooDeep;
        await refused(caller(), { method, path, raw }, raw === deeplyNested ? deepReply : invalidParameter);
      });

      it.each(userTypeCases)('%s → invalid parameter, nothing written', async (_label, field, raw) => {
        await refused(caller(), { method, path, raw: withRaw(body(), field, raw) }, invalidParameter);
      });

      it.each(overLimits)('%s → refused naming the field and the rule (register: 1 MiB is over its 16 KB body limit), nothing written', async (_label, field, value, message) => {
        const expected = route === 'POST /api/user/register' && value.length > 16 * 1024 ? smallBodyTooLarge : failure(message);
        await refused(caller(), { method, path, body: { ...body(), [field]: value } }, expected);
      });

      // (register ignores display_name: the display name is the username)
      it.each(route === 'POST /api/user/register' ? ['username', 'password'] : ['username', 'password', 'display_name'])('NUL byte in %s → refused naming the field, nothing written', async (field) => {
        const value = field === 'password' ? 'password\u0000123' : 'a\u0000b';
        await refused(caller(), { method, path, body: { ...body(), [field]: value } }, failure(`${nulIn[field]}不能包含空字符（NUL）`));
      });

      it('a body over the size limit → invalid parameter', async () => {
        await refused(caller(), { method, path, raw: overLimitBody('username') }, route === 'POST /api/user/register' ? smallBodyTooLarge : bodyTooLarge());
      });
    });

    it.each([
      ['register', null, 'POST', '/api/user/register', { username: 'us_bob', password: 'password123' }],
      ['self update', 'alice', 'PUT', '/api/user/self', { username: 'us_bob' }],
      ['admin create', 'root', 'POST', '/api/user/', { username: 'us_bob', password: 'password123' }],
      ['admin update', 'root', 'PUT', '/api/user/', { id: 0, username: 'us_bob' }],
    ] as const)("%s with another user's username → duplicate, nothing written", async (_label, who, method, path, body) => {
      const caller = who === null ? null : who === 'root' ? root : alice;
      const sent = 'id' in body ? { ...body, id: alice.id } : body;
      await refused(caller, { method, path, body: sent }, duplicate);
    });

    it.each([
      ['empty username', { username: '', password: 'password123' }],
      ['missing username', { password: 'password123' }],
    ])('register with %s → "username is required", nothing written', async (_label, body) => {
      await refused(null, { method: 'POST', path: '/api/user/register', body }, failure('用户名不能为空'));
    });

    it('admin create reads own keys only: fields under __proto__ are not a username → username required', async () => {
      const raw = '{"__proto__":{"username":"x","password":"password123"},"constructor":{"prototype":{"role":100}}}';
      await refused(root, { method: 'POST', path: '/api/user/', raw }, failure('用户名不能为空'));
      expect(({} as Record<string, unknown>).username).toBeUndefined();
    });

    it.each([
      ['missing username', { password: 'password123' }, failure('用户名不能为空')],
      ['missing password', { username: 'made' }, failure('密码不能为空')],
      ['null fields', { username: null, password: null }, failure('用户名不能为空')],
      ['role equal to the caller', { username: 'made', password: 'password123', role: 100 }, failure('无法创建权限大于等于自己的用户')],
      ['role above the caller', { username: 'made', password: 'password123', role: 1000 }, failure('无法创建权限大于等于自己的用户')],
    ] as const)('admin create with %s → refused, nothing written', async (_label, body, expected) => {
      await refused(root, { method: 'POST', path: '/api/user/', body }, expected);
    });

    it.each([
      ['missing id', { display_name: 'X' }, invalidParameter],
      ['id 0', { id: 0, display_name: 'X' }, invalidParameter],
      ['negative id', { id: -1, display_name: 'X' }, recordNotFound],
      ['nonexistent id', { id: 987654, display_name: 'X' }, recordNotFound],
      ['largest safe id', { id: Number.MAX_SAFE_INTEGER, display_name: 'X' }, recordNotFound],
      ['role 5', { id: 'alice', role: 5 }, failure('角色取值无效，只能是普通用户、管理员或超级管理员')],
      ['negative role', { id: 'alice', role: -100 }, failure('角色取值无效，只能是普通用户、管理员或超级管理员')],
      ['status 7', { id: 'alice', status: 7 }, failure('状态取值无效，只能是启用、禁用或已删除')],
      ['33-character group', { id: 'alice', group: 'g'.repeat(33) }, failure('分组名称长度不能超过 32 个字符')],
      ['NUL in group', { id: 'alice', group: 'vip\u0000' }, failure('分组不能包含空字符（NUL）')],
      ['NUL in email', { id: 'alice', email: 'a\u0000@x.com' }, failure('邮箱地址不能包含空字符（NUL）')],
    ] as const)('admin update with %s → refused, nothing written', async (_label, body: Record<string, unknown>, expected) => {
      await refused(root, { method: 'PUT', path: '/api/user/', body: { ...body, id: body.id === 'alice' ? alice.id : body.id } }, expected);
    });

    it('admin update by an admin: a root target or a promotion to admin → refused, nothing written', async () => {
      await refused(admin, { method: 'PUT', path: '/api/user/', body: { id: root.id, display_name: 'pwned' } }, failure('无权更新同权限等级或更高权限等级的用户信息'));
      await refused(admin, { method: 'PUT', path: '/api/user/', body: { id: alice.id, role: 10 } }, failure('无权将其他用户权限等级提升到大于等于自己的权限等级'));
      await refused(admin, { method: 'PUT', path: '/api/user/', body: { id: alice.id, role: 100 } }, failure('无权将其他用户权限等级提升到大于等于自己的权限等级'));
    });

    // -- POST /api/user/manage -----------------------------------------------------------------

    it.each([
      ...undecodable,
      ['missing action', '{"username":"us_alice"}'],
      ['missing username', '{"action":"disable"}'],
      ['unknown action', '{"username":"us_alice","action":"explode"}'],
      ['SQL action', `{"username":"us_alice","action":"disable' OR '1'='1"}`],
      ['number username', '{"username":1,"action":"disable"}'],
      ['array action', '{"username":"us_alice","action":["disable"]}'],
      ['null action', '{"username":"us_alice","action":null}'],
    ])('manage with %s → invalid parameter, nothing written', async (_label, raw) => {
      await refused(root, { method: 'POST', path: '/api/user/manage', raw }, raw === deeplyNested ? bodyTooDeep : invalidParameter);
    });

    it.each([
      ['empty username', ''],
      ['unknown username', 'nobody'],
      ['SQL tautology', "' OR '1'='1"],
      ['SQL drop', "'; DROP TABLE users; --"],
      ['LIKE wildcard', 'us_%'],
      ['NUL', 'us_alice\u0000'],
      ['1 MiB', oneMegabyte],
    ])('manage a user named by %s → user not found, nothing written', async (_label, username) => {
      await refused(root, { method: 'POST', path: '/api/user/manage', body: { username, action: 'disable' } }, userNotFound);
    });

    it('manage: role rules refuse, nothing written', async () => {
      const manage = (_caller: Caller, username: string, action: string) => ({ method: 'POST', path: '/api/user/manage', body: { username, action } });
      await refused(root, manage(root, 'us_root2', 'disable'), failure('无法禁用超级管理员用户'));
      await refused(root, manage(root, 'us_root2', 'delete'), failure('无法删除超级管理员用户'));
      await refused(root, manage(root, 'us_root2', 'demote'), failure('无法降级超级管理员用户'));
      await refused(root, manage(root, 'us_admin', 'promote'), failure('该用户已经是管理员'));
      await refused(root, manage(root, 'us_alice', 'demote'), failure('该用户已经是普通用户'));
      await refused(admin, manage(admin, 'us_root', 'disable'), failure('无权更新同权限等级或更高权限等级的用户信息'));
      await refused(admin, manage(admin, 'us_alice', 'promote'), failure('普通管理员用户无法提升其他用户为管理员'));
    });

    // -- DELETE /api/user/:id, DELETE /api/user/self --------------------------------------------

    it.each([
      ['non-numeric', 'abc', failure('strconv.Atoi: parsing "abc": invalid syntax')],
      ['fraction', '1.5', failure('strconv.Atoi: parsing "1.5": invalid syntax')],
      ['SQL payload', '1 OR 1=1', failure('strconv.Atoi: parsing "1 OR 1=1": invalid syntax')],
      ['out of int64 range', '99999999999999999999', failure('strconv.Atoi: parsing "99999999999999999999": value out of range')],
      ['bad percent-encoding', '%zz', failure('strconv.Atoi: parsing "%zz": invalid syntax')],
      ['zero', '0', failure('id 为空！')],
      ['negative', '-1', recordNotFound],
      ['nonexistent', '987654', recordNotFound],
    ] as const)('DELETE /api/user/ with a %s id → refused, nothing written', async (_label, id, expected) => {
      await refused(root, { method: 'DELETE', path: `/api/user/${id.startsWith('%') ? id : encodeURIComponent(id)}` }, expected);
    });

    it('DELETE /api/user/:id of an equal or higher role → refused (no root exception), nothing written', async () => {
      const forbidden = failure('无权删除同权限等级或更高权限等级的用户');
      await refused(root, { method: 'DELETE', path: `/api/user/${root2.id}` }, forbidden);
      await refused(admin, { method: 'DELETE', path: `/api/user/${root.id}` }, forbidden);
      await refused(admin, { method: 'DELETE', path: `/api/user/${admin.id}` }, forbidden);
    });

    it('DELETE /api/user/self as root, with a junk body → refused, nothing written', async () => {
      await refused(root, { method: 'DELETE', path: '/api/user/self', raw: '{"id":5,"role":1}' }, failure('不能删除超级管理员账户'));
    });

    it('DELETE /api/user/self ignores a junk body: the caller (only) is soft-deleted', async () => {
      const doomed = await makeCaller(db(), 'us_doomed', 1);
      const others = () => db().selectFrom('users').selectAll().where('id', '!=', doomed.id).orderBy('id').execute();
      const before = await others();
      const reply = await send(suite.client(), doomed, { method: 'DELETE', path: `/api/user/self?id=${root.id}`, raw: `{"id":${root.id},"username":"us_root"}` });
      expect(reply.body).toEqual({ success: true, message: '' });
      const row = await db().selectFrom('users').selectAll().where('id', '=', doomed.id).executeTakeFirstOrThrow();
      expect(row.status).toBe(3);
      expect(row.username).toMatch(/^deleted_[0-9a-f]{32}$/);
      expect(await others()).toEqual(before);
    });

    // -- State-changing GETs: logout, token, aff -------------------------------------------------

    it.each([
      ['no cookie', undefined],
      ['forged cookie', "session=' OR '1'='1"],
      ['oversized cookie', `session=${'a'.repeat(4000)}`],
      ['script cookie', 'session=<script>alert(1)</script>'],
    ])('logout with %s → success, nothing written', async (_label, cookie) => {
      const headers: Record<string, string> = cookie === undefined ? {} : { cookie };
      await refused(null, { method: 'GET', path: `/api/user/logout?id=1&all=${encodeURIComponent("' OR 1=1 --")}`, headers }, { success: true, message: '' });
    });

    it('GET /api/user/token ignores junk: a fresh 32-hex token, only the caller\u2019s row changes', async () => {
      const others = () => db().selectFrom('users').selectAll().where('id', '!=', bob.id).orderBy('id').execute();
      const before = await others();
      const reply = await send(suite.client(), bob, { method: 'GET', path: `/api/user/token?token=${encodeURIComponent("' OR '1'='1")}&id=1`, raw: undefined });
      expect(reply.body).toMatchObject({ success: true, message: '' });
      expect(reply.body.data).toMatch(/^[0-9a-f]{32}$/);
      const row = await db().selectFrom('users').select('access_token').where('id', '=', bob.id).executeTakeFirstOrThrow();
      expect(row.access_token?.trim()).toBe(reply.body.data);
      expect(await others()).toEqual(before);
      bob = { ...bob, headers: { Authorization: reply.body.data as string } };
    });

    it('GET /api/user/aff ignores junk: the code is generated once and stays', async () => {
      await db().updateTable('users').set({ aff_code: null }).where('id', '=', alice.id).execute();
      const first = await send(suite.client(), alice, { method: 'GET', path: `/api/user/aff?aff=${encodeURIComponent('<script>')}` });
      expect(first.body.data).toMatch(/^[0-9a-zA-Z]+$/);
      const before = await stableDump(db());
      const again = await send(suite.client(), alice, { method: 'GET', path: '/api/user/aff?aff=x' });
      expect(again.body).toEqual(first.body);
      expect(await stableDump(db())).toBe(before);
    });

    // -- POST /api/topup (Admin) -----------------------------------------------------------------

    it.each<readonly [string, string, string]>([
      ['empty body', '', 'EOF'],
      ['JSON array', '[]', 'json: cannot unmarshal array into Go value of type controller.adminTopUpRequest'],
      ['JSON string', '"x"', 'json: cannot unmarshal string into Go value of type controller.adminTopUpRequest'],
      ...(['user_id', 'quota'] as const).flatMap((field) =>
        wrongTypes('int').map(([label, raw]) => [`${field} as ${label}`, withRaw({ user_id: 1, quota: 1 }, field, raw), goTypeError('adminTopUpRequest', field, 'int', raw)] as const),
      ),
      ...wrongTypes('string').map(([label, raw]) => [`remark as ${label}`, withRaw({ user_id: 1, quota: 1 }, 'remark', raw), goTypeError('adminTopUpRequest', 'remark', 'string', raw)] as const),
    ])('POST /api/topup with %s → decoder error, nothing written', async (_label, raw, message) => {
      await refused(root, { method: 'POST', path: '/api/topup', raw }, failure(message));
    });

    it.each([
      ['negative quota', { user_id: 0, quota: -1 }, failure('quota 不能为负数！')],
      ['nonexistent user', { user_id: 987654, quota: 1 }, userNotFound],
      ['negative user id', { user_id: -1, quota: 1 }, userNotFound],
      ['missing quota', { user_id: 0 }, invalidParameter],
    ] as const)('POST /api/topup with %s → refused, nothing written', async (_label, body, expected) => {
      await refused(root, { method: 'POST', path: '/api/topup', body: { ...body, user_id: body.user_id === 0 ? alice.id : body.user_id } }, expected);
    });

    // -- What one-api accepts ------------------------------------------------------------------

    it.each(hostileStrings.filter(([, v]) => [...v].length <= 12))('registers a %s username byte-identical, and it can log in', async (_label, value) => {
      const reply = await send(suite.client(), null, { method: 'POST', path: '/api/user/register', body: { username: value, password: 'password123', aff_code: "' OR '1'='1", password2: 1 } });
      expect(reply.body, reply.text).toEqual({ success: true, message: '' });
      const row = await db().selectFrom('users').selectAll().where('username', '=', value).executeTakeFirstOrThrow();
      expect([row.username, row.display_name, row.inviter_id, row.role]).toEqual([value, value, 0, 1]);
      const login = await suite.client().login(value, 'password123');
      expect(login.body.data).toMatchObject({ username: value, display_name: value });
    });

    it.each(hostileStrings)('self update stores a %s display name byte-identical', async (_label, value) => {
      const displayName = [...value].length <= 20 ? value : value.slice(0, 20);
      const reply = await send(suite.client(), alice, { method: 'PUT', path: '/api/user/self', body: { display_name: displayName, role: 100, quota: 5, status: 2 } });
      expect(reply.body, reply.text).toEqual({ success: true, message: '' });
      const self = await send(suite.client(), alice, { method: 'GET', path: '/api/user/self' });
      expect(self.body.data).toMatchObject({ display_name: displayName, role: 1, status: 1, quota: 0 });
    });

    it('admin update stores hostile text byte-identical and ignores fields it must not write', async () => {
      const value = "'; DROP TABLE users; --";
      const reply = await send(suite.client(), root, {
        method: 'PUT',
        path: '/api/user/',
        body: { id: alice.id, display_name: '<script>x</script>', email: value, group: "' OR '1'='1", access_token: 'f'.repeat(32), aff_code: 'zzzz', used_quota: 9, request_count: 9, inviter_id: 1, github_id: value, extra: [1] },
      });
      expect(reply.body, reply.text).toEqual({ success: true, message: '' });
      const row = await db().selectFrom('users').selectAll().where('id', '=', alice.id).executeTakeFirstOrThrow();
      expect([row.display_name, row.email, row.group]).toEqual(['<script>x</script>', value, "' OR '1'='1"]);
      expect([row.access_token === 'f'.repeat(32), row.aff_code === 'zzzz', row.used_quota, row.request_count, row.inviter_id, row.github_id]).toEqual([false, false, 0, 0, 0, '']);
    });

    it('API top-up stores a hostile remark byte-identical as the log content', async () => {
      const remark = `${hostileStrings.map(([, v]) => v).join(' ')}`;
      const reply = await send(suite.client(), root, { method: 'POST', path: '/api/topup', body: { user_id: bob.id, quota: 3, remark, extra: { a: 1 } } });
      expect(reply.body, reply.text).toEqual({ success: true, message: '' });
      const log = await db().selectFrom('logs').selectAll().where('user_id', '=', bob.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect([log.content, log.quota, log.type]).toEqual([remark, 3, 1]);
    });
  });
}
