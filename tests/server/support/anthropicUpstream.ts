import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLoopbackServer } from './loopbackServer';

/**
 * A loopback fake of Anthropic's Messages API (`POST /v1/messages`), speaking its documented wire
 * format: `x-api-key` and `anthropic-version` headers, a `message` object answer, the server-sent
 * event grammar (`message_start`, `content_block_start`, `ping`, `content_block_delta` with
 * `text_delta` / `input_json_delta`, `content_block_stop`, `message_delta`, `message_stop`,
 * `error`) and the error shape `{"type":"error","error":{"type","message"}}` with its statuses
 * (529 `overloaded_error` included).
 *
 * The answer is deterministic: `anthropicReply(model)`, streamed as `anthropicPieces(model)`,
 * with `anthropicUsage`. A request whose last message is a user turn asking for a tool (`tools`
 * present and tool_choice not `none`) is answered with a `tool_use` block calling the first tool
 * with `anthropicToolInput`. Faults are chosen per `x-api-key`.
 */

export type AnthropicBehaviour =
  | { readonly kind: 'ok' }
  /** An Anthropic error body with this status. */
  | { readonly kind: 'status'; readonly status: number; readonly type: string; readonly message: string }
  /** Streams `deltas` text deltas, then destroys the connection. */
  | { readonly kind: 'dropMidStream'; readonly deltas: number }
  /** A non-JSON `data:` line between the deltas. */
  | { readonly kind: 'malformedEvent' }
  /** `message_start`, then an `error` event (overloaded) before any content. */
  | { readonly kind: 'errorFirst' }
  /** Two text deltas, then an `error` event, then the connection ends. */
  | { readonly kind: 'errorMidStream' };

export interface AnthropicRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly json: Record<string, unknown>;
}

export interface AnthropicUpstream {
  readonly url: string;
  readonly requests: readonly AnthropicRequest[];
  behave(key: string, behaviour: AnthropicBehaviour): void;
  reset(): void;
  close(): Promise<void>;
}

/** The usage every answer reports: input, cache reads and writes (billed as prompt tokens), output. */
export const anthropicUsage = { input_tokens: 21, cache_creation_input_tokens: 3, cache_read_input_tokens: 4, output_tokens: 11 } as const;
/** Prompt tokens the relay bills for `anthropicUsage`. */
export const anthropicPromptTokens = 21 + 3 + 4;

export const anthropicReply = (model: string): string => `Hello from ${model} over the Messages API.`;
export const anthropicPieces = (model: string): string[] => anthropicReply(model).split(/(?= )/);
export const anthropicToolInput = { city: 'Paris', unit: 'celsius' } as const;
/** How the tool input is streamed (`input_json_delta` pieces). */
const toolInputPieces = ['{"city": "Pa', 'ris", "unit"', ': "celsius"}'];

const sse = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

function wantsTool(json: Record<string, unknown>): string | null {
  const tools = Array.isArray(json.tools) ? (json.tools as { name?: unknown }[]) : [];
  const choice = json.tool_choice as { type?: unknown } | undefined;
  const messages = Array.isArray(json.messages) ? (json.messages as { role?: unknown; content?: unknown }[]) : [];
  const last = messages.at(-1);
  const lastIsResult = Array.isArray(last?.content) && (last.content as { type?: unknown }[]).some((b) => b.type === 'tool_result');
  if (tools.length === 0 || choice?.type === 'none' || lastIsResult) return null;
  return typeof tools[0]?.name === 'string' ? tools[0].name : null;
}

/** The whole answer (`message` object) to a request. */
export function anthropicMessage(json: Record<string, unknown>, id: string): Record<string, unknown> {
  const model = String(json.model);
  const tool = wantsTool(json);
  const content = tool === null ? [{ type: 'text', text: anthropicReply(model) }] : [{ type: 'text', text: 'Let me check.' }, { type: 'tool_use', id: 'toolu_01', name: tool, input: anthropicToolInput }];
  return { id, type: 'message', role: 'assistant', model, content, stop_reason: tool === null ? 'end_turn' : 'tool_use', stop_sequence: null, usage: anthropicUsage };
}

/** One step of a streamed answer: an event, a malformed event, or the connection dropped. */
export type AnthropicStreamStep =
  | { readonly kind: 'event'; readonly type: string; readonly data: Record<string, unknown> }
  | { readonly kind: 'malformed'; readonly type: string }
  | { readonly kind: 'drop' };

