import { createHash } from 'node:crypto';
import { importPKCS8, SignJWT } from 'jose';
import { anthropicRequest, anthropicWire } from './anthropic';
import { geminiErrorOf, geminiWire } from './gemini';
import type { RelayMode } from './types';
import { isObject, str, tokens, type Json, type NativeWire } from './wire';

/**
 * Google Vertex AI (channel type 42) as a native wire, from Google's public Vertex AI and OAuth 2.0
 * service-account documentation and Anthropic's "Claude on Vertex AI" page:
 * - the channel's key is `Region|ProjectId|credentials JSON` (the console assembles it from its
 *   three fields); a key without them falls back to the config's `region`,
 *   `vertex_ai_project_id` and `vertex_ai_adc` (and the credentials' own `project_id`);
 * - the credentials are a service-account key (`client_email`, `private_key`, `token_uri`): an
 *   RS256 JWT assertion (signed with the `jose` library) is exchanged at `token_uri` for an OAuth 2.0
 *   access token (JWT-bearer grant, scope `cloud-platform`), or user credentials
 *   (`authorized_user`: `client_id`, `client_secret`, `refresh_token`) refreshed there. Tokens are
 *   cached per credential until a minute before they expire; each request carries
 *   `Authorization: Bearer <token>`;
 * - `POST https://<region>-aiplatform.googleapis.com/v1/projects/<project>/locations/<region>/
 *   publishers/google/models/<model>:generateContent` (`:streamGenerateContent?alt=sse`) for
 *   Gemini, with the Gemini wire's body and answers; `publishers/anthropic/models/<model>
 *   :rawPredict` (`:streamRawPredict`) for Claude, with Anthropic's Messages body without `model`
 *   and with `anthropic_version: vertex-2023-10-16`, answered as Anthropic answers;
 *   `publishers/google/models/<model>:predict` for text embeddings (`instances[].content`,
 *   `predictions[].embeddings.values`, tokens in `statistics.token_count`). Region `global` is
 *   served by `aiplatform.googleapis.com`; a channel's base URL replaces the host;
 * - errors are Google's `{"error":{"code","message","status"}}` (Claude's own errors keep
 *   Anthropic's shape).
 */

/** The `anthropic_version` Claude models on Vertex AI take. */
export const vertexAnthropicVersion = 'vertex-2023-10-16';

/** The OAuth 2.0 scope of the access tokens requested. */
export const vertexScope = 'https://www.googleapis.com/auth/cloud-platform';

/** Google's OAuth 2.0 token endpoint, when the credentials name none. */
export const defaultTokenUri = 'https://oauth2.googleapis.com/token';

/** The grant type of a JWT assertion exchanged for an access token (RFC 7523). */
export const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** A service-account key. */
interface ServiceAccount {
  readonly kind: 'service_account';
  readonly clientEmail: string;
  readonly privateKey: string;
  readonly privateKeyId: string;
  readonly tokenUri: string;
}

/** User credentials (`gcloud auth application-default login`). */
interface AuthorizedUser {
  readonly kind: 'authorized_user';
  readonly clientId: string;
  readonly clientSecret: string;
  readonly refreshToken: string;
  readonly tokenUri: string;
}

export type GoogleCredentials = ServiceAccount | AuthorizedUser;

/** A Vertex AI channel's region, project and credentials. */
export interface VertexCredential {
  readonly region: string;
  readonly project: string;
  readonly credentials: GoogleCredentials;
}

/** The message of a request refused for a channel whose key is incomplete. */
export const vertexKeyMessage = 'Vertex AI channel key must be Region|ProjectId|credentials JSON (a region such as us-central1, the project id and a service-account key)';

const regionPattern = /^(global|[a-z]+-[a-z]+\d+)$/;
const projectPattern = /^[A-Za-z0-9][A-Za-z0-9.:_-]*$/;

