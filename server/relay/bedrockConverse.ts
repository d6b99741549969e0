import type { EventSourceMessage } from 'eventsource-parser';
import { anthropicRequest } from './anthropic';
import { isObject, nowSeconds, str, tokens, usageEvents, type Json, EventTranslator } from './wire';

/**
 * AWS Bedrock's Converse API (channel type 33, every model that is not Claude: Meta Llama, Mistral,
 * Amazon Nova, Cohere Command…) and its embedding models, from AWS's public Bedrock Runtime
 * reference ("Converse", "ConverseStream", the Titan and Cohere embedding request bodies):
 * - request `POST /model/<id>/converse` (`/converse-stream` for streams): `messages` of
 *   `{role, content: [{text} | {image: {format, source: {bytes}}} | {toolUse} | {toolResult}]}`,
 *   `system: [{text}]`, `inferenceConfig` (`maxTokens`, `temperature`, `topP`, `stopSequences`),
 *   `toolConfig` (`tools: [{toolSpec: {name, description, inputSchema: {json}}}]`, `toolChoice`);
 * - answer `{output: {message}, stopReason, usage: {inputTokens, outputTokens}}`;
 * - stream: AWS's binary event stream whose events are named by `:event-type` (`messageStart`,
 *   `contentBlockStart`, `contentBlockDelta`, `contentBlockStop`, `messageStop`, `metadata` with
 *   the usage); bedrock.ts decodes the frames into `data: {"<event type>": <payload>}` events;
 * - embeddings by InvokeModel: Amazon Titan (`{inputText}` → `{embedding, inputTextTokenCount}`,
 *   one text per request) and Cohere Embed (`{texts, input_type}` → `{embeddings}`).
 * The OpenAI request is first normalised by the Anthropic translation (roles merged into
 * alternating turns, tool results as user turns, system messages joined) and then reshaped.
 */

/** Converse's image formats (the subtype of the data URL's media type). */
const imageFormats: ReadonlySet<string> = new Set(['png', 'jpeg', 'gif', 'webp']);

/** A Converse content block for an Anthropic content block, or a message naming what cannot be sent. */
function converseBlock(block: Json): Json | string {
  switch (block.type) {
    case 'text':
      return { text: str(block.text) };
    case 'image': {
      const source = isObject(block.source) ? block.source : {};
      if (source.type !== 'base64') return 'messages: this channel (AWS Bedrock) takes images only as data URLs (base64), not http(s) URLs';
      const format = str(source.media_type).replace(/^image\//, '').replace('jpg', 'jpeg');
      if (!imageFormats.has(format)) return `messages: AWS Bedrock takes png, jpeg, gif or webp images, not ${str(source.media_type)}`;
      return { image: { format, source: { bytes: str(source.data) } } };
    }
    case 'tool_use':
      return { toolUse: { toolUseId: str(block.id), name: str(block.name), input: isObject(block.input) ? block.input : {} } };
    case 'tool_result':
      return { toolResult: { toolUseId: str(block.tool_use_id), content: [{ text: str(block.content) }] } };
    default:
      return `messages: content of type ${JSON.stringify(block.type)} cannot be sent to AWS Bedrock`;
  }
}

/** Converse's `toolChoice` for Anthropic's `tool_choice` (none is expressed by sending no tools). */
function toolChoiceOf(choice: unknown): Json | undefined {
  if (!isObject(choice)) return undefined;
  if (choice.type === 'auto') return { auto: {} };
  if (choice.type === 'any') return { any: {} };
  if (choice.type === 'tool') return { tool: { name: str(choice.name) } };
  return undefined;
}

/** The Converse body for an OpenAI chat request, or a message naming what cannot be sent. */
export function converseRequest(json: Readonly<Json>, model: string): Json | string {
  const anthropic = anthropicRequest(json, model);
  if (typeof anthropic === 'string') return anthropic;
  const messages: Json[] = [];
  for (const turn of Array.isArray(anthropic.messages) ? anthropic.messages.filter(isObject) : []) {
    const content: Json[] = [];
    for (const block of Array.isArray(turn.content) ? turn.content.filter(isObject) : []) {
      const converted = converseBlock(block);
      if (typeof converted === 'string') return converted;
      content.push(converted);
    }
    messages.push({ role: str(turn.role), content });
  }
  const body: Json = { messages };
  if (str(anthropic.system) !== '') body.system = [{ text: str(anthropic.system) }];
  const inference: Json = { maxTokens: anthropic.max_tokens };
  if (typeof anthropic.temperature === 'number') inference.temperature = anthropic.temperature;
  if (typeof anthropic.top_p === 'number') inference.topP = anthropic.top_p;
  if (Array.isArray(anthropic.stop_sequences)) inference.stopSequences = anthropic.stop_sequences;
  body.inferenceConfig = inference;
  const tools = Array.isArray(anthropic.tools) ? anthropic.tools.filter(isObject) : [];
  const choice = isObject(anthropic.tool_choice) ? anthropic.tool_choice : null;
  if (tools.length > 0 && choice?.type !== 'none') {
    const config: Json = {
      tools: tools.map((t) => ({ toolSpec: { name: str(t.name), ...(str(t.description) === '' ? {} : { description: str(t.description) }), inputSchema: { json: t.input_schema } } })),
    };
    const converseChoice = toolChoiceOf(choice);
    if (converseChoice !== undefined) config.toolChoice = converseChoice;
    body.toolConfig = config;
  }
  return body;
}

/** OpenAI's finish reason for a Converse stop reason. */
export function converseFinishReason(stopReason: unknown): string | null {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'content_filtered':
    case 'guardrail_intervened':
      return 'content_filter';
    default:
      return typeof stopReason === 'string' && stopReason !== '' ? 'stop' : null;
  }
}

