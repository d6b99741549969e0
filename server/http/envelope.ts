import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * one-api's response envelope `{ success, message, data? }` (contract §1.2) and its status
 * policy (§1.3): business errors are HTTP 200 with `success:false`; only a few cases use
 * another status (401 no credentials, 400 bad option body, 403 OAuth state, 404 unknown path).
 */

const jsonType = { 'Content-Type': 'application/json; charset=utf-8' } as const;

/** Sends `body` as JSON with gin's content type. */
const sendJson = (c: Context, body: unknown, status: ContentfulStatusCode): Response =>
  c.body(JSON.stringify(body), status, jsonType);

/** Success: `{success:true, message, data}`; `data` is left out when undefined (never sent as null unless given). */
export function ok(c: Context, data?: unknown, message = ''): Response {
  return sendJson(c, data === undefined ? { success: true, message } : { success: true, message, data }, 200);
}

/** Failure: `{success:false, message}`, HTTP 200 unless the contract names another status. */
export function fail(c: Context, message: string, status: ContentfulStatusCode = 200): Response {
  return sendJson(c, { success: false, message }, status);
}

/** Any other JSON body (the few non-enveloped answers, e.g. channel test, balance). */
export function json(c: Context, body: unknown, status: ContentfulStatusCode = 200): Response {
  return sendJson(c, body, status);
}

/** The three localised messages (contract §1.3). */
export type LocalizedKey = 'invalid_parameter' | 'invalid_input' | 'send_email_failed';

const localized: Readonly<Record<LocalizedKey, { en: string; zh: string }>> = {
  invalid_parameter: { en: 'invalid parameter', zh: '无效的参数' },
  invalid_input: { en: 'Invalid input, please check your input', zh: '无效的输入，请检查您的输入' },
  send_email_failed: { en: 'failed to send email: ', zh: '发送邮件失败：' },
};

/**
 * The language of our own messages (field rules, number ranges, cross-site refusals, faults):
 * Chinese (one-api's language) unless the first language of `Accept-Language` is another one.
 * (`localize` keeps one-api's three i18n texts, which default to English.)
 */
export function requestLanguage(c: Context): 'zh' | 'en' {
  const first = (c.req.header('Accept-Language') ?? '').split(',')[0]?.split(';')[0]?.trim().toLowerCase() ?? '';
  return first === '' || first === '*' || first.startsWith('zh') ? 'zh' : 'en';
}

/** The message for `key` in the request's language (`Accept-Language` starting with `zh` → Chinese). */
export function localize(c: Context, key: LocalizedKey): string {
  const language = c.req.header('Accept-Language') ?? '';
  return language.toLowerCase().startsWith('zh') ? localized[key].zh : localized[key].en;
}

/** The OpenAI-style 404 body for an unknown /api or /v1 path. */
export function invalidUrl(c: Context): Response {
  const message = `Invalid URL (${c.req.method} ${c.req.path})`;
  return sendJson(c, { error: { message, type: 'invalid_request_error', param: '', code: '' } }, 404);
}

/** Guard messages and other fixed texts (contract Appendix A). */
export const messages = {
  notLoggedIn: '无权进行此操作，未登录且未提供 access token',
  invalidAccessToken: '无权进行此操作，access token 无效',
  banned: '用户已被封禁',
  forbidden: '无权进行此操作，权限不足',
  passwordLoginDisabled: '管理员关闭了密码登录',
  loginFailed: '用户名或密码错误，或用户已被封禁',
  sessionSaveFailed: '无法保存会话信息，请重试',
} as const;
