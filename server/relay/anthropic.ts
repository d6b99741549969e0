import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { RelayMode } from './types';
import { chunkEvent, contentText, imageOf, isObject, nowSeconds, str, tokens, toolArguments, usageEvents, pushTurn, type Json, type NativeWire, type StreamTranslator, type Turn } from './wire';

/**
 * Anthropic's Messages API (channel type 14) as a native wire: OpenAI chat requests become
 * `POST /v1/messages` bodies and the answers (whole, streamed, errors) come back in OpenAI's
 * format, from Anthropic's public API reference:
 * - request: `system` (the OpenAI system and developer messages, joined), `messages` with
 *   alternating user/assistant turns of content blocks (text, image from a data URL or an http(s)
 *   URL, tool_use for assistant tool calls, tool_result for `tool` messages), `max_tokens`
 *   (required: `max_completion_tokens` or `max_tokens`, else `defaultMaxTokens`), `stop_sequences`,
 *   `temperature` (capped at Anthropic's 1), `top_p`, `tools` (`input_schema`), `tool_choice`
 *   (auto / any / none / tool, `disable_parallel_tool_use`), `metadata.user_id`, `stream`;
 * - answer: text blocks joined into `message.content`, tool_use blocks as `tool_calls`,
 *   `stop_reason` as `finish_reason`, `usage` (input tokens, cache reads and writes included, as
 *   prompt tokens);
 * - stream: `message_start`, `content_block_start/delta/stop`, `message_delta`, `message_stop`,
 *   `ping`, `error` events become OpenAI chunks, a usage chunk (no choices) and `[DONE]`;
 * - errors: `{"type":"error","error":{"type","message"}}` becomes OpenAI's `error` object with the
 *   same status (529 overloaded included).
 */

/** The API version every request names (`anthropic-version`). */
export const anthropicVersion = '2023-06-01';

/** `max_tokens` when the OpenAI request names none (Anthropic requires one). */
export const defaultMaxTokens = 4096;


/** OpenAI's finish reason for an Anthropic stop reason. */
export function finishReasonOf(stopReason: unknown): string | null {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return typeof stopReason === 'string' && stopReason !== '' ? 'stop' : null;
  }
}

/** An Anthropic image block for an OpenAI `image_url` part, or a message saying why not. */
function imageBlock(part: Json): Json | string {
  const image = imageOf(part);
  if (image === null) return 'messages: an image_url must be a data URL (base64) or an http(s) URL';
  return 'url' in image ? { type: 'image', source: { type: 'url', url: image.url } } : { type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.data } };
}

/** Anthropic content blocks for an OpenAI user/assistant content, or a message saying what is wrong. */
function blocksOf(content: unknown): Json[] | string {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return 'messages: content must be a string or an array of parts';
  const blocks: Json[] = [];
  for (const part of content) {
    if (!isObject(part)) return 'messages: every content part must be an object';
    if (part.type === 'text') {
      if (str(part.text) !== '') blocks.push({ type: 'text', text: str(part.text) });
    } else if (part.type === 'image_url') {
      const block = imageBlock(part);
      if (typeof block === 'string') return block;
      blocks.push(block);
    } else {
      return `messages: content parts of type ${JSON.stringify(part.type)} are not supported by this channel`;
    }
  }
  return blocks;
}


/** Anthropic's `tool_choice` for OpenAI's `tool_choice` and `parallel_tool_calls`, or undefined. */
function toolChoiceOf(choice: unknown, parallel: unknown): Json | undefined {
  const noParallel = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'auto') return { type: 'auto', ...noParallel };
  if (choice === 'required') return { type: 'any', ...noParallel };
  if (choice === 'none') return { type: 'none' };
  if (isObject(choice) && isObject(choice.function) && str(choice.function.name) !== '') return { type: 'tool', name: str(choice.function.name), ...noParallel };
  return parallel === false ? { type: 'auto', ...noParallel } : undefined;
}

