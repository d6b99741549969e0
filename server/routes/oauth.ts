import { Hono, type Context } from 'hono';
import { setSignedCookie } from 'hono/cookie';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { userStatusActivated } from '../../src/domain/constants';
import type { SessionRow, UserRow } from '../db/schema';
import { currentUser, userAuth } from '../http/auth';
import { fail, messages, ok } from '../http/envelope';
import { ruleText } from '../http/ruleText';
import type { AppEnv } from '../http/env';
import { isHttps, newSessionId, readSession, sessionCookieName, startSession } from '../http/session';
import { decodeQuery } from '../http/validate';
import {
  bindExternalId,
  createExternalUser,
  gitHubIdentity,
  larkIdentity,
  oidcIdentity,
  userByExternalId,
  weChatId,
  withIdentityLock,
  type ExternalIdColumn,
  type ExternalNewUser,
  type Exchange,
} from '../services/oauth';
import { readOptions } from '../services/options';
import { findUserById } from '../services/users';
import { randomAlphanumeric } from '../services/userAdmin';
import { loginData, secondStepIfNeeded } from './twoFactor';

/**
 * Third-party login and binding under /api/oauth (contract §2.3.7–§2.3.9): the OAuth `state`,
 * the GitHub and Lark callbacks (login, auto-registration, bind) and the WeChat code login/bind.
 *
 * The state lives in our server-side session row (`sessions.oauth_state`); a caller without a
 * session gets an anonymous one (user_id 0, one hour) that only carries the state — the guards
 * ignore it. Deviations from one-api (contract §6 spirit): the state is single-use (cleared on a
 * successful callback); an empty Lark `open_id` is refused instead of matching every user with no
 * Lark id; provider answers that do not decode are reported as "cannot connect" instead of raw
 * Go errors; a WeChat server failure gives a fixed message instead of the raw error (which carried
 * the configured server address).
 */

type Ctx = Context<AppEnv>;

const text = {
  registerDisabled: '管理员关闭了新用户注册',
  gitHubDisabled: '管理员未开启通过 GitHub 登录以及注册',
  oidcDisabled: '管理员未开启通过 OIDC 登录以及注册',
  weChatDisabled: '管理员未开启通过微信登录以及注册',
  gitHubTaken: '该 GitHub 账户已被绑定',
  larkTaken: '该飞书账户已被绑定',
  oidcTaken: '该 OIDC 账户已被绑定',
  weChatTaken: '该微信账号已被绑定',
  bind: 'bind',
} as const;

/** Lifetime of an anonymous state-only session (seconds). */
const anonymousSessionSeconds = 3600;
/** one-api's runtime default of an empty ServerAddress option. */
const defaultServerAddress = 'http://localhost:3000';

const db = (c: Ctx) => c.get('deps').db;

/** The console's callback page for `provider` under the ServerAddress option (the redirect URI providers check). */
const callbackUrl = (serverAddress: string, provider: 'lark' | 'oidc'): string =>
  `${serverAddress === '' ? defaultServerAddress : serverAddress}/oauth/${provider}`;
const nowSeconds = (c: Ctx): number => Math.floor(c.get('deps').now() / 1000);

/** The callback query: `code` and `state` (absent = empty). */
const CallbackQuery = t.partial({ code: t.string, state: t.string });
/** The WeChat query: `code`. */
const CodeQuery = t.partial({ code: t.string });

/** `code` (and `state`) of the query; query values are always strings, so only absence is possible. */
function callbackQuery(c: Ctx): { readonly code: string; readonly state: string } {
  const decoded = decodeQuery(c, CallbackQuery);
  return E.isRight(decoded) ? { code: decoded.right.code ?? '', state: decoded.right.state ?? '' } : { code: '', state: '' };
}

// ---------------------------------------------------------------------------------------------
// State (§2.3.7)

/** Stores `state` in the request's session, creating an anonymous session (and cookie) when there is none. */
async function storeState(c: Ctx, state: string): Promise<void> {
  const session = await readSession(c);
  if (session !== null) {
    await db(c).updateTable('sessions').set({ oauth_state: state }).where('id', '=', session.id).execute();
    return;
  }
  const now = nowSeconds(c);
  const id = newSessionId();
  await db(c).transaction().execute(async (trx) => {
    await trx.deleteFrom('sessions').where('expires_at', '<=', now).execute();
    await trx
      .insertInto('sessions')
      .values({ id, user_id: 0, created_at: now, expires_at: now + anonymousSessionSeconds, last_seen_at: now, oauth_state: state })
      .execute();
  });
  const { sessionSecret } = c.get('deps').config;
  await setSignedCookie(c, sessionCookieName, id, sessionSecret, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c),
    maxAge: anonymousSessionSeconds,
  });
}