/** The credentials of a JSON text, or a message naming what is wrong with them. */
export function googleCredentialsOf(text: string): GoogleCredentials | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'Vertex AI credentials are not valid JSON (paste the whole service-account key file)';
  }
  if (!isObject(parsed)) return 'Vertex AI credentials must be a JSON object (a service-account key)';
  const tokenUri = str(parsed.token_uri) === '' ? defaultTokenUri : str(parsed.token_uri);
  if (!/^https?:\/\//.test(tokenUri)) return `Vertex AI credentials: token_uri ${JSON.stringify(tokenUri)} is not an http(s) URL`;
  const type = str(parsed.type);
  if (type === 'authorized_user') {
    const missing = ['client_id', 'client_secret', 'refresh_token'].filter((name) => str(parsed[name]) === '');
    if (missing.length > 0) return `Vertex AI credentials (authorized_user) lack ${missing.join(', ')}`;
    return { kind: 'authorized_user', clientId: str(parsed.client_id), clientSecret: str(parsed.client_secret), refreshToken: str(parsed.refresh_token), tokenUri };
  }
  if (type !== '' && type !== 'service_account') return `Vertex AI credentials of type ${JSON.stringify(type)} are not supported: use a service-account key`;
  const missing = ['client_email', 'private_key'].filter((name) => str(parsed[name]) === '');
  if (missing.length > 0) return `Vertex AI credentials (service account) lack ${missing.join(', ')}`;
  return { kind: 'service_account', clientEmail: str(parsed.client_email), privateKey: str(parsed.private_key), privateKeyId: str(parsed.private_key_id), tokenUri };
}

/** The project id a credentials JSON names (`project_id` or `quota_project_id`), or ''. */
function credentialsProject(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? str(parsed.project_id) || str(parsed.quota_project_id) : '';
  } catch {
    return '';
  }
}

/**
 * The credential of a channel: its key `Region|ProjectId|credentials JSON` (split at the first two
 * `|`), else its config's `region`, `vertex_ai_project_id`, `vertex_ai_adc` (the key itself when it
 * is the credentials JSON); the project defaults to the credentials' own. A message names what is
 * missing or wrong.
 */
export function vertexCredentialOf(key: string | null, config: Readonly<Record<string, unknown>> | null): VertexCredential | string {
  const text = (key ?? '').trim();
  const first = text.indexOf('|');
  const second = first < 0 ? -1 : text.indexOf('|', first + 1);
  let region: string;
  let project: string;
  let adc: string;
  if (second > 0 && !text.startsWith('{')) {
    region = text.slice(0, first).trim();
    project = text.slice(first + 1, second).trim();
    adc = text.slice(second + 1).trim();
  } else {
    region = str(config?.region).trim();
    project = str(config?.vertex_ai_project_id).trim();
    adc = str(config?.vertex_ai_adc).trim() || text;
  }
  if (adc === '') return vertexKeyMessage;
  if (project === '') project = credentialsProject(adc);
  if (!regionPattern.test(region)) return region === '' ? vertexKeyMessage : `Vertex AI region ${JSON.stringify(region)} is not a region such as us-central1 (or global)`;
  if (!projectPattern.test(project)) return project === '' ? vertexKeyMessage : `Vertex AI project id ${JSON.stringify(project)} is not a project id`;
  const credentials = googleCredentialsOf(adc);
  return typeof credentials === 'string' ? credentials : { region, project, credentials };
}

/** Whether `model` is one of Anthropic's Claude models (served through `publishers/anthropic`). */
export const isVertexClaude = (model: string): boolean => model.startsWith('claude');

/** Vertex AI's id of a Claude model: Anthropic's dated names take `@` before the date (3.5 Sonnet's second version is `-v2`); ids with `@` are sent as they are. */
export function vertexClaudeId(model: string): string {
  if (model.includes('@')) return model;
  if (model === 'claude-3-5-sonnet-20241022') return 'claude-3-5-sonnet-v2@20241022';
  return model.replace(/-(\d{8})$/, '@$1');
}

/** The method of a request on Vertex AI. */
function methodOf(mode: RelayMode, model: string, stream: boolean): string | null {
  if (mode === 'embeddings') return isVertexClaude(model) ? null : 'predict';
  if (mode !== 'chat') return null;
  if (isVertexClaude(model)) return stream ? 'streamRawPredict' : 'rawPredict';
  return stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
}

