import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { dumpDatabase } from '../server/support/db';
import type { Client } from '../server/support/http';
import { startLoopbackSmtp, type LoopbackSmtp } from '../server/support/smtp';
import { logInThroughForm, setOptions, startGateway, type GatewayUnderTest } from './support/gateway';

/**
 * Cross-site request forgery in real Chromium against the real gateway (on 127.0.0.1): root is
 * signed in, then pages of another site (`localhost:<port>`, cross-site: the Lax session cookie
 * goes only with top-level GET navigations) and of a sibling origin (`127.0.0.1:<port>`,
 * same-site: the cookie goes with everything) try every state-changing route the browser can
 * reach without a CORS preflight: top-level navigations to the GET routes, `<img src>`, text/plain
 * form posts and `no-cors` fetches of JSON. Nothing changes (read back from the database and the
 * API), root stays signed in, and the same requests from the console's own origin still work.
 * A page on a TRUSTED_ORIGINS origin can use the API with the cookie and read the answers.
 */

let gw: GatewayUnderTest;
let root: Client;
let smtp: LoopbackSmtp;
let pages: Server;
let pagePort: number;
let victim: BrowserContext;
let userId: number;

/** The attacker's pages: `/nav?to=` navigates to `to`; `/form?to=&body=` posts the JSON `body` as a text/plain form; `/blank`. */
function startPages(): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://pages');
    let html = '<!doctype html><title>elsewhere</title><p>another site</p>';
    if (url.pathname === '/nav') html += `<script>location.href = ${JSON.stringify(url.searchParams.get('to'))};</script>`;
    if (url.pathname === '/form') {
      // text/plain forms send `name=value`: the JSON without its last `}` plus `,"pad":"` as the
      // name and `"}` as the value make the posted text `{...,"pad":"="}`, valid JSON
      const body = url.searchParams.get('body') ?? '';
      const setup = {
        action: url.searchParams.get('to'),
        name: `${body.slice(0, -1)},"pad":"`,
        value: '"}',
      };
      html +=
        `<script>const setup = ${JSON.stringify(setup).replaceAll('<', '\\u003c')};` +
        "const form = document.createElement('form'); form.method = 'post'; form.enctype = 'text/plain'; form.action = setup.action;" +
        "const input = document.createElement('input'); input.type = 'hidden'; input.name = setup.name; input.value = setup.value;" +
        'form.append(input); document.body.append(form); form.submit();</script>';
    }
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  // every address: the plain-HTTP suite reaches it on the machine's own network address too
  return new Promise((resolve) => server.listen(0, () => resolve(server)));
}

/** The machine's first non-loopback IPv4 address (plain HTTP there is not a secure context), or null. */
function networkAddress(): string | null {
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  return null;
}

