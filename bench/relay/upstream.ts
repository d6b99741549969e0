// The fake upstream of the relay bench, run as its own process (`node --import tsx
// bench/relay/upstream.ts`): a node:http server on a free loopback port that answers
// POST …/chat/completions at once with a fixed small completion (usage included), or, when the
// body asks for `"stream": true`, with 10 SSE content chunks, a usage chunk and `[DONE]` (one
// write each, no delay). Every answer is pre-built so the fake costs as little as possible: the
// bench measures the gateway, not this. A path starting with `/slow` plays a provider instead:
// the answer (non-streaming) or the headers and first event (streaming; the rest follow at once)
// come after BENCH_UPSTREAM_DELAY_MS (100), so the gateway is measured with many requests in
// flight and waiting, as it is in production. A path ending in `/v1/messages` plays Anthropic's
// Messages API instead (the same words and usage as a whole message, or as Anthropic's stream of
// named events), for the gateway's translated (native wire) scenario. A path starting with `/tokens`
// plays a provider generating a long answer (the many-streams scenario, bench/relay/streams.ts): a
// streamed answer's headers and first token come after BENCH_STREAM_FIRST_MS (100), then one token
// every BENCH_STREAM_TOKEN_MS (500) until BENCH_STREAM_SECONDS (10) have passed, each chunk
// stamped (`"t"`) with the shared monotonic clock in µs as it is written (bench/relay/clock.ts), so
// the load generator can tell how long it took to arrive; then the usage chunk (completion_tokens:
// the tokens sent) and `[DONE]`. Prints `listening <port>` once ready.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { nowMicros } from './clock';
import { serveUntilStopped } from './serve';
import { streamShapeOf, tokensPerStream } from './streamShape';

const model = 'gpt-3.5-turbo';
const created = 1_700_000_000;
const usage = { prompt_tokens: 9, completion_tokens: 10, total_tokens: 19 };
const words = ['This', ' is', ' a', ' small', ' fixed', ' answer', ' from', ' the', ' fake', ' upstream.'];

/** The non-streaming answer, serialised once. */
const completionBody = Buffer.from(
  JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: words.join('') }, logprobs: null, finish_reason: 'stop' }],
    usage,
  }),
);

/** One `data:` event of a chunk with `choices` and optional `usage`. */
const event = (choices: unknown[], extra: Record<string, unknown> = {}): Buffer =>
  Buffer.from(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`);

/** The streaming answer: 10 content chunks (role on the first, finish_reason on the last), the usage chunk, [DONE]. */
const streamEvents: readonly Buffer[] = [
  ...words.map((content, i) =>
    event([{ index: 0, delta: i === 0 ? { role: 'assistant', content } : { content }, logprobs: null, finish_reason: i === words.length - 1 ? 'stop' : null }]),
  ),
  event([], { usage }),
  Buffer.from('data: [DONE]\n\n'),
];

/** How long a `/slow` path waits before answering (ms). */
const delayMs = ((): number => {
  const raw = process.env.BENCH_UPSTREAM_DELAY_MS;
  const n = raw === undefined || raw === '' ? 100 : Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error('BENCH_UPSTREAM_DELAY_MS must be a non-negative number');
  return n;
})();

/** The `/tokens` answers' timing. */
const tokenStream = streamShapeOf(process.env);

/** A token chunk's text around its stamp and its content (built once). */
const tokenChunkHead = `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":${created},"model":"${model}","t":`;
const tokenChunk = (t: number, first: boolean, last: boolean): string =>
  `${tokenChunkHead}${Math.round(t)},"choices":[{"index":0,"delta":{${first ? '"role":"assistant",' : ''}"content":" token"},"logprobs":null,"finish_reason":${last ? '"stop"' : 'null'}}]}\n\n`;

/**
 * A `/tokens` stream: a timer per answer, each token scheduled from the answer's start (not from the
 * token before, so the pace does not drift); a client gone stops it.
 */
function streamTokens(res: ServerResponse): void {
  const count = tokensPerStream(tokenStream);
  const start = performance.now();
  let sent = 0;
  let timer: NodeJS.Timeout | null = null;
  res.on('close', () => {
    if (timer !== null) clearTimeout(timer);
  });
  const next = (): void => {
    timer = null;
    if (res.destroyed) return;
    if (sent === 0) res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const last = sent === count - 1;
    const chunk = tokenChunk(nowMicros(), sent === 0, last);
    sent += 1;
    if (last) {
      const usageChunk = event([], { usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: count, total_tokens: usage.prompt_tokens + count } });
      res.end(`${chunk}${usageChunk.toString()}data: [DONE]\n\n`);
      return;
    }
    res.write(chunk);
    timer = setTimeout(next, Math.max(0, start + tokenStream.firstMs + sent * tokenStream.everyMs - performance.now()));
  };
  timer = setTimeout(next, tokenStream.firstMs);
}

/** Anthropic's whole message for the same answer (Messages API). */
const messageBody = Buffer.from(
  JSON.stringify({
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model: 'claude-bench',
    content: [{ type: 'text', text: words.join('') }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens },
  }),
);

/** One named event of Anthropic's stream. */
const namedEvent = (type: string, data: Record<string, unknown>): Buffer => Buffer.from(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);

/** Anthropic's stream of the same answer: message_start, one text block of 10 deltas, message_delta (usage), message_stop. */
const messageEvents: readonly Buffer[] = [
  namedEvent('message_start', {
    message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'claude-bench', content: [], stop_reason: null, usage: { input_tokens: usage.prompt_tokens, output_tokens: 1 } },
  }),
  namedEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ...words.map((text) => namedEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
  namedEvent('content_block_stop', { index: 0 }),
  namedEvent('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.completion_tokens } }),
  namedEvent('message_stop', {}),
];

const notFound = Buffer.from(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));

/** Whether the JSON body asks for a stream (a substring test is enough for the bench's own bodies, and cheap). */
const wantsStream = (body: string): boolean => /"stream"\s*:\s*true/.test(body);

function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  const path = (req.url ?? '').split('?')[0]!;
  const anthropic = path.endsWith('/v1/messages');
  if (req.method !== 'POST' || !(anthropic || path.endsWith('/chat/completions'))) {
    res.writeHead(404, { 'Content-Type': 'application/json', 'Content-Length': notFound.length });
    res.end(notFound);
    return;
  }
  if (!wantsStream(body)) {
    const whole = anthropic ? messageBody : completionBody;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': whole.length });
    res.end(whole);
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const events = anthropic ? messageEvents : streamEvents;
  const last = events.length - 1;
  events.forEach((chunk, i) => (i === last ? res.end(chunk) : res.write(chunk)));
}

/** Answers at once, or after the delay on a `/slow` path (a client gone meanwhile is not an error: the writes are dropped). */
function answerInTime(req: IncomingMessage, res: ServerResponse, body: string): void {
  if ((req.url ?? '').startsWith('/tokens') && req.method === 'POST' && wantsStream(body)) {
    streamTokens(res);
    return;
  }
  if (delayMs > 0 && (req.url ?? '').startsWith('/slow')) setTimeout(() => answer(req, res, body), delayMs);
  else answer(req, res, body);
}

const server = createServer({ keepAlive: true, noDelay: true }, (req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => answerInTime(req, res, body));
});
serveUntilStopped(server);
