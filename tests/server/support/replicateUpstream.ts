import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLoopbackServer } from './loopbackServer';

/**
 * A loopback fake of Replicate's HTTP API (predictions), speaking its documented wire format:
 * the API token in `Authorization: Bearer`; `POST /v1/models/{owner}/{name}/predictions` with
 * `{input, stream?}` answering a prediction object `{id, model, status, input, output, error,
 * urls: {get, cancel, stream?}, metrics}` (with `Prefer: wait` a finished one, else `starting`);
 * `GET /v1/predictions/{id}` polled; `POST /v1/predictions/{id}/cancel`; `GET /stream/{id}` the
 * server-sent events `output` (plain text), `error`, `done`; refusals as problem details
 * (`{title, detail, status}`: 401, 402, 422, 429).
 *
 * Language models answer `replicateReply(model)` in `replicatePieces(model)` with
 * `replicateMetrics`; a model named `…-slow` is still `processing` when `Prefer: wait` gives up,
 * and for one more poll, and streams slowly (a dropping account's always, and its poll is dropped). Image models (names starting `black-forest-labs/`) answer one PNG URL per
 * `num_outputs` (served at `/files/…` with `replicatePng`). Faults per token: refusals, a failed
 * prediction (after two pieces when streamed), a stream dropped after two pieces, a line that is
 * not an event between the pieces.
 */

export type ReplicateBehaviour =
  | { readonly kind: 'ok' }
  | { readonly kind: 'refuse'; readonly status: number; readonly title: string; readonly detail: string }
  | { readonly kind: 'failed' }
  | { readonly kind: 'drop' }
  | { readonly kind: 'malformed' };

export interface ReplicateRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly json: Record<string, unknown> | null;
}

export interface ReplicateUpstream {
  readonly url: string;
  readonly requests: readonly ReplicateRequest[];
  /** The predictions canceled (ids). */
  readonly canceled: readonly string[];
  account(token: string, behaviour?: ReplicateBehaviour): void;
  reset(): void;
  close(): Promise<void>;
}

export const replicateReply = (model: string): string => `Llama ${model} says hello from Replicate.`;
export const replicatePieces = (model: string): string[] => replicateReply(model).split(/(?= )/);
export const replicateMetrics = { predict_time: 0.8, input_token_count: 27, output_token_count: 8, tokens_per_second: 10 } as const;
/** The bytes of every generated image (a PNG signature and a little more). */
export const replicatePng = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
export const failureMessage = 'CUDA error: out of memory';

interface Prediction {
  id: string;
  model: string;
  status: string;
  input: Record<string, unknown>;
  output: unknown;
  error: string | null;
  urls: Record<string, string>;
  metrics: Record<string, unknown>;
  polls: number;
  behaviour: ReplicateBehaviour;
  stream: boolean;
}