/** A TCP relay on `host` to the gateway's loopback port (a reverse proxy that keeps Host as the browser sent it). */
function relayTo(host: string, port: number): Promise<TcpServer> {
  const server = createTcpServer((socket) => {
    const upstream = connect(port, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  return new Promise((resolve) => server.listen(0, host, () => resolve(server)));
}

/** Origins of the attacker's pages: another site, and another port of the gateway's host. */
const crossSite = () => `http://localhost:${pagePort}`;
const sameSite = () => `http://127.0.0.1:${pagePort}`;

const db = () => gw.database.db;
const rootRow = () => db().selectFrom('users').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();

/** Every table but the sessions (whose last_seen_at moves with the clock) as text. */
async function stateWithoutSessions(): Promise<string> {
  const all = JSON.parse(await dumpDatabase(db())) as Record<string, unknown>;
  delete all.sessions;
  return JSON.stringify(all);
}

/** Opens `origin`'s page that navigates to `target`; answers the status the gateway gave the navigation. */
async function navigateFrom(origin: string, target: string): Promise<number> {
  const page = await victim.newPage();
  try {
    const response = page.waitForResponse((r) => r.url() === target);
    await page.goto(`${origin}/nav?to=${encodeURIComponent(target)}`);
    return (await response).status();
  } finally {
    await page.close();
  }
}

/** Opens `origin`'s page that posts `body` (JSON text) to `target` as a text/plain form; answers the status. */
async function formPostFrom(origin: string, target: string, body: string, context: BrowserContext = victim): Promise<number> {
  const page = await context.newPage();
  try {
    const response = page.waitForResponse((r) => r.url() === target && r.request().method() === 'POST');
    await page.goto(`${origin}/form?to=${encodeURIComponent(target)}&body=${encodeURIComponent(body)}`);
    const answer = await response;
    expect(answer.request().postData() ?? '').toContain(body.slice(0, -1));
    return answer.status();
  } finally {
    await page.close();
  }
}

/** On a blank page of `origin`: `fetch(target, {mode:'no-cors', credentials:'include'})` (POST with `body` when given). */
async function noCorsFrom(origin: string, target: string, body?: string): Promise<void> {
  const page = await victim.newPage();
  try {
    await page.goto(`${origin}/blank`);
    await page.evaluate(
      async ([url, text]) => {
        await fetch(url, text === undefined ? { mode: 'no-cors', credentials: 'include' } : { method: 'POST', mode: 'no-cors', credentials: 'include', body: text });
      },
      [target, body] as const,
    );
  } finally {
    await page.close();
  }
}

/** On a blank page of `origin`: an `<img src=target>`, until it fails to load. */
async function imageFrom(origin: string, target: string): Promise<void> {
  const page = await victim.newPage();
  try {
    await page.goto(`${origin}/blank`);
    await page.evaluate(
      (url) =>
        new Promise<void>((resolve) => {
          const img = new Image();
          img.onload = img.onerror = () => resolve();
          img.src = url;
        }),
      target,
    );
  } finally {
    await page.close();
  }
}

/** A code mailed for `email` (GET /api/verification, as the attacker would ask for one). */
async function mailedCode(email: string): Promise<string> {
  const reply = await root.get(`/api/verification?email=${encodeURIComponent(email)}&turnstile=`);
  expect(reply.body?.success, reply.text).toBe(true);
  const match = /<strong>([0-9a-f]{6})<\/strong>/.exec(smtp.lastTo(email)?.body ?? '');
  if (match === null) throw new Error(`no code mailed to ${email}`);
  return match[1]!;
}

/** Whether the console page (the gateway's own origin) still has root's session. */
async function stillSignedIn(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const answer = (await (await fetch('/api/user/self', { credentials: 'include' })).json()) as { success: boolean; data?: { id: number } };
    return answer.success && answer.data?.id === 1;
  });
}

beforeAll(async () => {
  pages = await startPages();
  pagePort = (pages.address() as AddressInfo).port;
  gw = await startGateway();
  root = await gw.root();
  smtp = await startLoopbackSmtp();
  await setOptions(root, { SMTPServer: '127.0.0.1', SMTPPort: String(smtp.port), SMTPFrom: 'noreply@example.com' });
  const user = await root.post('/api/user/', { username: 'csrfuser', password: 'csrfuser-pass-1', display_name: 'csrfuser' });
  expect(user.body?.success, user.text).toBe(true);
  userId = (await db().selectFrom('users').select('id').where('username', '=', 'csrfuser').executeTakeFirstOrThrow()).id;
  const channel = await root.post('/api/channel/', { type: 1, name: 'c1', key: 'sk-x', base_url: 'http://127.0.0.1:1', models: 'gpt-4o', group: 'default' });
  expect(channel.body?.success, channel.text).toBe(true);
  victim = await gw.newContext({ storageState: await gw.signedIn('root', '123456') });
}, 180_000);

afterAll(async () => {
  await victim?.close();
  await smtp?.close();
  await gw?.close();
  pages?.close();
});

describe('a page of another site or a sibling origin cannot act as signed-in root', () => {
  it('the reported attack: a top-level navigation to /api/oauth/email/bind does not bind the e-mail', async () => {
    const code = await mailedCode('attacker@evil.example');
    const target = `${gw.url}/api/oauth/email/bind?email=attacker%40evil.example&code=${code}`;
    expect(await navigateFrom(crossSite(), target)).toBe(403);
    expect(await navigateFrom(sameSite(), target)).toBe(403);
    await imageFrom(sameSite(), target);
    await noCorsFrom(sameSite(), target);
    expect((await rootRow()).email).toBe('');
    // the same link followed from the gateway's own pages binds: the code was valid all along
    const console = await victim.newPage();
    await console.goto(`${gw.url}/`);
    await console.evaluate((url) => {
      location.href = url;
    }, target);
    await console.waitForURL(target);
    expect(JSON.parse((await console.textContent('body')) ?? '')).toEqual({ success: true, message: '' });
    expect((await rootRow()).email).toBe('attacker@evil.example');
    await console.close();
    await db().updateTable('users').set({ email: '' }).where('id', '=', 1).execute();
  });

  it('the GET routes that change state refuse navigations, images and no-cors fetches; nothing changes and root stays signed in', async () => {
    const console = await victim.newPage();
    await console.goto(`${gw.url}/`);
    const before = await stateWithoutSessions();
    const gets = [
      '/api/user/token',
      '/api/user/logout',
      '/api/oauth/wechat/bind?code=attacker-code',
      '/api/oauth/state',
      '/api/channel/test',
      '/api/channel/test/1',
      '/api/channel/update_balance',
      '/api/channel/update_balance/1',
    ];
    for (const path of gets) {
      const target = `${gw.url}${path}`;
      expect(await navigateFrom(crossSite(), target), `${path} from another site`).toBe(403);
      expect(await navigateFrom(sameSite(), target), `${path} from a sibling origin`).toBe(403);
      await imageFrom(sameSite(), target);
      await noCorsFrom(sameSite(), target);
    }
    expect(await stateWithoutSessions()).toBe(before);
    expect(await stillSignedIn(console)).toBe(true);
    await console.close();
  });

  it('text/plain form posts and no-cors fetches of JSON do not promote, grant quota, or create channels, codes, tokens or users', async () => {
    const before = await stateWithoutSessions();
    const posts: ReadonlyArray<readonly [string, string]> = [
      ['/api/user/manage', '{"username":"csrfuser","action":"promote"}'],
      ['/api/topup', `{"user_id":${userId},"quota":500000,"remark":"x"}`],
      ['/api/channel/', '{"type":1,"name":"evil","key":"sk-evil","base_url":"http://127.0.0.1:1","models":"gpt-4o","group":"default"}'],
      ['/api/redemption/', '{"name":"evil","quota":500000,"count":1}'],
      ['/api/token/', '{"name":"evil","remain_quota":0,"unlimited_quota":true,"expired_time":-1}'],
      ['/api/user/', '{"username":"evil","password":"evil-pass-1","display_name":"evil"}'],
      ['/api/channel/test_run', '{"scope":"all"}'],
    ];
    for (const [path, body] of posts) {
      const target = `${gw.url}${path}`;
      expect(await formPostFrom(sameSite(), target, body), `form ${path}`).toBe(403);
      expect(await formPostFrom(crossSite(), target, body), `form ${path} from another site`).toBe(403);
      await noCorsFrom(sameSite(), target, body);
    }
    expect(await stateWithoutSessions()).toBe(before);
    const user = await db().selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user.role).toBe(1);
    expect(user.quota).toBe(0);
  });

  it('a sibling origin cannot sign a visitor in as someone else (login CSRF)', async () => {
    const stranger = await gw.newContext();
    try {
      const status = await formPostFrom(sameSite(), `${gw.url}/api/user/login`, '{"username":"csrfuser","password":"csrfuser-pass-1"}', stranger);
      expect(status).toBe(403);
      const page = await stranger.newPage();
      await page.goto(`${gw.url}/api/user/self`);
      expect(JSON.parse((await page.textContent('body')) ?? '').success).toBe(false);
      expect((await stranger.cookies(gw.url)).map((c) => c.name)).not.toContain('session');
    } finally {
      await stranger.close();
    }
  });

  it("the console's own origin still acts: the same JSON requests from its page succeed", async () => {
    const console = await victim.newPage();
    await console.goto(`${gw.url}/`);
    const answer = await console.evaluate(async () => {
      const reply = await fetch('/api/user/manage', {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'csrfuser', action: 'promote' }),
      });
      return (await reply.json()) as { success: boolean };
    });
    expect(answer.success).toBe(true);
    expect((await db().selectFrom('users').select('role').where('id', '=', userId).executeTakeFirstOrThrow()).role).toBe(10);
    const token = (await rootRow()).access_token;
    await console.evaluate(() => fetch('/api/user/token', { credentials: 'include' }));
    expect((await rootRow()).access_token).not.toBe(token);
    await console.close();
  });
});

