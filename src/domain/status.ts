import * as t from 'io-ts';

/** `GET /api/status` data (contract §2.2.1). The OIDC fields are newer and optional. */
export const Status = t.intersection([
  t.type({
    version: t.string,
    system_name: t.string,
    logo: t.string,
    footer_html: t.string,
    quota_per_unit: t.number,
    display_in_currency: t.boolean,
    chat_link: t.string,
    server_address: t.string,
    top_up_link: t.string,
    turnstile_check: t.boolean,
    turnstile_site_key: t.string,
    email_verification: t.boolean,
    github_oauth: t.boolean,
    github_client_id: t.string,
    wechat_login: t.boolean,
    wechat_qrcode: t.string,
  }),
  t.partial({
    start_time: t.number,
    lark_client_id: t.string,
    oidc: t.boolean,
    oidc_client_id: t.string,
    oidc_well_known: t.string,
    oidc_authorization_endpoint: t.string,
    oidc_token_endpoint: t.string,
    oidc_userinfo_endpoint: t.string,
    /** Our extension (option PasswordLoginEnabled); one-api does not send it: missing means true. */
    password_login: t.boolean,
  }),
]);
export type Status = t.TypeOf<typeof Status>;

/** Whether /login offers the username/password form (missing, as from one-api, means yes). */
export const passwordLoginEnabled = (status: Status | null): boolean => status?.password_login !== false;