/** OpenAI's `chat.completion` for a Converse answer. */
export function converseCompletionOf(body: Json, model: string): Json {
  const output = isObject(body.output) ? body.output : {};
  const message = isObject(output.message) ? output.message : {};
  const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
  const text = blocks.map((b) => str(b.text)).join('');
  const calls = blocks
    .filter((b) => isObject(b.toolUse))
    .map((b) => {
      const use = b.toolUse as Json;
      return { id: str(use.toolUseId), type: 'function', function: { name: str(use.name), arguments: JSON.stringify(isObject(use.input) ? use.input : {}) } };
    });
  const answer: Json = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
  if (calls.length > 0) answer.tool_calls = calls;
  const usage = isObject(body.usage) ? body.usage : {};
  const prompt = tokens(usage.inputTokens);
  const completion = tokens(usage.outputTokens);
  return {
    id: `chatcmpl-bedrock-${Date.now()}`,
    object: 'chat.completion',
    created: nowSeconds(),
    model,
    choices: [{ index: 0, message: answer, finish_reason: converseFinishReason(body.stopReason) ?? 'stop' }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/** Whether `model` is one of Bedrock's embedding models (Amazon Titan or Cohere Embed). */
export const isBedrockEmbedding = (model: string): boolean => /^(amazon\.titan-embed|cohere\.embed)/.test(model);

/** The InvokeModel body of an embedding model for an OpenAI embeddings request, or a message naming what cannot be sent. */
export function bedrockEmbeddingRequest(json: Readonly<Json>, model: string): Json | string {
  const input = json.input;
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((i) => typeof i === 'string') ? (input) : null;
  if (texts === null || texts.length === 0) return 'input: AWS Bedrock embeds a string or an array of strings';
  if (model.startsWith('cohere.')) return { texts, input_type: 'search_document' };
  if (texts.length > 1) return `input: ${model} embeds one text per request (send a string, or an array of one)`;
  const dimensions = typeof json.dimensions === 'number' && model.includes('-v2') ? { dimensions: json.dimensions } : {};
  return { inputText: texts[0], ...dimensions };
}

/** OpenAI's embeddings list for a Titan or Cohere answer, or null when the body is neither. */
export function bedrockEmbeddingsOf(body: Json, model: string): Json | null {
  if (Array.isArray(body.embedding)) {
    const prompt = tokens(body.inputTextTokenCount);
    return { object: 'list', data: [{ object: 'embedding', index: 0, embedding: body.embedding }], model, usage: { prompt_tokens: prompt, total_tokens: prompt } };
  }
  if (Array.isArray(body.embeddings) && body.embeddings.every(Array.isArray)) {
    // Cohere reports no token counts: the relay bills the counted input
    return { object: 'list', data: body.embeddings.map((embedding, index) => ({ object: 'embedding', index, embedding })), model };
  }
  return null;
}

/**
 * Translates a ConverseStream, as bedrock.ts decodes it (`data: {"<event type>": <payload>}`,
 * exceptions as Anthropic-style `error` events), into OpenAI chunks, the usage chunk and `[DONE]`.
 */
export class ConverseStream extends EventTranslator {
  constructor(model: string) {
    super(model, `chatcmpl-bedrock-${Date.now()}`);
  }

  private finish: string | null = null;
  private usage: { prompt: number; completion: number } | null = null;
  /** OpenAI tool-call index of each Converse content block that is a tool use. */
  private readonly toolIndex = new Map<number, number>();


  /**
   * The stream ended. Finished without its `metadata` event: the finish chunk and `[DONE]` without
   * usage (the relay then bills its own counts); a stream cut short is left to the pipeline.
   */
  end(): string {
    if (this.finish !== null && this.usage === null) {
      this.push({}, this.finish);
      this.out.push('data: [DONE]\n\n');
      this.finish = null;
    }
    return this.flush();
  }

  private closeWith(usage: { prompt: number; completion: number }): void {
    this.usage = usage;
    this.push({}, this.finish ?? 'stop');
    this.out.push(usageEvents(this.id, this.created, this.model, usage.prompt, usage.completion));
  }

  protected onEvent(event: EventSourceMessage): void {
    let body: unknown;
    try {
      body = JSON.parse(event.data);
    } catch {
      this.out.push(`data: ${event.data.replace(/\n/g, ' ')}\n\n`);
      return;
    }
    if (!isObject(body)) return;
    if (body.type === 'error' && isObject(body.error)) {
      // an exception: the pipeline ends the stream with it (no usage: the attempt failed)
      this.out.push(`data: ${JSON.stringify({ error: { message: str(body.error.message), type: str(body.error.type), param: '', code: str(body.error.type) } })}\n\n`);
      return;
    }
    const [kind, payload] = Object.entries(body)[0] ?? ['', null];
    if (!isObject(payload)) return;
    const block = typeof payload.contentBlockIndex === 'number' ? payload.contentBlockIndex : 0;
    switch (kind) {
      case 'contentBlockStart': {
        const start = isObject(payload.start) ? payload.start : {};
        if (isObject(start.toolUse)) {
          const index = this.toolIndex.size;
          this.toolIndex.set(block, index);
          this.push({ tool_calls: [{ index, id: str(start.toolUse.toolUseId), type: 'function', function: { name: str(start.toolUse.name), arguments: '' } }] });
        }
        return;
      }
      case 'contentBlockDelta': {
        const delta = isObject(payload.delta) ? payload.delta : {};
        if (typeof delta.text === 'string' && delta.text !== '') this.push({ content: delta.text });
        const index = this.toolIndex.get(block);
        if (isObject(delta.toolUse) && index !== undefined) this.push({ tool_calls: [{ index, function: { arguments: str(delta.toolUse.input) } }] });
        return;
      }
      case 'messageStop':
        this.finish = converseFinishReason(payload.stopReason) ?? 'stop';
        return;
      case 'metadata': {
        const usage = isObject(payload.usage) ? payload.usage : {};
        if (this.finish !== null && this.usage === null) this.closeWith({ prompt: tokens(usage.inputTokens), completion: tokens(usage.outputTokens) });
        return;
      }
      default:
    }
  }
}
