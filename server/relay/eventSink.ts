import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough, Readable, type Writable } from 'node:stream';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';

/**
 * Where a relayed stream's events go. On the Node server (@hono/node-server, as `npm start` and the
 * tests run it) they are written to the Node response itself: the status and headers leave with
 * the first events in one write, and the route answers Hono with "already sent". A web stream
 * between the pipeline and the socket (a `Response` body) cost about a sixth of a streamed
 * request's CPU in bench/relay. Elsewhere (no Node response, e.g. `app.request` in-process) the
 * events go through a web stream as an ordinary `Response`.
 *
 * Writes wait while the client is slow to read (backpressure), so the upstream is read only as
 * fast as the client takes the events: what is buffered for a client is at most one read of the
 * upstream beyond the socket's own buffer. A client that takes nothing for `stallMs` is
 * disconnected (it counts as gone), so that it cannot hold an upstream connection and its
 * reservation open forever.
 */
export interface EventSink {
  /** What the route answers. */
  readonly response: Response;
  /** Whether the client left before the end. */
  readonly gone: boolean;
  /**
   * Sends `text` (the first call sends status 200 and the headers with it): true when the client
   * can take more at once (no promise to wait for, the common case, once per event of every
   * stream), false when it left, or a promise of either once the client is slow to read.
   */
  write(text: string): boolean | Promise<boolean>;
  /** Sends `text` and ends the response; nothing once the client left. */
  end(text: string): void;
  /** Calls `listener` once if the client leaves before the end. */
  onGone(listener: () => void): void;
}

/** Whether the client of a request left before its answer was sent, and who to tell when it does. */
export interface ClientWatch {
  /** Whether the client left before its answer was sent. */
  readonly gone: boolean;
  /**
   * Calls `listener` once if the client leaves before its answer was sent (not when it already
   * left: read `gone` after watching); returns what stops watching.
   */
  watch(listener: () => void): () => void;
}

/**
 * The client watch of a request. On the Node server the response's own `close` is watched, as
 * @hono/node-server decides when to abort the request's signal (the response closed unfinished,
 * or the request errored): that signal is an AbortSignal made for the request when first read,
 * and making one and listening to it cost about as much as the relay's SQLite reads of a request
 * (an AbortSignal is an EventTarget given another prototype, slow to build and to listen to).
 * Elsewhere, the request's signal.
 */
export function clientWatchOf(c: Context): ClientWatch {
  const env = c.env as { incoming?: unknown; outgoing?: unknown } | undefined;
  const outgoing = env?.outgoing;
  const incoming = env?.incoming;
  if (typeof outgoing === 'object' && outgoing !== null && 'writeHead' in outgoing && typeof incoming === 'object' && incoming !== null && 'errored' in incoming) {
    const response = outgoing as ServerResponse;
    const request = incoming as IncomingMessage;
    const unfinished = (): boolean => request.errored !== null || !response.writableFinished;
    return {
      get gone() {
        return response.closed && unfinished();
      },
      watch: (listener) => {
        const onClose = (): void => {
          if (unfinished()) listener();
        };
        response.once('close', onClose);
        return () => response.off('close', onClose);
      },
    };
  }
  const signal = c.req.raw.signal;
  return {
    get gone() {
      return signal.aborted;
    },
    watch: (listener) => {
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
  };
}

/** The Node response of a request served by @hono/node-server, when nothing was sent on it yet. */
function nodeResponseOf(c: Context): ServerResponse | null {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (typeof outgoing !== 'object' || outgoing === null || !('writeHead' in outgoing)) return null;
  const response = outgoing as ServerResponse;
  return response.headersSent ? null : response;
}

/** Opens the sink of a 200 event stream with `headers`. */
export function openEventSink(c: Context, headers: Readonly<Record<string, string>>, stallMs = 0): EventSink {
  const outgoing = nodeResponseOf(c);
  if (outgoing !== null) return writableSink(outgoing, RESPONSE_ALREADY_SENT, (target) => target.writeHead(200, headers), stallMs, outgoing.socket);
  const pass = new PassThrough();
  const response = new Response(Readable.toWeb(pass) as ReadableStream<Uint8Array>, { status: 200, headers });
  return writableSink(pass, response, () => undefined, stallMs);
}

/**
 * A sink over a Node writable; `start` runs before the first write; a wait for `drain` longer than
 * `stallMs` (> 0) destroys it. With the response's `socket`, each write is sent at once (the socket
 * corked around it): a Node response left to itself corks the socket on each write and uncorks it
 * on the next tick, a `process.nextTick` per event of every stream (the chunk's size line, its
 * text and its end leave in one `writev` either way).
 */
function writableSink<W extends Writable>(target: W, response: Response, start: (target: W) => void, stallMs: number, socket: Writable | null = null): EventSink {
  let started = false;
  let gone = false;
  const listeners: (() => void)[] = [];
  target.once('close', () => {
    if (target.writableFinished) return;
    gone = true;
    for (const listener of listeners.splice(0)) listener();
  });
  const begin = (): void => {
    if (started) return;
    started = true;
    start(target);
  };
  return {
    response,
    get gone() {
      return gone;
    },
    write: (text) => {
      if (gone || target.writableEnded) return false;
      begin();
      let sent: boolean;
      if (socket === null || socket.writableCorked > 0) sent = target.write(text);
      else {
        socket.cork();
        try {
          sent = target.write(text);
        } finally {
          socket.uncork();
        }
      }
      if (sent) return true;
      return new Promise((resolve) => {
        const stalled = stallMs > 0 ? setTimeout(() => target.destroy(), stallMs) : null;
        const settle = (): void => {
          if (stalled !== null) clearTimeout(stalled);
          target.off('drain', settle);
          target.off('close', settle);
          resolve(!gone);
        };
        target.on('drain', settle);
        target.on('close', settle);
      });
    },
    end: (text) => {
      if (gone || target.writableEnded) return;
      begin();
      target.end(text);
    },
    onGone: (listener) => {
      if (gone) listener();
      else listeners.push(listener);
    },
  };
}
