import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A loopback fake of iFlytek Spark's WebSocket chat API ("星火认知大模型 Web API"), speaking its
 * documented wire format:
 * - the handshake URL `/<version>/chat?authorization=…&date=…&host=…` is verified as Spark does:
 *   `host` equal to the Host header, `date` (RFC 1123) within 300 s of now (else HTTP 403), the
 *   `authorization` (base64 of `api_key="…", algorithm="hmac-sha256", headers="host date
 *   request-line", signature="…"`) naming a known APIKey and carrying the HMAC-SHA256 (keyed with
 *   its APISecret) of `host: …\ndate: …\nGET <path> HTTP/1.1` (else HTTP 401); refusals are JSON
 *   `{"message": …}`;
 * - one request frame `{header: {app_id, uid}, parameter: {chat: {domain, …}}, payload: {message:
 *   {text}, functions?: {text}}}`, whose `app_id` must be the account's and whose `domain` must be
 *   the version's;
 * - answer frames `{header: {code, message, sid, status}, payload: {choices: {status, seq, text:
 *   [{content, role, index}]}, usage?: {text: {question_tokens, prompt_tokens, completion_tokens,
 *   total_tokens}}}}`, status 0 first, 1 between, 2 last (with the usage), then the socket closes;
 *   with functions, one last frame whose text item carries `function_call: {name, arguments}`.
 * Faults per APIKey: an error frame first (a code), an error frame after two pieces, a socket
 * dropped after two pieces, a text frame that is not JSON between the pieces, an answer that
 * stops after its first piece (for a client that leaves).
 *
 * Deterministic: the answer is `sparkReply(domain)` in `sparkPieces(domain)`.
 */

export type SparkBehaviour =
  | { readonly kind: 'ok' }
  | { readonly kind: 'errorFrame'; readonly code: number; readonly message: string }
  | { readonly kind: 'errorMidway'; readonly code: number; readonly message: string }
  | { readonly kind: 'drop' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'slow' };

export interface SparkAccount {
  readonly appId: string;
  readonly apiSecret: string;
  readonly apiKey: string;
}

export interface SparkRequest {
  readonly path: string;
  readonly frame: Record<string, unknown>;
}

export interface SparkUpstream {
  /** `ws://127.0.0.1:<port>` (a channel's base URL). */
  readonly url: string;
  readonly requests: readonly SparkRequest[];
  /** Handshakes refused so far, with their status. */
  readonly refusals: readonly number[];
  /** How many sockets closed before the fake finished answering on them. */
  readonly closedEarly: number;
  account(account: SparkAccount, behaviour?: SparkBehaviour): void;
  reset(): void;
  close(): Promise<void>;
}

export const sparkReply = (domain: string): string => `Spark ${domain} answers over a WebSocket.`;
export const sparkPieces = (domain: string): string[] => sparkReply(domain).split(/(?= )/);
/** The usage every finished answer reports. */
export const sparkUsage = { question_tokens: 4, prompt_tokens: 22, completion_tokens: 9, total_tokens: 31 } as const;
/** The call the fake makes when it is offered functions. */
export const sparkCall = { name: 'get_weather', arguments: '{"city":"Hefei"}' } as const;

const domains: Readonly<Record<string, string>> = {
  '/v1.1/chat': 'lite',
  '/v2.1/chat': 'generalv2',
  '/v3.1/chat': 'generalv3',
  '/v3.5/chat': 'generalv3.5',
  '/v4.0/chat': '4.0Ultra',
  '/chat/pro-128k': 'pro-128k',
  '/chat/max-32k': 'max-32k',
};

