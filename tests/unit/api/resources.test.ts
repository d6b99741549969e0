import { describe, expect, it } from 'vitest';
import * as E from 'fp-ts/Either';
import type { TaskEither } from 'fp-ts/TaskEither';
import { createApi, createApiClient, LATEST_RELEASE_URL, type Api } from '../../../src/api';
import type { ApiError } from '../../../src/domain/apiError';
import { fixture, recordedFetch } from './support/recordedFetch';

/**
 * Every resource function against a recorded response: the request it makes (method, path,
 * query, body, credentials) and what it decodes. One row per call of spec §7.
 */
interface Row {
  readonly name: string;
  readonly run: (api: Api) => TaskEither<ApiError, unknown>;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly query?: Record<string, string>;
  readonly body?: unknown;
  readonly fixture: string;
  readonly result: unknown;
}

const registration = {
  username: 'alice',
  password: 'secret123',
  password2: 'secret123',
  email: 'alice@example.com',
  verification_code: 'a1b2c3',
  aff_code: 'Xk3p',
};
const channelPayload = {
  type: 1,
  name: 'openai-main',
  key: 'sk-a\nsk-b',
  base_url: '',
  other: '',
  models: 'gpt-4o,gpt-4o-mini',
  group: 'default,vip',
  model_mapping: '',
  system_prompt: '',
  config: '{}',
};
const tokenPayload = { name: 'new key', remain_quota: 500000, expired_time: -1, unlimited_quota: false, models: '', subnet: '' };
const fullFilter = {
  type: 2,
  username: 'alice',
  token_name: 'work',
  model_name: 'gpt-4o',
  start_timestamp: 1708000000,
  end_timestamp: 1708086400,
  channel: 7,
};
const filterQuery = {
  type: '2',
  username: 'alice',
  token_name: 'work',
  model_name: 'gpt-4o',
  start_timestamp: '1708000000',
  end_timestamp: '1708086400',
  channel: '7',
};
const selfFilterQuery = {
  type: '2',
  token_name: 'work',
  model_name: 'gpt-4o',
  start_timestamp: '1708000000',
  end_timestamp: '1708086400',
};

