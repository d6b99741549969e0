import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import type { TaskEither } from 'fp-ts/TaskEither';
import type { ApiError } from '../domain/apiError';
import {
  LoginAnswer,
  RecoveryCodes,
  SecondFactorRequired,
  TwoFactorSetup,
  TwoFactorStatus,
  type ExternalSignIn,
  type TwoFactorDisableBody,
} from '../domain/twoFactor';
import { User, type LoginPayload, type RegisterPayload } from '../domain/user';
import { readData, readHead, readNoData, type ApiClient, type BodyReader } from './client';
import { decodeAt } from './decode';

/** An OAuth callback's outcome: the account was bound to the signed-in user, the second factor is asked, or a user signed in. */
export type OAuthResult = { readonly bound: true } | ExternalSignIn;

export interface OAuthCallback {
  readonly code: string;
  readonly state: string;
}

/** Sign-in, registration, verification and account binding (spec §7 "Status and session", contract §2.3). */
export interface AuthApi {
  /** POST /api/user/login {username, password}: the (sparse) user record, or `{require_2fa: true}`. */
  readonly login: (payload: LoginPayload) => TaskEither<ApiError, LoginAnswer>;
  /** POST /api/user/login/2fa {code}: completes a login waiting for its second factor. */
  readonly loginSecondFactor: (payload: { readonly code: string }) => TaskEither<ApiError, User>;
  /** GET /api/user/2fa/status. */
  readonly twoFactorStatus: () => TaskEither<ApiError, TwoFactorStatus>;
  /** GET /api/user/2fa/status, read for its `required`: the signed-in admin must enrol first (TwoFactorRequiredForAdmins). */
  readonly enrolmentRequired: () => TaskEither<ApiError, boolean>;
  /** POST /api/user/2fa/setup: a new secret and its otpauth:// URI. */
  readonly twoFactorSetup: () => TaskEither<ApiError, TwoFactorSetup>;
  /** POST /api/user/2fa/enable {code}: the recovery codes, once. */
  readonly twoFactorEnable: (payload: { readonly code: string }) => TaskEither<ApiError, RecoveryCodes>;
  /** POST /api/user/2fa/disable {code} or {password}. */
  readonly twoFactorDisable: (payload: TwoFactorDisableBody) => TaskEither<ApiError, void>;
  /** POST /api/user/2fa/recovery-codes {code}: new recovery codes, once. */
  readonly twoFactorRecoveryCodes: (payload: { readonly code: string }) => TaskEither<ApiError, RecoveryCodes>;
  /** GET /api/user/logout. */
  readonly logout: () => TaskEither<ApiError, void>;
  /** POST /api/user/register?turnstile=: the registration payload. */
  readonly register: (payload: RegisterPayload, turnstile: string) => TaskEither<ApiError, void>;
  /** GET /api/verification?email=&turnstile=: mails a verification code. */
  readonly sendVerificationCode: (email: string, turnstile: string) => TaskEither<ApiError, void>;
  /** GET /api/reset_password?email=&turnstile=: mails a reset link. */
  readonly sendPasswordReset: (email: string, turnstile: string) => TaskEither<ApiError, void>;
  /** POST /api/user/reset {email, token}: the new password. */
  readonly confirmPasswordReset: (payload: { readonly email: string; readonly token: string }) => TaskEither<ApiError, string>;
  /** GET /api/oauth/state: the OAuth state value. */
  readonly getOAuthState: () => TaskEither<ApiError, string>;
  /** GET /api/oauth/github?code=&state=: message 'bind' means bound, else data is the user. */
  readonly oauthGitHub: (callback: OAuthCallback) => TaskEither<ApiError, OAuthResult>;
  /** GET /api/oauth/lark?code=&state=: as GitHub. */
  readonly oauthLark: (callback: OAuthCallback) => TaskEither<ApiError, OAuthResult>;
  /** GET /api/oauth/wechat?code=: WeChat login, data is the user. */
  readonly wechatLogin: (code: string) => TaskEither<ApiError, ExternalSignIn>;
  /** GET /api/oauth/wechat/bind?code=. */
  readonly wechatBind: (code: string) => TaskEither<ApiError, void>;
  /** GET /api/oauth/email/bind?email=&code=. */
  readonly emailBind: (payload: { readonly email: string; readonly code: string }) => TaskEither<ApiError, void>;
}