/** Anthropic's request body for an OpenAI chat request, or a message naming what cannot be sent. */
export function anthropicRequest(json: Readonly<Json>, model: string): Json | string {
  const messages = Array.isArray(json.messages) ? (json.messages as unknown[]) : [];
  const system: string[] = [];
  const turns: Turn[] = [];
  for (const message of messages) {
    if (!isObject(message)) return 'messages: every message must be an object';
    const role = str(message.role);
    if (role === 'system' || role === 'developer') {
      const text = contentText(message.content);
      if (text !== '') system.push(text);
    } else if (role === 'user') {
      const blocks = blocksOf(message.content);
      if (typeof blocks === 'string') return blocks;
      pushTurn(turns, 'user', blocks);
    } else if (role === 'assistant') {
      const blocks = blocksOf(message.content);
      if (typeof blocks === 'string') return blocks;
      const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isObject) : [];
      for (const call of calls) {
        const fn = isObject(call.function) ? call.function : {};
        blocks.push({ type: 'tool_use', id: str(call.id), name: str(fn.name), input: toolArguments(fn.arguments) });
      }
      pushTurn(turns, 'assistant', blocks);
    } else if (role === 'tool' || role === 'function') {
      const id = str(message.tool_call_id) !== '' ? str(message.tool_call_id) : str(message.name);
      pushTurn(turns, 'user', [{ type: 'tool_result', tool_use_id: id, content: contentText(message.content) }]);
    } else {
      return `messages: the role ${JSON.stringify(role)} is not supported`;
    }
  }
  if (turns.length === 0) return 'messages: at least one user or assistant message is required';
  const body: Json = { model, messages: turns.map((t) => ({ role: t.role, content: t.items })) };
  if (system.length > 0) body.system = system.join('\n');
  const max = json.max_completion_tokens ?? json.max_tokens;
  body.max_tokens = typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : defaultMaxTokens;
  const stop = typeof json.stop === 'string' ? [json.stop] : Array.isArray(json.stop) ? json.stop.filter((s) => typeof s === 'string' && s !== '') : [];
  if (stop.length > 0) body.stop_sequences = stop;
  if (typeof json.temperature === 'number') body.temperature = Math.min(Math.max(json.temperature, 0), 1);
  if (typeof json.top_p === 'number') body.top_p = json.top_p;
  if (typeof json.top_k === 'number') body.top_k = json.top_k;
  const tools = Array.isArray(json.tools) ? json.tools.filter(isObject) : [];
  if (tools.length > 0) {
    body.tools = tools.map((tool) => {
      const fn = isObject(tool.function) ? tool.function : {};
      const schema = isObject(fn.parameters) ? fn.parameters : { type: 'object', properties: {} };
      return str(fn.description) === '' ? { name: str(fn.name), input_schema: schema } : { name: str(fn.name), description: str(fn.description), input_schema: schema };
    });
    const choice = toolChoiceOf(json.tool_choice, json.parallel_tool_calls);
    if (choice !== undefined) body.tool_choice = choice;
  }
  if (typeof json.user === 'string' && json.user !== '') body.metadata = { user_id: json.user };
  if (json.stream === true) body.stream = true;
  return body;
}

/** Prompt tokens of an Anthropic usage object: input plus cache writes and reads. */
const promptTokensOf = (usage: Json): number => tokens(usage.input_tokens) + tokens(usage.cache_creation_input_tokens) + tokens(usage.cache_read_input_tokens);
const outputTokensOf = (usage: Json): number => tokens(usage.output_tokens);

