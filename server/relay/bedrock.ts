import { EventStreamCodec, type Message } from '@smithy/core/event-streams';
import { Hash } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';
import { anthropicRequest, anthropicWire } from './anthropic';
import { bedrockEmbeddingRequest, bedrockEmbeddingsOf, converseCompletionOf, converseRequest, ConverseStream, isBedrockEmbedding } from './bedrockConverse';
import type { RelayMode } from './types';
import { isObject, str, type Json, type NativeWire, type StreamDecoder } from './wire';

/**
 * AWS Bedrock (channel type 33) as a native wire. Claude models go through InvokeModel with
 * Anthropic's body (below); every other chat model through the Converse API, and the Titan and
 * Cohere embedding models through InvokeModel with their own bodies (bedrockConverse.ts). From AWS's public Bedrock
 * Runtime reference and Anthropic's "Claude on Amazon Bedrock" page:
 * - the channel's key is `AK|SK|Region` (the console assembles it from its three fields; a
 *   channel whose key lacks them falls back to its config `ak`, `sk`, `region`);
 * - `POST https://bedrock-runtime.<region>.amazonaws.com/model/<model id>/invoke` (whole answers)
 *   or `/invoke-with-response-stream` (streams), signed with Signature Version 4 (service
 *   `bedrock`) by the `@smithy/signature-v4` library; a channel's base URL replaces the host;
 * - the body is Anthropic's Messages body without `model` and `stream` and with
 *   `anthropic_version: bedrock-2023-05-31`; images go inline only (Bedrock takes no image URLs);
 * - a whole answer is Anthropic's message; a stream is AWS's binary event stream
 *   (`application/vnd.amazon.eventstream`) whose `chunk` events carry Anthropic's stream events as
 *   base64 `bytes`, and whose `exception` messages (throttling, validation, model errors) end it;
 * - errors are `{"message": …}` with the exception's name in `x-amzn-ErrorType`.
 * The answer is then translated as the Anthropic wire does.
 */

/** The `anthropic_version` Bedrock's Claude models take. */
export const bedrockAnthropicVersion = 'bedrock-2023-05-31';

/** Bedrock's model ids for Anthropic's model names (AWS's list of base model ids); other names are sent as they are. */
const bedrockModelIds: ReadonlyMap<string, string> = new Map([
  ['claude-instant-1.2', 'anthropic.claude-instant-v1'],
  ['claude-2.0', 'anthropic.claude-v2'],
  ['claude-2.1', 'anthropic.claude-v2:1'],
  ['claude-3-haiku-20240307', 'anthropic.claude-3-haiku-20240307-v1:0'],
  ['claude-3-sonnet-20240229', 'anthropic.claude-3-sonnet-20240229-v1:0'],
  ['claude-3-opus-20240229', 'anthropic.claude-3-opus-20240229-v1:0'],
  ['claude-3-5-sonnet-20240620', 'anthropic.claude-3-5-sonnet-20240620-v1:0'],
  ['claude-3-5-sonnet-20241022', 'anthropic.claude-3-5-sonnet-20241022-v2:0'],
  ['claude-3-5-sonnet-latest', 'anthropic.claude-3-5-sonnet-20241022-v2:0'],
  ['claude-3-5-haiku-20241022', 'anthropic.claude-3-5-haiku-20241022-v1:0'],
  ['claude-3-7-sonnet-20250219', 'anthropic.claude-3-7-sonnet-20250219-v1:0'],
  ['claude-sonnet-4-20250514', 'anthropic.claude-sonnet-4-20250514-v1:0'],
  ['claude-opus-4-20250514', 'anthropic.claude-opus-4-20250514-v1:0'],
]);

/** The Bedrock model id for `model`: Anthropic's names mapped, ids (and inference profiles) as they are. */
export const bedrockModelId = (model: string): string => bedrockModelIds.get(model) ?? model;

/** Whether Bedrock serves `model` through Anthropic's body (Claude); other chat models go through the Converse API. */
export const isBedrockClaude = (model: string): boolean => bedrockModelId(model).includes('anthropic.');

/** An AWS credential and region. */
export interface AwsCredential {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly region: string;
}

/** The credential of a channel: its key `AK|SK|Region`, else its config's `ak`, `sk`, `region`; null when a part is missing. */
export function awsCredentialOf(key: string | null, config: Readonly<Record<string, unknown>> | null): AwsCredential | null {
  const parts = (key ?? '').split('|').map((p) => p.trim());
  const [ak = '', sk = '', region = ''] = parts.length === 3 ? parts : [str(config?.ak), str(config?.sk), str(config?.region)];
  if (ak === '' || sk === '' || !/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region)) return null;
  return { accessKeyId: ak, secretAccessKey: sk, region };
}

