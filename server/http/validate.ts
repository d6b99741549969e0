import type { Context, MiddlewareHandler } from 'hono';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { apiMaxBytes, apiMaxDepth, guardApiBody, nestedDeeperThan } from './bodyGuard';

/** JSON.parse reviver: an unpaired UTF-16 surrogate escape (`"\ud800"`) becomes U+FFFD, as Go's decoder does. */
export const goStrings = (_key: string, value: unknown): unknown =>
  typeof value === 'string' ? value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd') : value;

/**
 * Request decoding with io-ts codecs (conventions §5): every body and query is decoded before
 * the database is touched. A failure is a value (`Left`), never an exception, so a bad request
 * can only produce an envelope error — never a 500 and never a write.
 */

/** Largest accepted /api request body (bytes; 16 KB on login, register and reset: see bodyGuard.ts). */
export const maxBodyBytes = apiMaxBytes;

/** Why a request could not be decoded. */
export interface DecodeFailure {
  readonly reason: 'not_json' | 'invalid';
  /** A readable description (decoder path report or JSON parser message). */
  readonly detail: string;
}

/**
 * Rejects bodies over the route's size (HTTP 200, a localised message naming the limit; the rest
 * of the body is not read, so the connection is closed) or nested deeper than 32 levels, before
 * any handler parses them (bodyGuard.ts).
 */
export const limitBody = (): MiddlewareHandler => guardApiBody();

/** Renders io-ts errors as `path: expected type` lines. */
export function describeErrors(errors: t.Errors): string {
  return errors
    .map((e) => {
      const path = e.context.map((entry) => entry.key).filter((key) => key !== '').join('.');
      const expected = e.context[e.context.length - 1]?.type.name ?? 'value';
      return `${path === '' ? '(root)' : path}: expected ${expected}`;
    })
    .join('; ');
}

/** Decodes an already parsed value with `codec`. */
export function decodeValue<A>(codec: t.Decoder<unknown, A>, value: unknown): E.Either<DecodeFailure, A> {
  const result = codec.decode(value);
  return E.isRight(result) ? E.right(result.right) : E.left({ reason: 'invalid', detail: describeErrors(result.left) });
}

/** Reads the body as JSON (whatever the Content-Type, as one-api does) and decodes it with `codec`. */
export async function decodeBody<A>(c: Context, codec: t.Decoder<unknown, A>): Promise<E.Either<DecodeFailure, A>> {
  let value: unknown;
  try {
    const text = await c.req.text();
    // (the /api middleware refused such bodies already; this keeps JSON.parse's recursion bounded anywhere)
    if (nestedDeeperThan(text, apiMaxDepth)) return E.left({ reason: 'not_json', detail: `nested deeper than ${apiMaxDepth} levels` });
    value = JSON.parse(text, goStrings);
  } catch (error) {
    return E.left({ reason: 'not_json', detail: error instanceof Error ? error.message : String(error) });
  }
  return decodeValue(codec, value);
}

/** Decodes the query string (first value of each parameter) with `codec`. */
export function decodeQuery<A>(c: Context, codec: t.Decoder<unknown, A>): E.Either<DecodeFailure, A> {
  return decodeValue(codec, c.req.query());
}

/** A string that is not empty (one-api treats "" in required fields as missing). */
export const NonEmptyString = t.refinement(t.string, (s) => s !== '', 'NonEmptyString');

/** Query parameter `p`: zero-based page index; missing, non-numeric or negative → 0 (contract §1.8). */
export function pageIndex(c: Context): number {
  const raw = c.req.query('p') ?? '';
  const n = /^\d+$/.test(raw) ? Number(raw) : 0;
  return Number.isSafeInteger(n) ? n : 0;
}
