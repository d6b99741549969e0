import { Hono, type Context } from 'hono';
import { userAuth } from '../http/auth';
import { ok } from '../http/envelope';
import type { AppEnv } from '../http/env';
import { readOptions, type OptionValues } from '../services/options';
import { typeModels } from '../services/typeModels';

/**
 * Public system endpoints (contract §2.2): `/api/status`, `/api/notice`, `/api/about`,
 * `/api/home_page_content`, and the per-channel-type default model lists `/api/models`.
 */

/** The options `/api/status` reads. */
const statusOptionKeys = [
  'EmailVerificationEnabled',
  'GitHubOAuthEnabled',
  'GitHubClientId',
  'LarkClientId',
  'SystemName',
  'Logo',
  'Footer',
  'WeChatAccountQRCodeImageURL',
  'WeChatAuthEnabled',
  'ServerAddress',
  'TurnstileCheckEnabled',
  'TurnstileSiteKey',
  'TopUpLink',
  'ChatLink',
  'QuotaPerUnit',
  'DisplayInCurrencyEnabled',
  'OidcEnabled',
  'OidcClientId',
  'OidcWellKnown',
  'OidcAuthorizationEndpoint',
  'OidcTokenEndpoint',
  'OidcUserinfoEndpoint',
  'PasswordLoginEnabled',
] as const;

/** one-api's runtime server address when the option is empty (contract §6 #11). */
export const defaultServerAddress = 'http://localhost:3000';

/** The 24 fields of `/api/status` data, plus our extension `password_login`. */
export function statusData(o: OptionValues, version: string, startTime: number) {
  return {
    version,
    start_time: startTime,
    email_verification: o.bool('EmailVerificationEnabled'),
    github_oauth: o.bool('GitHubOAuthEnabled'),
    github_client_id: o.str('GitHubClientId'),
    lark_client_id: o.str('LarkClientId'),
    system_name: o.str('SystemName'),
    logo: o.str('Logo'),
    footer_html: o.str('Footer'),
    wechat_qrcode: o.str('WeChatAccountQRCodeImageURL'),
    wechat_login: o.bool('WeChatAuthEnabled'),
    server_address: o.str('ServerAddress') || defaultServerAddress,
    turnstile_check: o.bool('TurnstileCheckEnabled'),
    turnstile_site_key: o.str('TurnstileSiteKey'),
    top_up_link: o.str('TopUpLink'),
    chat_link: o.str('ChatLink'),
    quota_per_unit: o.num('QuotaPerUnit'),
    display_in_currency: o.bool('DisplayInCurrencyEnabled'),
    oidc: o.bool('OidcEnabled'),
    oidc_client_id: o.str('OidcClientId'),
    oidc_well_known: o.str('OidcWellKnown'),
    oidc_authorization_endpoint: o.str('OidcAuthorizationEndpoint'),
    oidc_token_endpoint: o.str('OidcTokenEndpoint'),
    oidc_userinfo_endpoint: o.str('OidcUserinfoEndpoint'),
    password_login: o.bool('PasswordLoginEnabled'),
  };
}

/** A route answering the raw string value of option `key`. */
const optionText = (key: string) => async (c: Context<AppEnv>) => {
  const options = await readOptions(c.get('deps').db, [key]);
  return ok(c, options.str(key));
};

/** Routes mounted at /api. */
export function statusRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get('/status', async (c) => {
    const { db, config, startTime } = c.get('deps');
    return ok(c, statusData(await readOptions(db, statusOptionKeys), config.version, startTime));
  });
  app.get('/notice', optionText('Notice'));
  app.get('/about', optionText('About'));
  app.get('/home_page_content', optionText('HomePageContent'));
  app.get('/models', userAuth, (c) => ok(c, typeModels));
  return app;
}