describe('framing', () => {
  it('a sibling origin cannot frame the signed-in console (clickjacking); the console may frame itself', async () => {
    const page = await victim.newPage();
    const framed = async (origin: string): Promise<string> => {
      await page.goto(`${origin}/blank`);
      await page.evaluate(
        (src) =>
          new Promise<void>((resolve) => {
            const frame = document.createElement('iframe');
            frame.onload = () => resolve();
            frame.src = src;
            document.body.append(frame);
          }),
        `${gw.url}/token`,
      );
      const child = page.frames().find((f) => f !== page.mainFrame());
      // a refused frame shows Chromium's error page, whose document is not the console
      return (await child?.evaluate(() => document.getElementById('root') !== null).catch(() => false)) === true ? 'console' : 'blocked';
    };
    expect(await framed(sameSite())).toBe('blocked');
    expect(await framed(gw.url)).toBe('console');
    await page.close();
  });
});

const lanAddress = networkAddress();

describe.skipIf(lanAddress === null)('over plain HTTP (no Sec-Fetch-Site: the gateway reached at a network address)', () => {
  let relay: TcpServer;
  let plain: string;
  let context: BrowserContext;
  beforeAll(async () => {
    relay = await relayTo(lanAddress!, Number(new URL(gw.url).port));
    plain = `http://${lanAddress}:${(relay.address() as AddressInfo).port}`;
    context = await gw.newContext();
    const page = await context.newPage();
    await logInThroughForm(page, plain, 'root', '123456');
    await page.close();
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    relay?.close();
  });

  it('navigations and images from another site or port cannot bind an e-mail or renew the token; the console still can', async () => {
    const code = await mailedCode('plain@evil.example');
    const target = `${plain}/api/oauth/email/bind?email=plain%40evil.example&code=${code}`;
    const { access_token: token } = await rootRow();
    const seen: Array<Record<string, string>> = [];
    context.on('request', (request) => {
      if (request.url().startsWith(`${plain}/api/`)) seen.push(request.headers());
    });
    const page = await context.newPage();
    for (const origin of [`http://127.0.0.1:${pagePort}`, `http://${lanAddress}:${pagePort}`]) {
      const navigation = page.waitForResponse((r) => r.url() === target);
      await page.goto(`${origin}/nav?to=${encodeURIComponent(target)}`);
      expect((await navigation).status()).toBe(403);
      await page.goto(`${origin}/blank`);
      await page.evaluate(
        (urls) =>
          Promise.all(
            urls.map(
              (url) =>
                new Promise<void>((resolve) => {
                  const img = new Image();
                  img.onload = img.onerror = () => resolve();
                  img.src = url;
                }),
            ),
          ),
        [target, `${plain}/api/user/token`, `${plain}/api/user/logout`],
      );
    }
    expect(seen.length).toBeGreaterThanOrEqual(8);
    expect(seen.filter((headers) => 'sec-fetch-site' in headers)).toEqual([]);
    expect((await rootRow()).email).toBe('');
    expect((await rootRow()).access_token).toBe(token);
    // the console's own page over the same plain HTTP: its requests carry its Referer
    await page.goto(`${plain}/`);
    const answer = await page.evaluate(async (url) => (await (await fetch(url, { credentials: 'include' })).json()) as { success: boolean }, target);
    expect(answer).toEqual({ success: true, message: '' });
    expect((await rootRow()).email).toBe('plain@evil.example');
    await page.close();
    await db().updateTable('users').set({ email: '' }).where('id', '=', 1).execute();
  });
});

