import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLoopbackServer } from './loopbackServer';

/**
 * A loopback fake of Google's Gemini API, speaking its documented wire format: the key in
 * `x-goog-api-key`, `POST /<version>/models/<model>:generateContent`,
 * `:streamGenerateContent?alt=sse` (a series of `data:` answers, no end event; the last carries
 * `finishReason` and the final `usageMetadata`), `:batchEmbedContents`, and the error shape
 * `{"error":{"code","message","status"}}`.
 *
 * Deterministic: the reply is `geminiReply(model)`, streamed as `geminiPieces(model)`, with
 * `geminiUsage`; with `tools` and a last turn that is not a functionResponse, the answer is a
 * `functionCall` of the first tool with `geminiToolArgs`. Faults per key.
 */

export type GeminiBehaviour =
  | { readonly kind: 'ok' }
  | { readonly kind: 'status'; readonly status: number; readonly grpcStatus: string; readonly message: string }
  /** Streams `chunks` answers, then destroys the connection. */
  | { readonly kind: 'dropMidStream'; readonly chunks: number }
  /** A non-JSON `data:` line between the answers. */
  | { readonly kind: 'malformedEvent' }
  /** A prompt blocked by safety: no candidates, `promptFeedback.blockReason`. */
  | { readonly kind: 'blocked' };

export interface GeminiRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly json: Record<string, unknown>;
}

export interface GeminiUpstream {
  readonly url: string;
  readonly requests: readonly GeminiRequest[];
  behave(key: string, behaviour: GeminiBehaviour): void;
  reset(): void;
  close(): Promise<void>;
}

export const geminiUsage = { promptTokenCount: 19, candidatesTokenCount: 8, thoughtsTokenCount: 5, totalTokenCount: 32 } as const;
/** Completion tokens the relay bills for `geminiUsage` (candidates + thoughts). */
export const geminiCompletionTokens = 8 + 5;
export const geminiReply = (model: string): string => `Gemini ${model} answers deterministically.`;
export const geminiPieces = (model: string): string[] => geminiReply(model).split(/(?= )/);
export const geminiToolArgs = { city: 'Berlin' } as const;
export const geminiVector = [0.5, -0.25];

const route = /^\/(v1|v1beta)\/models\/([^:/]+):(generateContent|streamGenerateContent|batchEmbedContents)(\?alt=sse)?$/;

export async function startGeminiUpstream(): Promise<GeminiUpstream> {
  const behaviours = new Map<string, GeminiBehaviour>();
  const requests: GeminiRequest[] = [];

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const fail = (status: number, grpcStatus: string, message: string) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify({ error: { code: status, message, status: grpcStatus } }));
    };
    const matched = route.exec(req.url ?? '');
    if (req.method !== 'POST' || matched === null) return fail(404, 'NOT_FOUND', `Requested entity was not found: ${req.url}`);
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return fail(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    requests.push({ path: req.url ?? '', headers: req.headers, json });
    const key = String(req.headers['x-goog-api-key'] ?? '');
    if (key === '') return fail(403, 'PERMISSION_DENIED', 'Method doesn\'t allow unregistered callers.');
    const behaviour = behaviours.get(key) ?? { kind: 'ok' };
    if (behaviour.kind === 'status') return fail(behaviour.status, behaviour.grpcStatus, behaviour.message);
    const model = matched[2] ?? '';
    const method = matched[3];

    if (method === 'batchEmbedContents') {
      const count = Array.isArray(json.requests) ? json.requests.length : 0;
      res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify({ embeddings: Array.from({ length: count }, () => ({ values: geminiVector })) }));
      return;
    }
    if (behaviour.kind === 'blocked') {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 19, totalTokenCount: 19 } }));
      return;
    }
    const tools = Array.isArray(json.tools) ? (json.tools as { functionDeclarations?: { name?: string }[] }[]) : [];
    const contents = Array.isArray(json.contents) ? (json.contents as { parts?: Record<string, unknown>[] }[]) : [];
    const lastIsResponse = (contents.at(-1)?.parts ?? []).some((p) => p.functionResponse !== undefined);
    const tool = tools[0]?.functionDeclarations?.[0]?.name;
    const callsTool = tool !== undefined && !lastIsResponse;
    const base = { modelVersion: model, responseId: `resp-${requests.length}` };

    if (method === 'generateContent') {
      const parts = callsTool ? [{ functionCall: { name: tool, args: geminiToolArgs } }] : [{ text: geminiReply(model) }];
      res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: geminiUsage, ...base }));
      return;
    }

    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const pieces = callsTool ? [] : geminiPieces(model);
    for (const [i, text] of pieces.entries()) {
      if (behaviour.kind === 'dropMidStream') {
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (i === behaviour.chunks) {
          res.destroy();
          return;
        }
      }
      if (behaviour.kind === 'malformedEvent' && i === 1) res.write('data: {"candidates": [\r\n\r\n');
      const usageMetadata = { promptTokenCount: 19, candidatesTokenCount: i + 1, totalTokenCount: 20 + i };
      res.write(`data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }], usageMetadata, ...base })}\r\n\r\n`);
    }
    const finalParts = callsTool ? [{ functionCall: { name: tool, args: geminiToolArgs } }] : [{ text: '' }];
    res.end(`data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: finalParts }, finishReason: 'STOP', index: 0 }], usageMetadata: geminiUsage, ...base })}\r\n\r\n`);
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
