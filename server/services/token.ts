import { randomInt, randomUUID } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import type { Kysely } from 'kysely';
import { tokenStatusEnabled } from '../../src/domain/constants';
import type { Database, TokenRow } from '../db/schema';
import { topLevelNumberLiterals } from '../http/jsonLiterals';
import { goStrings } from '../http/validate';

/**
 * Relay API keys ("tokens", contract §2.1.2, §2.7, §3.1.2): JSON shape, key generation, the
 * create/update checks one-api makes, and the caller-scoped queries. Shared helpers for the
 * redemption module (Go-style id parsing, body codecs) live here too.
 */

type Db = Kysely<Database>;

/** Page size (contract §1.8). */
export const itemsPerPage = 10;

// ---------------------------------------------------------------------------------------------
// Codecs for request bodies, with Go's JSON decoding semantics: omitted or `null` fields take the
// zero value, unknown fields are ignored, numbers must be integers where the Go field is one.

/** A string PostgreSQL can store (no NUL character); refused on both dialects so they agree. */
export const StoredString = t.refinement(t.string, (s) => !s.includes('\u0000'), 'string');

/** A JSON number that fits a Go integer field (and a JS double exactly). */
export const GoInt = t.refinement(t.number, (n) => Number.isSafeInteger(n), 'integer');

/** An optional field: absent or null decode to undefined. */
const opt = <C extends t.Mixed>(codec: C) => t.union([codec, t.null, t.undefined]);

/** Body of `POST /api/token/` and `PUT /api/token/` (one-api decodes both into a Token). */
export const TokenBody = t.partial({
  id: opt(GoInt),
  status: opt(GoInt),
  name: opt(StoredString),
  expired_time: opt(GoInt),
  remain_quota: opt(GoInt),
  unlimited_quota: opt(t.boolean),
  models: opt(StoredString),
  subnet: opt(StoredString),
});
export type TokenBody = t.TypeOf<typeof TokenBody>;

// ---------------------------------------------------------------------------------------------
// Go-compatible JSON body decoding: one-api binds bodies into Go structs, whose decoder matches
// keys case-insensitively, ignores unknown keys, treats `null` as "leave unset", and reports the
// first type mismatch as `json: cannot unmarshal <json kind> into Go struct field <S>.<f> of type <t>`.

/** The Go type of a struct field, as the decoder names it. */
export type GoFieldType = 'int' | 'int64' | 'string' | '*string' | 'bool';

/** A Go struct a body is bound to: its (qualified) name and its JSON fields. */
export interface GoStruct {
  /** e.g. `model.Token` (used for top-level mismatches). */
  readonly qualifiedName: string;
  readonly fields: Readonly<Record<string, GoFieldType>>;
  /** Refuse strings holding NUL (default true: they are stored, and PostgreSQL cannot store NUL). */
  readonly rejectNul?: boolean;
}

/** The tokens struct (every JSON field, also those the handlers ignore: a mismatch there still fails). */
export const goToken: GoStruct = {
  qualifiedName: 'model.Token',
  fields: {
    id: 'int', user_id: 'int', key: 'string', status: 'int', name: 'string', created_time: 'int64',
    accessed_time: 'int64', expired_time: 'int64', remain_quota: 'int64', unlimited_quota: 'bool',
    used_quota: 'int64', models: '*string', subnet: '*string',
  },
};

/** The JSON kind Go's decoder names in its error (numbers carry their literal for integer fields). */
function jsonKind(value: unknown, forInteger: boolean): string {
  if (typeof value === 'number') return forInteger ? `number ${String(value)}` : 'number';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  return Array.isArray(value) ? 'array' : 'object';
}

/** Whether a non-null JSON value fits a Go field type. */
function fitsGoType(value: unknown, type: GoFieldType): boolean {
  switch (type) {
    case 'int':
    case 'int64':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'bool':
      return typeof value === 'boolean';
    default:
      return typeof value === 'string';
  }
}

/** The struct field a JSON key binds to: exact name first, else a case-insensitive match. */
function fieldFor(struct: GoStruct, key: string): string | undefined {
  if (Object.hasOwn(struct.fields, key)) return key;
  const lower = key.toLowerCase();
  return Object.keys(struct.fields).find((name) => name.toLowerCase() === lower);
}

/**
 * Parses `text` as Go would bind it into `struct`, then decodes the bound fields with `codec`.
 * Left = the error message one-api would answer with (empty body → `EOF`). Strings holding NUL
 * are refused on every dialect unless `struct.rejectNul` is false.
 */
