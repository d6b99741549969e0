import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLoopbackServer } from './loopbackServer';

/**
 * A loopback fake of Coze's chat API (`POST /v3/chat`), speaking its documented wire format: the
 * personal access token in `Authorization: Bearer`, a JSON body with `bot_id`, `user_id`,
 * `stream` and `additional_messages`; a refused request answered with status 200 and
 * `{"code", "msg"}` (4100 for an unknown token); a stream of named events
 * (`conversation.chat.created`, `conversation.chat.in_progress`, `conversation.message.delta` of
 * type `answer`, `conversation.message.completed`, `conversation.chat.completed` with the usage,
 * `done`). Faults per token: a refusal code, `conversation.chat.failed` after two deltas, a
 * connection dropped after two deltas, a line that is not an event between the deltas.
 *
 * Deterministic: the bot answers `cozeReply(botId)` in `cozePieces(botId)`.
 */

export type CozeBehaviour =
  | { readonly kind: 'ok' }
  | { readonly kind: 'refuse'; readonly code: number; readonly msg: string }
  | { readonly kind: 'chatFailed' }
  | { readonly kind: 'drop' }
  | { readonly kind: 'malformed' };

export interface CozeRequest {
  readonly headers: IncomingMessage['headers'];
  readonly json: Record<string, unknown>;
}

export interface CozeUpstream {
  readonly url: string;
  readonly requests: readonly CozeRequest[];
  /** Accepts `token`, behaving as told. */
  account(token: string, behaviour?: CozeBehaviour): void;
  reset(): void;
  close(): Promise<void>;
}

export const cozeReply = (botId: string): string => `Bot ${botId} replies through Coze.`;
export const cozePieces = (botId: string): string[] => cozeReply(botId).split(/(?= )/);
/** The usage every completed chat reports. */
export const cozeUsage = { token_count: 31, output_count: 9, input_count: 22 } as const;

const event = (name: string, data: unknown): string => `event:${name}\ndata:${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

export async function startCozeUpstream(): Promise<CozeUpstream> {
  const accounts = new Map<string, CozeBehaviour>();
  const requests: CozeRequest[] = [];

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const refuse = (code: number, msg: string) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ code, msg }));
    };
    if (req.method !== 'POST' || req.url !== '/v3/chat') {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ code: 4000, msg: 'not found' }));
      return;
    }
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    const behaviour = accounts.get(token);
    if (behaviour === undefined) return refuse(4100, 'authentication is invalid');
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return refuse(4000, 'the request body is not valid JSON');
    }
    requests.push({ headers: req.headers, json });
    if (behaviour.kind === 'refuse') return refuse(behaviour.code, behaviour.msg);
    const botId = typeof json.bot_id === 'string' ? json.bot_id : '';
    const messages = Array.isArray(json.additional_messages) ? json.additional_messages : [];
    if (botId === '' || typeof json.user_id !== 'string' || json.user_id === '' || messages.length === 0) return refuse(4000, 'bot_id, user_id and additional_messages are required');
    if (json.stream !== true) return refuse(4000, 'this fake answers streams only');

    const chat = { id: 'chat-1', conversation_id: 'conv-1', bot_id: botId };
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write(event('conversation.chat.created', { ...chat, status: 'created', usage: { token_count: 0, output_count: 0, input_count: 0 } }));
    res.write(event('conversation.chat.in_progress', { ...chat, status: 'in_progress' }));
    const pieces = cozePieces(botId);
    for (const [i, content] of pieces.entries()) {
      if (i === 2 && behaviour.kind === 'drop') {
        res.destroy();
        return;
      }
      if (i === 2 && behaviour.kind === 'chatFailed') {
        res.end(event('conversation.chat.failed', { ...chat, status: 'failed', last_error: { code: 5000, msg: 'the bot is unavailable' } }));
        return;
      }
      if (i === 2 && behaviour.kind === 'malformed') res.write('data:{not json\n\n');
      res.write(event('conversation.message.delta', { ...chat, id: 'msg-1', role: 'assistant', type: 'answer', content, content_type: 'text', chat_id: 'chat-1' }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.write(event('conversation.message.completed', { ...chat, id: 'msg-1', role: 'assistant', type: 'answer', content: cozeReply(botId), content_type: 'text' }));
    res.write(event('conversation.message.completed', { ...chat, id: 'msg-2', role: 'assistant', type: 'verbose', content: '{"msg_type":"generate_answer_finish"}', content_type: 'text' }));
    res.write(event('conversation.chat.completed', { ...chat, status: 'completed', usage: cozeUsage }));
    res.end(event('done', '"[DONE]"'));
  };

  const server = await startLoopbackServer(answer);
  return {
    url: server.url,
    requests,
    account: (token, behaviour = { kind: 'ok' }) => accounts.set(token, behaviour),
    reset: () => {
      requests.length = 0;
    },
    close: () => server.close(),
  };
}
