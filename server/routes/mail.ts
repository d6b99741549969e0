import { Hono, type Context } from 'hono';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { currentUser, userAuth } from '../http/auth';
import { fail, localize, ok } from '../http/envelope';
import type { AppEnv } from '../http/env';
import { revokeOtherCredentials } from '../services/credentials';
import { decodeBody, decodeQuery } from '../http/validate';
import { escapeHtml, sendMail, smtpNotConfigured } from '../services/mail';
import { ruleText } from '../http/ruleText';
import { readOptions } from '../services/options';
import { hashPassword } from '../services/password';
import { hasNul, userLimits } from '../services/userAdmin';
import { consumeCode, newEmailCode, newResetPassword, newResetToken, storeCode } from '../services/verification';
import { defaultServerAddress } from './status';

/**
 * E-mail endpoints (contract §2.3.4 verification code, §2.3.5 reset mail, §2.3.6 reset confirm,
 * §2.3.10 e-mail bind). Deviations (contract §6 #10, fixes): codes are stored (hashed) in the
 * database instead of process memory, only after the mail went out, and each code works once;
 * a reset also ends the sessions of the affected users; the whitelist compares domains without
 * regard to case; query-breaking characters of the address (`+ & # % =`) are percent-encoded in
 * the reset link (other addresses give one-api's link byte for byte).
 */

type Ctx = Context<AppEnv>;

/** Fixed messages (contract Appendix A). */
const text = {
  notWhitelisted: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
  emailTaken: '邮箱地址已被占用',
  emailNotRegistered: '该邮箱地址未注册',
  badResetLink: '重置链接非法或已过期',
  badCode: '验证码错误或已过期',
} as const;

/** Validity shown in the mails, minutes. */
const validityMinutes = 10;

const db = (c: Ctx) => c.get('deps').db;
const nowSeconds = (c: Ctx): number => Math.floor(c.get('deps').now() / 1000);

/** An e-mail address as one-api's validator accepts it (and short enough for the users.email column). */
const emailPattern = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"._-][^\s@<>()[\]\\,;:"]*$/;
const isEmail = (s: string): boolean =>
  emailPattern.test(s) && !s.endsWith('.') && !s.includes('..') && [...s].length <= userLimits.email && !hasNul(s);

/** `?email=` (other parameters, e.g. `turnstile`, are read by the Turnstile middleware). */
const EmailQuery = t.partial({ email: t.string });
/** `?email=&code=`. */
const BindQuery = t.partial({ email: t.string, code: t.string });
/** `POST /api/user/reset` body. */
const ResetBody = t.type({ email: t.string, token: t.string });

/** The valid `email` query parameter, or null. */
function emailParam(c: Ctx): string | null {
  const query = decodeQuery(c, EmailQuery);
  if (E.isLeft(query)) return null;
  const email = query.right.email ?? '';
  return isEmail(email) ? email : null;
}

/** Whether a user (any status) has `email`. */
async function emailTaken(c: Ctx, email: string): Promise<boolean> {
  const row = await db(c).selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  return row !== undefined;
}

/** Whether `email` passes the domain whitelist (when EmailDomainRestrictionEnabled). */
async function domainAllowed(c: Ctx, email: string): Promise<boolean> {
  const o = await readOptions(db(c), ['EmailDomainRestrictionEnabled', 'EmailDomainWhitelist']);
  if (!o.bool('EmailDomainRestrictionEnabled')) return true;
  const address = email.toLowerCase();
  return o
    .str('EmailDomainWhitelist')
    .split(',')
    .some((domain) => address.endsWith(`@${domain.trim().toLowerCase()}`));
}

