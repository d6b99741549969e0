import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOAuthResult } from '../../src/api/authApi';
import { readData } from '../../src/api/client';
import { dumpDatabase, insertUser, setOption } from './support/db';
import type { Client, Reply } from './support/http';
import { deadUrl } from './support/oauthProvider';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/** The OIDC callback (contract §2.3.8) against a loopback OpenID provider. */

interface Claims {
  readonly sub?: string;
  readonly email?: string;
  readonly name?: string;
  readonly preferred_username?: string;
}

interface FakeOidc {
  readonly url: string;
  /** Authorization code → claims the userinfo endpoint answers. */
  readonly codes: Map<string, Claims>;
  /** Bodies the token endpoint received. */
  readonly tokenRequests: unknown[];
  stop(): Promise<void>;
}

async function startFakeOidc(): Promise<FakeOidc> {
  const codes = new Map<string, Claims>();
  const tokens = new Map<string, Claims>();
  const tokenRequests: unknown[] = [];
  let next = 0;
  const app = new Hono();
  app.post('/token', async (c) => {
    const body = await c.req.json<{ code?: string; client_id?: string; client_secret?: string }>();
    tokenRequests.push(body);
    const claims = codes.get(body.code ?? '');
    if (claims === undefined || body.client_id !== 'oidc-client' || body.client_secret !== 'oidc-secret') {
      return c.json({ error: 'invalid_grant' }, 400);
    }
    const token = `at-${(next += 1)}`;
    tokens.set(token, claims);
    return c.json({ access_token: token, token_type: 'Bearer' });
  });
  app.get('/userinfo', (c) => {
    const claims = tokens.get((c.req.header('authorization') ?? '').replace(/^Bearer /, ''));
    return claims === undefined ? c.json({ error: 'invalid_token' }, 401) : c.json(claims);
  });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    codes,
    tokenRequests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const msg = {
  // Ours: in the caller's language, saying what to do (one-api: English "state is empty or not same").
  state: '登录状态校验失败（state 为空或不一致），请返回登录页重新发起登录',
  off: '管理员未开启通过 OIDC 登录以及注册',
  down: '无法连接至 OIDC 服务器，请稍后重试！',
  taken: '该 OIDC 账户已被绑定',
  invalidParameter: '无效的参数',
  emptyField: '返回值非法，用户字段为空，请稍后重试！',
  registerOff: '管理员关闭了新用户注册',
  banned: '用户已被封禁',
};

let seq = 0;
const uniq = (prefix: string): string => `${prefix}${(seq += 1)}`;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`oauth: OIDC — ${target.label}`, () => {
    let fake: FakeOidc | undefined;
    beforeAll(async () => {
      fake = await startFakeOidc();
    });
    afterAll(async () => {
      await fake?.stop();
    });
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    const provider = (): FakeOidc => {
      if (fake === undefined) throw new Error('fake not started');
      return fake;
    };

    beforeAll(async () => {
      await setOption(db(), 'OidcEnabled', 'true');
      await setOption(db(), 'OidcClientId', 'oidc-client');
      await setOption(db(), 'OidcClientSecret', 'oidc-secret');
      await setOption(db(), 'OidcTokenEndpoint', `${provider().url}/token`);
      await setOption(db(), 'OidcUserinfoEndpoint', `${provider().url}/userinfo`);
      await setOption(db(), 'ServerAddress', 'https://gateway.example.com');
    });

    async function withState(browser: Client = suite.client()): Promise<{ browser: Client; state: string }> {
      const reply = await browser.get('/api/oauth/state');
      const state = readData(t.string)(reply.body, 'state');
      if (E.isLeft(state)) throw new Error(`no state: ${reply.text}`);
      return { browser, state: state.right };
    }
    const callback = (browser: Client, code: string, state: string): Promise<Reply> =>
      browser.get(`/api/oauth/oidc?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`);
    const maxId = async (): Promise<number> =>
      (await db().selectFrom('users').select('id').orderBy('id', 'desc').limit(1).execute())[0]?.id ?? 0;
    const row = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('registers a new user under preferred_username with the claims, then logs the same user in', async () => {
      const sub = uniq('sub-');
      const preferred = uniq('carol');
      provider().codes.set('c-new', { sub, email: 'carol@example.com', name: 'Carol', preferred_username: preferred });
      const { browser, state } = await withState();
      const reply = await callback(browser, 'c-new', state);
      expect(reply.body).toMatchObject({ success: true, message: '', data: { username: preferred, display_name: 'Carol', role: 1, status: 1 } });
      const result = readOAuthResult(reply.body, 'oauth');
      expect(E.isRight(result) && !result.right.bound).toBe(true);
      const id = (reply.body.data as { id: number }).id;
      expect(await row(id)).toMatchObject({ oidc_id: sub, email: 'carol@example.com', password: '' });
      expect(provider().tokenRequests.at(-1)).toEqual({
        client_id: 'oidc-client',
        client_secret: 'oidc-secret',
        code: 'c-new',
        grant_type: 'authorization_code',
        redirect_uri: 'https://gateway.example.com/oauth/oidc',
      });
      const self = await browser.get('/api/user/self');
      expect(self.body.data.id).toBe(id);

      // the same subject later: the same user
      provider().codes.set('c-again', { sub, name: 'Carol renamed' });
      const second = await withState();
      const again = await callback(second.browser, 'c-again', second.state);
      expect(again.body.data.id).toBe(id);
    });

    it('without preferred_username (or when it is taken) the user is oidc_<maxId+1>, "OIDC User" without a name', async () => {
      provider().codes.set('c-anon', { sub: uniq('sub-') });
      const { browser, state } = await withState();
      const expected = (await maxId()) + 1;
      const reply = await callback(browser, 'c-anon', state);
      expect(reply.body.data).toMatchObject({ id: expected, username: `oidc_${expected}`, display_name: 'OIDC User' });

      await insertUser(db(), { username: 'takenname' });
      provider().codes.set('c-taken', { sub: uniq('sub-'), preferred_username: 'takenname' });
      const other = await withState();
      const next = (await maxId()) + 1;
      const taken = await callback(other.browser, 'c-taken', other.state);
      expect(taken.body.data).toMatchObject({ id: next, username: `oidc_${next}` });
    });

    it('refuses without changing anything: state, flag off, empty code, bad code, empty sub, provider down, registration off', async () => {
      const before = await dumpDatabase(db());
      const { browser, state } = await withState();
      const stateless = await callback(suite.client(), 'x', 'nostate');
      expect([stateless.status, stateless.body]).toEqual([403, { success: false, message: msg.state }]);
      expect((await callback(browser, '', state)).body).toEqual({ success: false, message: msg.invalidParameter });
      // the provider refuses the code: no subject comes back (as for GitHub)
      expect((await callback(browser, 'unknown-code', state)).body).toEqual({ success: false, message: msg.emptyField });
      provider().codes.set('c-empty', { name: 'No subject' });
      expect((await callback(browser, 'c-empty', state)).body).toEqual({ success: false, message: msg.emptyField });
      await setOption(db(), 'OidcEnabled', 'false');
      provider().codes.set('c-off', { sub: uniq('sub-') });
      expect((await callback(browser, 'c-off', state)).body).toEqual({ success: false, message: msg.off });
      await setOption(db(), 'OidcEnabled', 'true');
      await setOption(db(), 'RegisterEnabled', 'false');
      expect((await callback(browser, 'c-off', state)).body).toEqual({ success: false, message: msg.registerOff });
      await setOption(db(), 'RegisterEnabled', 'true');
      await setOption(db(), 'OidcTokenEndpoint', `${await deadUrl()}/token`);
      expect((await callback(browser, 'c-off', state)).body).toEqual({ success: false, message: msg.down });
      await setOption(db(), 'OidcTokenEndpoint', `${provider().url}/token`);
      const after = await dumpDatabase(db());
      // only the anonymous session carrying the state was added, and the options were put back
      const withoutSessionsAndOptions = (dump: string) => ({ ...(JSON.parse(dump) as object), sessions: [], options: [] });
      expect(withoutSessionsAndOptions(after)).toEqual(withoutSessionsAndOptions(before));
    });

    it('binds to the logged-in user ("bind"), refuses a subject bound already, refuses banned users at login', async () => {
      const username = uniq('pw');
      const id = await insertUser(db(), { username, password: 'password-1' });
      const browser = suite.client();
      expect((await browser.login(username, 'password-1')).body.success).toBe(true);
      const sub = uniq('sub-');
      provider().codes.set('c-bind', { sub, preferred_username: uniq('bound') });
      const { state } = await withState(browser);
      expect((await callback(browser, 'c-bind', state)).body).toEqual({ success: true, message: 'bind' });
      expect((await row(id)).oidc_id).toBe(sub);

      const otherName = uniq('pw');
      await insertUser(db(), { username: otherName, password: 'password-1' });
      const other = suite.client();
      expect((await other.login(otherName, 'password-1')).body.success).toBe(true);
      const again = await withState(other);
      expect((await callback(other, 'c-bind', again.state)).body).toEqual({ success: false, message: msg.taken });

      await db().updateTable('users').set({ status: 2 }).where('id', '=', id).execute();
      const fresh = await withState();
      expect((await callback(fresh.browser, 'c-bind', fresh.state)).body).toEqual({ success: false, message: msg.banned });
    });
  });
}