const event = (name: string, data: string): string => `event: ${name}\n${data.split('\n').map((l) => `data: ${l}`).join('\n')}\n\n`;
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function startReplicateUpstream(): Promise<ReplicateUpstream> {
  const accounts = new Map<string, ReplicateBehaviour>();
  const requests: ReplicateRequest[] = [];
  const canceled: string[] = [];
  const predictions = new Map<string, Prediction>();
  let next = 0;
  let base = '';

  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const problem = (res: ServerResponse, status: number, title: string, detail: string): void => {
    res.writeHead(status, { 'Content-Type': 'application/problem+json' });
    res.end(JSON.stringify({ title, detail, status }));
  };
  const view = (p: Prediction) => ({
    id: p.id,
    model: p.model,
    version: 'hidden',
    status: p.status,
    input: p.input,
    output: p.status === 'succeeded' ? p.output : null,
    error: p.error,
    logs: '',
    urls: p.urls,
    metrics: p.status === 'succeeded' ? p.metrics : {},
    created_at: '2026-11-28T00:00:00.000Z',
  });
  const finish = (p: Prediction): void => {
    if (p.behaviour.kind === 'failed') {
      p.status = 'failed';
      p.error = failureMessage;
    } else p.status = 'succeeded';
  };

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const path = req.url ?? '';
    let body: Record<string, unknown> | null;
    try {
      body = raw === '' ? null : (JSON.parse(raw) as Record<string, unknown>);
    } catch {
      return problem(res, 400, 'Bad request', 'the body is not valid JSON');
    }
    if (path.startsWith('/files/')) {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(replicatePng);
      return;
    }
    requests.push({ method: req.method ?? '', path, headers: req.headers, json: body });
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    const behaviour = accounts.get(token);
    if (behaviour === undefined) return problem(res, 401, 'Unauthenticated', 'You did not pass a valid authentication token');
    if (behaviour.kind === 'refuse') return problem(res, behaviour.status, behaviour.title, behaviour.detail);

    const create = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
    if (req.method === 'POST' && create !== null) {
      const model = `${create[1]}/${create[2]}`;
      const input = body?.input;
      if (typeof input !== 'object' || input === null || typeof (input as Record<string, unknown>).prompt !== 'string') {
        res.writeHead(422, { 'Content-Type': 'application/problem+json' });
        res.end(JSON.stringify({ title: 'Input validation failed', detail: '- input: prompt is required', status: 422, invalid_fields: [{ type: 'required', field: 'input', description: 'prompt is required' }] }));
        return;
      }
      const id = `pred${++next}`;
      const image = model.startsWith('black-forest-labs/');
      const count = typeof (input as Record<string, unknown>).num_outputs === 'number' ? ((input as Record<string, unknown>).num_outputs as number) : 1;
      const stream = body?.stream === true;
      const p: Prediction = {
        id,
        model,
        status: 'starting',
        input: input as Record<string, unknown>,
        output: image ? Array.from({ length: count }, (_, i) => `${base}/files/${id}-${i}.png`) : replicatePieces(model),
        error: null,
        urls: {
          get: `${base}/v1/predictions/${id}`,
          cancel: `${base}/v1/predictions/${id}/cancel`,
          web: `https://replicate.com/p/${id}`,
          ...(stream ? { stream: `${base}/stream/${id}` } : {}),
        },
        metrics: image ? { predict_time: 1.2 } : { ...replicateMetrics },
        polls: 0,
        behaviour,
        stream,
      };
      predictions.set(id, p);
      const wait = String(req.headers.prefer ?? '').startsWith('wait');
      // a dropping account's prediction is still running, so that its poll is dropped
      if (wait && !model.endsWith('-slow') && behaviour.kind !== 'drop') finish(p);
      else if (wait) p.status = 'processing';
      return json(res, 201, view(p));
    }
    const cancel = /^\/v1\/predictions\/([^/]+)\/cancel$/.exec(path);
    if (req.method === 'POST' && cancel !== null) {
      const p = predictions.get(cancel[1]!);
      if (p === undefined) return problem(res, 404, 'Not found', 'no such prediction');
      canceled.push(p.id);
      if (p.status === 'starting' || p.status === 'processing') p.status = 'canceled';
      return json(res, 200, view(p));
    }
    const get = /^\/v1\/predictions\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && get !== null) {
      const p = predictions.get(get[1]!);
      if (p === undefined) return problem(res, 404, 'Not found', 'no such prediction');
      if (p.status === 'starting' || p.status === 'processing') {
        p.polls += 1;
        if (p.behaviour.kind === 'drop') {
          res.destroy();
          return;
        }
        if (p.polls >= 2 || !p.model.endsWith('-slow')) finish(p);
        else p.status = 'processing';
      }
      return json(res, 200, view(p));
    }
    const streamed = /^\/stream\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && streamed !== null) {
      const p = predictions.get(streamed[1]!);
      if (p === undefined) return problem(res, 404, 'Not found', 'no such prediction');
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
      p.status = 'processing';
      for (const [i, piece] of replicatePieces(p.model).entries()) {
        if (i === 2 && p.behaviour.kind === 'drop') {
          res.destroy();
          return;
        }
        if (i === 2 && p.behaviour.kind === 'failed') {
          finish(p);
          res.write(event('error', JSON.stringify({ detail: failureMessage })));
          res.end(event('done', JSON.stringify({ reason: 'error' })));
          return;
        }
        if (i === 2 && p.behaviour.kind === 'malformed') res.write('data: {not an event\n\n');
        res.write(`id: ${i}\n${event('output', piece)}`);
        // a slow model takes its time, so that a client can leave mid-stream
        await (p.model.endsWith('-slow') ? new Promise((resolve) => setTimeout(resolve, 300)) : tick());
        if (res.destroyed) return;
      }
      finish(p);
      res.end(event('done', '{}'));
      return;
    }
    return problem(res, 404, 'Not found', `no route for ${req.method} ${path}`);
  };

  const server = await startLoopbackServer(answer);
  base = server.url;
  return {
    url: server.url,
    requests,
    canceled,
    account: (token, behaviour = { kind: 'ok' }) => accounts.set(token, behaviour),
    reset: () => {
      requests.length = 0;
      canceled.length = 0;
    },
    close: () => server.close(),
  };
}