/** The message of a request refused for a channel whose credential is incomplete. */
export const awsCredentialMessage = 'AWS channel key must be AK|SK|Region (access key id, secret access key and a region such as us-east-1)';

/**
 * Bedrock Runtime's URL of `model` on `base` (the region's endpoint unless the channel sets one):
 * InvokeModel for Claude and the embedding models, Converse for the other chat models.
 */
export function bedrockUrl(base: string, region: string, model: string, stream: boolean): string {
  const host = base === '' ? `https://bedrock-runtime.${region}.amazonaws.com` : base;
  const converse = !isBedrockClaude(model) && !isBedrockEmbedding(model);
  const action = converse ? (stream ? 'converse-stream' : 'converse') : stream ? 'invoke-with-response-stream' : 'invoke';
  return `${host}/model/${encodeURIComponent(bedrockModelId(model))}/${action}`;
}

/** SHA-256 with Node's crypto, as the signer takes it. */
class Sha256 extends Hash {
  constructor(secret?: ConstructorParameters<typeof Hash>[1]) {
    super('sha256', secret);
  }
}

/** The headers of a POST of `body` to `url`, signed with SigV4 for Bedrock (`headers` are signed too). */
export async function signBedrock(credential: AwsCredential, url: string, headers: Readonly<Record<string, string>>, body: string, now = new Date()): Promise<Record<string, string>> {
  const target = new URL(url);
  const signer = new SignatureV4({
    service: 'bedrock',
    region: credential.region,
    credentials: { accessKeyId: credential.accessKeyId, secretAccessKey: credential.secretAccessKey },
    sha256: Sha256,
  });
  const query: Record<string, string> = {};
  target.searchParams.forEach((value, name) => (query[name] = value));
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port === '' ? undefined : Number(target.port),
      // the path as sent (the model id's `:` percent-encoded); the signer encodes it again, as AWS's canonical form asks
      path: target.pathname,
      query,
      headers: { ...headers, host: target.host },
      body,
    },
    { signingDate: now },
  );
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) if (name !== 'host') out[name] = String(value);
  return out;
}

/** Bedrock's body for an OpenAI chat request: for Claude Anthropic's, without `model` and `stream`, with Bedrock's `anthropic_version`; for other models Converse's. */
export function bedrockRequest(json: Readonly<Json>, model: string): Json | string {
  if (isBedrockEmbedding(model)) return `model ${model} is an embedding model: send it to /v1/embeddings`;
  if (!isBedrockClaude(model)) return converseRequest(json, model);
  const body = anthropicRequest(json, model);
  if (typeof body === 'string') return body;
  const { model: _model, stream: _stream, ...rest } = body;
  const messages = Array.isArray(rest.messages) ? rest.messages.filter(isObject) : [];
  const remoteImage = messages.some((m) => Array.isArray(m.content) && m.content.some((b) => isObject(b) && isObject(b.source) && b.source.type === 'url'));
  if (remoteImage) return 'messages: this channel (AWS Bedrock) takes images only as data URLs (base64), not http(s) URLs';
  return { anthropic_version: bedrockAnthropicVersion, ...rest };
}

/** The OpenAI error type of a Bedrock exception name, by HTTP status when the name is unknown. */
function errorTypeOf(status: number, name: string): string {
  if (name !== '') return name.replace(/Exception$/, '').replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
  if (status === 429) return 'throttling';
  if (status === 403) return 'access_denied';
  if (status === 400) return 'validation';
  return 'upstream_error';
}

/** The OpenAI JSON text of a Bedrock answer: Anthropic's message or error, or Bedrock's `{"message": …}` error typed by its exception's name. */
function answerText(status: number, text: string, model: string, header?: (name: string) => string | null): string {
  if (status === 200 && isBedrockClaude(model)) return anthropicWire.answerText(status, text, model);
  if (status === 200) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return text;
    }
    if (!isObject(body)) return text;
    return JSON.stringify(bedrockEmbeddingsOf(body, model) ?? converseCompletionOf(body, model));
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (isObject(body) && isObject(body.error)) return anthropicWire.answerText(status, text, model);
  if (!isObject(body) || typeof body.message !== 'string' && typeof body.Message !== 'string') return text;
  const message = str(body.message) !== '' ? str(body.message) : str(body.Message);
  // the exception's name: `x-amzn-ErrorType` (`Name:namespace`), else the body's `__type` (`namespace#Name`)
  const name = (header?.('x-amzn-ErrorType') ?? '').split(':')[0] || (str(body.__type).split('#').at(-1) ?? '');
  const type = errorTypeOf(status, name);
  return JSON.stringify({ error: { message, type, param: '', code: type } });
}

