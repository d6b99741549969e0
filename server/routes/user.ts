import { Hono, type Context } from 'hono';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { LoginPayload, UserManageAction } from '../../src/domain/user';
import {
  logTypeManage,
  roleAdmin,
  roleCommon,
  roleRoot,
  userStatusActivated,
  userStatusBanned,
} from '../../src/domain/constants';
import { adminAuth, currentUser, userAuth } from '../http/auth';
import { fail, json, localize, messages, ok } from '../http/envelope';
import { accountProblem, ruleText } from '../http/ruleText';
import type { AppEnv } from '../http/env';
import { endSession, endUserSessions } from '../http/session';
import { decodeBody, pageIndex } from '../http/validate';
import { numberRules } from '../../src/domain/numberRules';
import { checkFields } from '../services/numberRanges';
import { logQuota, logQuotaKeys, readOptions } from '../services/options';
import { newAccessToken } from '../db/bootstrap';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../services/password';
import { findUserForLogin, userJson, emptyUserJson } from '../services/users';
import {
  UserBody,
  createUser,
  hasNul,
  int,
  inviterIdOf,
  isSafeQuota,
  isUniqueViolation,
  mayManage,
  parseAtoi,
  randomAlphanumeric,
  recordLog,
  softDeleteUser,
  str,
  userById,
  validateUserFields,
  type FieldError,
} from '../services/userAdmin';
import type { UserRow, UserUpdate } from '../db/schema';
import { consumeCode, restoreCode, type ConsumedCode } from '../services/verification';
import { revokeOtherCredentials, startCheckedSession } from '../services/credentials';
import { dashboardRequest, dashboardRows } from '../services/dashboard';
import { loginData, secondStepIfNeeded } from './twoFactor';

/**
 * Account and user administration endpoints under /api/user (contract §2.3.1–§2.3.3, §2.4,
 * §2.5). Deviations from one-api (contract §6) are deliberate and listed where they happen:
 * lists and search never return access tokens; disabling/deleting ends the user's sessions at
 * once; an empty manage username or an unknown action is refused; `PUT /api/user/` writes only
 * the editable profile fields and can set quota 0.
 */

type Ctx = Context<AppEnv>;

/** Fixed messages of this module (contract Appendix A). */
const text = {
  registerDisabled: '管理员关闭了新用户注册',
  passwordRegisterDisabled: '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
  emailVerificationRequired: '管理员开启了邮箱验证，请输入邮箱地址和验证码',
  badVerificationCode: '验证码错误或已过期',
  cannotDeleteRootSelf: '不能删除超级管理员账户',
  uuidCollision: '请重试，系统生成的 UUID 竟然重复了！',
  dashboardFailed: '无法获取统计信息',
  dashboardRangeInvalid: '统计时间范围不合法',
  recordNotFound: 'record not found',
  idEmpty: 'id 为空！',
  getForbidden: '无权获取同级或更高等级用户的信息',
  createForbidden: '无法创建权限大于等于自己的用户',
  updateForbidden: '无权更新同权限等级或更高权限等级的用户信息',
  promoteForbidden: '无权将其他用户权限等级提升到大于等于自己的权限等级',
  deleteForbidden: '无权删除同权限等级或更高权限等级的用户',
  userNotFound: '用户不存在',
  cannotDisableRoot: '无法禁用超级管理员用户',
  cannotDeleteRoot: '无法删除超级管理员用户',
  cannotDemoteRoot: '无法降级超级管理员用户',
  adminCannotPromote: '普通管理员用户无法提升其他用户为管理员',
  alreadyAdmin: '该用户已经是管理员',
  alreadyCommon: '该用户已经是普通用户',
} as const;

const db = (c: Ctx) => c.get('deps').db;
const nowSeconds = (c: Ctx): number => Math.floor(c.get('deps').now() / 1000);

/** Whether any of the strings holds a NUL (refused before any write: PostgreSQL cannot store it). */
const anyNul = (...values: readonly string[]): boolean => values.some(hasNul);

// ---------------------------------------------------------------------------------------------
// Login / logout (§2.3.1, §2.3.2)

