import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server playing an upstream AI provider for channel tests and balance queries,
 * and a message pusher. Chat completions (any path ending in `/chat/completions` or
 * `/chatcompletion_v2`) answer according to the mode chosen for the request's key (Bearer or
 * `api-key` header); any other path answers what `answer()` set for it (404 otherwise). Every
 * request is recorded.
 */

/** How a chat completion is answered. */
export type ChatMode =
  | 'ok'
  | 'unauthorized'
  | 'rateLimited'
  | 'serverError'
  | 'serverErrorText'
  | 'slow'
  | 'malformed'
  | 'noUsage'
  | 'quotaExceeded';

export interface RecordedRequest {
  readonly method: string;
  /** Path with query string. */
  readonly url: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** The key the request authenticated with (Bearer, `api-key` or `Api-Key` header), or ''. */
  readonly key: string;
}

/** A canned answer for a path. */
export interface CannedAnswer {
  readonly status: number;
  /** JSON-encoded unless a string. */
  readonly body: unknown;
}

export interface FakeUpstream {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Chooses how completions for `key` are answered (default `ok`). */
  mode(key: string, mode: ChatMode): void;
  /** Milliseconds the `slow` mode waits before answering OK. */
  slowMs: number;
  /** Sets the answer of `path` (any method). */
  answer(path: string, status: number, body: unknown): void;
  /** Requests whose key is `key`. */
  requestsFor(key: string): RecordedRequest[];
  /** Requests to `path`. */
  requestsTo(path: string): RecordedRequest[];
  /** Forgets recorded requests. */
  clear(): void;
  close(): Promise<void>;
}

/** The reply text of an OK completion for `model`. */
export const replyFor = (model: string): string => `I am ${model}`;

/** The message of the 401 answer (OpenAI's wording). */
export const unauthorizedMessage = (key: string): string => `Incorrect API key provided: ${key}.`;

const keyOf = (req: IncomingMessage): string => {
  const auth = req.headers.authorization ?? '';
  if (auth.startsWith('Bearer ')) return auth.slice('Bearer '.length);
  const apiKey = req.headers['api-key'];
  return typeof apiKey === 'string' ? apiKey : '';
};

const send = (res: ServerResponse, status: number, body: unknown): void => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json' });
  res.end(text);
};

/** The body of an OK chat completion. */
function completion(model: string, withUsage: boolean): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: replyFor(model) }, finish_reason: 'stop' }],
    ...(withUsage ? { usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } } : {}),
  };
}

/** Starts the fake on 127.0.0.1 with a random port. */
export async function startUpstream(): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const modes = new Map<string, ChatMode>();
  const answers = new Map<string, CannedAnswer>();
  const timers = new Set<NodeJS.Timeout>();
  let slowMs = 300;

  const chat = (res: ServerResponse, mode: ChatMode, key: string, body: string): void => {
    let model = '';
    try {
      const requested = (JSON.parse(body) as { model?: unknown }).model;
      model = typeof requested === 'string' ? requested : '';
    } catch {
      model = '';
    }
    switch (mode) {
      case 'ok':
        return send(res, 200, completion(model, true));
      case 'noUsage':
        return send(res, 200, completion(model, false));
      case 'unauthorized':
        return send(res, 401, {
          error: { message: unauthorizedMessage(key), type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
        });
      case 'quotaExceeded':
        return send(res, 429, {
          error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' },
        });
      case 'rateLimited':
        return send(res, 429, { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } });
      case 'serverError':
        return send(res, 500, { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } });
      case 'serverErrorText':
        return send(res, 500, 'Internal Server Error');
      case 'malformed':
        return send(res, 200, '{"choices": [');
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) send(res, 200, completion(model, true));
        }, slowMs);
        timers.add(timer);
        return;
      }
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const key = keyOf(req);
      requests.push({ method: req.method ?? '', url: req.url ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body, key });
      if (url.pathname.endsWith('/chat/completions') || url.pathname.endsWith('/chatcompletion_v2')) {
        chat(res, modes.get(key) ?? 'ok', key, body);
        return;
      }
      const canned = answers.get(url.pathname);
      if (canned === undefined) send(res, 404, { error: { message: `no route ${url.pathname}` } });
      else send(res, canned.status, canned.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mode: (key, mode) => void modes.set(key, mode),
    get slowMs() {
      return slowMs;
    },
    set slowMs(ms: number) {
      slowMs = ms;
    },
    answer: (path, status, body) => void answers.set(path, { status, body }),
    requestsFor: (key) => requests.filter((r) => r.key === key),
    requestsTo: (path) => requests.filter((r) => r.path === path),
    clear: () => void requests.splice(0),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
