import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { dumpDatabase, insertUser, setOption } from './support/db';
import type { Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

const notLoggedIn = '无权进行此操作，未登录且未提供 access token';
const invalidToken = '无权进行此操作，access token 无效';
const banned = '用户已被封禁';
const forbidden = '无权进行此操作，权限不足';

const defaults = JSON.parse(
  readFileSync(new URL('../../server/data/options-defaults.json', import.meta.url), 'utf8'),
) as Record<string, { value: string }>;

/** The keys GET never shows (contract §2.11.1 plus TurnstileSecretKey, §6 #12 fixed). */
const secretKeys = ['SMTPToken', 'GitHubClientSecret', 'WeChatServerToken', 'MessagePusherToken', 'TurnstileSecretKey'];

const tokens = {
  common: 'c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1',
  admin: 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1',
  root: 'f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1',
  banned: 'b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1',
} as const;

const messages = {
  theme: '无效的主题',
  gitHub: '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！',
  email: '无法启用邮箱域名限制，请先填入限制的邮箱域名！',
  weChat: '无法启用微信登录，请先填入微信登录相关配置信息！',
  turnstile: '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！',
};

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`options — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;

    /** A request as `who` (by access token) or anonymous. */
    const as = (who: keyof typeof tokens | 'anonymous' | 'bogus', method: string, path: string, body?: unknown): Promise<Reply> => {
      const headers: Record<string, string> =
        who === 'anonymous' ? {} : { Authorization: who === 'bogus' ? 'Bearer nope' : tokens[who] };
      return suite.client().request(method, path, { headers, body });
    };
    const put = (body: unknown, headers: Record<string, string> = {}) =>
      suite.client().request('PUT', '/api/option/', { body, headers: { Authorization: tokens.root, ...headers } });
    const putRaw = (rawBody: string, headers: Record<string, string> = {}) =>
      suite.client().request('PUT', '/api/option/', { rawBody, headers: { Authorization: tokens.root, ...headers } });
    const stored = async (key: string) =>
      (await db().selectFrom('options').select('value').where('key', '=', key).executeTakeFirst())?.value;
    const list = async (): Promise<{ key: string; value: string }[]> => {
      const reply = await as('root', 'GET', '/api/option/');
      return reply.body.data as { key: string; value: string }[];
    };

    beforeAll(async () => {
      await insertUser(db(), { username: 'alice', password: 'alice-pass', accessToken: tokens.common });
      await insertUser(db(), { username: 'boss', password: 'boss-pass1', role: 10, accessToken: tokens.admin });
      await insertUser(db(), { username: 'mallory', password: 'mall-pass1', role: 100, status: 2, accessToken: tokens.banned });
      await db().updateTable('users').set({ access_token: tokens.root }).where('id', '=', 1).execute();
    });

    describe('guards', () => {
      it('GET and PUT are root only; refusals change nothing', async () => {
        const before = await dumpDatabase(db());
        const body = { key: 'SystemName', value: 'Hacked' };
        for (const method of ['GET', 'PUT']) {
          const anon = await as('anonymous', method, '/api/option/', method === 'PUT' ? body : undefined);
          expect(anon.status).toBe(401);
          expect(anon.body).toEqual({ success: false, message: notLoggedIn });
          const cases = [['bogus', invalidToken], ['banned', banned], ['common', forbidden], ['admin', forbidden]] as const;
          for (const [who, message] of cases) {
            const reply = await as(who, method, '/api/option/', method === 'PUT' ? body : undefined);
            expect(reply.status, `${method} ${who}`).toBe(200);
            expect(reply.body, `${method} ${who}`).toEqual({ success: false, message });
          }
        }
        expect(await dumpDatabase(db())).toBe(before);
        expect((await as('root', 'GET', '/api/option')).body.success).toBe(true);
      });

      it('a root session works, with and without trailing slash', async () => {
        const browser = suite.client();
        await browser.login('root', '123456');
        expect((await browser.get('/api/option')).body.success).toBe(true);
        const reply = await browser.request('PUT', '/api/option', { body: { key: 'Notice', value: 'hello' } });
        expect(reply.body).toEqual({ success: true, message: '' });
        expect(await stored('Notice')).toBe('hello');
      });
    });

    describe('GET /api/option/', () => {
      it('lists every default except the five secrets, as string pairs', async () => {
        const data = await list();
        const expectedKeys = Object.keys(defaults).filter((k) => !secretKeys.includes(k));
        expect(expectedKeys).toHaveLength(46);
        expect(data.map((o) => o.key).sort()).toEqual([...expectedKeys].sort());
        for (const option of data) {
          expect(Object.keys(option).sort()).toEqual(['key', 'value']);
          expect(typeof option.value).toBe('string');
        }
        const byKey = new Map(data.map((o) => [o.key, o.value]));
        expect(byKey.get('SystemName')).toBe('One API');
        expect(byKey.get('Theme')).toBe('default');
        expect(byKey.get('GroupRatio')).toBe(defaults.GroupRatio!.value);
      });

      it('never answers a secret value, whatever is stored (TurnstileSecretKey included)', async () => {
        const secrets = secretKeys.concat(['LarkClientSecret', 'OidcClientSecret', 'CustomToken', 'FancySecretKey']);
        for (const key of secrets) {
          expect((await put({ key, value: `very-secret-${key}` })).body).toEqual({ success: true, message: '' });
          expect(await stored(key)).toBe(`very-secret-${key}`);
        }
        const reply = await as('root', 'GET', '/api/option/');
        expect(reply.text).not.toContain('very-secret');
        const keys = (reply.body.data as { key: string }[]).map((o) => o.key);
        for (const key of secrets) expect(keys).not.toContain(key);
      });

      it('shows keys without default once stored (LarkClientId, arbitrary keys)', async () => {
        expect((await list()).some((o) => o.key === 'LarkClientId')).toBe(false);
        await put({ key: 'LarkClientId', value: 'cli_123' });
        await put({ key: 'MyPublicKey', value: 'pk' });
        const byKey = new Map((await list()).map((o) => [o.key, o.value]));
        expect(byKey.get('LarkClientId')).toBe('cli_123');
        expect(byKey.get('MyPublicKey')).toBe('pk');
      });
    });

    describe('PUT /api/option/', () => {
      it('stores the value, which applies at once (GET /api/status)', async () => {
        expect((await put({ key: 'SystemName', value: 'My Gateway' })).body).toEqual({ success: true, message: '' });
        expect(await stored('SystemName')).toBe('My Gateway');
        expect((await list()).find((o) => o.key === 'SystemName')?.value).toBe('My Gateway');
        expect((await suite.client().get('/api/status')).body.data.system_name).toBe('My Gateway');
        // Values are stored verbatim, scripts and SQL included, and empty strings too.
        for (const value of ["'); DROP TABLE options; --", '<script>alert(1)</script>', '', '多字节 ✓']) {
          expect((await put({ key: 'Footer', value })).body.success).toBe(true);
          expect(await stored('Footer')).toBe(value);
        }
      });

      it('refuses JSON booleans and numbers as one-api does (HTTP 400); null or a missing value is ""; extra members ignored', async () => {
        const before = await dumpDatabase(db());
        for (const value of [false, true, 1500, 2.5]) {
          const reply = await put({ key: 'QuotaForNewUser', value });
          expect(reply.status, String(value)).toBe(400);
          expect(reply.body).toEqual({ success: false, message: 'invalid parameter' });
        }
        expect(await dumpDatabase(db())).toBe(before);
        await put({ key: 'Notice', value: null });
        expect(await stored('Notice')).toBe('');
        await put({ key: 'About', value: 'x', extra: 1 });
        expect(await stored('About')).toBe('x');
        await put({ key: 'About' });
        expect(await stored('About')).toBe('');
        // Numeric options are checked (numeric-ranges.test.ts has the rules): "abc" is refused, nothing stored.
        expect((await put({ key: 'RetryTimes', value: 'abc' })).body).toEqual({ success: false, message: 'RetryTimes 必须是整数' });
        expect(await stored('RetryTimes')).not.toBe('abc');
      });

      it('refuses a body that is not {key: string, value: string} with HTTP 400, saving nothing', async () => {
        const before = await dumpDatabase(db());
        const bodies: unknown[] = [
          null, [], 'SystemName', 42, {}, { value: 'x' }, { key: '', value: 'x' }, { key: 5, value: 'x' },
          { key: 'SystemName', value: { a: 1 } }, { key: 'SystemName', value: ['x'] }, { key: null, value: 'x' },
          { key: 'Sys\u0000', value: 'x' }, { key: 'SystemName', value: 'a\u0000b' }, { key: 'k'.repeat(192), value: 'x' },
        ];
        for (const body of bodies) {
          const reply = await put(body);
          expect(reply.status, JSON.stringify(body)).toBe(400);
          expect(reply.body).toEqual({ success: false, message: 'invalid parameter' });
        }
        for (const raw of ['', 'not json', '{"key":"SystemName","value":"x"', '{"key":"SystemName","value":1e999}']) {
          const reply = await putRaw(raw, { 'Accept-Language': 'zh-CN' });
          expect(reply.status, raw).toBe(400);
          expect(reply.body).toEqual({ success: false, message: '无效的参数' });
        }
        expect(await dumpDatabase(db())).toBe(before);
        expect((await put({ key: 'k'.repeat(191), value: 'x' })).body.success).toBe(true);
      });

      it('Theme must be default, berry or air', async () => {
        const before = await dumpDatabase(db());
        for (const value of ['dark', '', 'Default', ' air']) {
          expect((await put({ key: 'Theme', value })).body, value).toEqual({ success: false, message: messages.theme });
        }
        expect(await dumpDatabase(db())).toBe(before);
        for (const value of ['berry', 'air', 'default']) {
          expect((await put({ key: 'Theme', value })).body).toEqual({ success: true, message: '' });
          expect(await stored('Theme')).toBe(value);
        }
      });

      it('enabling GitHub OAuth, WeChat login or Turnstile needs their settings first; disabling never does', async () => {
        const cases = [
          ['GitHubOAuthEnabled', 'GitHubClientId', messages.gitHub],
          ['WeChatAuthEnabled', 'WeChatServerAddress', messages.weChat],
          ['TurnstileCheckEnabled', 'TurnstileSiteKey', messages.turnstile],
        ] as const;
        for (const [key, needed, message] of cases) {
          const before = await dumpDatabase(db());
          expect((await put({ key, value: 'true' })).body, key).toEqual({ success: false, message });
          expect((await put({ key, value: true })).status, key).toBe(400);
          expect(await dumpDatabase(db())).toBe(before);
          expect((await put({ key, value: 'false' })).body).toEqual({ success: true, message: '' });
          await put({ key: needed, value: 'configured' });
          expect((await put({ key, value: 'true' })).body).toEqual({ success: true, message: '' });
          expect(await stored(key)).toBe('true');
          await put({ key, value: 'false' });
          await put({ key: needed, value: '' });
        }
      });

      it('enabling the e-mail domain restriction needs at least one domain in the whitelist', async () => {
        for (const whitelist of ['', ',', ' , ']) {
          await setOption(db(), 'EmailDomainWhitelist', whitelist);
          const before = await dumpDatabase(db());
          expect((await put({ key: 'EmailDomainRestrictionEnabled', value: 'true' })).body, JSON.stringify(whitelist))
            .toEqual({ success: false, message: messages.email });
          expect(await dumpDatabase(db())).toBe(before);
        }
        await put({ key: 'EmailDomainWhitelist', value: 'example.com' });
        expect((await put({ key: 'EmailDomainRestrictionEnabled', value: 'true' })).body).toEqual({ success: true, message: '' });
        expect(await stored('EmailDomainRestrictionEnabled')).toBe('true');
      });

      it('OidcEnabled has no precondition', async () => {
        expect((await put({ key: 'OidcEnabled', value: 'true' })).body).toEqual({ success: true, message: '' });
        await put({ key: 'OidcEnabled', value: 'false' });
      });

      it('ratio options must be JSON objects of non-negative numbers; the refusal names the option, in the caller\'s language; an invalid one saves nothing', async () => {
        const shape = (key: string) => `${key} must be a JSON object whose values are non-negative numbers`;
        const cases: [string, (key: string) => string][] = [
          ['x', shape],
          ['', shape],
          ['   ', shape],
          ['[1,2]', shape],
          ['"text"', shape],
          ['3', shape],
          ['null', shape],
          ['{"gpt-4":"15"}', (key) => `${shape(key)} (gpt-4 is not)`],
          ['{"gpt-4":{"a":1}}', (key) => `${shape(key)} (gpt-4 is not)`],
          ['{"gpt-4":true}', (key) => `${shape(key)} (gpt-4 is not)`],
          ['{"gpt-4":1e999}', (key) => `${shape(key)} (gpt-4 is not)`],
          ['{"gpt-4":-1}', (key) => `${shape(key)} (gpt-4 is not)`],
          ['{"default":1,"vip":0.5,"svip":-0.25}', (key) => `${shape(key)} (svip is not)`],
        ];
        for (const key of ['ModelRatio', 'GroupRatio', 'CompletionRatio']) {
          const before = await dumpDatabase(db());
          for (const [value, message] of cases) {
            const reply = await put({ key, value }, { 'Accept-Language': 'en' });
            expect(reply.status).toBe(200);
            expect(reply.body, `${key} ${value}`).toEqual({ success: false, message: message(key) });
          }
          const truncated = await put({ key, value: '{"gpt-4": 1' }, { 'Accept-Language': 'en' });
          expect(truncated.body).toEqual({ success: false, message: shape(key) });
          const zh = await put({ key, value: '"text"' }, { 'Accept-Language': 'zh-CN' });
          expect(zh.body).toEqual({ success: false, message: `${key} 必须是 JSON 对象，值为非负数` });
          expect(await dumpDatabase(db())).toBe(before);
        }
        // one-api's own default table keeps its openrouter/auto: -500000 and can be saved back
        const defaults = (await list()).find((o) => o.key === 'ModelRatio')!.value;
        expect((await put({ key: 'ModelRatio', value: defaults })).body).toEqual({ success: true, message: '' });
        const group = '{"default":1,"vip":0.5,"svip":0}';
        expect((await put({ key: 'GroupRatio', value: group })).body).toEqual({ success: true, message: '' });
        expect(await stored('GroupRatio')).toBe(group);
        expect((await put({ key: 'CompletionRatio', value: '{}' })).body).toEqual({ success: true, message: '' });
        expect(await stored('CompletionRatio')).toBe('{}');
      });

      it('the price editor\'s pretty-printed ratio tables: a negative or absurd entry is refused naming the option and the model, nothing stored; a valid one is stored as sent', async () => {
        const before = await dumpDatabase(db());
        const negative = '{\n  "gpt-4o": 3,\n  "gpt-4o-mini": -0.075\n}';
        const refusedReply = await put({ key: 'ModelRatio', value: negative }, { 'Accept-Language': 'en' });
        expect(refusedReply.body).toEqual({
          success: false,
          message: 'ModelRatio must be a JSON object whose values are non-negative numbers (gpt-4o-mini is not)',
        });
        const absurd = await put({ key: 'CompletionRatio', value: '{\n  "gpt-4o": 1e300\n}' }, { 'Accept-Language': 'zh-CN' });
        expect(absurd.body).toEqual({ success: false, message: 'CompletionRatio 必须是 JSON 对象，值为非负数（gpt-4o 不是）' });
        expect(await dumpDatabase(db())).toBe(before);
        const valid = '{\n  "gpt-4o": 3,\n  "gpt-4o-mini": 0.075,\n  "openrouter/auto": -500000\n}';
        expect((await put({ key: 'ModelRatio', value: valid })).body).toEqual({ success: true, message: '' });
        expect(await stored('ModelRatio')).toBe(valid);
      });
    });
  });
}