/** Refuses an upgrade with an HTTP status and Spark's JSON body. */
function refuse(socket: Socket, status: number, message: string): void {
  const body = JSON.stringify({ message });
  socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

export async function startSparkUpstream(): Promise<SparkUpstream> {
  const accounts = new Map<string, { readonly account: SparkAccount; readonly behaviour: SparkBehaviour }>();
  const requests: SparkRequest[] = [];
  const refusals: number[] = [];
  let closedEarly = 0;
  const server = createServer((_req, res) => {
    res.writeHead(426, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ message: 'WebSocket only' }));
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const wss = new WebSocketServer({ noServer: true });

  /** The account a handshake proves, or the refusal. */
  const verify = (req: IncomingMessage): { readonly account: SparkAccount; readonly behaviour: SparkBehaviour } | { readonly status: number; readonly message: string } => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (domains[url.pathname] === undefined) return { status: 404, message: 'no such version' };
    const host = url.searchParams.get('host') ?? '';
    const date = url.searchParams.get('date') ?? '';
    const when = Date.parse(date);
    if (host !== req.headers.host) return { status: 401, message: 'HMAC signature does not match: host' };
    if (!/GMT$/.test(date) || Number.isNaN(when) || Math.abs(Date.now() - when) > 300_000) {
      return { status: 403, message: 'HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication' };
    }
    const origin = Buffer.from(url.searchParams.get('authorization') ?? '', 'base64').toString('utf8');
    const fields = Object.fromEntries([...origin.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const known = accounts.get(fields.api_key ?? '');
    if (known === undefined || fields.algorithm !== 'hmac-sha256' || fields.headers !== 'host date request-line') return { status: 401, message: 'HMAC signature cannot be verified' };
    const expected = createHmac('sha256', known.account.apiSecret).update(`host: ${host}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`).digest('base64');
    if (fields.signature !== expected) return { status: 401, message: 'HMAC signature does not match' };
    return known;
  };

  const converse = (ws: WebSocket, path: string, known: { readonly account: SparkAccount; readonly behaviour: SparkBehaviour }): void => {
    let done = false;
    ws.on('close', () => {
      if (!done) closedEarly += 1;
    });
    ws.once('message', (data) => {
      let frame: Record<string, unknown>;
      try {
        frame = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : '') as Record<string, unknown>;
      } catch {
        done = true;
        ws.send(JSON.stringify({ header: { code: 10003, message: 'the message is not JSON', sid: 'sid-bad', status: 2 } }));
        ws.close();
        return;
      }
      requests.push({ path, frame });
      const sid = `cht000${requests.length}`;
      const header = (frame.header ?? {}) as Record<string, unknown>;
      const chat = ((frame.parameter ?? {}) as Record<string, Record<string, unknown>>).chat ?? {};
      const payload = (frame.payload ?? {}) as Record<string, Record<string, unknown>>;
      const fail = (code: number, message: string): void => {
        done = true;
        ws.send(JSON.stringify({ header: { code, message, sid, status: 2 } }));
        ws.close();
      };
      if (header.app_id !== known.account.appId) return fail(11200, 'AppIdNoAuthError: the app_id is not authorised');
      if (chat.domain !== domains[path]) return fail(10005, `the domain ${String(chat.domain)} does not match ${path}`);
      const text = Array.isArray(payload.message?.text) ? payload.message.text : [];
      if (text.length === 0) return fail(10004, 'payload.message.text is required');
      const { behaviour } = known;
      if (behaviour.kind === 'errorFrame') return fail(behaviour.code, behaviour.message);

      const domain = String(chat.domain);
      const pieces = sparkPieces(domain);
      const answer = (status: number, seq: number, item: Record<string, unknown>, usage = false): string =>
        JSON.stringify({
          header: { code: 0, message: 'Success', sid, status },
          payload: { choices: { status, seq, text: [{ role: 'assistant', index: 0, ...item }] }, ...(usage ? { usage: { text: sparkUsage } } : {}) },
        });
      const functions = Array.isArray(payload.functions?.text) ? payload.functions.text : [];
      if (functions.length > 0) {
        done = true;
        ws.send(answer(0, 0, { content: '' }));
        ws.send(answer(2, 1, { content: '', content_type: 'function_call', function_call: sparkCall }, true));
        ws.close();
        return;
      }
      if (behaviour.kind === 'slow') {
        ws.send(answer(0, 0, { content: pieces[0] ?? '' }));
        return;
      }
      pieces.forEach((piece, i) => {
        if (i === 2 && behaviour.kind === 'drop') {
          ws.terminate();
          return;
        }
        if (i === 2 && behaviour.kind === 'errorMidway') {
          done = true;
          ws.send(JSON.stringify({ header: { code: behaviour.code, message: behaviour.message, sid, status: 2 } }));
          ws.close();
          return;
        }
        if (ws.readyState !== ws.OPEN) return;
        if (i === 1 && behaviour.kind === 'malformed') ws.send('this is not a Spark frame {');
        const last = i === pieces.length - 1;
        ws.send(answer(i === 0 ? 0 : last ? 2 : 1, i, { content: piece }, last));
        if (last) {
          done = true;
          ws.close();
        }
      });
    });
  };

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const checked = verify(req);
    if ('status' in checked) {
      refusals.push(checked.status);
      refuse(socket, checked.status, checked.message);
      return;
    }
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    wss.handleUpgrade(req, socket, head, (ws) => converse(ws, path, checked));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    requests,
    refusals,
    get closedEarly() {
      return closedEarly;
    },
    account: (account, behaviour = { kind: 'ok' }) => accounts.set(account.apiKey, { account, behaviour }),
    reset: () => {
      accounts.clear();
      requests.length = 0;
      refusals.length = 0;
      closedEarly = 0;
    },
    close: async () => {
      for (const client of wss.clients) client.terminate();
      for (const socket of sockets) socket.destroy();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
