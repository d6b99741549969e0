import { passwordLoginEnabled, type Status } from './status';

/**
 * Which ways of signing in a server offers (contract §5.7), as one rule for the login page (read
 * from `GET /api/status`) and the settings page (read from the option values before a switch is
 * turned off). Pure: no I/O.
 */

/** The alternate logins the server enables; null = not offered. */
export interface AlternateLogins {
  /** status.github_oauth -> github_client_id. */
  readonly github: string | null;
  /** status.lark_client_id when non-empty (Lark has no enable flag). */
  readonly lark: string | null;
  /** status.wechat_login -> wechat_qrcode. */
  readonly wechat: string | null;
}

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** The alternate logins a status offers (none before the status is known). */
export function alternateLogins(status: Status | null): AlternateLogins {
  if (status === null) return { github: null, lark: null, wechat: null };
  return {
    github: status.github_oauth ? status.github_client_id : null,
    lark: present(status.lark_client_id) ? status.lark_client_id : null,
    wechat: status.wechat_login ? status.wechat_qrcode : null,
  };
}

export const hasAlternateLogins = (m: AlternateLogins): boolean => m.github !== null || m.lark !== null || m.wechat !== null;

/**
 * What /login shows about the ways in: the password form (`password`), no form but the alternate
 * logins below (`alternateOnly`), or neither, so only an administrator can help (`none`).
 */
export type LoginOffer = 'password' | 'alternateOnly' | 'none';

export function loginOffer(status: Status | null): LoginOffer {
  if (passwordLoginEnabled(status)) return 'password';
  return hasAlternateLogins(alternateLogins(status)) ? 'alternateOnly' : 'none';
}

/**
 * The alternate logins the stored options enable (what the status would report after a reload):
 * GitHub when switched on with a client id, WeChat when switched on, Lark when it has a client id.
 */
export function alternateLoginsOfOptions(values: Readonly<Record<string, string>>): readonly ('github' | 'lark' | 'wechat')[] {
  const methods: ('github' | 'lark' | 'wechat')[] = [];
  if (values.GitHubOAuthEnabled === 'true' && present(values.GitHubClientId)) methods.push('github');
  if (present(values.LarkClientId)) methods.push('lark');
  if (values.WeChatAuthEnabled === 'true') methods.push('wechat');
  return methods;
}

/**
 * Turning password login off with these stored options leaves nobody a way in (no alternate
 * login is enabled): the confirmation says so before root locks everyone out.
 */
export const passwordOffLocksOut = (values: Readonly<Record<string, string>>): boolean => alternateLoginsOfOptions(values).length === 0;