/** `GET /api/oauth/state`: a 12-character `[0-9a-zA-Z]` state, kept in the session. */
async function issueState(c: Ctx): Promise<Response> {
  const state = randomAlphanumeric(12);
  await storeState(c, state);
  return ok(c, state);
}

/** The session whose stored state equals `state`, or null (empty, missing or different). */
async function sessionWithState(c: Ctx, state: string): Promise<SessionRow | null> {
  if (state === '') return null;
  const session = await readSession(c);
  const stored = session?.oauth_state ?? '';
  return session !== null && stored !== '' && stored === state ? session : null;
}

/** Clears the session's state (it is single-use once a callback succeeded). */
async function consumeState(c: Ctx, session: SessionRow): Promise<void> {
  await db(c).updateTable('sessions').set({ oauth_state: null }).where('id', '=', session.id).execute();
}

// ---------------------------------------------------------------------------------------------
// Login / bind shared steps

/**
 * Logs `user` in (new session, cookie) and answers like password login; refuses users not enabled.
 * A user with two-factor sign-in on gets the same second step as a password login: no session,
 * the `login_2fa` challenge cookie and `{require_2fa: true}`, completed by `POST /api/user/login/2fa`.
 * The OAuth state of `stateSession` is then consumed (the callback cannot be replayed for another
 * challenge); a one-step login replaces that session anyway.
 */
async function logIn(c: Ctx, user: UserRow, stateSession: SessionRow | null): Promise<Response> {
  if (user.status !== userStatusActivated) return fail(c, messages.banned);
  const secondStep = await secondStepIfNeeded(c, user);
  if (secondStep !== null) {
    if (stateSession !== null) await consumeState(c, stateSession);
    return secondStep;
  }
  try {
    await startSession(c, user.id);
  } catch {
    return fail(c, messages.sessionSaveFailed);
  }
  return ok(c, await loginData(c, user));
}

/** Login mode: the user holding the external id, else a new user when registration is enabled. */
async function logInExternal(c: Ctx, newUser: ExternalNewUser, stateSession: SessionRow | null): Promise<Response> {
  const user = await withIdentityLock(newUser.column, newUser.externalId, async () => {
    const existing = await userByExternalId(db(c), newUser.column, newUser.externalId);
    if (existing !== undefined) return existing;
    const options = await readOptions(db(c), ['RegisterEnabled']);
    if (!options.bool('RegisterEnabled')) return null;
    return createExternalUser(db(c), newUser, nowSeconds(c));
  });
  return user === null ? fail(c, text.registerDisabled) : logIn(c, user, stateSession);
}

/**
 * Binds the external id to `userId` unless another user holds it already; false when taken.
 * Binding an id the user already holds succeeds (one-api says "taken"): a callback page that is
 * reloaded or retried after a slow answer must not tell the person their own account is taken.
 */
