import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { RelayMode } from './types';
import { contentText, EventTranslator, isObject, parsedJson, nowSeconds, str, tokens, usageEvents, type Json, type NativeWire } from './wire';

/**
 * Coze bots (channel type 34) as a native wire, from Coze's public API reference ("发起对话",
 * `POST /v3/chat`, and its streaming events):
 * - the model name is the bot id (`bot-` prefix optional); the channel's config `user_id` names
 *   the user Coze keeps the conversation for (default `one-api`); the key is a personal access
 *   token (`Authorization: Bearer`);
 * - the request: `bot_id`, `user_id`, `stream: true`, `auto_save_history: false`,
 *   `additional_messages` (`{role: user | assistant, content, content_type: text}`; system
 *   messages are put before the first user message's text, as Coze bots take no system role);
 * - the answer is always asked for as a stream (Coze's non-streaming answer holds no reply: it must
 *   be polled for), and a client that did not ask for a stream gets it assembled:
 *   `conversation.message.delta` events of type `answer` carry the text,
 *   `conversation.chat.completed` the usage (`input_count`, `output_count`),
 *   `conversation.chat.failed` (`last_error`) and `error` end it with an error, `done` closes it;
 * - a request Coze refuses is answered with status 200 and `{"code": …, "msg": …}`.
 */

/** The user Coze keeps the conversation for when the channel's config names none. */
export const defaultCozeUser = 'one-api';

/** Coze's bot id for a model name (`bot-` prefix dropped). */
export const cozeBotId = (model: string): string => model.replace(/^bot-/, '');

/** Coze's request for an OpenAI chat request, or a message naming what cannot be sent. */
export function cozeRequest(json: Readonly<Json>, model: string, config: Readonly<Record<string, unknown>> | null): Json | string {
  const messages = Array.isArray(json.messages) ? (json.messages as unknown[]) : [];
  const system: string[] = [];
  const additional: Json[] = [];
  for (const message of messages) {
    if (!isObject(message)) return 'messages: every message must be an object';
    const role = str(message.role);
    if (Array.isArray(message.content) && message.content.some((p) => isObject(p) && p.type !== 'text')) return 'messages: Coze channels take text only';
    const text = contentText(message.content);
    if (role === 'system' || role === 'developer') system.push(text);
    else if (role === 'user' || role === 'assistant') additional.push({ role, content: text, content_type: 'text' });
    else return `messages: the role ${JSON.stringify(role)} is not supported by Coze channels (system, user or assistant)`;
  }
  const firstUser = additional.findIndex((m) => m.role === 'user');
  if (firstUser < 0) return 'messages: at least one user message is required';
  if (system.length > 0) {
    const first = additional[firstUser]!;
    additional[firstUser] = { ...first, content: `${system.join('\n')}\n\n${str(first.content)}` };
  }
  const user = str(config?.user_id) === '' ? (str(json.user) === '' ? defaultCozeUser : str(json.user)) : str(config?.user_id);
  return { bot_id: cozeBotId(model), user_id: user, stream: true, auto_save_history: false, additional_messages: additional };
}

/** The OpenAI error object of a Coze refusal (`{code, msg}` with a code other than 0), or null. */
function cozeErrorOf(body: unknown): { readonly status: number; readonly error: Json } | null {
  if (!isObject(body) || typeof body.code !== 'number' || body.code === 0) return null;
  const code = body.code;
  // 4100: the token is invalid or expired; 4101: it lacks the permission; 4013 / 4019: rate or balance limits
  const status = code === 4100 ? 401 : code === 4101 ? 403 : code === 4013 || code === 4019 ? 429 : code >= 4000 && code < 5000 ? 400 : 500;
  const type = status === 401 ? 'authentication_error' : status === 403 ? 'permission_error' : status === 429 ? 'rate_limit_error' : 'coze_error';
  return { status, error: { error: { message: str(body.msg) === '' ? `Coze error ${code}` : str(body.msg), type, param: '', code } } };
}


/** What a whole Coze stream said: the answer's text, the usage, or the error that ended it. */
interface CozeOutcome {
  text: string;
  prompt: number;
  completion: number;
  completed: boolean;
  error: string | null;
}

