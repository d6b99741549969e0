import { describe, expect, it } from 'vitest';
import { alternateLogins, alternateLoginsOfOptions, hasAlternateLogins, loginOffer, passwordOffLocksOut } from '../../../src/domain/loginMethods';
import type { Status } from '../../../src/domain/status';

const status: Status = {
  version: 'v0',
  system_name: 'One API',
  logo: '',
  footer_html: '',
  quota_per_unit: 500000,
  display_in_currency: true,
  chat_link: '',
  server_address: '',
  top_up_link: '',
  turnstile_check: false,
  turnstile_site_key: '',
  email_verification: false,
  github_oauth: false,
  github_client_id: '',
  wechat_login: false,
  wechat_qrcode: '',
};

describe('login methods from the status', () => {
  it('offers the password form unless the status says password_login: false (one-api sends nothing)', () => {
    expect(loginOffer(null)).toBe('password');
    expect(loginOffer(status)).toBe('password');
    expect(loginOffer({ ...status, password_login: true })).toBe('password');
  });

  it('password off: the alternate logins when one is enabled, none otherwise', () => {
    const off = { ...status, password_login: false };
    expect(loginOffer(off)).toBe('none');
    expect(loginOffer({ ...off, github_oauth: true, github_client_id: 'id' })).toBe('alternateOnly');
    expect(loginOffer({ ...off, wechat_login: true, wechat_qrcode: 'qr' })).toBe('alternateOnly');
    expect(loginOffer({ ...off, lark_client_id: 'lark' })).toBe('alternateOnly');
    expect(loginOffer({ ...off, lark_client_id: '  ' })).toBe('none');
  });

  it('alternateLogins names each enabled method and nothing before the status arrives', () => {
    expect(alternateLogins(null)).toEqual({ github: null, lark: null, wechat: null });
    expect(hasAlternateLogins(alternateLogins(status))).toBe(false);
    expect(alternateLogins({ ...status, github_oauth: true, github_client_id: 'gh', wechat_login: true, wechat_qrcode: 'qr', lark_client_id: 'lk' })).toEqual({
      github: 'gh',
      lark: 'lk',
      wechat: 'qr',
    });
  });
});

describe('login methods from the stored options', () => {
  it('GitHub needs the switch and a client id, WeChat its switch, Lark a client id', () => {
    expect(alternateLoginsOfOptions({})).toEqual([]);
    expect(alternateLoginsOfOptions({ GitHubOAuthEnabled: 'true', GitHubClientId: '' })).toEqual([]);
    expect(alternateLoginsOfOptions({ GitHubOAuthEnabled: 'false', GitHubClientId: 'gh' })).toEqual([]);
    expect(alternateLoginsOfOptions({ GitHubOAuthEnabled: 'true', GitHubClientId: 'gh' })).toEqual(['github']);
    expect(alternateLoginsOfOptions({ LarkClientId: 'lk', WeChatAuthEnabled: 'true' })).toEqual(['lark', 'wechat']);
  });

  it('turning password login off locks everyone out exactly when no alternate login is enabled', () => {
    expect(passwordOffLocksOut({ PasswordLoginEnabled: 'true' })).toBe(true);
    expect(passwordOffLocksOut({ WeChatAuthEnabled: 'false', GitHubOAuthEnabled: 'true' })).toBe(true);
    expect(passwordOffLocksOut({ WeChatAuthEnabled: 'true' })).toBe(false);
  });
});
