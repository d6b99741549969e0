import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectRefused,
  expectSomeFailure,
  failure,
  hostileStrings,
  invalidParameter,
  makeCaller,
  oneMegabyte,
  bodyTooLarge,
  overLimitBody,
  send,
  type Caller,
  type Probe,
} from './support/badInput';
import { smallBodyBytes } from '../../server/http/bodyGuard';
import { setOption } from './support/db';
import { startFakeProviders, type FakeProviders } from './support/oauthProvider';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Bad input for the remaining write routes: options (§2.11.2, Root), log deletion (§2.10.5,
 * Admin), the mail routes (§2.3.4–§2.3.6, §2.3.10) and the OAuth callbacks that write
 * (§2.3.8, §2.3.9). WeChat uses a fake WeChat server on 127.0.0.1.
 */

const optionRefused = { status: 400, body: invalidParameter };
const timestampRequired = failure('target timestamp is required');
const badResetLink = failure('重置链接非法或已过期');
const badCode = failure('验证码错误或已过期');
const stateMismatch = { status: 403, body: failure('登录状态校验失败（state 为空或不一致），请返回登录页重新发起登录') };

/** Strings that are not e-mail addresses (or too long for the column). */
const notEmails: readonly [string, string][] = [
  ['empty', ''],
  ['no at sign', 'alice.example.com'],
  ['SQL tautology', "' OR '1'='1"],
  ['SQL in the local part', "x' OR '1'='1@x.com"],
  ['SQL drop', "a@b.com'; DROP TABLE users; --"],
  ['script', '<script>alert(1)</script>@x.com'],
  ['NUL', 'a\u0000@x.com'],
  ['51 characters', `${'e'.repeat(45)}@x.com`],
  // (a query string is capped by the HTTP server's header limit, as Go's: 8 KiB here)
  ['8 KiB', `${'e'.repeat(8 * 1024)}@x.com`],
];

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`bad input: options, logs, mail, OAuth — ${target.label}`, () => {
    let fake: FakeProviders;
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let root: Caller;
    let alice: Caller;

    beforeAll(async () => {
      fake = await startFakeProviders();
      root = await makeCaller(db(), 'mi_root', 100);
      alice = await makeCaller(db(), 'mi_alice', 1);
      await db().updateTable('users').set({ email: 'alice@example.com' }).where('id', '=', alice.id).execute();
      await db()
        .insertInto('logs')
        .values([1000, 2000, 3000].map((created_at) => ({ user_id: alice.id, created_at, type: 2, content: 'old', quota: 1 })))
        .execute();
    });
    afterAll(async () => {
      await fake.stop();
    });

    const refused = (caller: Caller | null, probe: Probe, expected: { status?: number; body: unknown }) =>
      expectRefused(db(), suite.client(), caller, probe, expected);

    // -- PUT /api/option/ ------------------------------------------------------------------------

    it.each([
      ['empty body', ''],
      ['form encoding', 'key=Notice&value=x'],
      ['truncated JSON', '{"key":"Notice","value":"x"'],
      ['JSON array', '[{"key":"Notice","value":"x"}]'],
      ['JSON string', '"Notice"'],
      ['JSON null', 'null'],
      ['missing key', '{"value":"x"}'],
      ['empty key', '{"key":"","value":"x"}'],
      ['null key', '{"key":null,"value":"x"}'],
      ['number key', '{"key":1,"value":"x"}'],
      ['array key', '{"key":["Notice"],"value":"x"}'],
      ['object key', '{"key":{"a":1},"value":"x"}'],
      ['192-character key', JSON.stringify({ key: 'k'.repeat(192), value: 'x' })],
      ['NUL in key', JSON.stringify({ key: 'No\u0000tice', value: 'x' })],
      ['boolean value', '{"key":"RegisterEnabled","value":false}'],
      ['number value', '{"key":"QuotaForNewUser","value":100}'],
      ['fraction value', '{"key":"QuotaPerUnit","value":0.5}'],
      ['array value', '{"key":"Notice","value":["x"]}'],
      ['object value', '{"key":"ModelRatio","value":{"gpt-4":1}}'],
      ['NUL in value', JSON.stringify({ key: 'Notice', value: 'a\u0000b' })],
    ])('PUT /api/option/ with %s → HTTP 400 invalid parameter, nothing written', async (_label, raw) => {
      await refused(root, { method: 'PUT', path: '/api/option/', raw }, optionRefused);
    });

    it('the invalid-parameter refusal is localised: Accept-Language zh → 无效的参数', async () => {
      await refused(root, { method: 'PUT', path: '/api/option/', raw: '{"key":1}', headers: { 'Accept-Language': 'zh-CN,zh;q=0.9' } }, { status: 400, body: failure('无效的参数') });
      await refused(null, { method: 'POST', path: '/api/user/reset', raw: '', headers: { 'Accept-Language': 'ZH' } }, { body: failure('无效的参数') });
    });

    it('PUT /api/option/ over the body size limit → invalid parameter, nothing written', async () => {
      await refused(root, { method: 'PUT', path: '/api/option/', raw: overLimitBody('value') }, { body: bodyTooLarge() });
    });

    it.each([
      ['an unknown theme', 'Theme', "berry' OR '1'='1", '无效的主题'],
      ['GitHub OAuth without a client id', 'GitHubOAuthEnabled', 'true', '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！'],
      ['WeChat login without a server', 'WeChatAuthEnabled', 'true', '无法启用微信登录，请先填入微信登录相关配置信息！'],
      ['Turnstile without a site key', 'TurnstileCheckEnabled', 'true', '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！'],
      ['a domain restriction without domains', 'EmailDomainRestrictionEnabled', 'true', '无法启用邮箱域名限制，请先填入限制的邮箱域名！'],
    ])('PUT /api/option/ enabling %s → refused, nothing written', async (_label, key, value, message) => {
      await setOption(db(), 'EmailDomainWhitelist', ' , ');
      await refused(root, { method: 'PUT', path: '/api/option/', body: { key, value } }, { body: failure(message) });
      await db().deleteFrom('options').where('key', '=', 'EmailDomainWhitelist').execute();
    });

    it.each([
      ['not JSON', 'ModelRatio', "{'gpt-4': 1}"],
      ['SQL payload', 'GroupRatio', "'; DROP TABLE options; --"],
      ['a string ratio', 'CompletionRatio', '{"gpt-4":"1"}'],
      ['a JSON array', 'ModelRatio', '[1,2]'],
    ])('PUT /api/option/ with a ratio that is %s → the JSON error, nothing written', async (_label, key, value) => {
      await expectSomeFailure(db(), suite.client(), root, { method: 'PUT', path: '/api/option/', body: { key, value } });
    });

    it.each(hostileStrings)('PUT /api/option/ stores a %s value byte-identical (any key is accepted)', async (_label, value) => {
      for (const key of ['Notice', value]) {
        const reply = await send(suite.client(), root, { method: 'PUT', path: '/api/option/', body: { key, value, extra: 1 } });
        expect(reply.body, reply.text).toEqual({ success: true, message: '' });
        const row = await db().selectFrom('options').select('value').where('key', '=', key).executeTakeFirstOrThrow();
        expect(row.value).toBe(value);
      }
      expect((await suite.client().get('/api/notice')).body.data).toBe(value);
    });

    it('PUT /api/option/ stores a 1 MiB notice byte-identical and refuses an unparsable number by name', async () => {
      const reply = await send(suite.client(), root, { method: 'PUT', path: '/api/option/', body: { key: 'Notice', value: oneMegabyte } });
      expect(reply.body).toEqual({ success: true, message: '' });
      expect((await suite.client().get('/api/notice')).body.data).toBe(oneMegabyte);
      const number = await send(suite.client(), root, { method: 'PUT', path: '/api/option/', body: { key: 'QuotaForNewUser', value: '1; DROP TABLE users' } });
      expect(number.body).toEqual({ success: false, message: 'QuotaForNewUser 必须是整数' });
      const row = await db().selectFrom('options').select('value').where('key', '=', 'QuotaForNewUser').executeTakeFirst();
      expect(row?.value).not.toBe('1; DROP TABLE users');
    });

    // -- DELETE /api/log/ --------------------------------------------------------------------------

    it.each([
      ['missing', ''],
      ['empty', '?target_timestamp='],
      ['zero', '?target_timestamp=0'],
      ['non-numeric', '?target_timestamp=abc'],
      ['fraction', '?target_timestamp=1500.5'],
      ['exponent', '?target_timestamp=1e10'],
      ['SQL payload', `?target_timestamp=${encodeURIComponent('0 OR 1=1')}`],
      ['SQL drop', `?target_timestamp=${encodeURIComponent('1; DROP TABLE logs; --')}`],
      ['NUL', '?target_timestamp=%00'],
    ])('DELETE /api/log/ with a %s target → timestamp required, nothing deleted', async (_label, query) => {
      await refused(root, { method: 'DELETE', path: `/api/log/${query}`, raw: '{"target_timestamp":5000}' }, { body: timestampRequired });
    });

    it.each([
      ['negative', '-5'],
      ['before every log', '1000'],
    ])('DELETE /api/log/ with a %s target → 0 deleted, nothing written', async (_label, value) => {
      await refused(root, { method: 'DELETE', path: `/api/log/?target_timestamp=${value}` }, { body: { success: true, message: '', data: 0 } });
    });

    // -- GET /api/log/export, /api/log/self/export, /api/user/dashboard ------------------------------

    it.each([
      ['non-numeric type', '?type=abc'],
      ['non-numeric start', '?start_timestamp=-x'],
      ['fraction end', '?end_timestamp=1.5'],
      ['exponent channel', '?channel=1e3'],
      ['SQL payload', `?type=${encodeURIComponent('2 OR 1=1')}`],
      ['NUL', '?start_timestamp=%00'],
    ])('GET /api/log/export and /self/export with a %s → invalid parameter before streaming, nothing written', async (_label, query) => {
      await refused(root, { method: 'GET', path: `/api/log/export${query}` }, { body: invalidParameter });
      await refused(alice, { method: 'GET', path: `/api/log/self/export${query}` }, { body: invalidParameter });
    });

    it.each([
      ['start alone', '?start_timestamp=1000', '统计时间范围不合法'],
      ['end before start', '?start_timestamp=3000&end_timestamp=2000', '统计时间范围不合法'],
      ['367 days', `?start_timestamp=0&end_timestamp=${367 * 86_400}`, '统计时间范围不合法'],
      ['non-numeric start', '?start_timestamp=abc&end_timestamp=1', 'invalid parameter'],
      ['offset beyond +14 h', '?utc_offset=841', 'invalid parameter'],
      ['SQL in offset', `?utc_offset=${encodeURIComponent('0); DROP TABLE logs; --')}`, 'invalid parameter'],
      ['negative user', '?user_id=-1', 'invalid parameter'],
    ])('GET /api/user/dashboard with %s → refused with data null, nothing written', async (_label, query, message) => {
      await refused(root, { method: 'GET', path: `/api/user/dashboard${query}` }, { body: { success: false, message, data: null } });
    });

    it('GET /api/user/dashboard: a common user naming another user → 权限不足, nothing written', async () => {
      await refused(alice, { method: 'GET', path: `/api/user/dashboard?user_id=${root.id}` }, { body: { success: false, message: '无权进行此操作，权限不足', data: null } });
    });

    // -- Mail routes -----------------------------------------------------------------------------

    it.each(notEmails)('GET /api/verification with %s → invalid parameter, nothing written', async (_label, email) => {
      await refused(null, { method: 'GET', path: `/api/verification?email=${encodeURIComponent(email)}` }, { body: invalidParameter });
    });

    it.each(notEmails)('GET /api/reset_password with %s → invalid parameter, nothing written', async (_label, email) => {
      await refused(null, { method: 'GET', path: `/api/reset_password?email=${encodeURIComponent(email)}` }, { body: invalidParameter });
    });

    it('the mail routes without an e-mail parameter, with a taken or an unknown address → refused, nothing written', async () => {
      await refused(null, { method: 'GET', path: '/api/verification' }, { body: invalidParameter });
      await refused(null, { method: 'GET', path: '/api/reset_password' }, { body: invalidParameter });
      await refused(null, { method: 'GET', path: '/api/verification?email=alice@example.com' }, { body: failure('邮箱地址已被占用') });
      await refused(null, { method: 'GET', path: '/api/reset_password?email=nobody@example.com' }, { body: failure('该邮箱地址未注册') });
      // A valid, free address with no SMTP server configured: the send fails and no code is stored.
      await expectSomeFailure(db(), suite.client(), null, { method: 'GET', path: `/api/verification?email=${encodeURIComponent("o'brien@example.com")}` });
    });

    it.each([
      ['empty body', ''],
      ['form encoding', 'email=a@x.com&token=t'],
      ['JSON array', '[]'],
      ['JSON null', 'null'],
      ['missing token', '{"email":"alice@example.com"}'],
      ['missing email', '{"token":"0123456789abcdef0123456789abcdef"}'],
      ['empty strings', '{"email":"","token":""}'],
      ['number token', '{"email":"alice@example.com","token":123}'],
      ['array email', '{"email":["alice@example.com"],"token":"x"}'],
      ['null token', '{"email":"alice@example.com","token":null}'],
    ])('POST /api/user/reset with %s → invalid parameter, nothing written', async (_label, raw) => {
      await refused(null, { method: 'POST', path: '/api/user/reset', raw }, { body: invalidParameter });
    });

    it.each([
      ['a wrong token', 'alice@example.com', '0123456789abcdef0123456789abcdef'],
      ['an SQL token', 'alice@example.com', "' OR '1'='1"],
      ['an SQL e-mail', "' OR '1'='1", 'x'],
      ['a script', '<script>alert(1)</script>', '<script>'],
      ['a NUL', 'alice@example.com\u0000', 'a\u0000'],
      ['1 MiB', oneMegabyte, oneMegabyte],
    ])('POST /api/user/reset with %s → link invalid, no password changed', async (_label, email, token) => {
      await refused(null, { method: 'POST', path: '/api/user/reset', body: { email, token, password: 'x' } }, { body: email === oneMegabyte ? bodyTooLarge(smallBodyBytes) : badResetLink });
    });

    it.each([
      ['no parameters', ''],
      ['no code', '?email=alice2@example.com'],
      ['a wrong code', '?email=alice2@example.com&code=abcdef'],
      ['an SQL code', `?email=alice2@example.com&code=${encodeURIComponent("' OR '1'='1")}`],
      ['a NUL code', '?email=alice2@example.com&code=%00'],
      ...notEmails.map(([label, email]) => [`e-mail ${label}`, `?email=${encodeURIComponent(email)}&code=abcdef`] as [string, string]),
    ])('GET /api/oauth/email/bind with %s → code invalid, e-mail unchanged', async (_label, query) => {
      await refused(alice, { method: 'GET', path: `/api/oauth/email/bind${query}` }, { body: badCode });
    });

    // -- OAuth -----------------------------------------------------------------------------------

    it.each(['github', 'lark', 'oidc'])('GET /api/oauth/%s with a missing or forged state → HTTP 403, nothing written', async (provider) => {
      for (const query of ['', '?code=x', `?code=x&state=${encodeURIComponent("' OR '1'='1")}`, '?code=x&state=%00', `?state=${'s'.repeat(5000)}`]) {
        await refused(null, { method: 'GET', path: `/api/oauth/${provider}${query}` }, stateMismatch);
      }
    });

    describe('WeChat', () => {
      beforeAll(async () => {
        await setOption(db(), 'WeChatServerAddress', fake.weChatAddress);
        await setOption(db(), 'WeChatServerToken', fake.weChatToken);
      });

      it('login and bind while WeChat login is off → refused, nothing written', async () => {
        await refused(null, { method: 'GET', path: '/api/oauth/wechat?code=x' }, { body: failure('管理员未开启通过微信登录以及注册') });
        await refused(alice, { method: 'GET', path: '/api/oauth/wechat/bind?code=x' }, { body: failure('管理员未开启通过微信登录以及注册') });
      });

      it.each([
        ['no code', '', '无效的参数'],
        ['an empty code', '?code=', '无效的参数'],
        ['an unknown code', '?code=nope', '上游：验证码无效'],
        ['an SQL code', `?code=${encodeURIComponent("' OR '1'='1")}`, '上游：验证码无效'],
        ['a script code', `?code=${encodeURIComponent('<script>')}`, '上游：验证码无效'],
        ['an 8 KiB code', `?code=${'c'.repeat(8 * 1024)}`, '上游：验证码无效'],
        ['a code mapped to an empty id', '?code=empty', '验证码错误或已过期'],
        ['a code mapped to an id with NUL', '?code=nul', '验证码错误或已过期'],
      ])('login and bind with %s → refused, nothing written', async (_label, query, message) => {
        await setOption(db(), 'WeChatAuthEnabled', 'true');
        fake.weChatCodes.set('empty', '');
        fake.weChatCodes.set('nul', 'wx\u0000id');
        await refused(null, { method: 'GET', path: `/api/oauth/wechat${query}` }, { body: failure(message) });
        await refused(alice, { method: 'GET', path: `/api/oauth/wechat/bind${query}` }, { body: failure(message) });
      });

      it.each(hostileStrings)('a %s WeChat id is stored byte-identical (bind, then login finds the user)', async (label, value) => {
        await setOption(db(), 'WeChatAuthEnabled', 'true');
        const binder = await makeCaller(db(), `wx_${hostileStrings.findIndex(([l]) => l === label)}`, 1);
        fake.weChatCodes.set(`code-${label}`, value);
        const bind = await send(suite.client(), binder, { method: 'GET', path: `/api/oauth/wechat/bind?code=${encodeURIComponent(`code-${label}`)}` });
        expect(bind.body, bind.text).toEqual({ success: true, message: '' });
        const row = await db().selectFrom('users').select('wechat_id').where('id', '=', binder.id).executeTakeFirstOrThrow();
        expect(row.wechat_id).toBe(value);
        const login = await send(suite.client(), null, { method: 'GET', path: `/api/oauth/wechat?code=${encodeURIComponent(`code-${label}`)}` });
        expect(login.body.data).toMatchObject({ id: binder.id });
        await refused(alice, { method: 'GET', path: `/api/oauth/wechat/bind?code=${encodeURIComponent(`code-${label}`)}` }, { body: failure('该微信账号已被绑定') });
      });
    });
  });
}