const rows: readonly Row[] = [
  // status
  { name: 'status.getStatus', run: (a) => a.status.getStatus(), method: 'GET', path: '/api/status', fixture: 'status.json', result: expect.objectContaining({ system_name: 'One API', quota_per_unit: 500000 }) },
  { name: 'status.getModels', run: (a) => a.status.getModels(), method: 'GET', path: '/api/models', fixture: 'models.json', result: expect.objectContaining({ '43': null, '34': [] }) },
  { name: 'status.getNotice', run: (a) => a.status.getNotice(), method: 'GET', path: '/api/notice', fixture: 'notice.json', result: '## 公告\n\n欢迎使用 **One API**。' },
  { name: 'status.getAbout', run: (a) => a.status.getAbout(), method: 'GET', path: '/api/about', fixture: 'notice.json', result: expect.any(String) },
  { name: 'status.getHomePageContent', run: (a) => a.status.getHomePageContent(), method: 'GET', path: '/api/home_page_content', fixture: 'notice.json', result: expect.any(String) },
  // auth
  { name: 'auth.login', run: (a) => a.auth.login({ username: 'root', password: '123456' }), method: 'POST', path: '/api/user/login', body: { username: 'root', password: '123456' }, fixture: 'login.json', result: expect.objectContaining({ id: 1, username: 'root', role: 100 }) },
  { name: 'auth.loginSecondFactor', run: (a) => a.auth.loginSecondFactor({ code: '123456' }), method: 'POST', path: '/api/user/login/2fa', body: { code: '123456' }, fixture: 'login.json', result: expect.objectContaining({ id: 1, username: 'root' }) },
  { name: 'auth.twoFactorStatus', run: (a) => a.auth.twoFactorStatus(), method: 'GET', path: '/api/user/2fa/status', fixture: 'two-factor-status.json', result: { enabled: true, recovery_codes_left: 9, required: false } },
  { name: 'auth.enrolmentRequired', run: (a) => a.auth.enrolmentRequired(), method: 'GET', path: '/api/user/2fa/status', fixture: 'two-factor-status.json', result: false },
  { name: 'auth.twoFactorSetup', run: (a) => a.auth.twoFactorSetup(), method: 'POST', path: '/api/user/2fa/setup', fixture: 'two-factor-setup.json', result: expect.objectContaining({ secret: 'JBSWY3DPEHPK3PXP' }) },
  { name: 'auth.twoFactorEnable', run: (a) => a.auth.twoFactorEnable({ code: '123456' }), method: 'POST', path: '/api/user/2fa/enable', body: { code: '123456' }, fixture: 'recovery-codes.json', result: { recovery_codes: ['a1b2-c3d4', 'e5f6-a7b8'] } },
  { name: 'auth.twoFactorDisable', run: (a) => a.auth.twoFactorDisable({ password: 'pw' }), method: 'POST', path: '/api/user/2fa/disable', body: { password: 'pw' }, fixture: 'ok.json', result: undefined },
  { name: 'auth.twoFactorRecoveryCodes', run: (a) => a.auth.twoFactorRecoveryCodes({ code: '123456' }), method: 'POST', path: '/api/user/2fa/recovery-codes', body: { code: '123456' }, fixture: 'recovery-codes.json', result: { recovery_codes: ['a1b2-c3d4', 'e5f6-a7b8'] } },
  { name: 'auth.logout', run: (a) => a.auth.logout(), method: 'GET', path: '/api/user/logout', fixture: 'ok.json', result: undefined },
  { name: 'auth.register', run: (a) => a.auth.register(registration, 'ts-token'), method: 'POST', path: '/api/user/register', query: { turnstile: 'ts-token' }, body: registration, fixture: 'ok.json', result: undefined },
  { name: 'auth.sendVerificationCode', run: (a) => a.auth.sendVerificationCode('a+b@example.com', ''), method: 'GET', path: '/api/verification', query: { email: 'a+b@example.com', turnstile: '' }, fixture: 'ok.json', result: undefined },
  { name: 'auth.sendPasswordReset', run: (a) => a.auth.sendPasswordReset('alice@example.com', 'ts'), method: 'GET', path: '/api/reset_password', query: { email: 'alice@example.com', turnstile: 'ts' }, fixture: 'ok.json', result: undefined },
  { name: 'auth.confirmPasswordReset', run: (a) => a.auth.confirmPasswordReset({ email: 'alice@example.com', token: 'tok' }), method: 'POST', path: '/api/user/reset', body: { email: 'alice@example.com', token: 'tok' }, fixture: 'string-password.json', result: '3f9a1c0b7d2e' },
  { name: 'auth.getOAuthState', run: (a) => a.auth.getOAuthState(), method: 'GET', path: '/api/oauth/state', fixture: 'string-state.json', result: 'aZ3kP9qL2mXw' },
  { name: 'auth.oauthGitHub (login)', run: (a) => a.auth.oauthGitHub({ code: 'c0de', state: 'aZ3kP9qL2mXw' }), method: 'GET', path: '/api/oauth/github', query: { code: 'c0de', state: 'aZ3kP9qL2mXw' }, fixture: 'login.json', result: { bound: false, user: expect.objectContaining({ username: 'root' }) } },
  { name: 'auth.oauthGitHub (second factor)', run: (a) => a.auth.oauthGitHub({ code: 'c0de', state: 's' }), method: 'GET', path: '/api/oauth/github', query: { code: 'c0de', state: 's' }, fixture: 'login-second-factor.json', result: { bound: false, secondFactor: true } },
  { name: 'auth.oauthGitHub (bind)', run: (a) => a.auth.oauthGitHub({ code: 'c0de', state: 's' }), method: 'GET', path: '/api/oauth/github', query: { code: 'c0de', state: 's' }, fixture: 'oauth-bind.json', result: { bound: true } },
  { name: 'auth.oauthLark (login)', run: (a) => a.auth.oauthLark({ code: 'lc', state: 's' }), method: 'GET', path: '/api/oauth/lark', query: { code: 'lc', state: 's' }, fixture: 'login.json', result: { bound: false, user: expect.objectContaining({ id: 1 }) } },
  { name: 'auth.oauthLark (bind)', run: (a) => a.auth.oauthLark({ code: 'lc', state: 's' }), method: 'GET', path: '/api/oauth/lark', query: { code: 'lc', state: 's' }, fixture: 'oauth-bind.json', result: { bound: true } },
  { name: 'auth.wechatLogin', run: (a) => a.auth.wechatLogin('123456'), method: 'GET', path: '/api/oauth/wechat', query: { code: '123456' }, fixture: 'login.json', result: { bound: false, user: expect.objectContaining({ username: 'root' }) } },
  { name: 'auth.wechatLogin (second factor)', run: (a) => a.auth.wechatLogin('123456'), method: 'GET', path: '/api/oauth/wechat', query: { code: '123456' }, fixture: 'login-second-factor.json', result: { bound: false, secondFactor: true } },
  { name: 'auth.wechatBind', run: (a) => a.auth.wechatBind('654321'), method: 'GET', path: '/api/oauth/wechat/bind', query: { code: '654321' }, fixture: 'ok.json', result: undefined },
  { name: 'auth.emailBind', run: (a) => a.auth.emailBind({ email: 'alice@example.com', code: 'a1b2c3' }), method: 'GET', path: '/api/oauth/email/bind', query: { email: 'alice@example.com', code: 'a1b2c3' }, fixture: 'ok.json', result: undefined },
  // users
  { name: 'user.listUsers', run: (a) => a.user.listUsers(0), method: 'GET', path: '/api/user/', query: { p: '0', order: '' }, fixture: 'user-list.json', result: [expect.objectContaining({ id: 2 }), expect.objectContaining({ id: 1 })] },
  { name: 'user.listUsers (order)', run: (a) => a.user.listUsers(2, 'request_count'), method: 'GET', path: '/api/user/', query: { p: '2', order: 'request_count' }, fixture: 'user-list.json', result: expect.any(Array) },
  { name: 'user.searchUsers', run: (a) => a.user.searchUsers('ali ce&x'), method: 'GET', path: '/api/user/search', query: { keyword: 'ali ce&x' }, fixture: 'user-list.json', result: expect.any(Array) },
  { name: 'user.getUser', run: (a) => a.user.getUser(2), method: 'GET', path: '/api/user/2', fixture: 'user-self.json', result: expect.objectContaining({ id: 2, email: 'alice@example.com' }) },
  { name: 'user.getSelf', run: (a) => a.user.getSelf(), method: 'GET', path: '/api/user/self', fixture: 'user-self.json', result: expect.objectContaining({ username: 'alice' }) },
  { name: 'user.updateUser', run: (a) => a.user.updateUser({ id: 2, username: 'alice', display_name: 'Alice', password: '', group: 'vip', quota: 1000 }), method: 'PUT', path: '/api/user/', body: { id: 2, username: 'alice', display_name: 'Alice', password: '', group: 'vip', quota: 1000 }, fixture: 'ok.json', result: undefined },
  { name: 'user.updateSelf', run: (a) => a.user.updateSelf({ username: 'alice', display_name: 'A', password: '' }), method: 'PUT', path: '/api/user/self', body: { username: 'alice', display_name: 'A', password: '' }, fixture: 'ok.json', result: undefined },
  { name: 'user.createUser', run: (a) => a.user.createUser({ username: 'bob', display_name: 'Bob', password: 'secret123' }), method: 'POST', path: '/api/user/', body: { username: 'bob', display_name: 'Bob', password: 'secret123' }, fixture: 'ok.json', result: undefined },
  { name: 'user.deleteSelf', run: (a) => a.user.deleteSelf(), method: 'DELETE', path: '/api/user/self', fixture: 'ok.json', result: undefined },
  { name: 'user.deleteUser', run: (a) => a.user.deleteUser(9), method: 'DELETE', path: '/api/user/9', fixture: 'ok.json', result: undefined },
  { name: 'user.manageUser', run: (a) => a.user.manageUser('alice', 'promote'), method: 'POST', path: '/api/user/manage', body: { username: 'alice', action: 'promote' }, fixture: 'user-manage.json', result: { role: 10, status: 1 } },
  { name: 'user.generateAccessToken', run: (a) => a.user.generateAccessToken(), method: 'GET', path: '/api/user/token', fixture: 'string-access-token.json', result: '9b2f4c6d8e0a41b3a5c7d9e1f3a5b7c9' },
  { name: 'user.getAffCode', run: (a) => a.user.getAffCode(), method: 'GET', path: '/api/user/aff', fixture: 'string-aff.json', result: 'Xk3p' },
  { name: 'user.topUp', run: (a) => a.user.topUp('0f3c9a1b2c3d4e5f60718293a4b5c6d7'), method: 'POST', path: '/api/user/topup', body: { key: '0f3c9a1b2c3d4e5f60718293a4b5c6d7' }, fixture: 'topup.json', result: 100000 },
  { name: 'user.getAvailableModels', run: (a) => a.user.getAvailableModels(), method: 'GET', path: '/api/user/available_models', fixture: 'available-models.json', result: ['deepseek-chat', 'gpt-4o', 'gpt-4o-mini'] },
  { name: 'user.getDashboard', run: (a) => a.user.getDashboard(), method: 'GET', path: '/api/user/dashboard', fixture: 'dashboard.json', result: [expect.objectContaining({ Day: '2025-02-20', Quota: 40211 }), expect.objectContaining({ ModelName: 'gpt-4o-mini' })] },
  { name: 'user.getPricing', run: (a) => a.user.getPricing(), method: 'GET', path: '/api/pricing', fixture: 'pricing.json', result: { group: 'vip', group_ratio: 0.5, models: [expect.objectContaining({ model: 'gpt-4o', input_per_million: 1250000, available: true }), expect.objectContaining({ model: 'off-model', available: false })] } },
  { name: 'user.listGroups', run: (a) => a.user.listGroups(), method: 'GET', path: '/api/group/', fixture: 'groups.json', result: ['default', 'svip', 'vip'] },
  // options
  { name: 'option.listOptions', run: (a) => a.option.listOptions(), method: 'GET', path: '/api/option/', fixture: 'option-list.json', result: expect.arrayContaining([{ key: 'SystemName', value: 'One API' }]) },
  { name: 'option.updateOption', run: (a) => a.option.updateOption('PasswordLoginEnabled', 'false'), method: 'PUT', path: '/api/option/', body: { key: 'PasswordLoginEnabled', value: 'false' }, fixture: 'ok.json', result: undefined },
  // channels
  { name: 'channel.list', run: (a) => a.channel.list(1), method: 'GET', path: '/api/channel/', query: { p: '1' }, fixture: 'channel-list.json', result: [expect.objectContaining({ id: 7, key: '' }), expect.objectContaining({ id: 5, priority: null, weight: null })] },
  { name: 'channel.search', run: (a) => a.channel.search('openai'), method: 'GET', path: '/api/channel/search', query: { keyword: 'openai' }, fixture: 'channel-list.json', result: expect.any(Array) },
  { name: 'channel.get', run: (a) => a.channel.get(7), method: 'GET', path: '/api/channel/7', fixture: 'channel.json', result: expect.objectContaining({ id: 7 }) },
  { name: 'channel.create', run: (a) => a.channel.create(channelPayload), method: 'POST', path: '/api/channel/', body: channelPayload, fixture: 'ok.json', result: undefined },
  { name: 'channel.update', run: (a) => a.channel.update({ ...channelPayload, id: 7, key: '' }), method: 'PUT', path: '/api/channel/', body: { ...channelPayload, id: 7, key: '' }, fixture: 'channel.json', result: expect.objectContaining({ id: 7, key: 'sk-upstream-secret' }) },
  { name: 'channel.patch (status)', run: (a) => a.channel.patch({ id: 7, status: 2 }), method: 'PUT', path: '/api/channel/', body: { id: 7, status: 2 }, fixture: 'channel.json', result: expect.objectContaining({ status: 2 }) },
  { name: 'channel.patch (priority)', run: (a) => a.channel.patch({ id: 7, priority: 5 }), method: 'PUT', path: '/api/channel/', body: { id: 7, priority: 5 }, fixture: 'channel.json', result: expect.objectContaining({ priority: 5 }) },
  { name: 'channel.remove', run: (a) => a.channel.remove(7), method: 'DELETE', path: '/api/channel/7/', fixture: 'ok.json', result: undefined },
  { name: 'channel.removeDisabled', run: (a) => a.channel.removeDisabled(), method: 'DELETE', path: '/api/channel/disabled', fixture: 'count.json', result: 3 },
  { name: 'channel.testAll', run: (a) => a.channel.testAll('disabled'), method: 'GET', path: '/api/channel/test', query: { scope: 'disabled' }, fixture: 'ok.json', result: undefined },
  { name: 'channel.test', run: (a) => a.channel.test(7, 'gpt-4o-mini'), method: 'GET', path: '/api/channel/test/7', query: { model: 'gpt-4o-mini' }, fixture: 'channel-test.json', result: { success: true, message: 'Hello! How can I help you today?', time: 0.81, modelName: 'gpt-4o-mini' } },
  { name: 'channel.updateBalance', run: (a) => a.channel.updateBalance(7), method: 'GET', path: '/api/channel/update_balance/7/', fixture: 'balance.json', result: 12.34 },
  { name: 'channel.updateAllBalances', run: (a) => a.channel.updateAllBalances(), method: 'GET', path: '/api/channel/update_balance', fixture: 'ok.json', result: undefined },
  { name: 'channel.startTestRun (scope)', run: (a) => a.channel.startTestRun({ scope: 'all' }), method: 'POST', path: '/api/channel/test_run', body: { scope: 'all' }, fixture: 'channel-test-run-cancelled.json', result: expect.objectContaining({ id: 3, scope: 'all', channel_ids: [7, 5] }) },
  { name: 'channel.startTestRun (ids)', run: (a) => a.channel.startTestRun({ ids: [7, 5, 4] }), method: 'POST', path: '/api/channel/test_run', body: { ids: [7, 5, 4] }, fixture: 'channel-test-run.json', result: expect.objectContaining({ id: 3, scope: 'ids', status: 'running', total: 3, done: 2 }) },
  { name: 'channel.currentTestRun', run: (a) => a.channel.currentTestRun(), method: 'GET', path: '/api/channel/test_run', fixture: 'channel-test-run.json', result: expect.objectContaining({ id: 3, results: [expect.objectContaining({ index: 1, channel_id: 5, status: 3, time: 0.214 })] }) },
  { name: 'channel.currentTestRun (none)', run: (a) => a.channel.currentTestRun(), method: 'GET', path: '/api/channel/test_run', fixture: 'channel-test-run-none.json', result: null },
  { name: 'channel.getTestRun', run: (a) => a.channel.getTestRun(3, 1), method: 'GET', path: '/api/channel/test_run/3', query: { after: '1' }, fixture: 'channel-test-run.json', result: expect.objectContaining({ id: 3, finished_at: 0, results: [expect.objectContaining({ index: 1 })] }) },
  { name: 'channel.cancelTestRun', run: (a) => a.channel.cancelTestRun(3), method: 'DELETE', path: '/api/channel/test_run/3', fixture: 'channel-test-run-cancelled.json', result: expect.objectContaining({ status: 'cancelled', finished_at: 1760000004, done: 1 }) },
  { name: 'channel.tags', run: (a) => a.channel.tags(), method: 'GET', path: '/api/channel/tags', fixture: 'channel-tags.json', result: [{ tag: 'prod', count: 1 }, { tag: 'team-a', count: 2 }] },
  { name: 'channel.updateByTag', run: (a) => a.channel.updateByTag({ tag: 'team-a', status: 2 }), method: 'PUT', path: '/api/channel/tag', body: { tag: 'team-a', status: 2 }, fixture: 'channel-tag-edit.json', result: 2 },
  { name: 'channel.catalogue', run: (a) => a.channel.catalogue(), method: 'GET', path: '/api/channel/models', fixture: 'channel-models.json', result: expect.objectContaining({ object: 'list', data: [expect.objectContaining({ id: 'gpt-4o' }), expect.objectContaining({ id: 'deepseek-chat' })] }) },
  // tokens
  { name: 'token.list', run: (a) => a.token.list(0), method: 'GET', path: '/api/token/', query: { p: '0', order: '' }, fixture: 'token-list.json', result: [expect.objectContaining({ id: 3 }), expect.objectContaining({ id: 1, models: null })] },
  { name: 'token.list (order)', run: (a) => a.token.list(3, 'remain_quota'), method: 'GET', path: '/api/token/', query: { p: '3', order: 'remain_quota' }, fixture: 'token-list.json', result: expect.any(Array) },
  { name: 'token.search', run: (a) => a.token.search('wo'), method: 'GET', path: '/api/token/search', query: { keyword: 'wo' }, fixture: 'token-list.json', result: expect.any(Array) },
  { name: 'token.get', run: (a) => a.token.get(4), method: 'GET', path: '/api/token/4', fixture: 'token.json', result: expect.objectContaining({ id: 4 }) },
  { name: 'token.create', run: (a) => a.token.create(tokenPayload), method: 'POST', path: '/api/token/', body: tokenPayload, fixture: 'token.json', result: expect.objectContaining({ key: 'Qw1eRt2yUi3oPa4sDf5gHj6kLz7xCv8bNm9q0w1e2r3t4y5u' }) },
  { name: 'token.update', run: (a) => a.token.update({ ...tokenPayload, id: 4 }), method: 'PUT', path: '/api/token/', body: { ...tokenPayload, id: 4 }, fixture: 'token.json', result: expect.objectContaining({ id: 4 }) },
  { name: 'token.setStatus', run: (a) => a.token.setStatus({ id: 4, status: 2 }), method: 'PUT', path: '/api/token/', query: { status_only: 'true' }, body: { id: 4, status: 2 }, fixture: 'token.json', result: expect.objectContaining({ id: 4 }) },
  { name: 'token.remove', run: (a) => a.token.remove(4), method: 'DELETE', path: '/api/token/4/', fixture: 'ok.json', result: undefined },
  // redemptions
  { name: 'redemption.list', run: (a) => a.redemption.list(0), method: 'GET', path: '/api/redemption/', query: { p: '0' }, fixture: 'redemption-list.json', result: [expect.objectContaining({ id: 2 }), expect.objectContaining({ status: 3 })] },
  { name: 'redemption.search', run: (a) => a.redemption.search('promo'), method: 'GET', path: '/api/redemption/search', query: { keyword: 'promo' }, fixture: 'redemption-list.json', result: expect.any(Array) },
  { name: 'redemption.get', run: (a) => a.redemption.get(2), method: 'GET', path: '/api/redemption/2', fixture: 'redemption.json', result: expect.objectContaining({ id: 2 }) },
  { name: 'redemption.create', run: (a) => a.redemption.create({ name: 'promo', quota: 100000, count: 2 }), method: 'POST', path: '/api/redemption/', body: { name: 'promo', quota: 100000, count: 2 }, fixture: 'redemption-keys.json', result: ['5d0c3b2a19f84e7d6c5b4a3928176e5f', 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5'] },
  { name: 'redemption.update', run: (a) => a.redemption.update({ id: 2, name: 'promo', quota: 200000 }), method: 'PUT', path: '/api/redemption/', body: { id: 2, name: 'promo', quota: 200000 }, fixture: 'redemption.json', result: expect.objectContaining({ id: 2 }) },
  { name: 'redemption.setStatus', run: (a) => a.redemption.setStatus({ id: 2, status: 2 }), method: 'PUT', path: '/api/redemption/', query: { status_only: 'true' }, body: { id: 2, status: 2 }, fixture: 'redemption.json', result: expect.objectContaining({ status: 2 }) },
  { name: 'redemption.remove', run: (a) => a.redemption.remove(2), method: 'DELETE', path: '/api/redemption/2/', fixture: 'ok.json', result: undefined },
  // logs
  { name: 'log.list (all filters)', run: (a) => a.log.list(1, fullFilter), method: 'GET', path: '/api/log/', query: { p: '1', ...filterQuery }, fixture: 'log-list.json', result: [expect.objectContaining({ id: 981, channel: 7 }), expect.objectContaining({ type: 1 })] },
  { name: 'log.list (no filter)', run: (a) => a.log.list(0, {}), method: 'GET', path: '/api/log/', query: { p: '0' }, fixture: 'log-list.json', result: expect.any(Array) },
  { name: 'log.listSelf', run: (a) => a.log.listSelf(0, fullFilter), method: 'GET', path: '/api/log/self/', query: { p: '0', ...selfFilterQuery }, fixture: 'log-self-list.json', result: [expect.objectContaining({ id: 0, token_name: 'work' })] },
  { name: 'log.search', run: (a) => a.log.search('倍率'), method: 'GET', path: '/api/log/search', query: { keyword: '倍率' }, fixture: 'log-list.json', result: expect.any(Array) },
  { name: 'log.searchSelf', run: (a) => a.log.searchSelf('2'), method: 'GET', path: '/api/log/self/search', query: { keyword: '2' }, fixture: 'log-self-list.json', result: expect.any(Array) },
  { name: 'log.stat', run: (a) => a.log.stat(fullFilter), method: 'GET', path: '/api/log/stat', query: filterQuery, fixture: 'log-stat.json', result: { quota: 40211 } },
  { name: 'log.statSelf', run: (a) => a.log.statSelf(fullFilter), method: 'GET', path: '/api/log/self/stat', query: selfFilterQuery, fixture: 'log-stat.json', result: { quota: 40211 } },
  { name: 'log.clear', run: (a) => a.log.clear(1708000000), method: 'DELETE', path: '/api/log/', query: { target_timestamp: '1708000000' }, fixture: 'count.json', result: 3 },
];

describe('resource functions (spec §7)', () => {
  it.each(rows)('$name: $method $path', async (row) => {
    const recorded = recordedFetch({ [`${row.method} ${row.path}`]: { fixture: row.fixture } });
    const api = createApi(createApiClient({ fetch: recorded.fetch }));

    const result = await row.run(api)();

    expect(result).toEqual(E.right(row.result));
    const request = recorded.only();
    expect(request.method).toBe(row.method);
    expect(request.path).toBe(row.path);
    expect(request.query).toEqual(row.query ?? {});
    expect(request.body).toEqual(row.body);
    expect(request.credentials).toBe('include');
    if (row.body === undefined) expect(request.headers['Content-Type']).toBeUndefined();
    else expect(request.headers['Content-Type']).toBe('application/json');
  });

  it('covers every function createApi exposes', () => {
    const api = createApi(createApiClient({ fetch: recordedFetch().fetch }));
    const exposed = Object.entries(api).flatMap(([group, fns]) => Object.keys(fns as object).map((fn) => `${group}.${fn}`));
    const covered = new Set(
      rows.map((row) => row.name.split(' ')[0])
      // Covered elsewhere: the release check (a foreign host), the CSV download (tests/unit/api/logExport.test.ts)
      // and the relay, keyed by a token instead of the session (tests/unit/api/relayApi.test.ts).
      .concat('option.getLatestRelease', 'log.exportCsv', 'relay.listModels', 'relay.chat'),
    );
    expect(exposed.filter((name) => !covered.has(name))).toEqual([]);
  });

  it('option.getLatestRelease reads the public release listing without credentials', async () => {
    const recorded = recordedFetch({ [`GET ${LATEST_RELEASE_URL}`]: { fixture: 'release.json' } });
    const api = createApi(createApiClient({ baseUrl: 'https://gateway.example.com/', fetch: recorded.fetch }));

    expect(await api.option.getLatestRelease()()).toEqual(E.right({ tag_name: 'v0.6.10', body: '- fixes and improvements' }));
    const request = recorded.only();
    expect(request.url).toBe('https://api.github.com/repos/songquanpeng/one-api/releases/latest');
    expect(request.credentials).toBe('omit');
  });

  it('user.deleteUser accepts the empty 200 body one-api answers', async () => {
    const recorded = recordedFetch({ 'DELETE /api/user/9': { text: '' } });
    const api = createApi(createApiClient({ fetch: recorded.fetch }));
    expect(await api.user.deleteUser(9)()).toEqual(E.right(undefined));
  });

  it('an empty 200 body is a Decode error for every other call', async () => {
    const recorded = recordedFetch({ 'DELETE /api/user/self': { text: '' } });
    const api = createApi(createApiClient({ fetch: recorded.fetch }));
    expect(await api.user.deleteSelf()()).toEqual(
      E.left({ _tag: 'Decode', call: 'DELETE /api/user/self', report: 'body is empty, expected JSON' }),
    );
  });
});

describe('success: false and call-specific outcomes', () => {
  const run = async <A>(routes: Parameters<typeof recordedFetch>[0], call: (api: Api) => TaskEither<ApiError, A>) => {
    const recorded = recordedFetch(routes);
    return call(createApi(createApiClient({ fetch: recorded.fetch })))();
  };

  it('login failure carries the server message', async () => {
    expect(await run({ 'POST /api/user/login': { fixture: 'failure-login.json' } }, (a) => a.auth.login({ username: 'root', password: 'x' }))).toEqual(
      E.left({ _tag: 'Failure', call: 'POST /api/user/login', message: '用户名或密码错误，或用户已被封禁' }),
    );
  });

  it('a permission failure on a list call is a Failure, not a decode error', async () => {
    expect(await run({ 'GET /api/channel/': { fixture: 'failure-permission.json' } }, (a) => a.channel.list(0))).toEqual(
      E.left({ _tag: 'Failure', call: 'GET /api/channel/', message: '无权进行此操作，权限不足' }),
    );
  });

  it('success false with data: null (dashboard) is a Failure', async () => {
    expect(await run({ 'GET /api/user/dashboard': { fixture: 'dashboard-failure.json' } }, (a) => a.user.getDashboard())).toEqual(
      E.left({ _tag: 'Failure', call: 'GET /api/user/dashboard', message: '无法获取统计信息' }),
    );
  });

  it('a failed channel test is a Failure with the upstream error', async () => {
    expect(await run({ 'GET /api/channel/test/7': { fixture: 'channel-test-failed.json' } }, (a) => a.channel.test(7, 'gpt-4o-mini'))).toEqual(
      E.left({
        _tag: 'Failure',
        call: 'GET /api/channel/test/7',
        message: 'http status code: 401, error message: Incorrect API key provided',
      }),
    );
  });

  it('a failed balance update is a Failure with the message', async () => {
    expect(await run({ 'GET /api/channel/update_balance/5/': { fixture: 'balance-failed.json' } }, (a) => a.channel.updateBalance(5))).toEqual(
      E.left({ _tag: 'Failure', call: 'GET /api/channel/update_balance/5/', message: '尚未实现' }),
    );
  });

  it('a successful balance answer without balance is a Decode error naming the field', async () => {
    expect(await run({ 'GET /api/channel/update_balance/5/': { fixture: 'ok.json' } }, (a) => a.channel.updateBalance(5))).toEqual(
      E.left({ _tag: 'Decode', call: 'GET /api/channel/update_balance/5/', report: 'balance: expected number, got undefined' }),
    );
  });

  it('an OAuth login answer without a user is a Decode error', async () => {
    expect(await run({ 'GET /api/oauth/github': { fixture: 'ok.json' } }, (a) => a.auth.oauthGitHub({ code: 'c', state: 's' }))).toEqual(
      E.left({ _tag: 'Decode', call: 'GET /api/oauth/github', report: 'data: expected object, got undefined' }),
    );
  });

  it('an OAuth state mismatch (403) is an HttpStatus with the server message', async () => {
    expect(
      await run({ 'GET /api/oauth/lark': { fixture: 'oauth-state-mismatch.json', status: 403, statusText: 'Forbidden' } }, (a) =>
        a.auth.oauthLark({ code: 'c', state: 'other' }),
      ),
    ).toEqual(E.left({ _tag: 'HttpStatus', call: 'GET /api/oauth/lark', status: 403, message: '登录状态校验失败（state 为空或不一致），请返回登录页重新发起登录' }));
  });

  it('a test run refused while another runs is a Failure with the server message', async () => {
    expect(await run({ 'POST /api/channel/test_run': { fixture: 'channel-test-running.json' } }, (a) => a.channel.startTestRun({ scope: 'disabled' }))).toEqual(
      E.left({ _tag: 'Failure', call: 'POST /api/channel/test_run', message: '测试已在运行中' }),
    );
  });

  it('a test run answer with an unknown status is a Decode error naming the field', async () => {
    const text = fixture('channel-test-run.json').replace('"running"', '"paused"');
    const result = await run({ 'GET /api/channel/test_run/3': { text } }, (a) => a.channel.getTestRun(3, 0));
    expect(result).toEqual(E.left(expect.objectContaining({ _tag: 'Decode', call: 'GET /api/channel/test_run/3' })));
    expect(E.isLeft(result) && result.left._tag === 'Decode' ? result.left.report : '').toMatch(/^data\.status: /);
  });

  it('a catalogue without the OpenAI list shape is a Decode error', async () => {
    expect(await run({ 'GET /api/channel/models': { fixture: 'ok.json' } }, (a) => a.channel.catalogue())).toEqual(
      E.left({ _tag: 'Decode', call: 'GET /api/channel/models', report: 'object: expected string, got undefined; data: expected Array<{ id: string }>, got undefined' }),
    );
  });

  it('lists read a null data as empty (a Go nil slice)', async () => {
    expect(await run({ 'GET /api/token/': { text: '{"success":true,"message":"","data":null}' } }, (a) => a.token.list(0))).toEqual(E.right([]));
  });
});
