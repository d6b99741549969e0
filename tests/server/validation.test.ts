import { describe, expect, it } from 'vitest';
import { bodyMessages, smallBodyBytes } from '../../server/http/bodyGuard';
import { maxBodyBytes } from '../../server/http/validate';
import { dumpDatabase } from './support/db';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

const invalidParameter = { success: false, message: 'invalid parameter' };
const loginFailed = { success: false, message: '用户名或密码错误，或用户已被封禁' };

/** Raw bodies that are not a decodable login payload. */
const undecodable: readonly [string, string][] = [
  ['empty body', ''],
  ['form encoding', 'username=root&password=123456'],
  ['truncated JSON', '{"username":"root","password":"123456"'],
  ['JSON null', 'null'],
  ['JSON array', '["root","123456"]'],
  ['JSON string', '"root"'],
  ['JSON number', '42'],
  ['empty object', '{}'],
  ['missing password', '{"username":"root"}'],
  ['missing username', '{"password":"123456"}'],
  ['null fields', '{"username":null,"password":null}'],
  ['numbers', '{"username":1,"password":123456}'],
  ['array username', '{"username":["root"],"password":"123456"}'],
  ['object password', '{"username":"root","password":{"$ne":""}}'],
  ['boolean password', '{"username":"root","password":true}'],
  ['empty strings', '{"username":"","password":""}'],
  ['empty password', '{"username":"root","password":""}'],
];

/** Well-formed bodies carrying hostile strings: a normal login failure. */
const hostile: readonly [string, { username: string; password: string }][] = [
  ['SQL tautology', { username: "root' OR '1'='1", password: "x' OR '1'='1" }],
  ['SQL comment', { username: "root'--", password: 'anything' }],
  ['SQL drop', { username: "'; DROP TABLE users; --", password: '123456' }],
  ['LIKE wildcard', { username: '%', password: '123456' }],
  ['script tag', { username: '<script>alert(1)</script>', password: '<img src=x onerror=alert(1)>' }],
  ['NUL and unicode', { username: 'root\u0000', password: '123456\u202e' }],
];

/** Login bodies over the route's 16 KB: refused before they are read as JSON (bodyGuard.ts). */
const oversized: readonly [string, { username: string; password: string }][] = [
  ['1 MB username', { username: 'r'.repeat(1024 * 1024), password: '123456' }],
  ['1 MB password', { username: 'root', password: 'p'.repeat(1024 * 1024) }],
];
const loginTooLarge = { success: false, message: bodyMessages.tooLarge(smallBodyBytes).en };

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`bad request bodies — ${target.label}`, () => {
    const suite = setupSuite(target);
    const dump = () => dumpDatabase(suite.api.handle.db);

    it.each(undecodable)('login with %s → invalid parameter, database unchanged', async (_name, rawBody) => {
      const before = await dump();
      const reply = await suite.client().request('POST', '/api/user/login', { rawBody, headers: { 'content-type': 'application/json' } });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(invalidParameter);
      expect(reply.setCookies).toEqual([]);
      expect(await dump()).toBe(before);
    });

    it.each(hostile)('login with %s → the normal failure, database unchanged', async (_name, body) => {
      const before = await dump();
      const reply = await suite.client().post('/api/user/login', body);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(loginFailed);
      expect(await dump()).toBe(before);
    });

    it.each([...oversized, ['a body over the /api limit', { username: 'root', password: 'x'.repeat(maxBodyBytes) }] as const])(
      'login with %s → refused naming the 16 KB limit, database unchanged',
      async (_name, body) => {
        const before = await dump();
        const reply = await suite.client().post('/api/user/login', body);
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual(loginTooLarge);
        expect(await dump()).toBe(before);
      },
    );

    it('ignores extra keys: root logs in, nothing but a session row is written', async () => {
      const before = await suite.api.handle.db.selectFrom('users').selectAll().execute();
      const browser = suite.client();
      const reply = await browser.post('/api/user/login', {
        username: 'root',
        password: '123456',
        role: 1,
        id: 99,
        status: 2,
        quota: 0,
        access_token: 'x',
        nested: { a: [1, 2, 3] },
      });
      expect(reply.body).toMatchObject({ success: true, data: { id: 1, role: 100, status: 1 } });
      expect(await suite.api.handle.db.selectFrom('users').selectAll().execute()).toEqual(before);
      expect(await suite.api.handle.db.selectFrom('sessions').selectAll().execute()).toHaveLength(1);
    });

    it('decodes the body whatever the Content-Type, as one-api does', async () => {
      const reply = await suite.client().request('POST', '/api/user/login', {
        rawBody: '{"username":"root","password":"123456"}',
        headers: { 'content-type': 'text/plain' },
      });
      expect(reply.body.success).toBe(true);
    });
  });
}
