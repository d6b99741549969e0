import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database, UserRow } from '../db/schema';
import { createUser } from './userAdmin';

/**
 * Third-party identities (contract §2.3.8, §2.3.9): the provider exchanges (GitHub, Lark, the
 * companion WeChat server) and the user lookups / auto-registration behind the OAuth routes.
 * Every provider answer is decoded with io-ts; an answer that does not decode is treated as a
 * failed exchange, never trusted. Provider calls time out after 5 s, as one-api's.
 */

type Db = Kysely<Database>;

/** The external-id columns of `users`. */
export type ExternalIdColumn = 'github_id' | 'lark_id' | 'wechat_id' | 'oidc_id';

/** Timeout of every provider call (ms). */
const providerTimeoutMs = 5000;

/** Fixed messages (contract Appendix A). */
export const oauthText = {
  invalidParameter: '无效的参数',
  githubUnreachable: '无法连接至 GitHub 服务器，请稍后重试！',
  larkUnreachable: '无法连接至飞书服务器，请稍后重试！',
  oidcUnreachable: '无法连接至 OIDC 服务器，请稍后重试！',
  /** Ours: one-api answers the raw Go error text (with the server address) here. */
  wechatUnreachable: '无法连接至微信服务器，请稍后重试！',
  emptyUserField: '返回值非法，用户字段为空，请稍后重试！',
  badWeChatCode: '验证码错误或已过期',
} as const;

/** Outcome of a provider exchange: the identity, or the message to answer. */
export type Exchange<A> = E.Either<string, A>;

/** An optional string field as providers send it (absent or null = empty). */
const optText = t.union([t.string, t.null, t.undefined]);
const textOf = (v: string | null | undefined): string => v ?? '';

/** Whether a provider value can be stored (PostgreSQL text cannot hold NUL). */
const storable = (s: string): boolean => !s.includes('\u0000');

/** Sends a request with the provider timeout and decodes the JSON answer with `codec`; null on any failure. */
async function callJson<A>(url: string, init: RequestInit, codec: t.Decoder<unknown, A>): Promise<A | null> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(providerTimeoutMs) });
    const decoded = codec.decode(JSON.parse(await response.text()));
    return E.isRight(decoded) ? decoded.right : null;
  } catch {
    return null;
  }
}

const TokenReply = t.partial({ access_token: optText });

/**
 * The authorization-code exchange every provider here speaks: POST the JSON `tokenBody` to
 * `tokenUrl` for an access token, then GET `userUrl` with it as Bearer and decode the answer with
 * `codec`. Null when either call fails or does not decode.
 */
async function exchangeCode<A>(tokenUrl: string, tokenBody: object, userUrl: string, codec: t.Decoder<unknown, A>): Promise<A | null> {
  const token = await callJson(
    tokenUrl,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(tokenBody),
    },
    TokenReply,
  );
  if (token === null) return null;
  return callJson(userUrl, { headers: { Authorization: `Bearer ${textOf(token.access_token)}`, Accept: 'application/json' } }, codec);
}

// ---------------------------------------------------------------------------------------------
// GitHub

export interface GitHubIdentity {
  readonly login: string;
  readonly name: string;
  readonly email: string;
}

const GitHubUserReply = t.partial({ login: optText, name: optText, email: optText });

/** code → access token → `GET /user`. */
export async function gitHubIdentity(
  urls: Config['oauthUrls'],
  client: { readonly id: string; readonly secret: string },
  code: string,
): Promise<Exchange<GitHubIdentity>> {
  if (code === '') return E.left(oauthText.invalidParameter);
  const user = await exchangeCode(
    `${urls.githubOAuth}/login/oauth/access_token`,
    { client_id: client.id, client_secret: client.secret, code },
    `${urls.githubApi}/user`,
    GitHubUserReply,
  );
  if (user === null) return E.left(oauthText.githubUnreachable);
  const identity = { login: textOf(user.login), name: textOf(user.name), email: textOf(user.email) };
  if (identity.login === '' || ![identity.login, identity.name, identity.email].every(storable)) {
    return E.left(oauthText.emptyUserField);
  }
  return E.right(identity);
}

// ---------------------------------------------------------------------------------------------
// Lark (Feishu)

export interface LarkIdentity {
  readonly openId: string;
  readonly name: string;
}

const LarkUserReply = t.partial({ open_id: optText, name: optText });

/** code → user access token (`/open-apis/authen/v2/oauth/token`) → passport user info. */
export async function larkIdentity(
  urls: Config['oauthUrls'],
  client: { readonly id: string; readonly secret: string; readonly redirectUri: string },
  code: string,
): Promise<Exchange<LarkIdentity>> {
  if (code === '') return E.left(oauthText.invalidParameter);
  const user = await exchangeCode(
    `${urls.lark}/open-apis/authen/v2/oauth/token`,
    { client_id: client.id, client_secret: client.secret, code, grant_type: 'authorization_code', redirect_uri: client.redirectUri },
    `${urls.larkPassport}/suite/passport/oauth/userinfo`,
    LarkUserReply,
  );
  if (user === null) return E.left(oauthText.larkUnreachable);
  const identity = { openId: textOf(user.open_id), name: textOf(user.name) };
  // Fix: one-api does not check for an empty open_id, which would match every user with no Lark id.
  if (identity.openId === '' || !storable(identity.openId) || !storable(identity.name)) return E.left(oauthText.emptyUserField);
  return E.right(identity);
}

