import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bedrockModelId, isBedrockClaude } from '../../server/relay/bedrock';
import { typeModels } from '../../server/services/typeModels';
import { setOption } from './support/db';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

const channelModels = JSON.parse(readFileSync(new URL('../../server/data/channel-models.json', import.meta.url), 'utf8')) as unknown;
const startMs = 1_750_000_000_123;

const defaultStatus = {
  version: 'v0.0.0',
  start_time: 1_750_000_000,
  email_verification: false,
  github_oauth: false,
  github_client_id: '',
  lark_client_id: '',
  system_name: 'One API',
  logo: '',
  footer_html: '',
  wechat_qrcode: '',
  wechat_login: false,
  server_address: 'http://localhost:3000',
  turnstile_check: false,
  turnstile_site_key: '',
  top_up_link: '',
  chat_link: '',
  quota_per_unit: 500000,
  display_in_currency: true,
  oidc: false,
  oidc_client_id: '',
  oidc_well_known: '',
  oidc_authorization_endpoint: '',
  oidc_token_endpoint: '',
  oidc_userinfo_endpoint: '',
  password_login: true,
};

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`public endpoints — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => startMs });

    it("GET /api/status returns exactly one-api's 24 fields and password_login with their defaults", async () => {
      const reply = await suite.client().get('/api/status');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(reply.headers.get('x-oneapi-request-id')).toMatch(/^\d{14}\d{1,9}\d{8}$/);
      expect(reply.body).toEqual({ success: true, message: '', data: defaultStatus });
      expect(Object.keys(reply.body.data)).toHaveLength(25);
    });

    it('password_login follows PasswordLoginEnabled (only "true" is on)', async () => {
      const { db } = suite.api.handle;
      await setOption(db, 'PasswordLoginEnabled', 'false');
      expect((await suite.client().get('/api/status')).body.data.password_login).toBe(false);
      await setOption(db, 'PasswordLoginEnabled', 'TRUE');
      expect((await suite.client().get('/api/status')).body.data.password_login).toBe(false);
      await setOption(db, 'PasswordLoginEnabled', 'true');
      expect((await suite.client().get('/api/status')).body.data.password_login).toBe(true);
    });

    it('reflects option changes at once, with one-api parsing rules', async () => {
      const { db } = suite.api.handle;
      await setOption(db, 'ServerAddress', 'https://gw.example.com');
      await setOption(db, 'SystemName', 'Gateway');
      await setOption(db, 'GitHubOAuthEnabled', 'true');
      await setOption(db, 'DisplayInCurrencyEnabled', 'TRUE');
      await setOption(db, 'QuotaPerUnit', 'abc');
      await setOption(db, 'LarkClientId', 'cli_123');
      await setOption(db, 'OidcEnabled', 'true');
      const reply = await suite.client().get('/api/status/');
      expect(reply.body.data).toMatchObject({
        server_address: 'https://gw.example.com',
        system_name: 'Gateway',
        github_oauth: true,
        display_in_currency: false,
        quota_per_unit: 0,
        lark_client_id: 'cli_123',
        oidc: true,
      });
      await setOption(db, 'QuotaPerUnit', '1000.5');
      expect((await suite.client().get('/api/status')).body.data.quota_per_unit).toBe(1000.5);
    });

    it.each([
      ['/api/notice', 'Notice'],
      ['/api/about', 'About'],
      ['/api/home_page_content', 'HomePageContent'],
    ])('%s returns the raw option string', async (path, key) => {
      const browser = suite.client();
      expect((await browser.get(path)).body).toEqual({ success: true, message: '', data: '' });
      await setOption(suite.api.handle.db, key, '# Title\n<b>raw</b> https://x');
      expect((await browser.get(path)).body).toEqual({ success: true, message: '', data: '# Title\n<b>raw</b> https://x' });
    });

    it('GET /api/models needs a user and returns the per-type model lists', async () => {
      const anonymous = await suite.client().get('/api/models');
      expect(anonymous.status).toBe(401);
      const browser = suite.client();
      await browser.login('root', '123456');
      const reply = await browser.get('/api/models', { headers: { 'accept-encoding': 'gzip' } });
      expect(reply.headers.get('content-encoding')).toBe('gzip');
      expect(reply.body.success).toBe(true);
      expect(reply.body.data).toEqual(typeModels);
      expect(Object.keys(reply.body.data)).toHaveLength(51);
      // one-api's lists, but for the three types whose providers' names the gateway corrects
      const oneApi = channelModels as Record<string, string[] | null>;
      for (const type of Object.keys(oneApi).filter((k) => !['14', '24', '33'].includes(k))) expect(reply.body.data[type], type).toEqual(oneApi[type]);
      expect(reply.body.data['14']).toEqual(expect.arrayContaining([...oneApi['14']!, 'claude-3-7-sonnet-20250219', 'claude-sonnet-4-20250514', 'claude-opus-4-20250514']));
      expect(reply.body.data['24']).toEqual(expect.arrayContaining([...oneApi['24']!, 'gemini-2.0-flash', 'gemini-2.5-flash', 'gemini-2.5-pro']));
      // AWS: the Claude models Bedrock serves through the relay's Anthropic body, not Llama
      const bedrock = reply.body.data['33'] as string[];
      expect(bedrock[0]).toBe('claude-3-haiku-20240307');
      expect(bedrock.at(-1)).toBe('claude-opus-4-20250514');
      for (const model of bedrock) {
        expect(isBedrockClaude(model), model).toBe(true);
        expect(bedrockModelId(model), model).toMatch(/^anthropic\.claude-/);
      }
      expect(bedrock.some((m) => m.startsWith('llama'))).toBe(false);
      for (const list of Object.values(reply.body.data as Record<string, string[] | null>)) if (list !== null) expect(new Set(list).size).toBe(list.length);
      expect(reply.body.data['43']).toBeNull();
      expect(reply.body.data['34']).toEqual([]);
      expect(reply.body.data['36']).toEqual(['deepseek-chat', 'deepseek-reasoner']);
      expect(reply.body.data['1']).toHaveLength(53);
    });

    it.each([
      ['GET', '/api/foo'],
      ['GET', '/api'],
      ['POST', '/api/status'],
      ['PATCH', '/api/user/self'],
    ])('%s %s is an OpenAI-style 404', async (method, path) => {
      const reply = await suite.client().request(method, path);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({
        error: { message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: '', code: '' },
      });
    });
  });
}