/** Reads one Coze event into `outcome`; returns the text it added. */
function readEvent(event: EventSourceMessage, outcome: CozeOutcome): string {
  const data = parsedJson(event.data);
  switch (event.event) {
    case 'conversation.message.delta':
      if (isObject(data) && data.type === 'answer' && typeof data.content === 'string') {
        outcome.text += data.content;
        return data.content;
      }
      return '';
    case 'conversation.chat.completed': {
      const usage = isObject(data) && isObject(data.usage) ? data.usage : {};
      outcome.prompt = tokens(usage.input_count);
      outcome.completion = tokens(usage.output_count);
      outcome.completed = true;
      return '';
    }
    case 'conversation.chat.failed': {
      const last = isObject(data) && isObject(data.last_error) ? data.last_error : {};
      outcome.error = str(last.msg) === '' ? 'the Coze chat failed' : `the Coze chat failed: ${str(last.msg)}`;
      return '';
    }
    case 'error':
      outcome.error = isObject(data) && str(data.msg) !== '' ? str(data.msg) : `Coze stream error: ${event.data}`;
      return '';
    default:
      return '';
  }
}

/** The OpenAI JSON text of a Coze answer: a whole stream assembled into a completion, or an error. */
function answerText(status: number, text: string, model: string): string {
  const refusal = cozeErrorOf(parsedJson(text));
  if (refusal !== null) return JSON.stringify(refusal.error);
  if (status !== 200) return text;
  const outcome: CozeOutcome = { text: '', prompt: 0, completion: 0, completed: false, error: null };
  const parser = createParser({ onEvent: (event) => void readEvent(event, outcome) });
  parser.feed(text);
  if (outcome.error !== null) return JSON.stringify({ error: { message: outcome.error, type: 'coze_error', param: '', code: 'chat_failed' } });
  if (!outcome.completed) return JSON.stringify({ error: { message: 'the Coze stream ended before the chat completed', type: 'coze_error', param: '', code: 'stream_interrupted' } });
  const usage = outcome.prompt + outcome.completion > 0 ? { usage: { prompt_tokens: outcome.prompt, completion_tokens: outcome.completion, total_tokens: outcome.prompt + outcome.completion } } : {};
  return JSON.stringify({
    id: `chatcmpl-coze-${Date.now()}`,
    object: 'chat.completion',
    created: nowSeconds(),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: outcome.text }, finish_reason: 'stop' }],
    ...usage,
  });
}

/** The status of a Coze answer: a refusal sent with status 200 gets its own. */
const answerStatus = (status: number, text: string): number => (status === 200 ? (cozeErrorOf(parsedJson(text))?.status ?? 200) : status);

/** Translates Coze's named events into OpenAI chunks as they arrive. */
class CozeStream extends EventTranslator {
  private readonly outcome: CozeOutcome = { text: '', prompt: 0, completion: 0, completed: false, error: null };
  private closed = false;

  constructor(model: string) {
    super(model, `chatcmpl-coze-${Date.now()}`);
  }

  /** A stream that never completed is left to the pipeline (an interrupted stream). */
  end(): string {
    return this.flush();
  }

  protected onEvent(event: EventSourceMessage): void {
    if (this.closed) return;
    if (event.event === undefined && parsedJson(event.data) === null) {
      // not one of Coze's events: handed on for the pipeline to drop
      this.out.push(`data: ${event.data.replace(/\n/g, ' ')}\n\n`);
      return;
    }
    const piece = readEvent(event, this.outcome);
    if (piece !== '') this.push({ content: piece });
    if (this.outcome.error !== null) {
      this.closed = true;
      this.out.push(`data: ${JSON.stringify({ error: { message: this.outcome.error, type: 'coze_error', param: '', code: 'chat_failed' } })}\n\n`);
    } else if (this.outcome.completed) {
      this.closed = true;
      this.push({}, 'stop');
      this.out.push(usageEvents(this.id, this.created, this.model, this.outcome.prompt, this.outcome.completion));
    }
  }
}

/** Coze as the relay's native wire of channel type 34. */
export const cozeWire: NativeWire = {
  modes: new Set<RelayMode>(['chat']),
  requestBody: (_mode, json, model, config) => {
    const body = cozeRequest(json, model, config ?? null);
    return typeof body === 'string' ? { invalid: body } : { body: JSON.stringify(body) };
  },
  answerText,
  answerStatus,
  streamTranslator: (model) => new CozeStream(model),
};
