import { beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from './support/db';
import type { Client, Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * The guard matrix (contract §1.3, §1.4, §2.0): every /api route of the route index × eight
 * callers → the guard's answer (message, HTTP status, `success:false`) or "passes the guard"
 * (the route exists and answers something other than a guard refusal). Only the guard outcome is
 * asserted; bodies are chosen so that routes passing the guard refuse or do nothing harmful,
 * and routes that change the caller itself (delete self, new access token, profile update,
 * logout) run with throwaway callers. Banned callers hold a session made before the ban, one
 * per row (the guard ends it).
 */

type Guard = 'none' | 'User' | 'Admin' | 'Root';

/** One row of contract §2.0. */
interface RouteRow {
  readonly n: number;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly guard: Guard;
  readonly body?: unknown;
  /** The route changes its caller (identity, credentials or session): use throwaway callers. */
  readonly changesCaller?: true;
}

const routes: readonly RouteRow[] = [
  { n: 1, method: 'GET', path: '/api/status', guard: 'none' },
  { n: 2, method: 'GET', path: '/api/models', guard: 'User' },
  { n: 3, method: 'GET', path: '/api/notice', guard: 'none' },
  { n: 4, method: 'GET', path: '/api/about', guard: 'none' },
  { n: 5, method: 'GET', path: '/api/home_page_content', guard: 'none' },
  { n: 6, method: 'GET', path: '/api/verification?email=not-an-email&turnstile=', guard: 'none' },
  { n: 7, method: 'GET', path: '/api/reset_password?email=not-an-email&turnstile=', guard: 'none' },
  { n: 8, method: 'POST', path: '/api/user/reset', guard: 'none', body: { email: '', token: '' } },
  { n: 9, method: 'GET', path: '/api/oauth/github?code=c&state=not-the-state', guard: 'none' },
  { n: 10, method: 'GET', path: '/api/oauth/oidc?code=c&state=not-the-state', guard: 'none' },
  { n: 11, method: 'GET', path: '/api/oauth/lark?code=c&state=not-the-state', guard: 'none' },
  { n: 12, method: 'GET', path: '/api/oauth/state', guard: 'none' },
  { n: 13, method: 'GET', path: '/api/oauth/wechat?code=c', guard: 'none' },
  { n: 14, method: 'GET', path: '/api/oauth/wechat/bind?code=c', guard: 'User' },
  { n: 15, method: 'GET', path: '/api/oauth/email/bind?email=a%40example.com&code=000000', guard: 'User' },
  { n: 16, method: 'POST', path: '/api/topup', guard: 'Admin', body: { user_id: 999999, quota: 1 } },
  { n: 17, method: 'POST', path: '/api/user/register', guard: 'none', body: { username: 'much-too-long-name', password: 'x' } },
  { n: 18, method: 'POST', path: '/api/user/login', guard: 'none', body: { username: 'nobody', password: 'wrong-password' } },
  { n: 19, method: 'GET', path: '/api/user/logout', guard: 'none', changesCaller: true },
  { n: 20, method: 'GET', path: '/api/user/dashboard', guard: 'User' },
  { n: 21, method: 'GET', path: '/api/user/self', guard: 'User' },
  { n: 22, method: 'PUT', path: '/api/user/self', guard: 'User', body: { display_name: 'Renamed' }, changesCaller: true },
  { n: 23, method: 'DELETE', path: '/api/user/self', guard: 'User', changesCaller: true },
  { n: 24, method: 'GET', path: '/api/user/token', guard: 'User', changesCaller: true },
  { n: 25, method: 'GET', path: '/api/user/aff', guard: 'User' },
  { n: 26, method: 'POST', path: '/api/user/topup', guard: 'User', body: { key: 'no-such-redemption-code' } },
  { n: 27, method: 'GET', path: '/api/user/available_models', guard: 'User' },
  { n: 28, method: 'GET', path: '/api/user/?p=0', guard: 'Admin' },
  { n: 29, method: 'GET', path: '/api/user/search?keyword=x', guard: 'Admin' },
  { n: 30, method: 'GET', path: '/api/user/999999', guard: 'Admin' },
  { n: 31, method: 'POST', path: '/api/user/', guard: 'Admin', body: { username: 'much-too-long-name', password: 'x' } },
  { n: 32, method: 'POST', path: '/api/user/manage', guard: 'Admin', body: { username: 'no-such-user', action: 'disable' } },
  { n: 33, method: 'PUT', path: '/api/user/', guard: 'Admin', body: { id: 999999, display_name: 'Ghost' } },
  { n: 34, method: 'DELETE', path: '/api/user/999999', guard: 'Admin' },
  { n: 35, method: 'GET', path: '/api/option/', guard: 'Root' },
  { n: 36, method: 'PUT', path: '/api/option/', guard: 'Root', body: { key: 'Notice', value: '' } },
  { n: 37, method: 'GET', path: '/api/channel/?p=0', guard: 'Admin' },
  { n: 38, method: 'GET', path: '/api/channel/search?keyword=x', guard: 'Admin' },
  { n: 39, method: 'GET', path: '/api/channel/models', guard: 'Admin' },
  { n: 40, method: 'GET', path: '/api/channel/999999', guard: 'Admin' },
  { n: 41, method: 'GET', path: '/api/channel/test?scope=disabled', guard: 'Admin' },
  { n: 42, method: 'GET', path: '/api/channel/test/999999', guard: 'Admin' },
  { n: 43, method: 'GET', path: '/api/channel/update_balance', guard: 'Admin' },
  { n: 44, method: 'GET', path: '/api/channel/update_balance/999999', guard: 'Admin' },
  { n: 45, method: 'POST', path: '/api/channel/', guard: 'Admin', body: { type: 'not-a-number', name: 'x', key: 'k' } },
  { n: 46, method: 'PUT', path: '/api/channel/', guard: 'Admin', body: { id: 999999, priority: 3 } },
  { n: 47, method: 'DELETE', path: '/api/channel/disabled', guard: 'Admin' },
  { n: 48, method: 'DELETE', path: '/api/channel/999999', guard: 'Admin' },
  { n: 49, method: 'GET', path: '/api/token/?p=0', guard: 'User' },
  { n: 50, method: 'GET', path: '/api/token/search?keyword=x', guard: 'User' },
  { n: 51, method: 'GET', path: '/api/token/999999', guard: 'User' },
  { n: 52, method: 'POST', path: '/api/token/', guard: 'User', body: { name: 'x'.repeat(31) } },
  { n: 53, method: 'PUT', path: '/api/token/', guard: 'User', body: { id: 999999, name: 'x' } },
  { n: 54, method: 'DELETE', path: '/api/token/999999', guard: 'User' },
  { n: 55, method: 'GET', path: '/api/redemption/?p=0', guard: 'Admin' },
  { n: 56, method: 'GET', path: '/api/redemption/search?keyword=x', guard: 'Admin' },
  { n: 57, method: 'GET', path: '/api/redemption/999999', guard: 'Admin' },
  { n: 58, method: 'POST', path: '/api/redemption/', guard: 'Admin', body: { name: '', quota: 1, count: 1 } },
  { n: 59, method: 'PUT', path: '/api/redemption/', guard: 'Admin', body: { id: 999999, name: 'x', quota: 1 } },
  { n: 60, method: 'DELETE', path: '/api/redemption/999999', guard: 'Admin' },
  { n: 61, method: 'GET', path: '/api/log/?p=0', guard: 'Admin' },
  { n: 62, method: 'DELETE', path: '/api/log/?target_timestamp=1', guard: 'Admin' },
  { n: 63, method: 'GET', path: '/api/log/stat', guard: 'Admin' },
  { n: 64, method: 'GET', path: '/api/log/self/stat', guard: 'User' },
  { n: 65, method: 'GET', path: '/api/log/search?keyword=x', guard: 'Admin' },
  { n: 66, method: 'GET', path: '/api/log/self?p=0', guard: 'User' },
  { n: 67, method: 'GET', path: '/api/log/self/search?keyword=x', guard: 'User' },
  { n: 68, method: 'GET', path: '/api/group/', guard: 'Admin' },
  // Recorded channel test runs (not in one-api); the POST body is refused, so nothing starts.
  { n: 69, method: 'POST', path: '/api/channel/test_run', guard: 'Admin', body: { ids: [] } },
  { n: 70, method: 'GET', path: '/api/channel/test_run', guard: 'Admin' },
  { n: 71, method: 'GET', path: '/api/channel/test_run/999999', guard: 'Admin' },
  { n: 72, method: 'DELETE', path: '/api/channel/test_run/999999', guard: 'Admin' },
  // Streamed CSV exports of the logs (not in one-api).
  { n: 73, method: 'GET', path: '/api/log/export?username=nobody', guard: 'Admin' },
  { n: 74, method: 'GET', path: '/api/log/self/export?model_name=none', guard: 'User' },
  { n: 75, method: 'GET', path: '/api/pricing', guard: 'User' },
  // Two-factor sign-in (not in one-api): wrong codes, so nothing is enabled, disabled or renewed.
  { n: 76, method: 'GET', path: '/api/user/2fa/status', guard: 'User' },
  { n: 77, method: 'POST', path: '/api/user/2fa/setup', guard: 'User', changesCaller: true },
  { n: 78, method: 'POST', path: '/api/user/2fa/enable', guard: 'User', body: { code: '000000' } },
  { n: 79, method: 'POST', path: '/api/user/2fa/disable', guard: 'User', body: { code: '000000' } },
  { n: 80, method: 'POST', path: '/api/user/2fa/recovery-codes', guard: 'User', body: { code: '000000' } },
  { n: 81, method: 'POST', path: '/api/user/login/2fa', guard: 'none', body: { code: '000000' }, changesCaller: true },
  // Channel tags (not in one-api): a tag no channel carries, so nothing changes.
  { n: 82, method: 'GET', path: '/api/channel/tags', guard: 'Admin' },
  { n: 83, method: 'PUT', path: '/api/channel/tag', guard: 'Admin', body: { tag: 'matrix-none', priority: 1 } },
];

type CallerKind = 'anonymous' | 'common' | 'admin' | 'root' | 'banned' | 'commonToken' | 'adminToken' | 'invalidToken';

const callerTitles: Readonly<Record<CallerKind, string>> = {
  anonymous: 'anonymous',
  common: 'common user (session)',
  admin: 'admin (session)',
  root: 'root (session)',
  banned: 'banned user (session made before the ban)',
  commonToken: 'common user (access token)',
  adminToken: 'admin (access token)',
  invalidToken: 'invalid access token',
};

const callerKinds = Object.keys(callerTitles) as CallerKind[];

const guardMessages = {
  notLoggedIn: '无权进行此操作，未登录且未提供 access token',
  invalidToken: '无权进行此操作，access token 无效',
  banned: '用户已被封禁',
  forbidden: '无权进行此操作，权限不足',
} as const;

/** What the guard does: refuse (status + message) or let the handler run. */
type Outcome = { readonly refuse: true; readonly status: number; readonly message: string } | { readonly refuse: false };

const minRole: Readonly<Record<Exclude<Guard, 'none'>, number>> = { User: 1, Admin: 10, Root: 100 };
const roleOf: Readonly<Partial<Record<CallerKind, number>>> = { common: 1, admin: 10, root: 100, commonToken: 1, adminToken: 10 };

/** The outcome contract §1.4 gives for `caller` on a route guarded by `guard`. */
function expectedOutcome(guard: Guard, caller: CallerKind): Outcome {
  if (guard === 'none') return { refuse: false };
  if (caller === 'anonymous') return { refuse: true, status: 401, message: guardMessages.notLoggedIn };
  if (caller === 'invalidToken') return { refuse: true, status: 200, message: guardMessages.invalidToken };
  if (caller === 'banned') return { refuse: true, status: 200, message: guardMessages.banned };
  return (roleOf[caller] ?? 0) >= minRole[guard] ? { refuse: false } : { refuse: true, status: 200, message: guardMessages.forbidden };
}

const outcomeTitle = (outcome: Outcome): string =>
  outcome.refuse ? `${outcome.status} ${outcome.message}` : 'passes the guard';

/** How a caller sends requests: its browser (cookie jar) or a header on a fresh browser. */
interface Caller {
  send(row: RouteRow): Promise<Reply>;
}

let seq = 0;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`guard matrix: every /api route × every caller — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    const password = 'matrix-pass-1';
    const shared = new Map<CallerKind, Caller>();
    const bannedSessions: Client[] = [];

    const request = (client: Client, row: RouteRow, headers?: Record<string, string>) =>
      client.request(row.method, row.path, { body: row.body, headers });

    /** A caller logged in by a browser session as a new user of `role`. */
    async function sessionCaller(role: number): Promise<Caller> {
      const username = `m${(seq += 1)}`;
      await insertUser(db(), { username, password, role });
      const browser = suite.client();
      expect((await browser.login(username, password)).body.success).toBe(true);
      return { send: (row) => request(browser, row) };
    }

    /** A caller sending `Authorization: Bearer <its access token>` as a new user of `role`. */
    async function tokenCaller(role: number): Promise<Caller> {
      const username = `m${(seq += 1)}`;
      const accessToken = `${String(seq).padStart(4, '0')}`.padEnd(32, role === 1 ? 'c' : 'a');
      await insertUser(db(), { username, role, accessToken });
      return { send: (row) => request(suite.client(), row, { Authorization: `Bearer ${accessToken}` }) };
    }

    /** A new caller of `kind` (throwaway users for the kinds that have one). */
    async function newCaller(kind: CallerKind): Promise<Caller> {
      switch (kind) {
        case 'anonymous':
          return { send: (row) => request(suite.client(), row) };
        case 'invalidToken':
          return { send: (row) => request(suite.client(), row, { Authorization: 'Bearer ffffffffffffffffffffffffffffffff' }) };
        case 'common':
          return sessionCaller(1);
        case 'admin':
          return sessionCaller(10);
        case 'root':
          return sessionCaller(100);
        case 'commonToken':
          return tokenCaller(1);
        case 'adminToken':
          return tokenCaller(10);
        case 'banned': {
          const browser = bannedSessions.pop();
          if (browser === undefined) throw new Error('no banned session left');
          return { send: (row) => request(browser, row) };
        }
      }
    }

    beforeAll(async () => {
      // One session per row for the banned caller: log in while enabled, then disable the user.
      const bannedId = await insertUser(db(), { username: 'm-banned', password, role: 10 });
      for (let i = 0; i < routes.length; i += 1) {
        const browser = suite.client();
        expect((await browser.login('m-banned', password)).body.success).toBe(true);
        bannedSessions.push(browser);
      }
      await db().updateTable('users').set({ status: 2 }).where('id', '=', bannedId).execute();
      for (const kind of callerKinds) if (kind !== 'banned') shared.set(kind, await newCaller(kind));
    }, 240_000); // one password login per route: slow when the machine is busy

    for (const row of routes) {
      describe(`#${row.n} ${row.method} ${row.path} [${row.guard}]`, () => {
        for (const kind of callerKinds) {
          const outcome = expectedOutcome(row.guard, kind);
          it(`${callerTitles[kind]} → ${outcomeTitle(outcome)}`, async () => {
            const caller = kind === 'banned' || row.changesCaller === true ? await newCaller(kind) : shared.get(kind)!;
            const reply = await caller.send(row);
            const routeMissing = reply.status === 404 && typeof reply.body?.error?.message === 'string';
            expect(routeMissing, `route missing: ${reply.text}`).toBe(false);
            if (outcome.refuse) {
              expect(reply.status).toBe(outcome.status);
              expect(reply.body).toEqual({ success: false, message: outcome.message });
            } else {
              expect(reply.status).not.toBe(401);
              const message: unknown = reply.body?.message;
              if (reply.body?.success === false) expect(Object.values(guardMessages)).not.toContain(message);
            }
          });
        }
      });
    }
  });
}
