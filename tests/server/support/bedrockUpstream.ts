import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { Hash } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';
import { anthropicMessage, anthropicStream, type AnthropicBehaviour } from './anthropicUpstream';
import { startLoopbackServer } from './loopbackServer';

/**
 * A loopback fake of AWS Bedrock Runtime's InvokeModel (`POST /model/<model id>/invoke`) and
 * InvokeModelWithResponseStream (`/invoke-with-response-stream`) for Anthropic's Claude models,
 * speaking AWS's documented wire format:
 * - every request must carry a Signature Version 4 `Authorization` (service `bedrock`) made with
 *   a known access key; the fake signs the request it received again with that key's secret and
 *   refuses a mismatch (403 `InvalidSignatureException`), an unknown key (403
 *   `UnrecognizedClientException`) or a body that is not Bedrock's Anthropic body (400
 *   `ValidationException`: `anthropic_version` must be `bedrock-2023-05-31`, no `model`);
 * - errors are `{"message": …}` with the exception's name in `x-amzn-ErrorType`;
 * - a whole answer is Anthropic's `message`; a stream is `application/vnd.amazon.eventstream`:
 *   binary frames (prelude, headers, payload, CRCs) with `:event-type: chunk` whose payload is
 *   `{"bytes": base64 of one Anthropic stream event}`, and a fault mid-stream is an `exception`
 *   frame (`:exception-type`), a dropped connection or a frame whose checksum is wrong.
 * The answers and faults are the Anthropic fake's (anthropicUpstream.ts), chosen per access key.
 *
 * Other models: Converse (`/model/<id>/converse`) and ConverseStream (`/converse-stream`: event
 * frames named `messageStart`, `contentBlockStart` (tool use), `contentBlockDelta`,
 * `contentBlockStop`, `messageStop`, `metadata` with the usage), refusing a body without
 * `messages` or with Anthropic's fields; and the embedding models by InvokeModel: Amazon Titan
 * (`{inputText}` → `{embedding, inputTextTokenCount}`) and Cohere Embed (`{texts, input_type}` →
 * `{embeddings}`). Faults apply to Converse as to Claude: errors, an exception or corrupt frame
 * after two deltas, a dropped connection, a malformed payload.
 */

/** The usage every Converse answer reports. */
export const converseUsage = { inputTokens: 17, outputTokens: 6, totalTokens: 23 } as const;
export const converseReply = (modelId: string): string => `Converse answer from ${modelId}.`;
export const conversePieces = (modelId: string): string[] => converseReply(modelId).split(/(?= )/);
export const converseToolInput = { city: 'Lyon' } as const;
/** Titan's vector and token count. */
export const titanVector = [0.25, -0.5, 0.125];
export const titanTokens = 7;

export type BedrockBehaviour =
  | AnthropicBehaviour
  /** An AWS error with this status, exception name and message. */
  | { readonly kind: 'awsError'; readonly status: number; readonly exception: string; readonly message: string }
  /** Two deltas, then an exception frame (`modelStreamErrorException`). */
  | { readonly kind: 'exceptionMidStream' }
  /** Two deltas, then a frame whose CRC is wrong. */
  | { readonly kind: 'corruptFrame' };

export interface BedrockRequest {
  readonly path: string;
  readonly modelId: string;
  readonly stream: boolean;
  readonly headers: IncomingMessage['headers'];
  readonly json: Record<string, unknown>;
}

export interface BedrockUpstream {
  readonly url: string;
  readonly requests: readonly BedrockRequest[];
  /** Accepts `accessKeyId` signed with `secret`, behaving as told. */
  account(accessKeyId: string, secret: string, behaviour?: BedrockBehaviour): void;
  reset(): void;
  close(): Promise<void>;
}

class Sha256 extends Hash {
  constructor(secret?: ConstructorParameters<typeof Hash>[1]) {
    super('sha256', secret);
  }
}

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

const frame = (headers: Record<string, string>, payload: unknown): Uint8Array =>
  codec.encode({
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { type: 'string', value }])),
    body: new TextEncoder().encode(JSON.stringify(payload)),
  });