/** OpenAI's `chat.completion` for an Anthropic message. */
export function openAiCompletionOf(message: Json, model: string): Json {
  const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
  const text = blocks.map((b) => (b.type === 'text' ? str(b.text) : '')).join('');
  const toolCalls = blocks
    .filter((b) => b.type === 'tool_use')
    .map((b) => ({ id: str(b.id), type: 'function', function: { name: str(b.name), arguments: JSON.stringify(isObject(b.input) ? b.input : {}) } }));
  const usage = isObject(message.usage) ? message.usage : {};
  const prompt = promptTokensOf(usage);
  const completion = outputTokensOf(usage);
  const reply: Json = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text };
  if (toolCalls.length > 0) reply.tool_calls = toolCalls;
  return {
    id: str(message.id) === '' ? 'chatcmpl-anthropic' : str(message.id),
    object: 'chat.completion',
    created: nowSeconds(),
    model: str(message.model) === '' ? model : str(message.model),
    choices: [{ index: 0, message: reply, finish_reason: finishReasonOf(message.stop_reason) ?? 'stop' }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/** OpenAI's error object for an Anthropic error body (`{"type":"error","error":{…}}`), or null when `body` is none. */
export function openAiErrorOf(body: unknown): Json | null {
  if (!isObject(body) || !isObject(body.error)) return null;
  const type = str(body.error.type) === '' ? 'upstream_error' : str(body.error.type);
  return { error: { message: str(body.error.message), type, param: '', code: type } };
}

/** The OpenAI JSON text of an Anthropic answer of `status` (errors keep their own text when they are not Anthropic's shape). */
function answerText(status: number, text: string, model: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  const error = openAiErrorOf(body);
  if (error !== null) return JSON.stringify(error);
  if (status !== 200 || !isObject(body) || body.type !== 'message') return text;
  return JSON.stringify(openAiCompletionOf(body, model));
}

/** Translates Anthropic's event stream into OpenAI chunks, event by event. */
class AnthropicStream implements StreamTranslator {
  private out: string[] = [];
  private readonly parser = createParser({ onEvent: (event) => this.onEvent(event) });
  private id = 'chatcmpl-anthropic';
  private model: string;
  private readonly created = nowSeconds();
  private prompt = 0;
  private completion = 0;
  /** Block index -> OpenAI tool call index. */
  private readonly tools = new Map<number, number>();
  private finish: string | null = null;
  private ended = false;
  /**
   * The assistant-role chunk of `message_start`, held back until there is content: an `error`
   * event before any content is then the stream's first event, which the pipeline answers as an
   * ordinary (refunded, retryable) failure instead of a 200 stream that breaks at once.
   */
  private rolePending = false;

  constructor(model: string) {
    this.model = model;
  }

  feed(text: string): string {
    if (text !== '') this.parser.feed(text);
    return this.out.splice(0).join('');
  }

  /** A stream without `message_stop` was cut short: nothing more to add (the pipeline ends it). */
  end(): string {
    return this.out.splice(0).join('');
  }

  private chunk(delta: Json, finishReason: string | null = null): void {
    if (this.rolePending) {
      this.rolePending = false;
      this.chunk({ role: 'assistant', content: '' });
    }
    this.out.push(chunkEvent(this.id, this.created, this.model, delta, finishReason));
  }

  private onEvent(event: EventSourceMessage): void {
    if (this.ended) return;
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      // passed on as it came: the pipeline counts and drops malformed events
      this.out.push(`data: ${event.data.replace(/\n/g, ' ')}\n\n`);
      return;
    }
    if (!isObject(data)) {
      this.out.push(`data: ${event.data.replace(/\n/g, ' ')}\n\n`);
      return;
    }
    switch (data.type) {
      case 'message_start': {
        const message = isObject(data.message) ? data.message : {};
        if (str(message.id) !== '') this.id = str(message.id);
        if (str(message.model) !== '') this.model = str(message.model);
        if (isObject(message.usage)) {
          this.prompt = promptTokensOf(message.usage);
          this.completion = outputTokensOf(message.usage);
        }
        this.rolePending = true;
        return;
      }
      case 'content_block_start': {
        const block = isObject(data.content_block) ? data.content_block : {};
        const index = typeof data.index === 'number' ? data.index : 0;
        if (block.type === 'tool_use') {
          const toolIndex = this.tools.size;
          this.tools.set(index, toolIndex);
          this.chunk({ tool_calls: [{ index: toolIndex, id: str(block.id), type: 'function', function: { name: str(block.name), arguments: '' } }] });
        } else if (block.type === 'text' && str(block.text) !== '') {
          this.chunk({ content: str(block.text) });
        }
        return;
      }
      case 'content_block_delta': {
        const delta = isObject(data.delta) ? data.delta : {};
        const index = typeof data.index === 'number' ? data.index : 0;
        if (delta.type === 'text_delta') this.chunk({ content: str(delta.text) });
        else if (delta.type === 'input_json_delta') {
          const toolIndex = this.tools.get(index);
          if (toolIndex !== undefined) this.chunk({ tool_calls: [{ index: toolIndex, function: { arguments: str(delta.partial_json) } }] });
        }
        return;
      }
      case 'message_delta': {
        const delta = isObject(data.delta) ? data.delta : {};
        if (isObject(data.usage)) {
          const output = outputTokensOf(data.usage);
          if (output > 0) this.completion = output;
          const prompt = promptTokensOf(data.usage);
          if (prompt > 0) this.prompt = prompt;
        }
        this.finish = finishReasonOf(delta.stop_reason) ?? this.finish;
        return;
      }
      case 'message_stop': {
        this.chunk({}, this.finish ?? 'stop');
        this.out.push(usageEvents(this.id, this.created, this.model, this.prompt, this.completion));
        this.ended = true;
        return;
      }
      case 'error': {
        const error = openAiErrorOf(data) ?? { error: { message: 'upstream stream error', type: 'upstream_error', param: '', code: 'upstream_error' } };
        this.out.push(`data: ${JSON.stringify(error)}\n\n`);
        return;
      }
      default:
        // ping, content_block_stop and event types added later carry nothing to pass on
        return;
    }
  }
}

/** Anthropic's Messages API as the relay's native wire of channel type 14. */
export const anthropicWire: NativeWire = {
  modes: new Set<RelayMode>(['chat']),
  requestBody: (_mode, json, model) => {
    const body = anthropicRequest(json, model);
    return typeof body === 'string' ? { invalid: body } : { body: JSON.stringify(body) };
  },
  answerText,
  streamTranslator: (model) => new AnthropicStream(model),
};