/** The text of a send failure. */
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * What a failed send tells the caller (often anonymous): the gateway's own "not configured"
 * sentence, else a generic message with the request id; the transport's error, which names the
 * mail host and its answers, goes to the log. (one-api answers the transport's error text.)
 */
function mailFailure(c: Ctx, error: unknown): string {
  const detail = errorText(error);
  if (detail === smtpNotConfigured) return detail;
  const requestId = c.get('requestId');
  console.error(`[mail] ${requestId} ${c.req.method} ${c.req.path}: ${detail}`);
  return ruleText(c, 'rules.mail.failed', { requestId });
}

/** `GET /api/verification?email=`: mails a 6-hex code (purpose `v`). */
async function sendVerification(c: Ctx): Promise<Response> {
  const email = emailParam(c);
  if (email === null) return fail(c, localize(c, 'invalid_parameter'));
  if (!(await domainAllowed(c, email))) return fail(c, text.notWhitelisted);
  if (await emailTaken(c, email)) return fail(c, text.emailTaken);
  const options = await readOptions(db(c), ['SystemName']);
  const systemName = options.str('SystemName');
  const code = newEmailCode();
  const html =
    `<p>您好，您正在进行 ${escapeHtml(systemName)} 的邮箱验证。</p>` +
    `<p>您的验证码为：<strong>${code}</strong></p>` +
    `<p>验证码 ${validityMinutes} 分钟内有效。如果不是您本人操作，请忽略本邮件。</p>`;
  try {
    await sendMail(db(c), { to: email, subject: `${systemName} 邮箱验证邮件`, html });
  } catch (error) {
    return fail(c, mailFailure(c, error));
  }
  await storeCode(db(c), 'v', email, code, nowSeconds(c));
  return ok(c);
}

/** Characters of an address that would change the meaning of the reset link's query string. */
const queryBreaking = /[+&#%=]/g;

/** `GET /api/reset_password?email=`: mails a reset link with a 32-hex token (purpose `r`). */
async function sendResetLink(c: Ctx): Promise<Response> {
  const email = emailParam(c);
  if (email === null) return fail(c, localize(c, 'invalid_parameter'));
  if (!(await emailTaken(c, email))) return fail(c, text.emailNotRegistered);
  const options = await readOptions(db(c), ['SystemName', 'ServerAddress']);
  const systemName = options.str('SystemName');
  const token = newResetToken();
  const base = options.str('ServerAddress') || defaultServerAddress;
  const link = `${base}/user/reset?email=${email.replace(queryBreaking, encodeURIComponent)}&token=${token}`;
  const html =
    `<p>您好，您正在进行 ${escapeHtml(systemName)} 的密码重置。</p>` +
    `<p>点击 <a href="${escapeHtml(link)}">此处</a> 重置密码。</p>` +
    `<p>如果链接无法点击，请将下面的地址复制到浏览器中打开：<br>${escapeHtml(link)}</p>` +
    `<p>重置链接 ${validityMinutes} 分钟内有效。如果不是您本人操作，请忽略本邮件。</p>`;
  try {
    await sendMail(db(c), { to: email, subject: `${systemName} 密码重置`, html });
  } catch (error) {
    return fail(c, mailFailure(c, error));
  }
  await storeCode(db(c), 'r', email, token, nowSeconds(c));
  return ok(c);
}

/** `POST /api/user/reset`: consumes the token and gives every user with the address a new 12-hex password. */
async function confirmReset(c: Ctx): Promise<Response> {
  const body = await decodeBody(c, ResetBody);
  if (E.isLeft(body) || body.right.email === '' || body.right.token === '') return fail(c, localize(c, 'invalid_parameter'));
  const { email, token } = body.right;
  if (hasNul(email) || hasNul(token)) return fail(c, text.badResetLink);
  const consumed = await consumeCode(db(c), 'r', email, token, nowSeconds(c));
  if (consumed === null) return fail(c, text.badResetLink);
  const password = newResetPassword();
  const hash = await hashPassword(password);
  const users = await db(c).updateTable('users').set({ password: hash }).where('email', '=', email).returning('id').execute();
  for (const user of users) await revokeOtherCredentials(c, user.id);
  return ok(c, password);
}

/** `GET /api/oauth/email/bind?email=&code=`: sets the caller's e-mail when the code (purpose `v`) matches. */
async function bindEmail(c: Ctx): Promise<Response> {
  const query = decodeQuery(c, BindQuery);
  const email = E.isRight(query) ? (query.right.email ?? '') : '';
  const code = E.isRight(query) ? (query.right.code ?? '') : '';
  if (!isEmail(email) || hasNul(code)) return fail(c, text.badCode);
  const consumed = await consumeCode(db(c), 'v', email, code, nowSeconds(c));
  if (consumed === null) return fail(c, text.badCode);
  await db(c).updateTable('users').set({ email }).where('id', '=', currentUser(c).id).execute();
  return ok(c);
}

/** Routes mounted at /api. */
export function mailRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get('/verification', sendVerification);
  app.get('/reset_password', sendResetLink);
  app.post('/user/reset', confirmReset);
  app.get('/oauth/email/bind', userAuth, bindEmail);
  return app;
}