/** The user whose password matches and who is enabled, or null (same outcome for every cause). */
async function checkCredentials(c: Ctx, username: string, password: string): Promise<UserRow | null> {
  const user = await findUserForLogin(db(c), username);
  if (user === undefined) return verifyAgainstDecoy(password).then(() => null);
  const matches = await verifyPassword(password, user.password);
  return matches && user.status === userStatusActivated ? user : null;
}

/** `POST /api/user/login`: password login by username or e-mail. */
async function login(c: Ctx): Promise<Response> {
  const options = await readOptions(db(c), ['PasswordLoginEnabled']);
  if (!options.bool('PasswordLoginEnabled')) return fail(c, messages.passwordLoginDisabled);
  const body = await decodeBody(c, LoginPayload);
  if (E.isLeft(body) || body.right.username === '' || body.right.password === '') {
    return fail(c, localize(c, 'invalid_parameter'));
  }
  const user = await checkCredentials(c, body.right.username, body.right.password);
  if (user === null) return fail(c, messages.loginFailed);
  const secondStep = await secondStepIfNeeded(c, user);
  if (secondStep !== null) return secondStep;
  // The password may have changed since it was checked: such a session must not outlive the change.
  const problem = await startCheckedSession(c, user.id, user.password);
  if (problem !== null) return fail(c, messages[problem]);
  return ok(c, await loginData(c, user));
}

/** `GET /api/user/logout`: ends the server session and clears the cookie; always succeeds. */
async function logout(c: Ctx): Promise<Response> {
  // A database failure goes to the API's error handler (logged; the caller gets a generic message).
  await endSession(c);
  return ok(c);
}

// ---------------------------------------------------------------------------------------------
// Register (§2.3.3; the Turnstile check of §1.7 is the middleware in http/turnstile.ts)

/** `POST /api/user/register`. */
async function register(c: Ctx): Promise<Response> {
  const options = await readOptions(db(c), ['RegisterEnabled', 'PasswordRegisterEnabled', 'EmailVerificationEnabled']);
  if (!options.bool('RegisterEnabled')) return fail(c, text.registerDisabled);
  if (!options.bool('PasswordRegisterEnabled')) return fail(c, text.passwordRegisterDisabled);
  const decoded = await decodeBody(c, UserBody);
  if (E.isLeft(decoded)) return fail(c, localize(c, 'invalid_parameter'));
  const body = decoded.right;
  const username = str(body.username);
  const password = str(body.password);
  const email = str(body.email);
  // Fix (§6 #10): an empty username is refused too (such an account could never log in).
  if (username === '') return fail(c, ruleText(c, 'rules.username.required'));
  if (password === '') return fail(c, ruleText(c, 'rules.password.required'));
  // Ours: the message names the field and the rule (one-api: i18n invalid_input).
  const problem = accountProblem(
    c,
    { username, password, displayName: str(body.display_name), email },
    { affCode: str(body.aff_code), verificationCode: str(body.verification_code) },
  );
  if (problem !== null) return fail(c, problem);
  const emailVerification = options.bool('EmailVerificationEnabled');
  let consumed: ConsumedCode | null = null;
  if (emailVerification) {
    if (email === '' || str(body.verification_code) === '') return fail(c, text.emailVerificationRequired);
    consumed = await consumeCode(db(c), 'v', email, str(body.verification_code), nowSeconds(c));
    if (consumed === null) return fail(c, text.badVerificationCode);
  }
  const inviterId = await inviterIdOf(db(c), str(body.aff_code));
  const result = await createUser(
    db(c),
    { username, password, displayName: username, email: emailVerification ? email : '', inviterId },
    nowSeconds(c),
  );
  if (result.kind === 'duplicate' && consumed !== null) await restoreCode(db(c), consumed);
  return result.kind === 'duplicate' ? fail(c, ruleText(c, 'rules.username.taken')) : ok(c);
}

// ---------------------------------------------------------------------------------------------
// Self service (§2.4)

/** Whether another user (not `exceptId`) already has `username`. */
async function usernameTaken(c: Ctx, username: string, exceptId: number): Promise<boolean> {
  const row = await db(c).selectFrom('users').select('id').where('username', '=', username).where('id', '!=', exceptId).executeTakeFirst();
  return row !== undefined;
}

