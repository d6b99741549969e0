import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { turnstilePassSeconds } from '../../server/http/turnstile';
import { dumpDatabase, setOption } from './support/db';
import { parseSetCookie, type Client, type Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';
import { startFakeSiteverify, type FakeSiteverify } from './support/turnstile';

/**
 * The Turnstile check (contract §1.7) on the three "TS" routes of §2.0, against a loopback
 * siteverify fake: disabled → no call; missing, rejected, unverifiable tokens → the contract's
 * messages with nothing written; an accepted token → the handler runs and the browser is
 * remembered, so its next TS request needs no token.
 */

const empty = 'Turnstile token 为空';
const failed = 'Turnstile 校验失败，请刷新重试！';

let clockMs = 1_770_000_000_000;

/** A TCP port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`Turnstile check — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => clockMs });
    const db = () => suite.api.handle.db;
    let fake: FakeSiteverify;
    let registered = 0;

    /** The three TS routes, called by `browser` with `token` (omitted when undefined). */
    const tsCalls = (browser: Client, token?: string) => {
      const q = token === undefined ? '' : `turnstile=${encodeURIComponent(token)}`;
      registered += 1;
      return {
        register: () =>
          browser.post(`/api/user/register${q === '' ? '' : `?${q}`}`, { username: `ts${registered}`, password: 'ts-password-1' }),
        verification: () => browser.get(`/api/verification?email=not-an-email${q === '' ? '' : `&${q}`}`),
        reset: () => browser.get(`/api/reset_password?email=not-an-email${q === '' ? '' : `&${q}`}`),
      };
    };

    /** Whether a user named `username` exists. */
    const userExists = async (username: string) =>
      (await db().selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()) !== undefined;

    const enable = async () => {
      await setOption(db(), 'TurnstileCheckEnabled', 'true');
      await setOption(db(), 'TurnstileSiteKey', 'site-key');
      await setOption(db(), 'TurnstileSecretKey', fake.secret);
    };

    beforeAll(async () => {
      fake = await startFakeSiteverify();
      await suite.restart({ now: () => clockMs, env: { TURNSTILE_VERIFY_URL: fake.url } });
    });
    afterAll(() => fake.close());
    /** What the server logged through console.error (unreachable siteverify, with the request id), kept quiet. */
    const logged: string[] = [];
    beforeEach(() => {
      logged.length = 0;
      vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(' '));
      });
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      fake.mode = 'normal';
      await setOption(db(), 'TurnstileCheckEnabled', 'false');
    });

    it('does not check anything while TurnstileCheckEnabled is not "true"', async () => {
      await setOption(db(), 'TurnstileSecretKey', fake.secret);
      for (const value of ['false', 'TRUE', '1']) {
        await setOption(db(), 'TurnstileCheckEnabled', value);
        const calls = tsCalls(suite.client());
        const reply = await calls.register();
        expect(reply.body).toEqual({ success: true, message: '' });
        expect(await userExists(`ts${registered}`)).toBe(true);
        expect((await calls.verification()).body).toEqual({ success: false, message: 'invalid parameter' });
        expect((await calls.reset()).body).toEqual({ success: false, message: 'invalid parameter' });
      }
      expect(fake.calls).toEqual([]);
    });

    it('refuses a missing or empty token on all three routes before the handler runs (nothing written, no call)', async () => {
      await enable();
      await setOption(db(), 'RegisterEnabled', 'false');
      try {
        const before = await dumpDatabase(db());
        for (const token of [undefined, '']) {
          const calls = tsCalls(suite.client(), token);
          for (const reply of [await calls.register(), await calls.verification(), await calls.reset()]) {
            expect(reply.status).toBe(200);
            expect(reply.body).toEqual({ success: false, message: empty });
            expect(reply.setCookies).toEqual([]);
          }
        }
        expect(await dumpDatabase(db())).toBe(before);
        expect(fake.calls).toEqual([]);
      } finally {
        await setOption(db(), 'RegisterEnabled', 'true');
      }
    });

    it('refuses a token siteverify rejects, after POSTing secret, response and remoteip as a form', async () => {
      await enable();
      const before = await dumpDatabase(db());
      const calls = tsCalls(suite.client(), 'forged-token');
      for (const reply of [await calls.register(), await calls.verification(), await calls.reset()]) {
        expect(reply.body).toEqual({ success: false, message: failed });
        expect(reply.setCookies).toEqual([]);
      }
      expect(await dumpDatabase(db())).toBe(before);
      expect(fake.calls.slice(-3)).toEqual(
        Array.from({ length: 3 }, () => ({
          contentType: 'application/x-www-form-urlencoded;charset=UTF-8',
          secret: fake.secret,
          response: 'forged-token',
          remoteip: '127.0.0.1',
        })),
      );
    });

    it('sends the client IP as gin would see it (X-Forwarded-For first)', async () => {
      await enable();
      await suite.client().get('/api/verification?email=x&turnstile=t1', { headers: { 'X-Forwarded-For': '203.0.113.9, 127.0.0.1' } });
      expect(fake.calls.at(-1)?.remoteip).toBe('203.0.113.9');
    });

    it('refuses with the wrong secret configured even for a valid token', async () => {
      await enable();
      await setOption(db(), 'TurnstileSecretKey', 'not-the-secret');
      const reply = await tsCalls(suite.client(), fake.issue()).register();
      expect(reply.body).toEqual({ success: false, message: failed });
      expect(await userExists(`ts${registered}`)).toBe(false);
    });

    it('runs the handler for an accepted token and remembers the browser; other browsers and reused tokens are still checked', async () => {
      await enable();
      const browser = suite.client();
      const token = fake.issue();
      const first = tsCalls(browser, token);
      const reply = await first.register();
      expect(reply.body).toEqual({ success: true, message: '' });
      expect(await userExists(`ts${registered}`)).toBe(true);
      const pass = reply.setCookies.map(parseSetCookie).find((cookie) => cookie.name === 'turnstile');
      expect(pass?.attributes.has('httponly')).toBe(true);
      expect(pass?.attributes.get('samesite')).toBe('Lax');
      expect(pass?.attributes.get('max-age')).toBe(String(turnstilePassSeconds));
      const callsAfterPass = fake.calls.length;

      // The same browser: no token needed any more (one check per browser, as one-api's session mark).
      const again = tsCalls(browser);
      expect((await again.verification()).body).toEqual({ success: false, message: 'invalid parameter' });
      expect((await again.reset()).body).toEqual({ success: false, message: 'invalid parameter' });
      expect((await again.register()).body).toEqual({ success: true, message: '' });
      expect(fake.calls.length).toBe(callsAfterPass);

      // Another browser replaying the used token: siteverify says duplicate.
      const replay = await tsCalls(suite.client(), token).register();
      expect(replay.body).toEqual({ success: false, message: failed });
      expect(await userExists(`ts${registered}`)).toBe(false);
      // Another browser without token.
      expect((await tsCalls(suite.client()).verification()).body).toEqual({ success: false, message: empty });
    });

    it('ignores a pass cookie with a bad signature, and one that has expired', async () => {
      await enable();
      const browser = suite.client();
      await tsCalls(browser, fake.issue()).verification();
      const signed = browser.jar.get('turnstile');
      expect(signed).toBeDefined();
      const forged = suite.client();
      forged.jar.set('turnstile', `9999999999.${decodeURIComponent(signed!).split('.').slice(1).join('.')}`);
      expect((await tsCalls(forged).verification()).body).toEqual({ success: false, message: empty });
      clockMs += (turnstilePassSeconds + 1) * 1000;
      expect((await tsCalls(browser).verification()).body).toEqual({ success: false, message: empty });
    });

    it('answers a generic message with the request id (the JSON error is logged) when siteverify answers something that is not JSON', async () => {
      await enable();
      fake.mode = 'garbage';
      const reply = await tsCalls(suite.client(), fake.issue()).register();
      expect(reply.body.success).toBe(false);
      expect(reply.body.message).toBe(`暂时无法完成 Turnstile 人机验证，请稍后重试（请求 ID：${reply.headers.get('X-Oneapi-Request-Id')}）`);
      expect(logged.some((line) => line.includes(reply.headers.get('X-Oneapi-Request-Id')!) && /JSON/.test(line))).toBe(true);
      expect(reply.setCookies).toEqual([]);
      expect(await userExists(`ts${registered}`)).toBe(false);
    });

    it('answers a generic message when siteverify is unreachable (the network error is logged), writing nothing', async () => {
      const url = `http://127.0.0.1:${await closedPort()}/turnstile/v0/siteverify`;
      await suite.restart({ now: () => clockMs, env: { TURNSTILE_VERIFY_URL: url } });
      try {
        await enable();
        const before = await dumpDatabase(db());
        const calls = tsCalls(suite.client(), 'any-token');
        for (const reply of [await calls.register(), await calls.verification(), await calls.reset()] as Reply[]) {
          expect(reply.status).toBe(200);
          expect(reply.body.success).toBe(false);
          // Ours: the caller never sees the verify URL or the network's answer (one-api: `Post "<url>": <error>`).
          expect(reply.body.message).toBe(`暂时无法完成 Turnstile 人机验证，请稍后重试（请求 ID：${reply.headers.get('X-Oneapi-Request-Id')}）`);
          expect(logged.some((line) => line.includes(`Post "${url}": connect ECONNREFUSED ${new URL(url).host}`))).toBe(true);
          expect(reply.setCookies).toEqual([]);
        }
        expect(await dumpDatabase(db())).toBe(before);
      } finally {
        await suite.restart({ now: () => clockMs, env: { TURNSTILE_VERIFY_URL: fake.url } });
      }
    });
  });
}