/**
 * A third-party login's `data`: `{require_2fa: true}` (the second step is asked, no session yet),
 * else the user, flagged when `require_2fa_setup` says an admin must enrol first.
 */
export const readExternalSignIn: BodyReader<ExternalSignIn> = (body, call) => {
  const head = readHead(body, call);
  if (E.isLeft(head)) return head;
  const data: unknown = head.right.data;
  if (typeof data === 'object' && data !== null && 'require_2fa' in data) {
    const asked = decodeAt(SecondFactorRequired, data, call, 'data');
    return E.isLeft(asked) ? asked : E.right({ bound: false, secondFactor: true });
  }
  const user = decodeAt(User, data, call, 'data');
  if (E.isLeft(user)) return user;
  const mustEnrol = typeof data === 'object' && data !== null && (data as { require_2fa_setup?: unknown }).require_2fa_setup === true;
  const { require_2fa_setup: _flag, ...plain } = user.right as User & { require_2fa_setup?: unknown };
  return E.right(mustEnrol ? { bound: false, user: plain, enrolmentRequired: true } : { bound: false, user: plain });
};

/** `message === 'bind'` means the provider account was bound; otherwise a sign-in (see `readExternalSignIn`). */
export const readOAuthResult: BodyReader<OAuthResult> = (body, call) => {
  const head = readHead(body, call);
  if (E.isLeft(head)) return head;
  if (head.right.message === 'bind') return E.right({ bound: true });
  return readExternalSignIn(body, call);
};

export const createAuthApi = (client: ApiClient): AuthApi => ({
  login: ({ username, password }) =>
    client.request({ method: 'POST', path: '/api/user/login', body: { username, password }, read: readData(LoginAnswer) }),
  loginSecondFactor: ({ code }) => client.request({ method: 'POST', path: '/api/user/login/2fa', body: { code }, read: readData(User) }),
  twoFactorStatus: () => client.request({ method: 'GET', path: '/api/user/2fa/status', read: readData(TwoFactorStatus) }),
  enrolmentRequired: () =>
    client.request({ method: 'GET', path: '/api/user/2fa/status', read: (body, call) => E.map((s: TwoFactorStatus) => s.required)(readData(TwoFactorStatus)(body, call)) }),
  twoFactorSetup: () => client.request({ method: 'POST', path: '/api/user/2fa/setup', read: readData(TwoFactorSetup) }),
  twoFactorEnable: ({ code }) => client.request({ method: 'POST', path: '/api/user/2fa/enable', body: { code }, read: readData(RecoveryCodes) }),
  twoFactorDisable: (body) => client.request({ method: 'POST', path: '/api/user/2fa/disable', body, read: readNoData }),
  twoFactorRecoveryCodes: ({ code }) =>
    client.request({ method: 'POST', path: '/api/user/2fa/recovery-codes', body: { code }, read: readData(RecoveryCodes) }),
  logout: () => client.request({ method: 'GET', path: '/api/user/logout', read: readNoData }),
  register: (payload, turnstile) =>
    client.request({ method: 'POST', path: '/api/user/register', query: { turnstile }, body: payload, read: readNoData }),
  sendVerificationCode: (email, turnstile) =>
    client.request({ method: 'GET', path: '/api/verification', query: { email, turnstile }, read: readNoData }),
  sendPasswordReset: (email, turnstile) =>
    client.request({ method: 'GET', path: '/api/reset_password', query: { email, turnstile }, read: readNoData }),
  confirmPasswordReset: ({ email, token }) =>
    client.request({ method: 'POST', path: '/api/user/reset', body: { email, token }, read: readData(t.string) }),
  getOAuthState: () => client.request({ method: 'GET', path: '/api/oauth/state', read: readData(t.string) }),
  oauthGitHub: ({ code, state }) =>
    client.request({ method: 'GET', path: '/api/oauth/github', query: { code, state }, read: readOAuthResult }),
  oauthLark: ({ code, state }) =>
    client.request({ method: 'GET', path: '/api/oauth/lark', query: { code, state }, read: readOAuthResult }),
  wechatLogin: (code) => client.request({ method: 'GET', path: '/api/oauth/wechat', query: { code }, read: readExternalSignIn }),
  wechatBind: (code) => client.request({ method: 'GET', path: '/api/oauth/wechat/bind', query: { code }, read: readNoData }),
  emailBind: ({ email, code }) =>
    client.request({ method: 'GET', path: '/api/oauth/email/bind', query: { email, code }, read: readNoData }),
});