/** Applies `update` to user `id`; a unique-username clash gives one-api's message instead of a 500. */
async function applyUserUpdate(c: Ctx, id: number, update: UserUpdate): Promise<string | null> {
  if (Object.keys(update).length === 0) return null;
  if (typeof update.username === 'string' && (await usernameTaken(c, update.username, id))) return ruleText(c, 'rules.username.taken');
  try {
    await db(c).updateTable('users').set(update).where('id', '=', id).execute();
    return null;
  } catch (error) {
    if (isUniqueViolation(error)) return ruleText(c, 'rules.username.taken');
    throw error;
  }
}

/** `PUT /api/user/self`: username, display name and password; empty fields are unchanged. */
async function updateSelf(c: Ctx): Promise<Response> {
  const decoded = await decodeBody(c, UserBody);
  if (E.isLeft(decoded)) return fail(c, localize(c, 'invalid_parameter'));
  const body = decoded.right;
  const username = str(body.username);
  const displayName = str(body.display_name);
  const password = str(body.password);
  // Ours: the message names the field and the rule (one-api: `输入不合法 ` + Go's validator text).
  const problem = accountProblem(c, { username, displayName, email: str(body.email), password: password === '' ? undefined : password });
  if (problem !== null) return fail(c, problem);
  const update: UserUpdate = {};
  if (username !== '') update.username = username;
  if (displayName !== '') update.display_name = displayName;
  if (password !== '') update.password = await hashPassword(password);
  const failure = await applyUserUpdate(c, currentUser(c).id, update);
  if (failure !== null) return fail(c, failure);
  if (update.password !== undefined) await revokeOtherCredentials(c, currentUser(c).id);
  return ok(c);
}

/** `DELETE /api/user/self`: soft delete; root cannot delete itself. */
async function deleteSelf(c: Ctx): Promise<Response> {
  const user = currentUser(c);
  if (user.role === roleRoot) return fail(c, text.cannotDeleteRootSelf);
  await softDeleteUser(db(c), user.id);
  return ok(c);
}

/** `GET /api/user/token`: a new access token replaces the old one at once. */
async function regenerateAccessToken(c: Ctx): Promise<Response> {
  const token = newAccessToken();
  try {
    await db(c).updateTable('users').set({ access_token: token }).where('id', '=', currentUser(c).id).execute();
  } catch (error) {
    if (isUniqueViolation(error)) return fail(c, text.uuidCollision);
    throw error;
  }
  return ok(c, token);
}