export function decodeGoJson<A>(text: string, struct: GoStruct, codec: t.Decoder<unknown, A>): E.Either<string, A> {
  if (text.trim() === '') return E.left('EOF');
  let value: unknown;
  try {
    value = JSON.parse(text, goStrings);
  } catch (error) {
    return E.left(error instanceof Error ? error.message : String(error));
  }
  if (value === null) value = {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    return E.left(`json: cannot unmarshal ${jsonKind(value, false)} into Go value of type ${struct.qualifiedName}`);
  }
  const bound: Record<string, unknown> = {};
  let firstError: string | null = null;
  // `1.0`, `1e3`, `4503599627370496.5` parse to integers: Go refuses such literals for an int field.
  const literals = topLevelNumberLiterals(text);
  const structName = struct.qualifiedName.slice(struct.qualifiedName.lastIndexOf('.') + 1);
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const field = fieldFor(struct, key);
    if (field === undefined) continue;
    const type = struct.fields[field]!;
    if (raw === null) {
      if (type === '*string') bound[field] = null;
      continue;
    }
    const integer = type === 'int' || type === 'int64';
    const literal = typeof raw === 'number' ? literals.get(key) : undefined;
    if (!fitsGoType(raw, type) || (integer && literal !== undefined && !/^-?\d+$/.test(literal))) {
      const kind = integer && literal !== undefined ? `number ${literal}` : jsonKind(raw, integer && typeof raw === 'number');
      firstError ??= `json: cannot unmarshal ${kind} into Go struct field ${structName}.${field} of type ${type.replace('*', '')}`;
      continue;
    }
    if (typeof raw === 'string' && raw.includes('\u0000') && struct.rejectNul !== false) {
      firstError ??= 'invalid byte sequence for encoding "UTF8": 0x00';
      continue;
    }
    bound[field] = raw;
  }
  if (firstError !== null) return E.left(firstError);
  const decoded = codec.decode(bound);
  return E.isRight(decoded) ? E.right(decoded.right) : E.left(`json: cannot unmarshal object into Go value of type ${struct.qualifiedName}`);
}

// ---------------------------------------------------------------------------------------------
// Go-compatible parsing of a path id.

/** Go's `strconv.Atoi`: an optional sign and decimal digits within int64, else its error text. */
export function goAtoi(raw: string): { ok: true; value: number } | { ok: false; message: string } {
  const quoted = JSON.stringify(raw);
  if (!/^[+-]?\d+$/.test(raw)) return { ok: false, message: `strconv.Atoi: parsing ${quoted}: invalid syntax` };
  const big = BigInt(raw);
  if (big > 9223372036854775807n || big < -9223372036854775808n) {
    return { ok: false, message: `strconv.Atoi: parsing ${quoted}: value out of range` };
  }
  // Ids beyond the safe range cannot exist; map them to a value that matches no row.
  const value = Number(big);
  return { ok: true, value: Number.isSafeInteger(value) ? value : -1 };
}

// ---------------------------------------------------------------------------------------------
// JSON shape.

/** The 13-field Token object of contract §2.1.2. */
export interface TokenJson {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  used_quota: number;
  models: string | null;
  subnet: string | null;
}

/** Token JSON of a row (NULLs of old rows become zero values; `models`/`subnet` keep null). */
export function tokenJson(row: TokenRow): TokenJson {
  return {
    id: row.id,
    user_id: row.user_id ?? 0,
    key: (row.key ?? '').trimEnd(),
    status: row.status,
    name: row.name ?? '',
    created_time: row.created_time ?? 0,
    accessed_time: row.accessed_time ?? 0,
    expired_time: row.expired_time,
    remain_quota: row.remain_quota,
    unlimited_quota: row.unlimited_quota ?? false,
    used_quota: row.used_quota,
    models: row.models,
    subnet: row.subnet,
  };
}

// ---------------------------------------------------------------------------------------------
// Key generation.

const keyAlphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** one-api's `GenerateKey`: 16 random alphanumerics + a UUID's 32 hex digits, letters at even indexes upper-cased. */
export function generateTokenKey(): string {
  let head = '';
  for (let i = 0; i < 16; i += 1) head += keyAlphabet[randomInt(keyAlphabet.length)];
  const uuid = randomUUID().replaceAll('-', '');
  const tail = [...uuid].map((ch, i) => (i % 2 === 0 ? ch.toUpperCase() : ch)).join('');
  return head + tail;
}

// ---------------------------------------------------------------------------------------------
// Validation (contract §2.7.4).

export const tokenMessages = {
  nameTooLong: '参数错误：令牌名称过长',
  invalidSubnet: '参数错误：无效的网段：',
  expired: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
  exhausted: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
  idRequired: 'id 或 userId 为空！',
  notFound: 'record not found',
} as const;

/** Maximum token name length in UTF-8 bytes. */
export const tokenNameMaxBytes = 30;