describe('TRUSTED_ORIGINS', () => {
  let trusted: GatewayUnderTest;
  let context: BrowserContext;
  beforeAll(async () => {
    trusted = await startGateway({ env: { TRUSTED_ORIGINS: sameSite() } });
    context = await trusted.newContext({ storageState: await trusted.signedIn('root', '123456') });
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await trusted?.close();
  });

  it('a page of a trusted sibling origin uses the session cookie and reads the answers; another origin still cannot', async () => {
    const page = await context.newPage();
    await page.goto(`${sameSite()}/blank`);
    const call = (url: string) =>
      page.evaluate(async (target) => {
        try {
          const reply = await fetch(target, {
            method: 'PUT',
            credentials: 'include',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ display_name: 'Trusted console' }),
          });
          return (await reply.json()) as { success: boolean };
        } catch (error) {
          return { error: String(error) };
        }
      }, url);
    expect(await call(`${trusted.url}/api/user/self`)).toEqual({ success: true, message: '' });
    const row = await trusted.database.db.selectFrom('users').select('display_name').where('id', '=', 1).executeTakeFirstOrThrow();
    expect(row.display_name).toBe('Trusted console');
    await page.goto(`${crossSite()}/blank`);
    expect(await call(`${trusted.url}/api/user/self`)).toHaveProperty('error');
    await page.close();
  });
});