/** Vertex AI's URL of a request of `mode` for `model`, on `base` (the region's endpoint unless the channel sets one); null for modes it does not serve. */
export function vertexUrl(base: string, region: string, project: string, mode: RelayMode, model: string, stream: boolean): string | null {
  const method = methodOf(mode, model, stream);
  if (method === null) return null;
  const host = base !== '' ? base : region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${region}-aiplatform.googleapis.com`;
  const claude = isVertexClaude(model);
  const id = claude ? vertexClaudeId(model) : model.replace(/^models\//, '');
  const path = `/v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(region)}/publishers/${claude ? 'anthropic' : 'google'}/models/${encodeURIComponent(id).replaceAll('%40', '@')}`;
  return `${host}${path}:${method}`;
}

// ---------------------------------------------------------------------------------------------
// Access tokens

/** A token is fetched again this long before it expires. */
const refreshMarginMs = 60_000;
/** How long a token endpoint may take. */
const tokenTimeoutMs = 20_000;
/** The lifetime of the JWT assertion (Google's maximum, one hour). */
const assertionSeconds = 3600;

interface CachedToken {
  readonly token: string;
  readonly expiresAt: number;
}

/** Access tokens by credential (a digest of it); an entry being fetched is a shared promise. */
const accessTokens = new Map<string, CachedToken | Promise<CachedToken>>();

/** The cache key of a credential. */
function credentialKey(credentials: GoogleCredentials): string {
  const parts = credentials.kind === 'service_account' ? [credentials.tokenUri, credentials.clientEmail, credentials.privateKey] : [credentials.tokenUri, credentials.clientId, credentials.refreshToken];
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

/** The signed JWT assertion of a service account (RFC 7523: `iss`, `scope`, `aud` the token endpoint, one hour). */
export async function serviceAccountAssertion(account: ServiceAccount, nowSeconds = Math.floor(Date.now() / 1000)): Promise<string> {
  let key: CryptoKey;
  try {
    key = await importPKCS8(account.privateKey, 'RS256');
  } catch (error) {
    throw new Error(`Vertex AI credentials: private_key is not a PEM PKCS#8 RSA key (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const header = account.privateKeyId === '' ? { alg: 'RS256', typ: 'JWT' } : { alg: 'RS256', typ: 'JWT', kid: account.privateKeyId };
  return new SignJWT({ scope: vertexScope })
    .setProtectedHeader(header)
    .setIssuer(account.clientEmail)
    .setAudience(account.tokenUri)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + assertionSeconds)
    .sign(key);
}