/** Go's `net.ParseCIDR` acceptance: `<IPv4 or IPv6 without zone>/<decimal prefix within the address size>`. */
export function isCidr(entry: string): boolean {
  const slash = entry.indexOf('/');
  if (slash < 0) return false;
  const address = entry.slice(0, slash);
  const mask = entry.slice(slash + 1);
  if (!/^\d+$/.test(mask) || address.includes('%')) return false;
  const bits = isIPv4(address) ? 32 : isIPv6(address) ? 128 : 0;
  return bits > 0 && Number(mask) <= bits;
}

/** The first invalid comma-separated CIDR entry's error, or null (one-api's `IsValidSubnets`). */
export function subnetError(subnet: string): string | null {
  for (const raw of subnet.split(',')) {
    const entry = raw.trim();
    if (!isCidr(entry)) return `failed to parse subnet: invalid CIDR address: ${entry}`;
  }
  return null;
}

/** The create/update checks: name ≤ 30 bytes, valid subnets (empty = any IP). Null when fine. */
export function checkTokenFields(body: TokenBody): string | null {
  if (Buffer.byteLength(body.name ?? '', 'utf8') > tokenNameMaxBytes) return tokenMessages.nameTooLong;
  const subnet = body.subnet ?? '';
  if (subnet !== '') {
    const error = subnetError(subnet);
    if (error !== null) return tokenMessages.invalidSubnet + error;
  }
  return null;
}

/** Why a stored token cannot be re-enabled (contract §2.7.5), or null. */
export function reenableError(stored: TokenRow, nowSeconds: number): string | null {
  if (stored.status === 3 && stored.expired_time !== -1 && stored.expired_time <= nowSeconds) return tokenMessages.expired;
  if (stored.status === 4 && stored.remain_quota <= 0 && !(stored.unlimited_quota ?? false)) return tokenMessages.exhausted;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Queries, always scoped to the owner.

/** A LIKE prefix pattern can match only strings without NUL (PostgreSQL refuses NUL in text). */
const searchable = (value: string): boolean => !value.includes('\u0000');

/** One page of the owner's tokens; `order` per contract §1.8 (id desc as the final tie-break). */
export function listTokens(db: Db, userId: number, page: number, order: string): Promise<TokenRow[]> {
  let query = db.selectFrom('tokens').selectAll().where('user_id', '=', userId);
  if (order === 'remain_quota') query = query.orderBy('unlimited_quota', 'desc').orderBy('remain_quota', 'desc');
  else if (order === 'used_quota') query = query.orderBy('used_quota', 'desc');
  return query
    .orderBy('id', 'desc')
    .limit(itemsPerPage)
    .offset(page * itemsPerPage)
    .execute();
}

/** Every token of the owner whose name starts with `keyword` (LIKE prefix, unescaped). */
export async function searchTokens(db: Db, userId: number, keyword: string): Promise<TokenRow[]> {
  if (!searchable(keyword)) return [];
  return db
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('name', 'like', `${keyword}%`)
    .orderBy('id')
    .execute();
}

/** The owner's token with `id`, or undefined. */
export function findOwnToken(db: Db, id: number, userId: number): Promise<TokenRow | undefined> {
  return db.selectFrom('tokens').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Inserts a new token for `userId` as one-api's ORM does: zero `expired_time` takes the column
 * default -1, an absent `subnet` the default '', status 1, used quota 0.
 */
export async function createToken(db: Db, userId: number, body: TokenBody, nowSeconds: number): Promise<TokenRow> {
  const expired = body.expired_time ?? 0;
  return db
    .insertInto('tokens')
    .values({
      user_id: userId,
      key: generateTokenKey(),
      status: tokenStatusEnabled,
      name: body.name ?? '',
      created_time: nowSeconds,
      accessed_time: nowSeconds,
      expired_time: expired === 0 ? -1 : expired,
      remain_quota: body.remain_quota ?? 0,
      unlimited_quota: body.unlimited_quota ?? false,
      used_quota: 0,
      models: body.models ?? null,
      subnet: body.subnet ?? '',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The six fields a full update overwrites (omitted → zero / null). */
export const fullUpdateOf = (body: TokenBody) => ({
  name: body.name ?? '',
  expired_time: body.expired_time ?? 0,
  remain_quota: body.remain_quota ?? 0,
  unlimited_quota: body.unlimited_quota ?? false,
  models: body.models ?? null,
  subnet: body.subnet ?? null,
});

/** Writes `changes` to the owner's token and returns the new row (undefined when it vanished). */
export function updateOwnToken(
  db: Db,
  id: number,
  userId: number,
  changes: Partial<ReturnType<typeof fullUpdateOf>> & { status?: number },
): Promise<TokenRow | undefined> {
  return db
    .updateTable('tokens')
    .set(changes)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the owner's token; false when there was none. */
export async function deleteOwnToken(db: Db, id: number, userId: number): Promise<boolean> {
  const result = await db.deleteFrom('tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
