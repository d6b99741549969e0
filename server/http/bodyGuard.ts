import type { Context, MiddlewareHandler } from 'hono';
import { fail } from './envelope';

/**
 * Request bodies are refused past a size and a JSON nesting depth before anything parses them
 * (JSON.parse of a body nested 1.9 M levels deep held the event loop for seconds, and 100 k
 * levels overflowed the stack). The depth is found by one linear scan that skips strings with
 * `indexOf`, so even a 32 MB body of base64 costs milliseconds; JSON.parse then never recurses
 * deeper than the limit.
 *
 * /api bodies (this module's middleware, mounted for every /api route): 16 KB for the routes
 * anyone may call without signing in (login, register, password reset), 4 MB for the rest (a
 * notice, a home page, a channel batch or a system prompt can be long), and 32 levels of
 * nesting and 100,000 array items and object members everywhere (no /api body nests more than
 * three levels or needs more than 10,000 values). A refusal is the usual envelope,
 * HTTP 200, naming the limit in the request's language. /v1 bodies: see server/relay/auth.ts.
 */

/** What one route accepts. */
export interface BodyLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly maxMembers: number;
}

/** Nesting accepted in /api bodies. */
export const apiMaxDepth = 32;
/** Array items and object members accepted in /api bodies (the largest, a channel test run, names at most 10,000 ids). */
export const apiMaxMembers = 100_000;
/** Bytes accepted by the routes below (anyone may call them). */
export const smallBodyBytes = 16 * 1024;
/** Bytes accepted by the other /api routes. */
export const apiMaxBytes = 4 * 1024 * 1024;

/** Routes whose bodies are small (login, register, password reset): method and path without trailing slash. */
const smallBodyRoutes: ReadonlySet<string> = new Set(['POST /api/user/login', 'POST /api/user/register', 'POST /api/user/reset']);

/**
 * `path` without its trailing slashes. A loop, not `/\/+$/`: that regex is quadratic on a path of
 * many slashes not at its end (140 ms for 16,000, a request line any client may send).
 */
export function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end -= 1;
  return path.slice(0, end);
}

/** The limits of `method` `path` under /api. */
export function apiBodyLimits(method: string, path: string): BodyLimits {
  const route = `${method.toUpperCase()} ${trimTrailingSlashes(path)}`;
  return { maxBytes: smallBodyRoutes.has(route) ? smallBodyBytes : apiMaxBytes, maxDepth: apiMaxDepth, maxMembers: apiMaxMembers };
}

/**
 * Whether `text`, read as JSON, opens more than `maxDepth` arrays and objects at once. Brackets
 * inside strings do not count; an unterminated string ends the scan (JSON.parse refuses it).
 */
export const nestedDeeperThan = (text: string, maxDepth: number): boolean => jsonShapeRefusal(text, maxDepth, Number.POSITIVE_INFINITY) === 'too_deep';

/**
 * Why JSON.parse should not be given `text`: more than `maxDepth` levels of arrays and objects, or
 * more than `maxMembers` array items and object members (commas and colons outside strings: parsing
 * a million small objects took most of a second), else null. One linear scan.
 */
export function jsonShapeRefusal(text: string, maxDepth: number, maxMembers: number): 'too_deep' | 'too_many' | null {
  let depth = 0;
  let members = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) {
      // skip the string: the next quote not escaped by an odd run of backslashes
      let j = i + 1;
      for (;;) {
        j = text.indexOf('"', j);
        if (j < 0) return null;
        let backslashes = 0;
        while (text.charCodeAt(j - 1 - backslashes) === 0x5c) backslashes += 1;
        if (backslashes % 2 === 0) break;
        j += 1;
      }
      i = j;
    } else if (ch === 0x5b || ch === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return 'too_deep';
    } else if (ch === 0x5d || ch === 0x7d) {
      depth -= 1;
    } else if (ch === 0x2c || ch === 0x3a) {
      members += 1;
      if (members > maxMembers) return 'too_many';
    }
  }
  return null;
}

/** `bytes` as people read it: "16 KB", "4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/** Whether the request asks for Chinese (the rule of `localize` in envelope.ts). */
const wantsChinese = (c: Context): boolean => (c.req.header('Accept-Language') ?? '').toLowerCase().startsWith('zh');

/** The refusal texts, in English and Chinese. */
export const bodyMessages = {
  tooLarge: (limit: number) => ({ en: `request body too large: this route accepts at most ${formatBytes(limit)}`, zh: `请求体过大：此接口最多接受 ${formatBytes(limit)}` }),
  tooDeep: (limit: number) => ({ en: `request body nested too deeply: at most ${limit} levels of arrays and objects`, zh: `请求体嵌套过深：数组与对象最多 ${limit} 层` }),
  tooMany: (limit: number) => ({ en: `request body has too many values: at most ${limit} array items and object members`, zh: `请求体的值过多：数组元素与对象成员最多 ${limit} 个` }),
} as const;

/** The largest refused body (declared length) read and dropped before the refusal, and how long that may take. */
const drainedBytes = 8 * 1024 * 1024;
const drainedMs = 2000;

/** Reads `body` to its end and drops it, for at most `ms`; never throws. */
async function drain(body: ReadableStream<Uint8Array>, ms: number): Promise<void> {
  const reader = body.getReader();
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), ms);
  try {
    for (;;) if ((await reader.read()).done) break;
  } catch {
    // cancelled or broken: the refusal goes out anyway
  } finally {
    clearTimeout(timer);
  }
}

/** Reads a body of unknown length (chunked); null as soon as it exceeds `maxBytes` (the rest is not read). */
export async function readLimited(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Buffer | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/**
 * The /api body guard: the route's size limit (from Content-Length when given, else while the
 * body streams in) and its nesting limit, before any handler reads the body. The body read here
 * is what the handler reads (`c.req.text()` returns it again).
 */
export function guardApiBody(limitsOf: (method: string, path: string) => BodyLimits = apiBodyLimits): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    if (raw.body === null) return next();
    const limits = limitsOf(c.req.method, c.req.path);
    const refuse = (message: { en: string; zh: string }, close: boolean): Response => {
      if (close) c.header('Connection', 'close');
      return fail(c, wantsChinese(c) ? message.zh : message.en);
    };
    const declared = raw.headers.get('Content-Length');
    const chunked = raw.headers.has('Transfer-Encoding');
    let text: string;
    if (declared !== null && !chunked) {
      if (!(Number(declared) <= limits.maxBytes)) {
        // Read and dropped first when it is not huge: closing the connection while the client was
        // still sending made the kernel reset it, and the client often lost the refusal.
        if (Number(declared) <= drainedBytes) await drain(raw.body, drainedMs);
        return refuse(bodyMessages.tooLarge(limits.maxBytes), true);
      }
      text = await c.req.text();
    } else {
      const bytes = await readLimited(raw.body, limits.maxBytes);
      if (bytes === null) return refuse(bodyMessages.tooLarge(limits.maxBytes), true);
      // the handler reads the body from here
      c.req.raw = new Request(raw, { body: bytes.toString('utf8') });
      text = await c.req.text();
    }
    const refusal = jsonShapeRefusal(text, limits.maxDepth, limits.maxMembers);
    if (refusal === 'too_deep') return refuse(bodyMessages.tooDeep(limits.maxDepth), false);
    if (refusal === 'too_many') return refuse(bodyMessages.tooMany(limits.maxMembers), false);
    return next();
  };
}