/** Asks the credentials' token endpoint for an access token. */
async function fetchToken(credentials: GoogleCredentials): Promise<CachedToken> {
  const form =
    credentials.kind === 'service_account'
      ? new URLSearchParams({ grant_type: jwtBearerGrant, assertion: await serviceAccountAssertion(credentials) })
      : new URLSearchParams({ grant_type: 'refresh_token', client_id: credentials.clientId, client_secret: credentials.clientSecret, refresh_token: credentials.refreshToken });
  const where = `Vertex AI access token request to ${credentials.tokenUri}`;
  let status: number;
  let text: string;
  try {
    const response = await fetch(credentials.tokenUri, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(tokenTimeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new Error(`${where} failed: ${error instanceof Error ? error.message : String(error)}${cause}`, { cause: error });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (status !== 200 || !isObject(body) || str(body.access_token) === '') {
    // OAuth 2.0 errors: {"error": code, "error_description": text}
    const code = isObject(body) ? str(body.error) : '';
    const description = isObject(body) ? str(body.error_description) : '';
    const detail = [code, description].filter((s) => s !== '').join(': ') || text.slice(0, 200);
    throw new Error(`${where} failed with status ${status}${detail === '' ? '' : `: ${detail}`}`);
  }
  const lifetime = tokens(body.expires_in) > 0 ? tokens(body.expires_in) : 3600;
  return { token: str(body.access_token), expiresAt: Date.now() + lifetime * 1000 };
}

/** Drops the tokens that have expired (a channel whose key changed leaves its old one behind). */
function pruneTokens(now: number): void {
  for (const [key, entry] of accessTokens) if (!(entry instanceof Promise) && entry.expiresAt <= now) accessTokens.delete(key);
}

/**
 * An access token for `credentials`: the cached one until a minute before it expires, else a
 * new one; concurrent callers share one request, and a failed request is not remembered.
 */
export async function vertexAccessToken(credentials: GoogleCredentials): Promise<string> {
  const key = credentialKey(credentials);
  const now = Date.now();
  const entry = accessTokens.get(key);
  if (entry instanceof Promise) return (await entry).token;
  if (entry !== undefined && entry.expiresAt - refreshMarginMs > now) return entry.token;
  pruneTokens(now);
  const pending = fetchToken(credentials);
  accessTokens.set(key, pending);
  try {
    const fetched = await pending;
    accessTokens.set(key, fetched);
    return fetched.token;
  } catch (error) {
    if (accessTokens.get(key) === pending) accessTokens.delete(key);
    throw error;
  }
}

/** The headers of a request with the channel's access token (rejects, naming the problem, when there is none). */
export async function signVertex(credential: VertexCredential | string, headers: Readonly<Record<string, string>>): Promise<Record<string, string>> {
  if (typeof credential === 'string') throw new Error(credential);
  return { ...headers, Authorization: `Bearer ${await vertexAccessToken(credential.credentials)}` };
}

// ---------------------------------------------------------------------------------------------
// Bodies and answers

/** Vertex AI's rawPredict body for an OpenAI chat request to a Claude model: Anthropic's, without `model`, with Vertex's `anthropic_version`. */
export function vertexClaudeRequest(json: Readonly<Json>, model: string): Json | string {
  const body = anthropicRequest(json, model);
  if (typeof body === 'string') return body;
  const { model: _model, ...rest } = body;
  return { anthropic_version: vertexAnthropicVersion, ...rest };
}

/** Vertex AI's predict body for an OpenAI embeddings request, or a message naming what cannot be sent. */
export function vertexEmbeddingRequest(json: Readonly<Json>): Json | string {
  const input = json.input;
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((i) => typeof i === 'string') ? input : null;
  if (texts === null || texts.length === 0) return 'input: Vertex AI channels embed a string or an array of strings';
  const body: Json = { instances: texts.map((content) => ({ content })) };
  if (typeof json.dimensions === 'number' && json.dimensions > 0) body.parameters = { outputDimensionality: json.dimensions };
  return body;
}

/** OpenAI's embeddings answer for a predict answer (`predictions[].embeddings`), its usage the summed `token_count`. */
function embeddingsText(body: Json, model: string): string {
  const predictions = Array.isArray(body.predictions) ? body.predictions.filter(isObject) : [];
  let prompt = 0;
  const data = predictions.map((prediction, index) => {
    const embeddings = isObject(prediction.embeddings) ? prediction.embeddings : {};
    if (isObject(embeddings.statistics)) prompt += tokens(embeddings.statistics.token_count);
    return { object: 'embedding', index, embedding: Array.isArray(embeddings.values) ? embeddings.values : [] };
  });
  return JSON.stringify({ object: 'list', data, model, usage: { prompt_tokens: prompt, total_tokens: prompt } });
}

/** The OpenAI JSON text of a Vertex AI answer (Gemini, Claude or embeddings) or error. */
function answerText(status: number, text: string, model: string, header?: (name: string) => string | null): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  // Google's own errors (authentication, quota, a model not found) come in Google's shape for Claude too
  const googleError = isObject(body) && body.type === 'error' ? null : geminiErrorOf(body);
  if (googleError !== null) return JSON.stringify(googleError);
  if (isVertexClaude(model)) return anthropicWire.answerText(status, text, model, header);
  if (status === 200 && isObject(body) && Array.isArray(body.predictions)) return embeddingsText(body, model);
  return geminiWire.answerText(status, text, model, header);
}

/** Vertex AI (Gemini and Claude models, text embeddings) as the relay's native wire of channel type 42. */
export const vertexWire: NativeWire = {
  modes: new Set<RelayMode>(['chat', 'embeddings']),
  requestBody: (mode, json, model) => {
    if (mode === 'embeddings') {
      const body = vertexEmbeddingRequest(json);
      return typeof body === 'string' ? { invalid: body } : { body: JSON.stringify(body) };
    }
    if (!isVertexClaude(model)) return geminiWire.requestBody(mode, json, model);
    const body = vertexClaudeRequest(json, model);
    return typeof body === 'string' ? { invalid: body } : { body: JSON.stringify(body) };
  },
  answerText,
  streamTranslator: (model) => (isVertexClaude(model) ? anthropicWire.streamTranslator(model) : geminiWire.streamTranslator(model)),
};
