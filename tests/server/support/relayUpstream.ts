import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback fake of an OpenAI-compatible provider for the relay suites (issue 6): chat and
 * legacy completions (streaming and not), embeddings, moderations and image generations, on any
 * path ending in the OpenAI route (`/v1/chat/completions`, `/chat/completions`...).
 *
 * Replies are deterministic so tests can compute token counts themselves: the reply text is
 * `replyText(model)`, streamed as `replyPieces(model)` (one piece per chunk), and the usage the
 * fake reports is `upstreamUsage` (chosen to differ from any local count, so a test can tell
 * which one was billed). Streams carry a usage chunk only when the request asked for it with
 * `stream_options.include_usage`.
 *
 * Behaviours (faults) are chosen per upstream key (the channel key the gateway sends as Bearer)
 * or per requested model; the key wins. Every request is recorded with its body and headers, and
 * the fake notices when the gateway closes a connection before the answer was complete.
 */

/** How the fake answers a request. */
export type Behaviour =
  /** The normal answer. */
  | { readonly kind: 'ok' }
  /** An OpenAI error JSON with this HTTP status (message/type/code default per status). */
  | { readonly kind: 'status'; readonly status: number; readonly message?: string; readonly type?: string; readonly code?: string | null }
  /** Waits `ms` before answering normally (streams: before the headers). */
  | { readonly kind: 'slow'; readonly ms: number }
  /** Streams `chunks` content chunks, then destroys the connection (non-stream: destroys before answering). */
  | { readonly kind: 'dropMidStream'; readonly chunks: number }
  /** Sends 200 with SSE headers, then destroys the connection before any event. */
  | { readonly kind: 'dropBeforeFirst' }
  /** Non-JSON `data:` lines between the chunks (`only`: nothing but malformed lines, then `[DONE]`). */
  | { readonly kind: 'malformedSse'; readonly only?: boolean }
  /** A 200 answer whose JSON body is cut short (non-stream). */
  | { readonly kind: 'malformedJson' }
  /** The normal answer without any usage object (streams: no usage chunk even when asked). */
  | { readonly kind: 'noUsage' }
  /** Streams `chunks` content chunks, then waits until the gate is released (see `gate`). */
  | { readonly kind: 'gate'; readonly chunks: number; readonly gate: Gate };

/** A point a stream stops at until the test releases it. */
export interface Gate {
  /** Resolves when the fake has written the chunks before the gate and is waiting. */
  readonly reached: Promise<void>;
  /** Lets the stream continue. */
  release(): void;
  readonly released: boolean;
}

export interface RelayRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  /** The raw body. */
  readonly body: string;
  /** The parsed JSON body (null when not JSON). */
  readonly json: Record<string, unknown> | null;
  /** The Bearer (or `api-key`) key the gateway sent. */
  readonly key: string;
  /** The body's `model`, or ''. */
  readonly model: string;
  readonly stream: boolean;
  /** True once the gateway closed the connection before the answer was complete. */
  readonly abortedByClient: boolean;
  /** Resolves when the exchange is over (answer finished or connection closed). */
  readonly settled: Promise<void>;
}

export interface RelayUpstream {
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: readonly RelayRequest[];
  /** Sets the behaviour for an upstream key or a model (the key wins). */
  behave(keyOrModel: string, behaviour: Behaviour): void;
  /** Sets a gate after `chunks` chunks for `keyOrModel` and returns it. */
  gate(keyOrModel: string, chunks: number): Gate;
  /** Requests sent with `key`. */
  requestsFor(key: string): RelayRequest[];
  /** Forgets behaviours and recorded requests; releases pending gates. */
  reset(): void;
  close(): Promise<void>;
}

/** The usage every answer reports (unless `noUsage`). */
export const upstreamUsage = { prompt_tokens: 17, completion_tokens: 9, total_tokens: 26 } as const;

/** The usage of embeddings answers. */
export const embeddingUsage = { prompt_tokens: 23, total_tokens: 23 } as const;

/** The text every chat/completion answer for `model` carries. */
export const replyText = (model: string): string => `Hello from ${model}, this reply is deterministic.`;

/** The pieces a streamed answer sends, one per chunk (their concatenation is `replyText`). */
export const replyPieces = (model: string): string[] => replyText(model).split(/(?= )/);

/** The embedding vector of every input. */
export const embeddingVector = [0.25, -0.5, 0.75];

