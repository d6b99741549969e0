import { expect } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../../server/db/schema';
import { bodyMessages, smallBodyBytes } from '../../../server/http/bodyGuard';
import { maxBodyBytes } from '../../../server/http/validate';
import { dumpDatabase, insertUser } from './db';
import type { Client, Reply } from './http';

/**
 * Shared pieces of the bad-input suites (tests/server/bad-input-*.test.ts): callers that pass a
 * route's guard with an access token, the before/after database comparison, and tables of hostile
 * values with the message Go's JSON decoder gives for them.
 */

type Db = Kysely<Database>;

/** One request of a case. `raw` is sent as is; otherwise `body` is JSON-encoded. */
export interface Probe {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly raw?: string;
  readonly headers?: Record<string, string>;
}

/** What a refusal must look like: HTTP status (200 unless given) and the exact JSON body. */
export interface Refusal {
  readonly status?: number;
  readonly body: unknown;
}

/** A user who authenticates with `Authorization: <access token>` (no session row is written). */
export interface Caller {
  readonly id: number;
  readonly username: string;
  readonly headers: Record<string, string>;
}

let callerCount = 0;

/** Inserts a user with a fresh 32-hex access token; its requests carry that token. */
export async function makeCaller(db: Db, username: string, role: number, password = 'password123'): Promise<Caller> {
  callerCount += 1;
  const accessToken = `${String(callerCount).padStart(4, '0')}${username}`.padEnd(32, '0').slice(0, 32);
  const id = await insertUser(db, { username, password, role, accessToken });
  return { id, username, headers: { Authorization: accessToken } };
}

/**
 * Every row of every table as JSON, except `sessions.last_seen_at`, which the guards refresh on
 * any request (at most once a minute) and is therefore not a write made by the route under test.
 */
export async function stableDump(db: Db): Promise<string> {
  const tables = JSON.parse(await dumpDatabase(db)) as Record<string, Record<string, unknown>[]>;
  for (const row of tables.sessions ?? []) delete row.last_seen_at;
  return JSON.stringify(tables);
}

/** Sends `probe` from `client` as `caller` (or anonymously). */
export function send(client: Client, caller: Caller | null, probe: Probe): Promise<Reply> {
  const headers = { ...caller?.headers, ...probe.headers };
  return client.request(probe.method, probe.path, probe.raw === undefined ? { headers, body: probe.body } : { headers, rawBody: probe.raw });
}

/** Sends `probe`, expects `refusal` exactly and the database unchanged. */
export async function expectRefused(db: Db, client: Client, caller: Caller | null, probe: Probe, refusal: Refusal): Promise<Reply> {
  const before = await stableDump(db);
  const reply = await send(client, caller, probe);
  expect(reply.status, reply.text.slice(0, 300)).toBe(refusal.status ?? 200);
  expect(reply.body, reply.text.slice(0, 300)).toEqual(refusal.body);
  expect(await stableDump(db)).toBe(before);
  return reply;
}

/** Sends `probe`, expects a `success:false` envelope (any message) and the database unchanged. */
export async function expectSomeFailure(db: Db, client: Client, caller: Caller | null, probe: Probe): Promise<Reply> {
  const before = await stableDump(db);
  const reply = await send(client, caller, probe);
  expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  expect(reply.body, reply.text.slice(0, 300)).toMatchObject({ success: false, message: expect.any(String) });
  expect(Object.keys(reply.body as object).sort()).toEqual(['message', 'success']);
  expect((reply.body as { message: string }).message).not.toBe('');
  expect(await stableDump(db)).toBe(before);
  return reply;
}

/** The envelope of a failure. */
export const failure = (message: string): { success: false; message: string } => ({ success: false, message });

/** i18n `invalid_parameter` / `invalid_input` in English (no Accept-Language). */
export const invalidParameter = failure('invalid parameter');
export const invalidInput = failure('Invalid input, please check your input');

// ---------------------------------------------------------------------------------------------
// Values

/** A 1 MiB string. */
export const oneMegabyte = 'x'.repeat(1024 * 1024);

/** A JSON body just over the server's body limit. */
export const overLimitBody = (field: string): string => JSON.stringify({ [field]: 'x'.repeat(maxBodyBytes) });

