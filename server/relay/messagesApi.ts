import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { RelayError } from './types';
import { isObject, nowSeconds, str, tokens, toolArguments, type Json } from './wire';

/**
 * Anthropic's Messages API served to clients (`POST /v1/messages`: the Anthropic SDKs, Claude
 * Code) from any channel: the request is translated into an OpenAI chat request and relayed as
 * one (channel choice, reservation, billing and logs are the chat pipeline's), and the answer is
 * translated back into a `message`, the Messages event stream, or an Anthropic error. From
 * Anthropic's public API reference: request `system` (string or text blocks), `messages` (text,
 * image (base64 or url), tool_use, tool_result and thinking blocks), `max_tokens`,
 * `stop_sequences`, `temperature`, `top_p`, `tools` (`input_schema`), `tool_choice`, `metadata`,
 * `stream`; errors `{"type":"error","error":{"type","message"}}`.
 */

/** The error type Anthropic names for an HTTP status. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
    case 415:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
    case 503:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** A relay error as Anthropic's error body. */
export const anthropicErrorBody = (error: RelayError, message: string): Json => ({
  type: 'error',
  error: { type: anthropicErrorType(error.status), message },
});

/** OpenAI content parts for Anthropic user content, or a message naming what cannot be sent. */
function userParts(content: unknown): { parts: Json[]; results: Json[] } | string {
  if (typeof content === 'string') return { parts: [{ type: 'text', text: content }], results: [] };
  if (!Array.isArray(content)) return 'messages: content must be a string or an array of content blocks';
  const parts: Json[] = [];
  const results: Json[] = [];
  for (const block of content) {
    if (!isObject(block)) return 'messages: every content block must be an object';
    if (block.type === 'text') parts.push({ type: 'text', text: str(block.text) });
    else if (block.type === 'image') {
      const source = isObject(block.source) ? block.source : {};
      if (source.type === 'base64') parts.push({ type: 'image_url', image_url: { url: `data:${str(source.media_type)};base64,${str(source.data)}` } });
      else if (source.type === 'url') parts.push({ type: 'image_url', image_url: { url: str(source.url) } });
      else return 'messages: an image source must be base64 or url';
    } else if (block.type === 'tool_result') {
      const inner = block.content;
      const text = typeof inner === 'string' ? inner : Array.isArray(inner) ? inner.filter(isObject).map((b) => (b.type === 'text' ? str(b.text) : '')).join('') : '';
      results.push({ role: 'tool', tool_call_id: str(block.tool_use_id), content: block.is_error === true ? `Error: ${text}` : text });
    } else {
      return `messages: content blocks of type ${JSON.stringify(block.type)} are not supported`;
    }
  }
  return { parts, results };
}

/**
 * The optional fields whose type is checked before translating (Anthropic's API refuses a wrong one
 * the same way; silently dropping it would change what the client asked for): the field, whether
 * its value is acceptable, and what it should be.
 */