/** `GET /api/user/aff`: the caller's invitation code, generated on first use. */
async function affCode(c: Ctx): Promise<Response> {
  const user = currentUser(c);
  const current = (user.aff_code ?? '').trim();
  if (current !== '') return ok(c, current);
  for (;;) {
    const code = randomAlphanumeric(4);
    try {
      const result = await db(c)
        .updateTable('users')
        .set({ aff_code: code })
        .where('id', '=', user.id)
        .where((eb) => eb.or([eb('aff_code', '=', ''), eb('aff_code', 'is', null)]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) return ok(c, code);
      // Another request generated it meanwhile: answer the stored one.
      const row = await userById(db(c), user.id);
      return ok(c, (row?.aff_code ?? '').trim());
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
}

/** Byte-wise string order (Go's sort.Strings). */
const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** `GET /api/user/available_models`: distinct enabled models of the caller's group, sorted. */
async function availableModels(c: Ctx): Promise<Response> {
  const rows = await db(c)
    .selectFrom('abilities')
    .select('model')
    .distinct()
    .where('group', '=', currentUser(c).group)
    .where('enabled', '=', true)
    .execute();
  return ok(c, rows.map((r) => r.model).sort(byteOrder));
}

/**
 * `GET /api/user/dashboard`: consume logs per day and model (services/dashboard.ts). Without
 * parameters the caller's last 7 UTC days; `start_timestamp`/`end_timestamp`, `utc_offset` and
 * (admins) `user_id` choose the window, the local days and whose logs.
 */
async function dashboard(c: Ctx): Promise<Response> {
  const request = dashboardRequest(c.req.query(), currentUser(c), nowSeconds(c));
  if (E.isLeft(request)) {
    const message =
      request.left === 'forbidden' ? messages.forbidden : request.left === 'invalid_range' ? text.dashboardRangeInvalid : localize(c, 'invalid_parameter');
    return json(c, { success: false, message, data: null });
  }
  try {
    return ok(c, await dashboardRows(db(c), request.right));
  } catch {
    return json(c, { success: false, message: text.dashboardFailed, data: null });
  }
}

// ---------------------------------------------------------------------------------------------
// Admin (§2.5)

/** Page size (contract §1.8). */
const itemsPerPage = 10;

/** List/search/get JSON: password and (fix §6 #4) access token hidden. */
const adminUserJson = (row: UserRow) => userJson(row, { withAccessToken: false });

/** `GET /api/user/?p=&order=`: a page of non-deleted users. */
async function listUsers(c: Ctx): Promise<Response> {
  const order = c.req.query('order') ?? '';
  let query = db(c).selectFrom('users').selectAll().where('status', '!=', 3);
  if (order === 'quota' || order === 'used_quota' || order === 'request_count') query = query.orderBy(order, 'desc');
  const rows = await query
    .orderBy('id', 'desc')
    .limit(itemsPerPage)
    .offset(pageIndex(c) * itemsPerPage)
    .execute();
  return ok(c, rows.map(adminUserJson));
}

/** `GET /api/user/search?keyword=`: id match or username/email/display name prefix; deleted users included. */
async function searchUsers(c: Ctx): Promise<Response> {
  const keyword = c.req.query('keyword') ?? '';
  if (hasNul(keyword)) return ok(c, []);
  const pattern = `${keyword}%`;
  // Fix: the id match applies on PostgreSQL too (one-api skips it there).
  const id = /^\d+$/.test(keyword) && Number.isSafeInteger(Number(keyword)) ? Number(keyword) : null;
  const rows = await db(c)
    .selectFrom('users')
    .selectAll()
    .where((eb) =>
      eb.or([
        ...(id === null ? [] : [eb('id', '=', id)]),
        eb('username', 'like', pattern),
        eb('email', 'like', pattern),
        eb('display_name', 'like', pattern),
      ]),
    )
    .orderBy('id')
    .execute();
  return ok(c, rows.map(adminUserJson));
}

/** Parses `:id`; answers Go's Atoi / `id 为空！` / `record not found` messages, or the row. */
async function targetFromPath(c: Ctx): Promise<{ readonly row: UserRow } | { readonly response: Response }> {
  const parsed = parseAtoi(c.req.param('id') ?? '');
  if (!parsed.ok) return { response: fail(c, parsed.message) };
  if (parsed.value === 0) return { response: fail(c, text.idEmpty) };
  const row = await userById(db(c), parsed.value);
  return row === undefined ? { response: fail(c, text.recordNotFound) } : { row };
}

/** `GET /api/user/:id`. */
async function getUser(c: Ctx): Promise<Response> {
  const target = await targetFromPath(c);
  if ('response' in target) return target.response;
  const caller = currentUser(c);
  if (caller.role <= target.row.role && caller.role !== roleRoot) return fail(c, text.getForbidden);
  return ok(c, adminUserJson(target.row));
}

/** `POST /api/user/`: create a common user. */
async function createUserByAdmin(c: Ctx): Promise<Response> {
  const decoded = await decodeBody(c, UserBody);
  if (E.isLeft(decoded)) return fail(c, localize(c, 'invalid_parameter'));
  const body = decoded.right;
  const quotaRefusal = checkFields(c, [['quota', numberRules.balance, body.quota]]);
  if (quotaRefusal !== null) return fail(c, quotaRefusal);
  const username = str(body.username);
  const password = str(body.password);
  const displayName = str(body.display_name);
  if (username === '') return fail(c, ruleText(c, 'rules.username.required'));
  if (password === '') return fail(c, ruleText(c, 'rules.password.required'));
  const problem = accountProblem(c, { username, password, displayName, email: str(body.email) });
  if (problem !== null) return fail(c, problem);
  if (int(body.role) >= currentUser(c).role) return fail(c, text.createForbidden);
  const result = await createUser(
    db(c),
    { username, password, displayName: displayName === '' ? username : displayName, email: '', inviterId: 0 },
    nowSeconds(c),
  );
  return result.kind === 'duplicate' ? fail(c, ruleText(c, 'rules.username.taken')) : ok(c);
}

/** Role and status values an update may write (0 = unchanged). */
const writableRoles: ReadonlySet<number> = new Set([0, roleCommon, roleAdmin, roleRoot]);
const writableStatuses: ReadonlySet<number> = new Set([0, userStatusActivated, userStatusBanned, 3]);

/** Field problems of an admin update body, as one-api's validator (plus column limits) sees them. */
function updateErrors(body: UserBody): FieldError[] | 'invalid' {
  const password = str(body.password);
  const errors = validateUserFields({
    username: str(body.username),
    password: password === '' ? undefined : password,
    displayName: str(body.display_name),
    email: str(body.email),
  });
  if (errors.length > 0) return errors;
  const group = str(body.group);
  if ([...group].length > 32 || anyNul(str(body.username), password, str(body.display_name), str(body.email), group)) return 'invalid';
  if (!writableRoles.has(int(body.role)) || !writableStatuses.has(int(body.status))) return 'invalid';
  if (body.quota !== undefined && body.quota !== null && !isSafeQuota(body.quota)) return 'invalid';
  return [];
}

/**
 * Sets a user's quota to `quota` inside a transaction with a conditional update (compare with the
 * value read), writing one-api's manage log when it changed. Returns after the write.
 */
async function setQuota(c: Ctx, userId: number, quota: number): Promise<void> {
  const options = await readOptions(db(c), logQuotaKeys);
  for (;;) {
    const done = await db(c)
      .transaction()
      .execute(async (trx) => {
        const row = await trx.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirst();
        if (row === undefined || row.quota === quota) return true;
        const result = await trx
          .updateTable('users')
          .set({ quota })
          .where('id', '=', userId)
          .where('quota', '=', row.quota)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        const content = `管理员将用户额度从 ${logQuota(row.quota, options)}修改为 ${logQuota(quota, options)}`;
        await recordLog(trx, userId, logTypeManage, content, nowSeconds(c));
        return true;
      });
    if (done) return;
  }
}

/** `PUT /api/user/`: partial update of another user. */
async function updateUser(c: Ctx): Promise<Response> {
  const decoded = await decodeBody(c, UserBody);
  if (E.isLeft(decoded) || int(decoded.right.id) === 0) return fail(c, localize(c, 'invalid_parameter'));
  const body = decoded.right;
  // Ours: name the field and the rule (one-api: i18n invalid_input for every one of these).
  const password = str(body.password);
  const problem = accountProblem(c, {
    username: str(body.username),
    password: password === '' ? undefined : password,
    displayName: str(body.display_name),
    email: str(body.email),
    group: str(body.group),
  });
  if (problem !== null) return fail(c, problem);
  if (!writableRoles.has(int(body.role))) return fail(c, ruleText(c, 'rules.role.invalid'));
  if (!writableStatuses.has(int(body.status))) return fail(c, ruleText(c, 'rules.status.invalid'));
  const quotaRefusal = checkFields(c, [['quota', numberRules.balance, body.quota]]);
  if (quotaRefusal !== null) return fail(c, quotaRefusal);
  const errors = updateErrors(body);
  if (errors === 'invalid' || errors.length > 0) return fail(c, localize(c, 'invalid_input'));
  const target = await userById(db(c), int(body.id));
  if (target === undefined) return fail(c, text.recordNotFound);
  const caller = currentUser(c);
  if (!mayManage(caller.role, target.role)) return fail(c, text.updateForbidden);
  if (caller.role !== roleRoot && int(body.role) >= caller.role) return fail(c, text.promoteForbidden);
  // Fix (§6 #6): only the editable profile fields are written (never access_token, aff_code,
  // used_quota, request_count, inviter_id or external ids); empty strings and 0 mean unchanged.
  const update: UserUpdate = {};
  if (str(body.username) !== '') update.username = str(body.username);
  if (str(body.display_name) !== '') update.display_name = str(body.display_name);
  if (str(body.password) !== '') update.password = await hashPassword(str(body.password));
  if (str(body.email) !== '') update.email = str(body.email);
  if (str(body.group) !== '') update.group = str(body.group);
  if (int(body.role) !== 0) update.role = int(body.role);
  if (int(body.status) !== 0) update.status = int(body.status);
  const failure = await applyUserUpdate(c, target.id, update);
  if (failure !== null) return fail(c, failure);
  // Fix (§6 #6): a quota in the body is applied even when 0; an absent quota is no change (no bogus log).
  if (body.quota !== undefined && body.quota !== null) await setQuota(c, target.id, body.quota);
  if (update.password !== undefined) await revokeOtherCredentials(c, target.id);
  if (update.status !== undefined && update.status !== userStatusActivated) await endUserSessions(db(c), target.id);
  return ok(c);
}

/** `POST /api/user/manage` body; the action must be one of the five (fix §6 #9). */
const ManageBody = t.type({ username: t.string, action: UserManageAction });

/** `POST /api/user/manage`: promote / demote / delete / enable / disable by username. */
async function manageUser(c: Ctx): Promise<Response> {
  const decoded = await decodeBody(c, ManageBody);
  if (E.isLeft(decoded)) return fail(c, localize(c, 'invalid_parameter'));
  const { username, action } = decoded.right;
  // Fix (§6 #9): an empty username matches nobody (one-api picks the first user).
  const target =
    username === '' || hasNul(username)
      ? undefined
      : await db(c).selectFrom('users').selectAll().where('username', '=', username).orderBy('id').executeTakeFirst();
  if (target === undefined) return fail(c, text.userNotFound);
  const caller = currentUser(c);
  if (!mayManage(caller.role, target.role)) return fail(c, text.updateForbidden);
  let role = target.role;
  let status = target.status;
  switch (action) {
    case 'disable':
      if (target.role === roleRoot) return fail(c, text.cannotDisableRoot);
      status = userStatusBanned;
      break;
    case 'enable':
      status = userStatusActivated;
      break;
    case 'delete':
      if (target.role === roleRoot) return fail(c, text.cannotDeleteRoot);
      await softDeleteUser(db(c), target.id);
      return ok(c, { ...emptyUserJson(), role, status: 3 });
    case 'promote':
      if (caller.role !== roleRoot) return fail(c, text.adminCannotPromote);
      if (target.role >= roleAdmin) return fail(c, text.alreadyAdmin);
      role = roleAdmin;
      break;
    case 'demote':
      if (target.role === roleRoot) return fail(c, text.cannotDemoteRoot);
      if (target.role === roleCommon) return fail(c, text.alreadyCommon);
      role = roleCommon;
      break;
  }
  await db(c).updateTable('users').set({ role, status }).where('id', '=', target.id).execute();
  if (status !== userStatusActivated) await endUserSessions(db(c), target.id);
  return ok(c, { ...emptyUserJson(), role, status });
}

/** `DELETE /api/user/:id`: soft delete; the caller's role must be strictly higher (no root exception). */
async function deleteUser(c: Ctx): Promise<Response> {
  const target = await targetFromPath(c);
  if ('response' in target) return target.response;
  if (currentUser(c).role <= target.row.role) return fail(c, text.deleteForbidden);
  await softDeleteUser(db(c), target.row.id);
  // Fix (§6 #7): the normal envelope instead of an empty body.
  return ok(c);
}

/** Routes mounted at /api/user (static paths before `/:id`). */
export function userRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.post('/register', register);
  app.post('/login', login);
  app.get('/logout', logout);
  app.get('/dashboard', userAuth, dashboard);
  app.get('/self', userAuth, (c) => ok(c, userJson(currentUser(c), { withAccessToken: false })));
  app.put('/self', userAuth, updateSelf);
  app.delete('/self', userAuth, deleteSelf);
  app.get('/token', userAuth, regenerateAccessToken);
  app.get('/aff', userAuth, affCode);
  app.get('/available_models', userAuth, availableModels);
  app.get('/', adminAuth, listUsers);
  app.get('/search', adminAuth, searchUsers);
  app.get('/:id', adminAuth, getUser);
  app.post('/', adminAuth, createUserByAdmin);
  app.put('/', adminAuth, updateUser);
  app.post('/manage', adminAuth, manageUser);
  app.delete('/:id', adminAuth, deleteUser);
  return app;
}
