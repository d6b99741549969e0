import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { serve } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { createApi } from '../../server/http/api';
import { proxyTrust } from '../../server/http/clientIp';
import { createServerApp } from '../../server/http/server';
import { Client, parseSetCookie } from './support/http';
import { testConfig } from './support/server';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Forwarding headers are believed only from TRUSTED_PROXIES (default: loopback only). A client on
 * the LAN or in a neighbouring container cannot rotate `X-Forwarded-For` past the login limit, nor
 * choose the session cookie's `Secure` flag with `X-Forwarded-Proto`.
 */

const sec = 1000;
const limits = { criticalRateLimit: 3, rateLimitWindowsMs: { globalApi: 180 * sec, globalWeb: 180 * sec, critical: 60 * sec } };
/** What @hono/node-server passes as `c.env`, for a peer at `address`. */
const peer = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
const loginBody = (password: string) => JSON.stringify({ username: 'root', password });

/** A non-loopback address of this host in a private range (LAN, container network), or undefined. */
const privateRanges = proxyTrust(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7']);
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && !i.internal && privateRanges(i.address))?.address;

describe('TRUSTED_PROXIES default', () => {
  it('is loopback only: no private range is trusted unless configured', () => {
    expect(loadConfig({}).trustedProxies).toEqual(['127.0.0.0/8', '::1/128']);
  });
});

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`forwarding headers from untrusted peers — ${target.label}`, () => {
    // The test client connects from 127.0.0.1; TRUSTED_PROXIES naming another address makes it an untrusted peer.
    const suite = setupSuite(target, { env: { TRUSTED_PROXIES: '192.0.2.1' }, config: limits });

    /** The /api app over the suite's database with the default TRUSTED_PROXIES and the login limit at 3. */
    const defaultApp = () => createApi({ db: suite.api.handle.db, dialect: suite.api.handle.dialect, config: testConfig(suite.api.config.database, {}, limits) });

    it('a private-range peer rotating X-Forwarded-For is limited under the default configuration', async () => {
      const app = defaultApp();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const reply = await app.request(
          '/api/user/login',
          { method: 'POST', body: loginBody('wrong-password'), headers: { 'content-type': 'application/json', 'X-Forwarded-For': `203.0.113.${i + 1}` } },
          peer('::ffff:172.17.0.5'),
        );
        statuses.push(reply.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    });

    it('a loopback reverse proxy is still believed by default: its clients are counted apart', async () => {
      const app = defaultApp();
      for (let i = 0; i < 4; i += 1) {
        const reply = await app.request(
          '/api/user/login',
          { method: 'POST', body: loginBody('wrong-password'), headers: { 'content-type': 'application/json', 'X-Forwarded-For': `198.51.100.${i + 1}` } },
          peer('127.0.0.1'),
        );
        expect(reply.status).toBe(200);
      }
    });

    it('an untrusted peer rotating X-Forwarded-For over real HTTP is refused on the 4th login', async () => {
      const client = suite.client();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await client.login('root', 'wrong-password', { 'X-Forwarded-For': `203.0.113.${50 + i}` })).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    });

    it.skipIf(lanAddress === undefined)(`a client on this host's private address (${lanAddress ?? 'none'}) rotating X-Forwarded-For over real HTTP is limited by default`, async () => {
      const config = testConfig(suite.api.config.database, {}, limits);
      const app = createServerApp({ db: suite.api.handle.db, dialect: suite.api.handle.dialect, config }, null);
      const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
        const s = serve({ fetch: app.fetch, port: 0, hostname: lanAddress }, () => resolve(s));
      });
      try {
        const { port } = server.address() as AddressInfo;
        const host = lanAddress!.includes(':') ? `[${lanAddress}]` : lanAddress!;
        const client = new Client(`http://${host}:${port}`);
        const statuses: number[] = [];
        for (let i = 0; i < 5; i += 1) statuses.push((await client.login('root', 'wrong-password', { 'X-Forwarded-For': `203.0.113.${100 + i}` })).status);
        expect(statuses).toEqual([200, 200, 200, 429, 429]);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('X-Forwarded-Proto from an untrusted peer does not make the session cookie Secure', async () => {
      const app = defaultApp();
      const reply = await app.request(
        '/api/user/login',
        { method: 'POST', body: loginBody('123456'), headers: { 'content-type': 'application/json', 'X-Forwarded-Proto': 'https' } },
        peer('10.0.0.7'),
      );
      expect(reply.status).toBe(200);
      const cookie = parseSetCookie(reply.headers.getSetCookie()[0] ?? '');
      expect(cookie.name).toBe('session');
      expect(cookie.attributes.has('secure')).toBe(false);
      // The same header from the trusted loopback proxy is believed.
      const proxied = await app.request(
        '/api/user/login',
        { method: 'POST', body: loginBody('123456'), headers: { 'content-type': 'application/json', 'X-Forwarded-Proto': 'https' } },
        peer('127.0.0.1'),
      );
      expect(parseSetCookie(proxied.headers.getSetCookie()[0] ?? '').attributes.has('secure')).toBe(true);
    });

    it('X-Forwarded-Proto over real HTTP from a peer outside TRUSTED_PROXIES is ignored, login and logout alike', async () => {
      await suite.restart({ env: { TRUSTED_PROXIES: '192.0.2.1' } }); // a fresh login limiter
      const client = new Client(suite.api.url);
      const reply = await client.login('root', '123456', { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.99' });
      expect(reply.body.success).toBe(true);
      expect(parseSetCookie(reply.setCookies[0]!).attributes.has('secure')).toBe(false);
      const logout = await client.get('/api/user/logout', { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(parseSetCookie(logout.setCookies[0]!).attributes.has('secure')).toBe(false);
    });
  });
}