// ---------------------------------------------------------------------------------------------
// OIDC (any OpenID Connect provider; endpoints from the Oidc* options)

export interface OidcIdentity {
  readonly sub: string;
  readonly email: string;
  readonly name: string;
  readonly preferredUsername: string;
}

const OidcUserReply = t.partial({ sub: optText, email: optText, name: optText, preferred_username: optText });

/** code → access token (OidcTokenEndpoint) → claims (OidcUserinfoEndpoint). */
export async function oidcIdentity(
  client: {
    readonly id: string;
    readonly secret: string;
    readonly redirectUri: string;
    readonly tokenEndpoint: string;
    readonly userinfoEndpoint: string;
  },
  code: string,
): Promise<Exchange<OidcIdentity>> {
  if (code === '') return E.left(oauthText.invalidParameter);
  const claims = await exchangeCode(
    client.tokenEndpoint,
    { client_id: client.id, client_secret: client.secret, code, grant_type: 'authorization_code', redirect_uri: client.redirectUri },
    client.userinfoEndpoint,
    OidcUserReply,
  );
  if (claims === null) return E.left(oauthText.oidcUnreachable);
  const identity = {
    sub: textOf(claims.sub),
    email: textOf(claims.email),
    name: textOf(claims.name),
    preferredUsername: textOf(claims.preferred_username),
  };
  // As for Lark: an empty subject would match every user without an OIDC id.
  if (identity.sub === '' || ![identity.sub, identity.email, identity.name, identity.preferredUsername].every(storable)) {
    return E.left(oauthText.emptyUserField);
  }
  return E.right(identity);
}

// ---------------------------------------------------------------------------------------------
// WeChat (companion official-account server)

const WeChatReply = t.intersection([t.type({ success: t.boolean }), t.partial({ message: optText, data: optText })]);

/** `GET <server>/api/wechat/user?code=` with `Authorization: <token>` → the WeChat id. */
export async function weChatId(server: { readonly address: string; readonly token: string }, code: string): Promise<Exchange<string>> {
  if (code === '') return E.left(oauthText.invalidParameter);
  const base = server.address.replace(/\/+$/, '');
  const reply = await callJson(
    `${base}/api/wechat/user?code=${encodeURIComponent(code)}`,
    { headers: { Authorization: server.token } },
    WeChatReply,
  );
  if (reply === null) return E.left(oauthText.wechatUnreachable);
  if (!reply.success) return E.left(textOf(reply.message));
  const id = textOf(reply.data);
  if (id === '' || !storable(id)) return E.left(oauthText.badWeChatCode);
  return E.right(id);
}

// ---------------------------------------------------------------------------------------------
// Users

/** The user (any status, lowest id) holding external id `value` in `column`, or undefined. */
export function userByExternalId(db: Db, column: ExternalIdColumn, value: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where(column, '=', value).orderBy('id').executeTakeFirst();
}

/** Highest user id (0 when there are none). */
async function maxUserId(db: Db): Promise<number> {
  const row = await db.selectFrom('users').select(sql<number | string | null>`max(id)`.as('max')).executeTakeFirst();
  return Number(row?.max ?? 0);
}

/** What an auto-registered user gets. */
export interface ExternalNewUser {
  readonly column: ExternalIdColumn;
  readonly externalId: string;
  /** `github`, `lark`, `wechat`, `oidc`: the username is `<prefix>_<maxUserId+1>`. */
  readonly usernamePrefix: string;
  /** A username to try first (OIDC's `preferred_username`); the prefix rule when empty or taken. */
  readonly preferredUsername?: string;
  readonly displayName: string;
  readonly email: string;
}

/**
 * Creates a user for a new external identity (one-api's rule: username `<prefix>_<maxUserId+1>`,
 * empty password, the usual new-user side effects) and stores the external id. If that username
 * is already taken (e.g. an admin created it by hand) the next number is tried.
 */
export async function createExternalUser(db: Db, input: ExternalNewUser, nowSeconds: number): Promise<UserRow> {
  let next = (await maxUserId(db)) + 1;
  const preferred = input.preferredUsername ?? '';
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const username = attempt === 0 && preferred !== '' ? preferred : `${input.usernamePrefix}_${next++}`;
    const result = await createUser(
      db,
      { username, password: '', displayName: input.displayName, email: input.email, inviterId: 0 },
      nowSeconds,
    );
    if (result.kind === 'created') {
      await db.updateTable('users').set({ [input.column]: input.externalId }).where('id', '=', result.id).execute();
      return db.selectFrom('users').selectAll().where('id', '=', result.id).executeTakeFirstOrThrow();
    }
  }
  throw new Error(`no free ${input.usernamePrefix}_<n> username`);
}

/** Stores external id `value` on user `userId`. */
export async function bindExternalId(db: Db, userId: number, column: ExternalIdColumn, value: string): Promise<void> {
  await db.updateTable('users').set({ [column]: value }).where('id', '=', userId).execute();
}

/** Tail of the queue of work per external identity (in-process). */
const identityQueues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` after any earlier work on the same external identity (`column` + id) has finished, so
 * concurrent callbacks for one new identity cannot create two users or bind it twice (one process).
 */
export async function withIdentityLock<A>(column: ExternalIdColumn, value: string, fn: () => Promise<A>): Promise<A> {
  const key = `${column}\u0000${value}`;
  const previous = identityQueues.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => undefined);
  identityQueues.set(key, tail);
  try {
    return await run;
  } finally {
    if (identityQueues.get(key) === tail) identityQueues.delete(key);
  }
}