/** The default error body of a status, in OpenAI's shape. */
export function upstreamErrorOf(status: number): { message: string; type: string; code: string | null } {
  switch (status) {
    case 400:
      return { message: 'Invalid value for temperature.', type: 'invalid_request_error', code: 'invalid_value' };
    case 401:
      return { message: 'Incorrect API key provided: sk-up***.', type: 'invalid_request_error', code: 'invalid_api_key' };
    case 403:
      return { message: 'Country, region, or territory not supported.', type: 'invalid_request_error', code: 'unsupported_country_region_territory' };
    case 404:
      return { message: 'The model does not exist or you do not have access to it.', type: 'invalid_request_error', code: 'model_not_found' };
    case 429:
      return { message: 'Rate limit reached for requests.', type: 'requests', code: 'rate_limit_exceeded' };
    case 503:
      return { message: 'The engine is currently overloaded, please try again later.', type: 'server_error', code: null };
    default:
      return { message: 'The server had an error while processing your request.', type: 'server_error', code: null };
  }
}

/** A gate not yet reached nor released. */
export function createGate(): Gate {
  let open: () => void = () => undefined;
  let reach: () => void = () => undefined;
  let released = false;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return Object.assign(
    {
      reached,
      release: () => {
        released = true;
        open();
      },
      get released() {
        return released;
      },
    },
    { opened, reach },
  );
}

type InternalGate = Gate & { readonly opened: Promise<void>; readonly reach: () => void };

const keyOf = (req: IncomingMessage): string => {
  const auth = req.headers.authorization ?? '';
  if (auth.startsWith('Bearer ')) return auth.slice('Bearer '.length);
  const apiKey = req.headers['api-key'];
  return typeof apiKey === 'string' ? apiKey : '';
};

const routes = ['/chat/completions', '/completions', '/embeddings', '/moderations', '/images/generations'] as const;
type Route = (typeof routes)[number];
const routeOf = (path: string): Route | null => routes.find((r) => path.endsWith(r)) ?? null;

const created = 1_700_000_000;

const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

const inputsOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** The non-streaming answer of `route`. */
function answerOf(route: Route, model: string, json: Record<string, unknown>, withUsage: boolean): unknown {
  const usage = withUsage ? { usage: upstreamUsage } : {};
  switch (route) {
    case '/chat/completions':
      return {
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: replyText(model) }, finish_reason: 'stop', logprobs: null }],
        ...usage,
      };
    case '/completions':
      return {
        id: 'cmpl-fake',
        object: 'text_completion',
        created,
        model,
        choices: [{ index: 0, text: replyText(model), finish_reason: 'stop', logprobs: null }],
        ...usage,
      };
    case '/embeddings': {
      const base64 = json.encoding_format === 'base64';
      const vector = base64 ? Buffer.from(new Float32Array(embeddingVector).buffer).toString('base64') : embeddingVector;
      return {
        object: 'list',
        model,
        data: inputsOf(json.input).map((_, index) => ({ object: 'embedding', index, embedding: vector })),
        ...(withUsage ? { usage: embeddingUsage } : {}),
      };
    }
    case '/moderations':
      return {
        id: 'modr-fake',
        model,
        results: inputsOf(json.input).map(() => ({
          flagged: false,
          categories: { hate: false, violence: false },
          category_scores: { hate: 0.001, violence: 0.002 },
        })),
      };
    case '/images/generations': {
      const n = typeof json.n === 'number' ? json.n : 1;
      const b64 = json.response_format === 'b64_json';
      return {
        created,
        data: Array.from({ length: n }, (_, i) =>
          b64 ? { b64_json: Buffer.from(`image ${i}`).toString('base64') } : { url: `https://images.invalid/${model}/${i}.png` },
        ),
      };
    }
  }
}

/** The SSE chunk carrying `piece` (the first one also carries the role). */
function chunkOf(route: Route, model: string, piece: string, first: boolean): unknown {
  if (route === '/completions') {
    return { id: 'cmpl-fake', object: 'text_completion', created, model, choices: [{ index: 0, text: piece, finish_reason: null, logprobs: null }] };
  }
  const delta = first ? { role: 'assistant', content: piece } : { content: piece };
  return { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: null }] };
}

/** The chunk that ends the choices. */
function finishChunk(route: Route, model: string): unknown {
  if (route === '/completions') {
    return { id: 'cmpl-fake', object: 'text_completion', created, model, choices: [{ index: 0, text: '', finish_reason: 'stop', logprobs: null }] };
  }
  return { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };
}

