import type { ChannelRow, TokenRow, UserRow } from '../db/schema';

/**
 * The shared vocabulary of the relay (/v1, contract §4): what the auth step hands to the
 * pipeline, which channel columns the pipeline reads, and the error every step can end in.
 * Modules: auth (token rules §4.2), select (channel choice §4.3, §4.8), adaptor (URLs and
 * headers per channel type §3.6), request (body rewriting §4.4), tokenCount (§4.13), billing
 * (quota §4.6), pipeline (attempts, upstream call, streaming), routes (the /v1 app).
 */

/** What a relayed request asks for; decides the upstream path and how tokens are counted. */
export type RelayMode = 'chat' | 'completions' | 'embeddings' | 'moderations' | 'images' | 'edits' | MediaMode;

/** Audio and image-edit modes: relayed by server/relay/audio.ts (not the text pipeline); the last two take multipart forms. */
export type MediaMode = 'speech' | 'transcriptions' | 'translations' | 'image_edits';

/** An OpenAI-style error answer (never the /api envelope). `param`/`code` absent = omitted from JSON. */
export interface RelayError {
  readonly status: number;
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly param?: string;
    readonly code?: unknown;
  };
}

/** The authenticated caller of a relay request (after contract §4.2). */
export interface RelayCaller {
  readonly token: TokenRow;
  readonly user: UserRow;
  /** The user's group (channel selection and group ratio). */
  readonly group: string;
  /** `sk-<key>-<channelId>`: the pinned channel id (admins only), else null. */
  readonly pinnedChannelId: number | null;
}

/** The channel columns the relay reads. */
export type RelayChannel = Pick<
  ChannelRow,
  'id' | 'type' | 'key' | 'name' | 'status' | 'base_url' | 'other' | 'config' | 'models' | 'model_mapping' | 'system_prompt' | 'priority' | 'weight'
>;

/** The columns `RelayChannel` selects. */
export const relayChannelColumns = [
  'id',
  'type',
  'key',
  'name',
  'status',
  'base_url',
  'other',
  'config',
  'models',
  'model_mapping',
  'system_prompt',
  'priority',
  'weight',
] as const;

/** Token counts of one answered request. */
export interface Usage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** Builds a relay error in one-api's shape (`type` defaults to `one_api_error`). */
export const relayError = (status: number, message: string, code?: string, type = 'one_api_error'): RelayError => ({
  status,
  error: code === undefined ? { message, type } : { message, type, param: '', code },
});

/** The request body as the auth step read it: the raw text (forwarded byte-for-byte when possible) and its JSON. */
export interface RelayBody {
  readonly raw: string;
  /** The parsed JSON object, or null when the body is empty / not a JSON object. */
  readonly json: Readonly<Record<string, unknown>> | null;
  /** The requested model (body `model`, else the route's default, contract §4.2 "Model defaults"). */
  readonly model: string;
  /**
   * Why the body could not be decoded, for routes whose auth step lets such a body through
   * (embeddings, moderations): the relay answers it as an invalid request before anything else.
   */
  readonly decodeError?: string;
  /** A multipart request's form (server/relay/multipart.ts); `json` then holds its text fields. */
  readonly form?: FormData;
}

/** How the relay answers its client: OpenAI's format (every /v1 route but one) or Anthropic's Messages API (`/v1/messages`). */
export type RelayFormat = 'openai' | 'anthropic';

/** Hono variables of a relay request after the auth middleware. */
export interface RelayVariables {
  readonly caller: RelayCaller;
  readonly relayBody: RelayBody;
  /** Set by routes that answer in another format than OpenAI's (errors included). */
  readonly relayFormat?: RelayFormat;
}

/** The CORS headers of every relay answer but preflights (one-api's: any origin, with credentials). */
export const relayCorsHeaders: Readonly<Record<string, string>> = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Credentials': 'true' };