/** One `chunk` event carrying an Anthropic stream event. */
const chunkFrame = (event: Record<string, unknown>): Uint8Array =>
  frame({ ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' }, { bytes: Buffer.from(JSON.stringify(event)).toString('base64') });

/** The credential scope's parts of an Authorization header: access key id, date, region, service. */
function scopeOf(authorization: string): { key: string; region: string; service: string } | null {
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(authorization);
  return match === null ? null : { key: match[1] ?? '', region: match[3] ?? '', service: match[4] ?? '' };
}

/** AWS's `YYYYMMDDTHHMMSSZ` as a Date. */
const amzDate = (text: string): Date => new Date(text.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));

type Fail = (status: number, exception: string, message: string) => void;

const eventFrame = (type: string, payload: unknown): Uint8Array => frame({ ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' }, payload);

/** A Converse or ConverseStream answer (a tool use when tools are configured and the choice is not auto). */
async function answerConverse(res: ServerResponse, modelId: string, json: Record<string, unknown>, stream: boolean, behaviour: BedrockBehaviour, fail: Fail): Promise<void> {
  if (!Array.isArray(json.messages) || json.messages.length === 0) return fail(400, 'ValidationException', 'The model returned the following errors: messages is required');
  if ('anthropic_version' in json || 'max_tokens' in json || 'model' in json) return fail(400, 'ValidationException', 'Malformed input request: extraneous key is not permitted');
  if (behaviour.kind === 'awsError') return fail(behaviour.status, behaviour.exception, behaviour.message);
  if (behaviour.kind === 'status') return fail(behaviour.status, behaviour.type, behaviour.message);
  const toolConfig = json.toolConfig as { tools?: { toolSpec?: { name?: string } }[]; toolChoice?: Record<string, unknown> } | undefined;
  const tool = toolConfig?.toolChoice !== undefined && !('auto' in toolConfig.toolChoice) ? (toolConfig.tools?.[0]?.toolSpec?.name ?? '') : null;
  if (!stream) {
    const content = tool === null ? [{ text: converseReply(modelId) }] : [{ toolUse: { toolUseId: 'tooluse_1', name: tool, input: converseToolInput } }];
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ output: { message: { role: 'assistant', content } }, stopReason: tool === null ? 'end_turn' : 'tool_use', usage: converseUsage, metrics: { latencyMs: 120 } }));
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/vnd.amazon.eventstream' });
  res.write(eventFrame('messageStart', { role: 'assistant' }));
  if (tool !== null) {
    res.write(eventFrame('contentBlockStart', { start: { toolUse: { toolUseId: 'tooluse_1', name: tool } }, contentBlockIndex: 0 }));
    for (const input of ['{"city": ', '"Lyon"}']) res.write(eventFrame('contentBlockDelta', { delta: { toolUse: { input } }, contentBlockIndex: 0 }));
  } else {
    let deltas = 0;
    for (const text of conversePieces(modelId)) {
      deltas += 1;
      if (deltas === 3) {
        if (behaviour.kind === 'exceptionMidStream') {
          res.end(frame({ ':exception-type': 'modelStreamErrorException', ':content-type': 'application/json', ':message-type': 'exception' }, { message: 'The model stream failed.', originalStatusCode: 500 }));
          return;
        }
        if (behaviour.kind === 'corruptFrame') {
          const bad = eventFrame('contentBlockDelta', { delta: { text }, contentBlockIndex: 0 });
          bad[bad.length - 1] = (bad[bad.length - 1] ?? 0) ^ 0xff;
          res.end(bad);
          return;
        }
        if (behaviour.kind === 'dropMidStream') {
          res.destroy();
          return;
        }
      }
      res.write(eventFrame('contentBlockDelta', { delta: { text }, contentBlockIndex: 0 }));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  res.write(eventFrame('contentBlockStop', { contentBlockIndex: 0 }));
  res.write(eventFrame('messageStop', { stopReason: tool === null ? 'end_turn' : 'tool_use' }));
  res.end(eventFrame('metadata', { usage: converseUsage, metrics: { latencyMs: 120 } }));
}

/** An embedding model's InvokeModel answer: Titan (one text) or Cohere Embed (many). */
function answerEmbedding(res: ServerResponse, modelId: string, json: Record<string, unknown>, behaviour: BedrockBehaviour, fail: Fail): void {
  if (behaviour.kind === 'awsError') return fail(behaviour.status, behaviour.exception, behaviour.message);
  let answer: Record<string, unknown>;
  if (modelId.startsWith('cohere.')) {
    if (!Array.isArray(json.texts) || typeof json.input_type !== 'string') return fail(400, 'ValidationException', 'Malformed input request: #: required key [texts] not found');
    answer = { id: 'emb-1', texts: json.texts, embeddings: json.texts.map((_, i) => [i, 0.5]), response_type: 'embeddings_floats' };
  } else {
    if (typeof json.inputText !== 'string') return fail(400, 'ValidationException', 'Malformed input request: #: required key [inputText] not found');
    answer = { embedding: titanVector, inputTextTokenCount: titanTokens };
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(answer));
}

export async function startBedrockUpstream(): Promise<BedrockUpstream> {
  const accounts = new Map<string, { secret: string; behaviour: BedrockBehaviour }>();
  const requests: BedrockRequest[] = [];

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const fail = (status: number, exception: string, message: string) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': `${exception}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-RequestId': 'fake-request' });
      res.end(JSON.stringify({ message }));
    };
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream)$/.exec(url.pathname);
    if (req.method !== 'POST' || route === null) return fail(404, 'UnknownOperationException', 'Unknown operation');
    const modelId = decodeURIComponent(route[1] ?? '');
    const stream = route[2] === 'invoke-with-response-stream' || route[2] === 'converse-stream';
    const converse = route[2] === 'converse' || route[2] === 'converse-stream';

    // Signature Version 4: recompute the signature of what arrived with the account's secret.
    const authorization = String(req.headers.authorization ?? '');
    const scope = scopeOf(authorization);
    if (scope === null || req.headers['x-amz-date'] === undefined) return fail(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
    const account = accounts.get(scope.key);
    if (account === undefined) return fail(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
    const signedNames = (/SignedHeaders=([^,]+)/.exec(authorization)?.[1] ?? '').split(';');
    const signedHeaders: Record<string, string> = {};
    for (const name of signedNames) signedHeaders[name] = String(req.headers[name] ?? '');
    const signer = new SignatureV4({ service: scope.service, region: scope.region, credentials: { accessKeyId: scope.key, secretAccessKey: account.secret }, sha256: Sha256 });
    const again = await signer.sign(
      { method: 'POST', protocol: 'http:', hostname: '127.0.0.1', path: url.pathname, query: {}, headers: signedHeaders, body: raw },
      { signingDate: amzDate(String(req.headers['x-amz-date'])) },
    );
    if (again.headers.authorization !== authorization || scope.service !== 'bedrock') {
      return fail(403, 'InvalidSignatureException', 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.');
    }

    let json: Record<string, unknown>;
    try {
      json = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return fail(400, 'ValidationException', 'Malformed input request, please reformat your input and try again.');
    }
    requests.push({ path: url.pathname, modelId, stream, headers: req.headers, json });
    if (converse) return answerConverse(res, modelId, json, stream, account.behaviour, fail);
    if (/^(amazon\.titan-embed|cohere\.embed)/.test(modelId)) return answerEmbedding(res, modelId, json, account.behaviour, fail);
    if (json.anthropic_version !== 'bedrock-2023-05-31') return fail(400, 'ValidationException', 'Malformed input request: #: required key [anthropic_version] not found');
    if ('model' in json || 'stream' in json) return fail(400, 'ValidationException', 'Malformed input request: #: extraneous key [model] is not permitted');
    if (typeof json.max_tokens !== 'number') return fail(400, 'ValidationException', 'Malformed input request: #: required key [max_tokens] not found');
    const behaviour = account.behaviour;
    if (behaviour.kind === 'awsError') return fail(behaviour.status, behaviour.exception, behaviour.message);
    if (behaviour.kind === 'status') return fail(behaviour.status, behaviour.type, behaviour.message);
    const request = { ...json, model: modelId };
    const id = `msg_bdrk_${requests.length}`;

    if (!stream) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Amzn-Bedrock-Input-Token-Count': '28' });
      res.end(JSON.stringify(anthropicMessage(request, id)));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/vnd.amazon.eventstream', 'X-Amzn-Bedrock-Content-Type': 'application/json' });
    const anthropicFault = behaviour.kind === 'exceptionMidStream' || behaviour.kind === 'corruptFrame' ? { kind: 'ok' as const } : behaviour;
    let deltas = 0;
    for await (const step of anthropicStream(request, id, anthropicFault)) {
      if (step.kind === 'drop') {
        res.destroy();
        return;
      }
      if (step.kind === 'malformed') {
        // a chunk whose bytes are not JSON
        res.write(frame({ ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' }, { bytes: Buffer.from('{not json').toString('base64') }));
        continue;
      }
      if (step.type === 'content_block_delta' && ++deltas === 3) {
        if (behaviour.kind === 'exceptionMidStream') {
          res.end(frame({ ':exception-type': 'modelStreamErrorException', ':content-type': 'application/json', ':message-type': 'exception' }, { message: 'The model stream failed.', originalStatusCode: 500 }));
          return;
        }
        if (behaviour.kind === 'corruptFrame') {
          const bad = chunkFrame(step.data);
          bad[bad.length - 1] = (bad[bad.length - 1] ?? 0) ^ 0xff;
          res.end(bad);
          return;
        }
      }
      // Bedrock adds its invocation metrics to the last event
      const data = step.type === 'message_stop' ? { ...step.data, 'amazon-bedrock-invocationMetrics': { inputTokenCount: 28, outputTokenCount: 11, invocationLatency: 100, firstByteLatency: 20 } } : step.data;
      res.write(chunkFrame(data));
    }
    res.end();
  };

  const server = await startLoopbackServer(answer);
  return {
    url: server.url,
    requests,
    account: (accessKeyId, secret, behaviour = { kind: 'ok' }) => accounts.set(accessKeyId, { secret, behaviour }),
    reset: () => {
      requests.length = 0;
    },
    close: () => server.close(),
  };
}