function bindIfFree(c: Ctx, userId: number, column: ExternalIdColumn, value: string): Promise<boolean> {
  return withIdentityLock(column, value, async () => {
    const holder = await userByExternalId(db(c), column, value);
    if (holder !== undefined) return holder.id === userId;
    await bindExternalId(db(c), userId, column, value);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// GitHub and Lark callbacks (§2.3.8)

/** A provider of the state-checked callbacks. */
interface CallbackProvider {
  /** The feature flag option, or null (Lark has none). */
  readonly flag: { readonly key: string; readonly message: string } | null;
  readonly column: ExternalIdColumn;
  readonly takenMessage: string;
  /** code → identity as the new-user description. */
  exchange(c: Ctx, code: string): Promise<Exchange<ExternalNewUser>>;
}

const gitHub: CallbackProvider = {
  flag: { key: 'GitHubOAuthEnabled', message: text.gitHubDisabled },
  column: 'github_id',
  takenMessage: text.gitHubTaken,
  exchange: async (c, code) => {
    const options = await readOptions(db(c), ['GitHubClientId', 'GitHubClientSecret']);
    const client = { id: options.str('GitHubClientId'), secret: options.str('GitHubClientSecret') };
    const identity = await gitHubIdentity(c.get('deps').config.oauthUrls, client, code);
    return E.map((u: { login: string; name: string; email: string }) => ({
      column: 'github_id' as const,
      externalId: u.login,
      usernamePrefix: 'github',
      displayName: u.name === '' ? 'GitHub User' : u.name,
      email: u.email,
    }))(identity);
  },
};

const lark: CallbackProvider = {
  flag: null,
  column: 'lark_id',
  takenMessage: text.larkTaken,
  exchange: async (c, code) => {
    const options = await readOptions(db(c), ['LarkClientId', 'LarkClientSecret', 'ServerAddress']);
    const client = {
      id: options.str('LarkClientId'),
      secret: options.str('LarkClientSecret'),
      redirectUri: callbackUrl(options.str('ServerAddress'), 'lark'),
    };
    const identity = await larkIdentity(c.get('deps').config.oauthUrls, client, code);
    return E.map((u: { openId: string; name: string }) => ({
      column: 'lark_id' as const,
      externalId: u.openId,
      usernamePrefix: 'lark',
      displayName: u.name === '' ? 'Lark User' : u.name,
      email: '',
    }))(identity);
  },
};

const oidc: CallbackProvider = {
  flag: { key: 'OidcEnabled', message: text.oidcDisabled },
  column: 'oidc_id',
  takenMessage: text.oidcTaken,
  exchange: async (c, code) => {
    const options = await readOptions(db(c), [
      'OidcClientId',
      'OidcClientSecret',
      'OidcTokenEndpoint',
      'OidcUserinfoEndpoint',
      'ServerAddress',
    ]);
    const identity = await oidcIdentity(
      {
        id: options.str('OidcClientId'),
        secret: options.str('OidcClientSecret'),
        redirectUri: callbackUrl(options.str('ServerAddress'), 'oidc'),
        tokenEndpoint: options.str('OidcTokenEndpoint'),
        userinfoEndpoint: options.str('OidcUserinfoEndpoint'),
      },
      code,
    );
    return E.map((u: { sub: string; email: string; name: string; preferredUsername: string }) => ({
      column: 'oidc_id' as const,
      externalId: u.sub,
      usernamePrefix: 'oidc',
      preferredUsername: u.preferredUsername,
      displayName: u.name === '' ? 'OIDC User' : u.name,
      email: u.email,
    }))(identity);
  },
};

/** `GET /api/oauth/github|lark|oidc?code=&state=`: bind when the session has a user, else login/register. */
function callback(provider: CallbackProvider) {
  return async (c: Ctx): Promise<Response> => {
    const { code, state } = callbackQuery(c);
    const session = await sessionWithState(c, state);
    // Ours: in the caller's language, saying what to do (one-api: English "state is empty or not same").
    if (session === null) return fail(c, ruleText(c, 'rules.oauth.state'), 403);
    // Bind mode reads the user from the session only (access-token callers cannot bind).
    const bindUser = session.user_id === 0 ? undefined : await findUserById(db(c), session.user_id);
    if (provider.flag !== null) {
      const options = await readOptions(db(c), [provider.flag.key]);
      if (!options.bool(provider.flag.key)) return fail(c, provider.flag.message);
    }
    const identity = await provider.exchange(c, code);
    if (E.isLeft(identity)) return fail(c, identity.left);
    if (bindUser !== undefined) {
      if (bindUser.status !== userStatusActivated) return fail(c, messages.banned);
      if (!(await bindIfFree(c, bindUser.id, provider.column, identity.right.externalId))) return fail(c, provider.takenMessage);
      await consumeState(c, session);
      return ok(c, undefined, text.bind);
    }
    // A successful login replaces the session (state included); a failure keeps the state for a retry.
    return logInExternal(c, identity.right, session);
  };
}

// ---------------------------------------------------------------------------------------------
// WeChat (§2.3.9)

/** The flag check and the code exchange shared by WeChat login and bind. */
async function weChatExchange(c: Ctx): Promise<Exchange<string>> {
  const options = await readOptions(db(c), ['WeChatAuthEnabled', 'WeChatServerAddress', 'WeChatServerToken']);
  if (!options.bool('WeChatAuthEnabled')) return E.left(text.weChatDisabled);
  const decoded = decodeQuery(c, CodeQuery);
  const code = E.isRight(decoded) ? (decoded.right.code ?? '') : '';
  return weChatId({ address: options.str('WeChatServerAddress'), token: options.str('WeChatServerToken') }, code);
}

/** `GET /api/oauth/wechat?code=`: login, or auto-registration as `wechat_<n>`. */
async function weChatLogin(c: Ctx): Promise<Response> {
  const id = await weChatExchange(c);
  if (E.isLeft(id)) return fail(c, id.left);
  return logInExternal(c, { column: 'wechat_id', externalId: id.right, usernamePrefix: 'wechat', displayName: 'WeChat User', email: '' }, null);
}

/** `GET /api/oauth/wechat/bind?code=` (User): binds the WeChat id to the caller. */
async function weChatBind(c: Ctx): Promise<Response> {
  const id = await weChatExchange(c);
  if (E.isLeft(id)) return fail(c, id.left);
  return (await bindIfFree(c, currentUser(c).id, 'wechat_id', id.right)) ? ok(c) : fail(c, text.weChatTaken);
}

/** Routes mounted at /api/oauth. */
export function oauthRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get('/state', issueState);
  app.get('/github', callback(gitHub));
  app.get('/lark', callback(lark));
  app.get('/oidc', callback(oidc));
  app.get('/wechat', weChatLogin);
  app.get('/wechat/bind', userAuth, weChatBind);
  return app;
}
