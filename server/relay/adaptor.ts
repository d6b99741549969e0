import { channelTypeByValue, relaySupportOf } from '../../src/domain/channelTypes';
import { anthropicVersion, anthropicWire } from './anthropic';
import { baiduAuthorizedUrl, baiduUrl, baiduWire } from './baidu';
import { awsCredentialMessage, awsCredentialOf, bedrockUrl, bedrockWire, signBedrock } from './bedrock';
import { cozeWire } from './coze';
import { deeplWire } from './deepl';
import { replicateTarget, replicateWire } from './replicate';
import { defaultGeminiVersion, geminiPath, geminiWire } from './gemini';
import { signTencent, tencentCredentialMessage, tencentCredentialOf, tencentWire } from './tencent';
import type { RelayChannel, RelayMode } from './types';
import { postUpstream, type UpstreamResponse } from './upstreamClient';
import { signVertex, vertexCredentialOf, vertexUrl, vertexWire } from './vertex';
import type { NativeWire } from './wire';
import { sparkTarget, xunfeiWire } from './xunfei';

/**
 * The adaptors (contract §3.6): for a channel and a relay mode, the upstream URL and the auth
 * headers. The OpenAI-compatible types ("Relay" column OAI) differ only in the URL (per type and
 * per mode) and the credential header; types with a native wire (`nativeWireOf`: Anthropic, Gemini,
 * AWS Bedrock, Vertex AI, Baidu, Xunfei Spark, Tencent, Coze, DeepL, Replicate) also
 * translate the body and the answer (server/relay/wire.ts). Which types are relayed and how is
 * `relaySupportOf` (src/domain/channelTypes.ts), which the console shows too; the types it says
 * `none` are refused: the relay and the channel test answer `unsupportedTypeMessage` for them.
 */

/**
 * Types one-api relays through a native adaptor whose provider also documents an OpenAI-compatible
 * API, used here with the channel's key as a Bearer token: Zhipu (v4), Ali DashScope (compatible
 * mode), Ollama, Cohere (compatibility API), Cloudflare Workers AI (account id from the channel's
 * config `user_id`). The path after the base URL, by mode; modes not listed are not served.
 */
const compatiblePaths: ReadonlyMap<number, Partial<Readonly<Record<RelayMode, string>>>> = new Map([
  [16, { chat: '/api/paas/v4/chat/completions', embeddings: '/api/paas/v4/embeddings' }],
  [17, { chat: '/compatible-mode/v1/chat/completions', embeddings: '/compatible-mode/v1/embeddings' }],
  [30, { chat: '/v1/chat/completions', completions: '/v1/completions', embeddings: '/v1/embeddings' }],
  [35, { chat: '/compatibility/v1/chat/completions', embeddings: '/compatibility/v1/embeddings' }],
  [37, { chat: '/ai/v1/chat/completions', embeddings: '/ai/v1/embeddings' }],
]);

/** Whether channels of `type` relay through their provider's documented OpenAI-compatible API (not their one-api native adaptor). */
export const isCompatibilityType = (type: number): boolean => relaySupportOf(type) === 'compatible';

/** The types whose OpenAI-compatible paths are listed here (tests check they are the domain's `compatible` types). */
export const compatiblePathTypes = (): readonly number[] => [...compatiblePaths.keys()];

/** The native wires, by channel type. */
const nativeWires: ReadonlyMap<number, NativeWire> = new Map([
  [14, anthropicWire],
  [15, baiduWire],
  [18, xunfeiWire],
  [24, geminiWire],
  [33, bedrockWire],
  [23, tencentWire],
  [34, cozeWire],
  [38, deeplWire],
  [42, vertexWire],
  [46, replicateWire],
]);

/** The wire that translates requests and answers for channels of `type`, or undefined when they speak OpenAI's format. */
export const nativeWireOf = (type: number): NativeWire | undefined => nativeWires.get(type);

/** The types with a native wire (tests check they are exactly the domain's `native` types). */
export const nativeWireTypes = (): readonly number[] => [...nativeWires.keys()];

/** Whether channels of `type` can be relayed (the domain's relay support is not `none`). */
export const isRelayableType = (type: number): boolean => relaySupportOf(type) !== 'none';

/** The error text for a channel whose type has no OpenAI-compatible upstream (relay and channel test). */
export function unsupportedTypeMessage(type: number): string {
  const label = channelTypeByValue(type).text;
  return label === '' ? `channel type ${type} is not supported yet` : `channel type ${type} (${label}) is not supported yet`;
}