const optionalFields: ReadonlyArray<readonly [string, (u: unknown) => boolean, string]> = [
  ['stream', (u) => typeof u === 'boolean', 'a valid boolean'],
  ['system', (u) => typeof u === 'string' || (Array.isArray(u) && u.every((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string')), 'a string or a list of text blocks'],
  ['temperature', (u) => typeof u === 'number' && u >= 0 && u <= 1, 'a number from 0 to 1'],
  ['top_p', (u) => typeof u === 'number' && u >= 0 && u <= 1, 'a number from 0 to 1'],
  ['top_k', (u) => typeof u === 'number' && Number.isInteger(u) && u >= 0, 'a whole number of at least 0'],
  ['stop_sequences', (u) => Array.isArray(u) && u.every((s) => typeof s === 'string'), 'a list of strings'],
  ['tools', (u) => Array.isArray(u) && u.every(isObject), 'a list of tool objects'],
  ['tool_choice', isObject, 'an object'],
  ['metadata', isObject, 'an object'],
];

/** The OpenAI chat request for a Messages request, or a message naming what cannot be translated. */
export function openAiRequestOf(body: Readonly<Json>): Json | string {
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  for (const [field, valid, expected] of optionalFields) {
    if (body[field] !== undefined && body[field] !== null && !valid(body[field])) return `${field}: Input should be ${expected}`;
  }
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1) return 'max_tokens: Field required (a whole number of at least 1)';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: Field required (at least one message)';
  const messages: Json[] = [];
  const system = typeof body.system === 'string' ? body.system : Array.isArray(body.system) ? body.system.filter(isObject).map((b) => str(b.text)).join('\n') : '';
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const message of body.messages as unknown[]) {
    if (!isObject(message)) return 'messages: every message must be an object';
    if (message.role === 'user') {
      const translated = userParts(message.content);
      if (typeof translated === 'string') return translated;
      // tool results answer the previous assistant turn: they come first, as OpenAI tool messages
      messages.push(...translated.results);
      if (translated.parts.length > 0) {
        const onlyText = translated.parts.every((p) => p.type === 'text');
        messages.push({ role: 'user', content: onlyText ? translated.parts.map((p) => str(p.text)).join('') : translated.parts });
      }
    } else if (message.role === 'assistant') {
      const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : Array.isArray(message.content) ? message.content.filter(isObject) : [];
      const text = blocks.map((b) => (b.type === 'text' ? str(b.text) : '')).join('');
      const calls = blocks
        .filter((b) => b.type === 'tool_use')
        .map((b) => ({ id: str(b.id), type: 'function', function: { name: str(b.name), arguments: JSON.stringify(isObject(b.input) ? b.input : {}) } }));
      const out: Json = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
      if (calls.length > 0) out.tool_calls = calls;
      messages.push(out);
    } else {
      return `messages: the role ${JSON.stringify(message.role)} is not supported (user or assistant)`;
    }
  }
  const out: Json = { model: body.model, messages, max_tokens: body.max_tokens };
  if (Array.isArray(body.stop_sequences) && body.stop_sequences.length > 0) out.stop = body.stop_sequences;
  if (typeof body.temperature === 'number') out.temperature = body.temperature;
  if (typeof body.top_p === 'number') out.top_p = body.top_p;
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  if (tools.length > 0) {
    const custom = tools.filter((t) => t.type === undefined || t.type === 'custom');
    if (custom.length < tools.length) return 'tools: only client tools (name, description, input_schema) can be relayed';
    out.tools = custom.map((t) => ({
      type: 'function',
      function: { name: str(t.name), ...(str(t.description) === '' ? {} : { description: str(t.description) }), parameters: isObject(t.input_schema) ? t.input_schema : { type: 'object', properties: {} } },
    }));
    const choice = isObject(body.tool_choice) ? body.tool_choice : null;
    if (choice?.type === 'auto') out.tool_choice = 'auto';
    else if (choice?.type === 'any') out.tool_choice = 'required';
    else if (choice?.type === 'none') out.tool_choice = 'none';
    else if (choice?.type === 'tool') out.tool_choice = { type: 'function', function: { name: str(choice.name) } };
    if (choice?.disable_parallel_tool_use === true) out.parallel_tool_calls = false;
  }
  if (isObject(body.metadata) && str(body.metadata.user_id) !== '') out.user = str(body.metadata.user_id);
  if (body.stream === true) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  return out;
}

/** Anthropic's stop reason for an OpenAI finish reason. */
export function stopReasonOf(finish: unknown): string {
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

/** The Messages `message` for an OpenAI chat completion text (other JSON is passed on unchanged). */
export function anthropicMessageText(text: string, model: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (!isObject(body)) return text;
  const choice = Array.isArray(body.choices) ? body.choices.find(isObject) : undefined;
  const message = choice !== undefined && isObject(choice.message) ? choice.message : {};
  const content: Json[] = [];
  if (str(message.content) !== '') content.push({ type: 'text', text: str(message.content) });
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls.filter(isObject) : []) {
    const fn = isObject(call.function) ? call.function : {};
    content.push({ type: 'tool_use', id: str(call.id), name: str(fn.name), input: toolArguments(fn.arguments) });
  }
  const usage = isObject(body.usage) ? body.usage : {};
  return JSON.stringify({
    id: str(body.id) === '' ? `msg_${nowSeconds()}` : str(body.id),
    type: 'message',
    role: 'assistant',
    model: str(body.model) === '' ? model : str(body.model),
    content,
    stop_reason: stopReasonOf(choice?.finish_reason),
    stop_sequence: null,
    usage: { input_tokens: tokens(usage.prompt_tokens), output_tokens: tokens(usage.completion_tokens) },
  });
}

const event = (type: string, data: Json): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Turns OpenAI's chat stream (as the pipeline passes it on, `[DONE]` and error events included)
 * into Anthropic's event stream: `message_start`, one content block per text run or tool call
 * (`content_block_start` / `_delta` / `_stop`), `message_delta` with the stop reason and usage,
 * `message_stop`; an error event becomes `event: error`.
 */
export class MessagesStream {
  private readonly out: string[] = [];
  private readonly parser = createParser({ onEvent: (e) => this.onEvent(e) });
  private started = false;
  private ended = false;
  private block: { readonly index: number; readonly kind: 'text' | 'tool'; readonly tool?: number } | null = null;
  private blocks = 0;
  private stop = 'end_turn';
  private input = 0;
  private output = 0;

  constructor(private readonly model: string) {}

  /** The Anthropic events for the next OpenAI events. */
  translate(openAi: string): string {
    if (openAi !== '') this.parser.feed(openAi);
    return this.out.splice(0).join('');
  }

  private start(id: string, model: string): void {
    if (this.started) return;
    this.started = true;
    const message = { id: id === '' ? `msg_${nowSeconds()}` : id, type: 'message', role: 'assistant', model: model === '' ? this.model : model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } };
    this.out.push(event('message_start', { type: 'message_start', message }));
  }

  private closeBlock(): void {
    if (this.block === null) return;
    this.out.push(event('content_block_stop', { type: 'content_block_stop', index: this.block.index }));
    this.block = null;
  }

  private openBlock(kind: 'text' | 'tool', contentBlock: Json, tool?: number): number {
    this.closeBlock();
    const index = this.blocks;
    this.blocks += 1;
    this.block = tool === undefined ? { index, kind } : { index, kind, tool };
    this.out.push(event('content_block_start', { type: 'content_block_start', index, content_block: contentBlock }));
    return index;
  }

  private onEvent(message: EventSourceMessage): void {
    if (this.ended) return;
    if (message.data === '[DONE]') {
      this.start('', '');
      this.closeBlock();
      this.out.push(event('message_delta', { type: 'message_delta', delta: { stop_reason: this.stop, stop_sequence: null }, usage: { input_tokens: this.input, output_tokens: this.output } }));
      this.out.push(event('message_stop', { type: 'message_stop' }));
      this.ended = true;
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(message.data);
    } catch {
      return;
    }
    if (!isObject(chunk)) return;
    if (isObject(chunk.error)) {
      this.out.push(event('error', { type: 'error', error: { type: 'api_error', message: str(chunk.error.message) } }));
      this.ended = true;
      return;
    }
    this.start(str(chunk.id), str(chunk.model));
    if (isObject(chunk.usage)) {
      this.input = tokens(chunk.usage.prompt_tokens);
      this.output = tokens(chunk.usage.completion_tokens);
    }
    const choice = Array.isArray(chunk.choices) ? chunk.choices.find(isObject) : undefined;
    if (choice === undefined) return;
    const delta = isObject(choice.delta) ? choice.delta : {};
    const text = str(delta.content);
    if (text !== '') {
      const index = this.block?.kind === 'text' ? this.block.index : this.openBlock('text', { type: 'text', text: '' });
      this.out.push(event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
    }
    for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls.filter(isObject) : []) {
      const fn = isObject(call.function) ? call.function : {};
      const toolIndex = typeof call.index === 'number' ? call.index : 0;
      const index =
        this.block?.kind === 'tool' && this.block.tool === toolIndex
          ? this.block.index
          : this.openBlock('tool', { type: 'tool_use', id: str(call.id), name: str(fn.name), input: {} }, toolIndex);
      const args = str(fn.arguments);
      if (args !== '') this.out.push(event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: args } }));
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') this.stop = stopReasonOf(choice.finish_reason);
  }
}
