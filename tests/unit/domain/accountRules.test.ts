import { describe, expect, it } from 'vitest';
import { accountFieldsProblem, accountLimits, charLength } from '../../../src/domain/accountRules';
import { renderMessage } from '../../../src/i18n';

/** The account field rules shared by the console's forms and the server. */

const text = (lang: 'zh' | 'en', fields: Parameters<typeof accountFieldsProblem>[0]): string | null => {
  const problem = accountFieldsProblem(fields);
  return problem === null ? null : renderMessage(lang, problem);
};

describe('accountFieldsProblem', () => {
  it("has one-api's limits", () => {
    expect(accountLimits).toEqual({ username: 12, passwordMin: 8, passwordMax: 20, displayName: 20, email: 50, group: 32 });
  });

  it('passes values at the limits and skips fields left out', () => {
    expect(accountFieldsProblem({ username: 'u'.repeat(12), password: 'p'.repeat(8), displayName: '名'.repeat(20), email: `${'e'.repeat(44)}@x.com`, group: 'g'.repeat(32) })).toBeNull();
    expect(accountFieldsProblem({ password: 'p'.repeat(20) })).toBeNull();
    expect(accountFieldsProblem({})).toBeNull();
  });

  it('names the field and the rule, in both languages', () => {
    expect(text('zh', { username: 'u'.repeat(13) })).toBe('用户名长度不能超过 12 个字符');
    expect(text('en', { username: 'u'.repeat(13) })).toBe('username must be at most 12 characters');
    expect(text('zh', { password: 'short' })).toBe('密码长度必须在 8 到 20 个字符之间');
    expect(text('en', { password: 'p'.repeat(21) })).toBe('password must be 8 to 20 characters');
    expect(text('zh', { displayName: 'd'.repeat(21) })).toBe('显示名称长度不能超过 20 个字符');
    expect(text('zh', { email: 'e'.repeat(51) })).toBe('邮箱地址长度不能超过 50 个字符');
    expect(text('en', { group: 'g'.repeat(33) })).toBe('group must be at most 32 characters');
  });

  it('reports the first broken field in form order', () => {
    expect(text('en', { username: 'u'.repeat(13), password: 'x', displayName: 'd'.repeat(21) })).toBe('username must be at most 12 characters');
    expect(text('en', { username: 'ok', password: 'x', displayName: 'd'.repeat(21) })).toBe('password must be 8 to 20 characters');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(charLength('😀'.repeat(12))).toBe(12);
    expect(accountFieldsProblem({ username: '😀'.repeat(12), password: '密'.repeat(8) })).toBeNull();
    expect(accountFieldsProblem({ password: '😀'.repeat(11) })).toBeNull();
  });
});