/** The usage chunk (no choices), as OpenAI sends it for `include_usage`. */
function usageChunk(route: Route, model: string): unknown {
  const object = route === '/completions' ? 'text_completion' : 'chat.completion.chunk';
  return { id: 'fake', object, created, model, choices: [], usage: upstreamUsage };
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Starts the fake on 127.0.0.1 with a random port. */
export async function startRelayUpstream(): Promise<RelayUpstream> {
  const requests: RelayRequest[] = [];
  const behaviours = new Map<string, Behaviour>();
  const closing = new AbortController();
  let gates: InternalGate[] = [];

  const behaviourFor = (key: string, model: string): Behaviour => behaviours.get(key) ?? behaviours.get(model) ?? { kind: 'ok' };

  /** Writes a stream according to `behaviour`; returns when done or when the connection closed. */
  async function stream(res: ServerResponse, route: Route, record: { model: string; json: Record<string, unknown> }, behaviour: Behaviour) {
    const { model, json } = record;
    const gone = () => res.destroyed || closing.signal.aborted;
    const write = (data: unknown) => {
      if (!gone()) res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    };
    if (behaviour.kind === 'slow') await sleep(behaviour.ms, closing.signal);
    if (gone()) return;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    res.flushHeaders();
    if (behaviour.kind === 'dropBeforeFirst') {
      // Let the headers leave before the connection goes.
      await sleep(20, closing.signal);
      res.destroy();
      return;
    }
    if (behaviour.kind === 'malformedSse' && behaviour.only === true) {
      write('{"id": "broken');
      write('not json at all');
      write('{"choices": [}');
      write('[DONE]');
      res.end();
      return;
    }
    const pieces = replyPieces(model);
    for (const [i, piece] of pieces.entries()) {
      if (behaviour.kind === 'dropMidStream' && i === behaviour.chunks) {
        await sleep(20, closing.signal);
        res.destroy();
        return;
      }
      if (behaviour.kind === 'gate' && i === behaviour.chunks) {
        const gate = behaviour.gate as InternalGate;
        gate.reach();
        if (gone()) return;
        await Promise.race([gate.opened, new Promise<void>((resolve) => res.once('close', resolve))]);
        if (gone()) return;
      }
      write(chunkOf(route, model, piece, i === 0));
      if (behaviour.kind === 'malformedSse' && i === 1) {
        write('{"id": "broken');
        write('not json at all');
      }
    }
    write(finishChunk(route, model));
    const options = json.stream_options as { include_usage?: unknown } | undefined;
    if (options?.include_usage === true && behaviour.kind !== 'noUsage') write(usageChunk(route, model));
    write('[DONE]');
    if (!gone()) res.end();
  }

  /** Answers a non-streaming request according to `behaviour`. */
  async function plain(res: ServerResponse, route: Route, record: { model: string; json: Record<string, unknown> }, behaviour: Behaviour) {
    if (behaviour.kind === 'slow') await sleep(behaviour.ms, closing.signal);
    if (res.destroyed || closing.signal.aborted) return;
    if (behaviour.kind === 'dropMidStream' || behaviour.kind === 'dropBeforeFirst') {
      res.destroy();
      return;
    }
    if (behaviour.kind === 'malformedJson') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"id": "chatcmpl-fake", "choices": [{"index": 0, "message": ');
      return;
    }
    sendJson(res, 200, answerOf(route, record.model, record.json, behaviour.kind !== 'noUsage'));
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      let json: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = JSON.parse(body);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
      } catch {
        json = null;
      }
      const model = typeof json?.model === 'string' ? json.model : '';
      const key = keyOf(req);
      let abortedByClient = false;
      let settle: () => void = () => undefined;
      const settled = new Promise<void>((resolve) => (settle = resolve));
      const record: RelayRequest = {
        method: req.method ?? '',
        path,
        headers: req.headers,
        body,
        json,
        key,
        model,
        stream: json?.stream === true,
        get abortedByClient() {
          return abortedByClient;
        },
        settled,
      };
      requests.push(record);
      res.on('close', () => {
        if (!res.writableFinished) abortedByClient = true;
        settle();
      });

      const route = routeOf(path);
      if (route === null || json === null) {
        sendJson(res, 404, { error: { message: `fake upstream: no route ${req.method ?? ''} ${path}`, type: 'invalid_request_error', param: null, code: null } });
        return;
      }
      const behaviour = behaviourFor(key, model);
      if (behaviour.kind === 'status') {
        const fallback = upstreamErrorOf(behaviour.status);
        sendJson(res, behaviour.status, {
          error: {
            message: behaviour.message ?? fallback.message,
            type: behaviour.type ?? fallback.type,
            param: null,
            code: behaviour.code === undefined ? fallback.code : behaviour.code,
          },
        });
        return;
      }
      const streaming = record.stream && (route === '/chat/completions' || route === '/completions');
      void (streaming ? stream(res, route, { model, json }, behaviour) : plain(res, route, { model, json }, behaviour));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    behave: (keyOrModel, behaviour) => void behaviours.set(keyOrModel, behaviour),
    gate: (keyOrModel, chunks) => {
      const gate = createGate() as InternalGate;
      gates.push(gate);
      behaviours.set(keyOrModel, { kind: 'gate', chunks, gate });
      return gate;
    },
    requestsFor: (key) => requests.filter((r) => r.key === key),
    reset: () => {
      for (const gate of gates) gate.release();
      gates = [];
      behaviours.clear();
      requests.splice(0);
    },
    close: async () => {
      closing.abort();
      for (const gate of gates) gate.release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