/** The refusal of a body over the route's size limit (4 MB; 16 KB on login, register and reset), in English. */
export const bodyTooLarge = (limit: number = maxBodyBytes) => failure(bodyMessages.tooLarge(limit).en);
/** The refusal of a login, register or reset body over its 16 KB. */
export const smallBodyTooLarge = bodyTooLarge(smallBodyBytes);
/** The refusal of a body nested deeper than 32 levels, in English. */
export const bodyTooDeep = failure(bodyMessages.tooDeep(32).en);
/** A body nested 20,000 levels deep. */
export const deeplyNested = `${'['.repeat(20000)}${']'.repeat(20000)}`;

/** Strings that must be stored and returned byte-identical wherever a free-text field accepts them. */
export const hostileStrings: readonly [string, string][] = [
  ['SQL tautology', "' OR '1'='1"],
  ['SQL drop', "'; DROP TABLE users; --"],
  ['script tag', '<script>alert(1)</script>'],
  ['LIKE and escapes', String.raw`%_\'"\n`],
  ['unicode', 'é中😀\u202e\u200b'],
];

/** Bodies that are not JSON objects, and the text Go's decoder gives for each (null → any message). */
export const malformedBodies = (goValue: string): readonly [string, string, string | null][] => [
  ['empty body', '', 'EOF'],
  ['whitespace body', '  \n ', 'EOF'],
  ['form encoding', 'a=1&b=2', null],
  ['truncated JSON', '{"name":"x"', null],
  ['trailing garbage', '{"name":"x"}}', null],
  ['single quotes', "{'name':'x'}", null],
  ['deeply nested JSON', deeplyNested, bodyTooDeep.message],
  ['JSON array', '[{"name":"x"}]', `json: cannot unmarshal array into Go value of type ${goValue}`],
  ['JSON string', '"x"', `json: cannot unmarshal string into Go value of type ${goValue}`],
  ['JSON number', '42', `json: cannot unmarshal number into Go value of type ${goValue}`],
  ['JSON boolean', 'true', `json: cannot unmarshal bool into Go value of type ${goValue}`],
];

/** Go field types as the decoder names them. */
export type GoType = 'int' | 'int64' | 'uint' | 'float64' | 'string' | 'bool';

/** Raw JSON values of the wrong type for a field of Go type `type` (label, JSON text). */
export function wrongTypes(type: GoType): [string, string][] {
  const strings: [string, string][] = [['string', '"1"'], ['empty string', '""']];
  const numbers: [string, string][] = [['number', '1'], ['fraction', '1.5'], ['negative', '-7']];
  const integers: [string, string][] = [['fraction', '1.5'], ['huge', '100000000000000000000']];
  const others: [string, string][] = [['true', 'true'], ['false', 'false'], ['array', '[1]'], ['empty array', '[]'], ['object', '{"a":1}'], ['empty object', '{}']];
  switch (type) {
    case 'string':
      return [...numbers, ...others];
    case 'bool':
      return [...strings, ...numbers, ['array', '[true]'], ['object', '{}']];
    case 'float64':
      return [...strings, ...others];
    case 'uint':
      return [...strings, ...integers, ['negative', '-1'], ...others];
    default:
      return [...strings, ...integers, ...others];
  }
}

/** Go's UnmarshalTypeError text for `raw` (JSON text) bound to `struct.field` of type `type`. */
export function goTypeError(struct: string, field: string, type: GoType, raw: string): string {
  const first = raw.trim()[0];
  const isNumber = first === '-' || (first !== undefined && first >= '0' && first <= '9');
  const integer = type === 'int' || type === 'int64' || type === 'uint';
  const kind = isNumber
    ? integer
      ? `number ${raw}`
      : 'number'
    : first === '"'
      ? 'string'
      : first === '['
        ? 'array'
        : first === '{'
          ? 'object'
          : 'bool';
  return `json: cannot unmarshal ${kind} into Go struct field ${struct}.${field} of type ${type}`;
}

/** `{...base, [field]: <raw JSON>}` as JSON text (the raw value written verbatim). */
export function withRaw(base: Record<string, unknown>, field: string, raw: string): string {
  const rest = JSON.stringify(Object.fromEntries(Object.entries(base).filter(([k]) => k !== field)));
  return `{${JSON.stringify(field)}:${raw}${rest === '{}' ? '}' : `,${rest.slice(1)}`}`;
}