/**
 * The streamed answer to a request, step by step, with `behaviour`'s fault (the other fakes that
 * carry Anthropic's events, such as Bedrock's, frame the same steps their own way).
 */
export async function* anthropicStream(json: Record<string, unknown>, id: string, behaviour: AnthropicBehaviour): AsyncGenerator<AnthropicStreamStep> {
  const model = String(json.model);
  const tool = wantsTool(json);
  const event = (type: string, data: Record<string, unknown>): AnthropicStreamStep => ({ kind: 'event', type, data: { type, ...data } });
  const startUsage = { input_tokens: anthropicUsage.input_tokens, cache_creation_input_tokens: 3, cache_read_input_tokens: 4, output_tokens: 1 };
  yield event('message_start', { message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: startUsage } });
  if (behaviour.kind === 'errorFirst') {
    yield event('error', { error: { type: 'overloaded_error', message: 'Overloaded' } });
    return;
  }
  yield event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  yield event('ping', {});
  const pieces = tool === null ? anthropicPieces(model) : ['Let me check.'];
  for (const [i, text] of pieces.entries()) {
    // faults mid-stream come after the first events were delivered, as they do over a network
    if (behaviour.kind === 'dropMidStream' || behaviour.kind === 'errorMidStream') await new Promise((resolve) => setTimeout(resolve, 10));
    if (behaviour.kind === 'dropMidStream' && i === behaviour.deltas) {
      yield { kind: 'drop' };
      return;
    }
    if (behaviour.kind === 'errorMidStream' && i === 2) {
      yield event('error', { error: { type: 'api_error', message: 'Internal server error' } });
      return;
    }
    if (behaviour.kind === 'malformedEvent' && i === 1) yield { kind: 'malformed', type: 'content_block_delta' };
    yield event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
  }
  yield event('content_block_stop', { index: 0 });
  if (tool !== null) {
    yield event('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_01', name: tool, input: {} } });
    for (const partial_json of toolInputPieces) yield event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json } });
    yield event('content_block_stop', { index: 1 });
  }
  yield event('message_delta', { delta: { stop_reason: tool === null ? 'end_turn' : 'tool_use', stop_sequence: null }, usage: { output_tokens: anthropicUsage.output_tokens } });
  yield event('message_stop', {});
}

export async function startAnthropicUpstream(): Promise<AnthropicUpstream> {
  const behaviours = new Map<string, AnthropicBehaviour>();
  const requests: AnthropicRequest[] = [];

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const fail = (status: number, type: string, message: string) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'request-id': 'req_fake' });
      res.end(JSON.stringify({ type: 'error', error: { type, message } }));
    };
    if (req.method !== 'POST' || req.url !== '/v1/messages') return fail(404, 'not_found_error', `Not found: ${req.url}`);
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return fail(400, 'invalid_request_error', 'There was an error parsing the body.');
    }
    requests.push({ path: req.url, headers: req.headers, json });
    const key = String(req.headers['x-api-key'] ?? '');
    if (key === '') return fail(401, 'authentication_error', 'x-api-key header is required');
    if (req.headers['anthropic-version'] === undefined) return fail(400, 'invalid_request_error', 'anthropic-version: header is required');
    if (typeof json.max_tokens !== 'number') return fail(400, 'invalid_request_error', 'max_tokens: Field required');
    const behaviour = behaviours.get(key) ?? { kind: 'ok' };
    if (behaviour.kind === 'status') return fail(behaviour.status, behaviour.type, behaviour.message);
    const id = `msg_${requests.length}`;
    if (json.stream !== true) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(anthropicMessage(json, id)));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' });
    for await (const step of anthropicStream(json, id, behaviour)) {
      if (step.kind === 'drop') {
        res.destroy();
        return;
      }
      res.write(step.kind === 'malformed' ? `event: ${step.type}\ndata: {not json\n\n` : sse(step.type, step.data));
    }
    res.end();
  };

  const server = await startLoopbackServer(answer);
  return {
    url: server.url,
    requests,
    behave: (key, behaviour) => behaviours.set(key, behaviour),
    reset: () => {
      behaviours.clear();
      requests.length = 0;
    },
    close: () => server.close(),
  };
}