/** Where a relayed request goes and the headers that authenticate it. */
export interface UpstreamTarget {
  readonly url: string;
  readonly headers: Record<string, string>;
  /**
   * For providers that sign each request (AWS): the final headers of a POST of `body` with
   * `headers`. Rejects with a message naming what is wrong with the channel's credential.
   */
  readonly sign?: (headers: Readonly<Record<string, string>>, body: string) => Promise<Record<string, string>>;
  /**
   * For providers whose URL carries a short-lived credential (Baidu's access token): the URL to
   * send to, once the credential is at hand. Rejects with a message naming what is wrong with the
   * channel's credential; `url` is the same without the credential (for messages and logs).
   */
  readonly authorizedUrl?: () => Promise<string>;
  /**
   * For providers whose call is not one HTTP POST (a WebSocket conversation, a prediction that is
   * created and then followed): makes the call with the signed `headers` and `body` and answers as
   * one POST would, with the provider's answer in the grammar its wire reads (its stream as
   * server-sent-event text). Rejects, like a failed POST, when the provider cannot be reached;
   * stops when `signal` aborts.
   */
  readonly exchange?: (headers: Readonly<Record<string, string>>, body: string, signal: AbortSignal) => Promise<UpstreamResponse>;
}

/** The URL a request is sent to: the target's, with its credential when it carries one. */
export const sentUrl = (target: UpstreamTarget): Promise<string> => (target.authorizedUrl === undefined ? Promise.resolve(target.url) : target.authorizedUrl());

/** The headers a request is sent with: the target's, signed over the body when it signs. */
export const sentHeaders = (target: UpstreamTarget, headers: Readonly<Record<string, string>>, body: string): Promise<Record<string, string>> =>
  target.sign === undefined ? Promise.resolve({ ...headers }) : target.sign(headers, body);

/** Sends a relayed request: one POST to the target's URL, or the target's own exchange. */
export const sendUpstream = async (target: UpstreamTarget, headers: Readonly<Record<string, string>>, body: string, signal: AbortSignal): Promise<UpstreamResponse> => {
  const sent = await sentHeaders(target, headers, body);
  return target.exchange === undefined ? postUpstream(await sentUrl(target), sent, body, signal) : target.exchange(sent, body, signal);
};

/** The channel columns the URL and headers depend on. */
export type AdaptorChannel = Pick<RelayChannel, 'type' | 'key' | 'base_url' | 'other' | 'config'>;

/** The OpenAI request path of each mode (what a client sends to /v1). */
const openAiPaths: Readonly<Record<RelayMode, string>> = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
  embeddings: '/v1/embeddings',
  moderations: '/v1/moderations',
  images: '/v1/images/generations',
  edits: '/v1/edits',
  speech: '/v1/audio/speech',
  transcriptions: '/v1/audio/transcriptions',
  translations: '/v1/audio/translations',
  image_edits: '/v1/images/edits',
};

/** Drops trailing slashes. */
const trimSlash = (s: string): string => s.replace(/\/+$/, '');

/** The base URL of a channel, trailing slashes dropped: its `base_url`, else the type's default. */
export function channelBaseUrl(channel: Pick<RelayChannel, 'type' | 'base_url'>): string {
  const base = channel.base_url !== null && channel.base_url !== '' ? channel.base_url : channelTypeByValue(channel.type).defaultBaseUrl;
  return trimSlash(base);
}

/** Whether a base URL is a Cloudflare AI Gateway (its `/v1` resp. `/openai/deployments` prefix is dropped for types 1 and 3). */
const isCloudflareGateway = (base: string): boolean => base.startsWith('https://gateway.ai.cloudflare.com');