/** The largest frame accepted (AWS's limit is 16 MB; the relay's stream events are bounded the same). */
const maxFrameBytes = 16 * 1024 * 1024;

/** Reads a header of an event-stream message as text. */
const headerText = (message: Message, name: string): string => {
  const header = message.headers[name];
  return header !== undefined && header.type === 'string' ? header.value : '';
};

/** One Anthropic `error` event (as text/event-stream) naming `type` and `message`. */
const errorEvent = (type: string, message: string): string => `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`;

/**
 * AWS's event stream as Anthropic's text/event-stream: each `chunk` event's `bytes` (base64 of
 * one Anthropic stream event) becomes one `data:` event; an `exception` message becomes an
 * `error` event; a frame that fails its checksum or does not decode ends the stream with one.
 */
class BedrockEventStream implements StreamDecoder {
  private readonly codec = new EventStreamCodec(
    (bytes: Uint8Array) => new TextDecoder().decode(bytes),
    (text) => new TextEncoder().encode(text),
  );
  /** Bytes of a frame not yet complete. */
  private pending: Buffer = Buffer.alloc(0);
  private broken = false;

  feed(chunk: Uint8Array): string {
    if (this.broken) return '';
    this.pending = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    const out: string[] = [];
    try {
      // each frame starts with its total length (4 bytes, big-endian); the codec checks the rest
      while (this.pending.length >= 4) {
        const length = this.pending.readUInt32BE(0);
        if (length < 16 || length > maxFrameBytes) throw new Error(`a frame of ${length} bytes`);
        if (this.pending.length < length) break;
        out.push(this.eventOf(this.codec.decode(this.pending.subarray(0, length))));
        this.pending = this.pending.subarray(length);
      }
    } catch (error) {
      this.broken = true;
      out.push(errorEvent('malformed_event_stream', `malformed event stream from AWS Bedrock: ${error instanceof Error ? error.message : String(error)}`));
    }
    return out.join('');
  }

  /** A frame cut short by the end of the stream is dropped (the pipeline reports the stream as cut short). */
  end(): string {
    return '';
  }

  private eventOf(message: Message): string {
    const payload = new TextDecoder().decode(message.body);
    const kind = headerText(message, ':message-type');
    if (kind === 'exception' || kind === 'error') {
      const name = kind === 'exception' ? headerText(message, ':exception-type') : headerText(message, ':error-code');
      let text = headerText(message, ':error-message');
      try {
        const body: unknown = JSON.parse(payload);
        if (isObject(body) && str(body.message) !== '') text = str(body.message);
      } catch {
        // the header's message stands
      }
      return errorEvent(errorTypeOf(0, name), text === '' ? name : text);
    }
    const type = headerText(message, ':event-type');
    // a ConverseStream's events (messageStart, contentBlockDelta, metadata…): `{"<type>": payload}`
    if (type !== 'chunk') return type === '' ? '' : `data: {${JSON.stringify(type)}:${payload === '' ? '{}' : payload.replace(/\n/g, ' ')}}\n\n`;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return `data: ${payload.replace(/\n/g, ' ')}\n\n`;
    }
    const bytes = isObject(body) ? str(body.bytes) : '';
    const event = Buffer.from(bytes, 'base64').toString('utf8');
    return `data: ${event.replace(/\n/g, ' ')}\n\n`;
  }
}

/** AWS Bedrock (Claude through Anthropic's body, other chat models through Converse, Titan and Cohere embeddings) as the relay's native wire of channel type 33. */
export const bedrockWire: NativeWire = {
  modes: new Set<RelayMode>(['chat', 'embeddings']),
  requestBody: (mode, json, model) => {
    if (mode === 'embeddings' && !isBedrockEmbedding(model)) return { invalid: `model ${model} is not an embedding model on AWS Bedrock (Amazon Titan or Cohere Embed)` };
    const body = mode === 'embeddings' ? bedrockEmbeddingRequest(json, model) : bedrockRequest(json, model);
    return typeof body === 'string' ? { invalid: body } : { body: JSON.stringify(body) };
  },
  answerText,
  streamTranslator: (model) => (isBedrockClaude(model) ? anthropicWire.streamTranslator(model) : new ConverseStream(model)),
  streamFraming: { contentType: 'application/vnd.amazon.eventstream', decoder: () => new BedrockEventStream() },
};