/** A JSON object, or null (an unparsable `config` is treated as empty, as one-api does). */
export function jsonObject(text: string | null): Readonly<Record<string, unknown>> | null {
  if (text === null || text === '') return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Azure's api-version: `config.api_version`, else the legacy `other` column (contract §4.3 step 4). */
function azureApiVersion(channel: AdaptorChannel): string {
  const version = jsonObject(channel.config)?.api_version;
  return typeof version === 'string' && version !== '' ? version : (channel.other ?? '');
}

/** Types whose upstream serves chat completions only, with the path appended to the base URL. */
const chatOnlyPaths: ReadonlyMap<number, string> = new Map([
  [27, '/v1/text/chatcompletion_v2'], // MiniMax
  [41, '/chat/completions'], // Novita (its base already ends in /v3/openai)
  [47, '/v2/chat/completions'], // Baidu Qianfan V2
]);

/**
 * The upstream URL and headers of a request of `mode` for `model` (the upstream model, i.e. after
 * model mapping) on `channel`; null when the channel's type cannot serve that mode (MiniMax,
 * Novita and Baidu V2 serve chat only; Doubao and Bailian chat and embeddings) or is not relayable.
 *
 * URLs: `<base>/v1/<task>` by default; Azure `<base>/openai/deployments/<model without dots>/<task>
 * ?api-version=<config.api_version or other>`; Doubao `<base>/api/v3/…`; Bailian
 * `<base>/compatible-mode/v1/…`; types 50 and 51 `<base>` + the path without `/v1`; a Cloudflare AI
 * Gateway base drops the `/v1` (type 1) or `/openai/deployments` (type 3) prefix. Headers:
 * `Authorization: Bearer <key>`, Azure's `api-key: <key>` instead, OpenRouter's attribution pair.
 */
export function upstreamTarget(channel: AdaptorChannel, mode: RelayMode, model: string, stream = false): UpstreamTarget | null {
  const { type } = channel;
  if (!isRelayableType(type)) return null;
  const base = channelBaseUrl(channel);
  const key = channel.key ?? '';
  const headers = { Authorization: `Bearer ${key}` };
  const path = openAiPaths[mode];
  const task = path.slice('/v1/'.length);
  switch (type) {
    case 1:
      return { url: isCloudflareGateway(base) ? `${base}/${task}` : `${base}${path}`, headers };
    case 3: {
      const deployment = `/${model.replaceAll('.', '')}/${task}?api-version=${azureApiVersion(channel)}`;
      const prefix = isCloudflareGateway(base) ? base : `${base}/openai/deployments`;
      return { url: `${prefix}${deployment}`, headers: { 'api-key': key } };
    }
    case 14:
      return mode === 'chat' ? { url: `${base}/v1/messages`, headers: { 'x-api-key': key, 'anthropic-version': anthropicVersion } } : null;
    case 15: {
      const url = baiduUrl(base, mode, model);
      // a malformed key or a refused token is refused when the URL is authorized, before anything is sent
      return url === null ? null : { url, headers: {}, authorizedUrl: () => baiduAuthorizedUrl(base, channel.key, url) };
    }
    case 24: {
      const path = geminiPath(mode, model, stream);
      const version = jsonObject(channel.config)?.api_version;
      return path === null ? null : { url: `${base}/${typeof version === 'string' && version !== '' ? version : defaultGeminiVersion}${path}`, headers: { 'x-goog-api-key': key } };
    }
    case 33: {
      if (mode !== 'chat' && mode !== 'embeddings') return null;
      const credential = awsCredentialOf(channel.key, jsonObject(channel.config));
      // without a credential the request is refused when it is signed, before anything is sent
      const url = bedrockUrl(base, credential?.region ?? 'us-east-1', model, stream);
      const accept = stream ? 'application/vnd.amazon.eventstream' : 'application/json';
      return {
        url,
        headers: { Accept: accept },
        sign: (headers, body) => (credential === null ? Promise.reject(new Error(awsCredentialMessage)) : signBedrock(credential, url, headers, body)),
      };
    }
    case 42: {
      const credential = vertexCredentialOf(channel.key, jsonObject(channel.config));
      // without a credential the request is refused when it is signed, before anything is sent
      const url = typeof credential === 'string' ? vertexUrl(base, 'us-central1', '-', mode, model, stream) : vertexUrl(base, credential.region, credential.project, mode, model, stream);
      return url === null ? null : { url, headers: {}, sign: (headers) => signVertex(credential, headers) };
    }
    case 23: {
      if (mode !== 'chat') return null;
      const credential = tencentCredentialOf(channel.key);
      const region = jsonObject(channel.config)?.region;
      const url = `${base}/`;
      return {
        url,
        headers: {},
        sign: (headers, body) =>
          credential === null ? Promise.reject(new Error(tencentCredentialMessage)) : Promise.resolve(signTencent(credential, url, headers, body, typeof region === 'string' ? region : '')),
      };
    }
    case 18:
      // a WebSocket conversation (server/relay/xunfei.ts); the type has no default base URL
      return mode === 'chat' ? sparkTarget(base, channel.key, channel.other, model) : null;
    case 34:
      return mode === 'chat' ? { url: `${base}/v3/chat`, headers: { Authorization: `Bearer ${key}`, Accept: 'text/event-stream' } } : null;
    case 38:
      return mode === 'chat' ? { url: `${base}/v2/translate`, headers: { Authorization: `DeepL-Auth-Key ${key}` } } : null;
    case 46:
      // predictions created, then waited for, polled or streamed (server/relay/replicate.ts)
      return replicateTarget(base, key, mode, model, stream);
    case 16:
    case 17:
    case 30:
    case 35: {
      const path = compatiblePaths.get(type)?.[mode];
      return path === undefined ? null : { url: `${base}${path}`, headers };
    }
    case 37: {
      const path = compatiblePaths.get(type)?.[mode];
      const account = jsonObject(channel.config)?.user_id;
      if (path === undefined || typeof account !== 'string' || account === '') return null;
      return { url: `${base}/client/v4/accounts/${encodeURIComponent(account)}${path}`, headers };
    }
    case 20:
      return {
        url: `${base}${path}`,
        headers: { ...headers, 'HTTP-Referer': 'https://github.com/songquanpeng/one-api', 'X-Title': 'One API' },
      };
    case 27:
    case 41:
    case 47:
      return mode === 'chat' ? { url: `${base}${chatOnlyPaths.get(type) ?? ''}`, headers } : null;
    case 40:
      return mode === 'chat' || mode === 'embeddings' ? { url: `${base}/api/v3/${task}`, headers } : null;
    case 49:
      return mode === 'chat' || mode === 'embeddings' ? { url: `${base}/compatible-mode/v1/${task}`, headers } : null;
    case 50:
    case 51:
      return { url: `${base}/${task}`, headers };
    default:
      return { url: `${base}${path}`, headers };
  }
}
