import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import { channelStatusAutoDisabled, channelStatusEnabled, channelStatusManuallyDisabled } from '../../src/domain/constants';
import type { ChannelRow, Database } from '../db/schema';
import { deleteTagsOf, replaceTags, tagsOf, type TagEdit, joinList, channelIdsWithTag } from './channelTags';
import { catalogueModelsOf } from './typeModels';

/**
 * Channels and their derived abilities (contract §2.9, §3.1.3, §3.1.4): the Channel JSON shape,
 * the request body decoder (Go's JSON binding rules and error texts), and every write, each in one
 * transaction so that a failure leaves the database unchanged.
 */

type Db = Kysely<Database>;
type Tx = Transaction<Database>;

/** one-api's ORM text for a missing row. */
export const recordNotFound = 'record not found';
/** one-api's ORM text when a batch insert gets no rows (key empty or only newlines). */
export const emptySliceFound = 'empty slice found';

// ---------------------------------------------------------------------------------------------
// JSON shape

/** The 20-field Channel object of §2.1.3 (every field always present), plus our `tags`. */
export interface ChannelJson {
  id: number;
  type: number;
  key: string;
  status: number;
  name: string;
  weight: number | null;
  created_time: number;
  test_time: number;
  response_time: number;
  base_url: string | null;
  other: string | null;
  balance: number;
  balance_updated_time: number;
  models: string;
  group: string;
  used_quota: number;
  model_mapping: string | null;
  priority: number | null;
  config: string;
  system_prompt: string | null;
  /** Not in one-api (its console ignores it): the channel's tags, sorted. */
  tags: string[];
}

/** A channel row without its key (what list/search/get read). */
export type ChannelRowWithoutKey = Omit<ChannelRow, 'key'>;

/** Every column except `key`. */
const columnsWithoutKey = [
  'id',
  'type',
  'status',
  'name',
  'weight',
  'created_time',
  'test_time',
  'response_time',
  'base_url',
  'other',
  'balance',
  'balance_updated_time',
  'models',
  'group',
  'used_quota',
  'model_mapping',
  'priority',
  'config',
  'system_prompt',
] as const;

/**
 * Channel JSON of a row. NULLs of non-pointer Go fields become zero values; pointer fields
 * (weight, base_url, other, model_mapping, priority, system_prompt) stay null. The key is always
 * "" here: no route returns it (one-api's PUT response does, contract §6 #26 — fixed).
 */
export function channelJson(row: ChannelRowWithoutKey, tags: readonly string[] = []): ChannelJson {
  return {
    id: row.id,
    type: row.type,
    key: '',
    status: row.status,
    name: row.name ?? '',
    weight: row.weight,
    created_time: row.created_time ?? 0,
    test_time: row.test_time ?? 0,
    response_time: row.response_time ?? 0,
    base_url: row.base_url,
    other: row.other,
    balance: row.balance === null ? 0 : Number(row.balance),
    balance_updated_time: row.balance_updated_time ?? 0,
    models: row.models ?? '',
    group: row.group,
    used_quota: row.used_quota,
    model_mapping: row.model_mapping,
    priority: row.priority,
    config: row.config ?? '',
    system_prompt: row.system_prompt,
    tags: [...tags],
  };
}

/** Channel JSON of rows, each with its tags. */
async function withTags(db: Db | Tx, rows: readonly ChannelRowWithoutKey[]): Promise<ChannelJson[]> {
  const tags = await tagsOf(db, rows.map((row) => row.id));
  return rows.map((row) => channelJson(row, tags.get(row.id)));
}

// ---------------------------------------------------------------------------------------------
// Numbers as Go parses them

/** Go's `strconv.Atoi`: optional sign and decimal digits within int64, else its error text. */
export function goAtoi(raw: string): E.Either<string, number> {
  const quoted = JSON.stringify(raw);
  if (!/^[+-]?\d+$/.test(raw)) return E.left(`strconv.Atoi: parsing ${quoted}: invalid syntax`);
  const big = BigInt(raw);
  if (big > 9223372036854775807n || big < -9223372036854775808n) {
    return E.left(`strconv.Atoi: parsing ${quoted}: value out of range`);
  }
  return E.right(Number(big));
}

/** one-api's `String2Int` (search keyword → id): Atoi with the error mapped to 0. */
export const keywordId = (keyword: string): number => E.getOrElse(() => 0)(goAtoi(keyword));

// ---------------------------------------------------------------------------------------------
// Request body: a Go `model.Channel` bound from JSON

/** The Go types of the bindable fields and how their JSON is checked. */
type GoKind = 'int' | 'int64' | 'uint' | 'float64' | 'string';

/** A JSON value as Go's decoder names it in an UnmarshalTypeError (the literal only for integer targets). */
function jsonKind(value: unknown, integerTarget = false): string {
  if (typeof value === 'number') return integerTarget ? `number ${String(value)}` : 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

/** Whether `value` fits Go type `kind` (null/absent handled by the caller). */
function fitsGoKind(kind: GoKind, value: unknown): boolean {
  if (kind === 'string') return typeof value === 'string';
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (kind === 'float64') return true;
  if (!Number.isSafeInteger(value)) return false;
  return kind !== 'uint' || value >= 0;
}

/**
 * A codec for one field of Go type `kind`: JSON null and absence both decode to undefined
 * (Go leaves the field at its zero value / nil pointer); any other mismatch fails with Go's
 * UnmarshalTypeError text as the io-ts message.
 */
function goField<A>(kind: GoKind, field: string): t.Type<A | undefined, unknown> {
  return new t.Type<A | undefined, unknown>(
    `Go ${kind}`,
    (u): u is A | undefined => u === undefined || fitsGoKind(kind, u),
    (u, context) =>
      u === undefined || u === null
        ? t.success(undefined)
        : fitsGoKind(kind, u)
          ? t.success(u as A)
          : t.failure(u, context, `json: cannot unmarshal ${jsonKind(u, kind !== 'string' && kind !== 'float64')} into Go struct field Channel.${field} of type ${kind}`),
    (a) => a,
  );
}

const int = (f: string) => goField<number>('int', f);
const int64 = (f: string) => goField<number>('int64', f);
const uint = (f: string) => goField<number>('uint', f);
const str = (f: string) => goField<string>('string', f);

/**
 * Body of `POST /api/channel/` and `PUT /api/channel/`: the fields of one-api's Channel struct
 * (unknown keys such as the console's `groups` are ignored). The usage statistics a client might
 * echo back (`created_time`, `test_time`, `response_time`, `balance`, `balance_updated_time`,
 * `used_quota`) are type-checked like one-api does but never written (see `channelWrite`).
 */
export const ChannelBody = t.exact(
  t.type({
    id: int('id'),
    type: int('type'),
    key: str('key'),
    status: int('status'),
    name: str('name'),
    weight: uint('weight'),
    created_time: int64('created_time'),
    test_time: int64('test_time'),
    response_time: int('response_time'),
    base_url: str('base_url'),
    other: str('other'),
    balance: goField<number>('float64', 'balance'),
    balance_updated_time: int64('balance_updated_time'),
    models: str('models'),
    group: str('group'),
    used_quota: int64('used_quota'),
    model_mapping: str('model_mapping'),
    priority: int64('priority'),
    config: str('config'),
    system_prompt: str('system_prompt'),
  }),
);
export type ChannelBody = t.TypeOf<typeof ChannelBody>;

/** Decodes a parsed JSON body; the error is the text one-api's JSON binding gives. */
export function decodeChannelBody(value: unknown): E.Either<string, ChannelBody> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return E.left(`json: cannot unmarshal ${jsonKind(value)} into Go value of type model.Channel`);
  }
  const result = ChannelBody.decode(value);
  if (E.isRight(result)) return result;
  return E.left(result.left[0]?.message ?? 'invalid channel');
}

/** PostgreSQL's refusals, reported the same way on both dialects so that both stay unchanged. */
const tooLong = (n: number) => `ERROR: value too long for type character varying(${n}) (SQLSTATE 22001)`;
const nulByte = 'ERROR: invalid byte sequence for encoding "UTF8": 0x00 (SQLSTATE 22021)';

/** Column length limits (§3.1.3: `group` varchar(32), `model_mapping` varchar(1024)) and NUL bytes. */
export function checkStorable(body: ChannelBody): string | null {
  for (const value of Object.values(body)) {
    if (typeof value === 'string' && value.includes('\u0000')) return nulByte;
  }
  if (body.group !== undefined && [...body.group].length > 32) return tooLong(32);
  if (body.model_mapping !== undefined && [...body.model_mapping].length > 1024) return tooLong(1024);
  return null;
}

// ---------------------------------------------------------------------------------------------
// Abilities

/** Distinct values in first-seen order. */
const distinct = (values: readonly string[]): string[] => [...new Set(values)];

/**
 * The ability rows of a channel: models split on `,` and de-duplicated, groups split on `,`
 * (not trimmed; de-duplicated too — one-api fails on the primary key instead), one row per
 * (group, model) with `enabled = status == 1` and the channel's priority.
 */
export function abilityRows(channel: Pick<ChannelRow, 'id' | 'models' | 'group' | 'status' | 'priority'>) {
  const models = distinct((channel.models ?? '').split(','));
  const groups = distinct(channel.group.split(','));
  return groups.flatMap((group) =>
    models.map((model) => ({
      group,
      model,
      channel_id: channel.id,
      enabled: channel.status === channelStatusEnabled,
      priority: channel.priority ?? 0,
    })),
  );
}

/** Rows per INSERT (keeps bound parameters far below SQLite's and PostgreSQL's limits). */
const insertChunk = 500;

/** Deletes and re-creates the abilities of `channel`. */
async function rebuildAbilities(tx: Tx, channel: Parameters<typeof abilityRows>[0]): Promise<void> {
  await tx.deleteFrom('abilities').where('channel_id', '=', channel.id).execute();
  const rows = abilityRows(channel);
  for (let i = 0; i < rows.length; i += insertChunk) {
    await tx.insertInto('abilities').values(rows.slice(i, i + insertChunk)).execute();
  }
}

// ---------------------------------------------------------------------------------------------
// Reads

/** Page size (§1.8). */
export const itemsPerPage = 10;

/** Only the channels carrying `tag`. */
const taggedWith = (tag: string) => (eb: ExpressionBuilder<Database, 'channels'>) =>
  eb('id', 'in', eb.selectFrom('oa_channel_tags').select('oa_channel_tags.channel_id').where('oa_channel_tags.tag', '=', tag));

/** Page `p` of channels (only those carrying `tag` when given), id desc, without keys. */
export async function listChannels(db: Db, page: number, tag?: string): Promise<ChannelJson[]> {
  const offset = page * itemsPerPage;
  if (!Number.isSafeInteger(offset)) return [];
  const rows = await db
    .selectFrom('channels')
    .select(columnsWithoutKey)
    .$if(tag !== undefined, (qb) => qb.where(taggedWith(tag ?? '')))
    .orderBy('id', 'desc')
    .limit(itemsPerPage)
    .offset(offset)
    .execute();
  return withTags(db, rows);
}

/** Channels with `id = Atoi(keyword)` (0 when not a number) or `name LIKE keyword%`, without keys, id order. */
export async function searchChannels(db: Db, keyword: string, tag?: string): Promise<ChannelJson[]> {
  // PostgreSQL text cannot hold NUL (the query would fail); such a keyword matches nothing.
  if (keyword.includes('\u0000')) return [];
  const id = keywordId(keyword);
  const rows = await db
    .selectFrom('channels')
    .select(columnsWithoutKey)
    .where((eb) => eb.or([eb('id', '=', Number.isSafeInteger(id) ? id : 0), eb('name', 'like', `${keyword}%`)]))
    .$if(tag !== undefined, (qb) => qb.where(taggedWith(tag ?? '')))
    .orderBy('id')
    .execute();
  return withTags(db, rows);
}

/** One channel without its key, or undefined. */
export async function findChannel(db: Db | Tx, id: number): Promise<ChannelJson | undefined> {
  if (!Number.isSafeInteger(id)) return undefined;
  const row = await db.selectFrom('channels').select(columnsWithoutKey).where('id', '=', id).executeTakeFirst();
  if (row === undefined) return undefined;
  const [json] = await withTags(db, [row]);
  return json;
}

// ---------------------------------------------------------------------------------------------
// Writes

/**
 * The columns a create writes, as one-api's ORM does: zero values of columns with a database
 * default (type, status, weight, base_url, group, model_mapping, priority) take the default.
 * Statistics from the body are not written (a new channel starts with zero usage).
 */
function newChannelValues(body: ChannelBody, key: string, now: number) {
  return {
    type: body.type ?? 0,
    key,
    status: body.status === undefined || body.status === 0 ? channelStatusEnabled : body.status,
    name: body.name ?? '',
    weight: body.weight ?? 0,
    created_time: now,
    test_time: 0,
    response_time: 0,
    base_url: body.base_url ?? '',
    other: body.other ?? null,
    balance: 0,
    balance_updated_time: 0,
    models: body.models ?? '',
    group: body.group === undefined || body.group === '' ? 'default' : body.group,
    used_quota: 0,
    model_mapping: body.model_mapping ?? '',
    priority: body.priority ?? 0,
    config: body.config ?? '',
    system_prompt: body.system_prompt ?? null,
  };
}

/**
 * `POST /api/channel/`: one channel per non-empty line of `key` (lines not trimmed), all with
 * the same attributes, plus their abilities — in one transaction. Returns the new ids, or
 * `empty slice found` when no line remains.
 */
export async function createChannels(
  db: Db,
  body: ChannelBody,
  nowSeconds: number,
  tags: readonly string[] = [],
): Promise<E.Either<string, number[]>> {
  const keys = (body.key ?? '').split('\n').filter((line) => line !== '');
  if (keys.length === 0) return E.left(emptySliceFound);
  const ids = await db.transaction().execute(async (tx) => {
    const created: number[] = [];
    for (const key of keys) {
      const values = newChannelValues(body, key, nowSeconds);
      const { id } = await tx.insertInto('channels').values(values).returning('id').executeTakeFirstOrThrow();
      await rebuildAbilities(tx, { id, models: values.models, group: values.group, status: values.status, priority: values.priority });
      await replaceTags(tx, id, tags);
      created.push(id);
    }
    return created;
  });
  return E.right(ids);
}

/**
 * The columns a `PUT` writes (contract §2.9.6): plain fields only when non-zero, pointer fields
 * whenever present and non-null. Statistics (created/test/response time, balance, used quota) are
 * never written: the console echoes the values it loaded, which would roll back concurrent usage.
 */
function channelUpdate(body: Partial<ChannelBody>) {
  const nonZero = <A>(value: A | undefined, zero: A): A | undefined => (value === zero ? undefined : value);
  const update = {
    type: nonZero(body.type, 0),
    key: nonZero(body.key, ''),
    status: nonZero(body.status, 0),
    name: nonZero(body.name, ''),
    models: nonZero(body.models, ''),
    group: nonZero(body.group, ''),
    config: nonZero(body.config, ''),
    weight: body.weight,
    priority: body.priority,
    base_url: body.base_url,
    other: body.other,
    model_mapping: body.model_mapping,
    system_prompt: body.system_prompt,
  };
  return Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined)) as Partial<typeof update>;
}

/**
 * `PUT /api/channel/`: partial update, then the abilities are rebuilt from the stored row — in
 * one transaction. A missing id (or 0) is `record not found` (one-api would rebuild abilities
 * for a channel that does not exist). Returns the stored channel, key hidden.
 */
export async function updateChannel(
  db: Db,
  body: ChannelBody,
  tags?: readonly string[],
): Promise<E.Either<string, ChannelJson>> {
  return db.transaction().execute(async (tx) => {
    const updated = await updateChannelIn(tx, body);
    if (E.isLeft(updated) || tags === undefined) return updated;
    await replaceTags(tx, updated.right.id, tags);
    const stored = await findChannel(tx, updated.right.id);
    return stored === undefined ? E.left(recordNotFound) : E.right(stored);
  });
}

/**
 * The single-channel update inside `tx` (also the step of an edit by tag): lock the row, write
 * the given columns, rebuild the abilities from the stored row. Tags are left as they are.
 */
async function updateChannelIn(tx: Tx, body: Partial<ChannelBody>): Promise<E.Either<string, ChannelJson>> {
  const id = body.id ?? 0;
  // A no-op update first: it tells whether the row exists and, on PostgreSQL, locks it so that
  // concurrent updates of one channel rebuild its abilities one after the other.
  const locked = await tx
    .updateTable('channels')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', id)
    .executeTakeFirst();
  if (locked.numUpdatedRows === 0n) return E.left(recordNotFound);
  const update = channelUpdate(body);
  if (Object.keys(update).length > 0) await tx.updateTable('channels').set(update).where('id', '=', id).execute();
  const row = await tx.selectFrom('channels').select(columnsWithoutKey).where('id', '=', id).executeTakeFirstOrThrow();
  await rebuildAbilities(tx, row);
  const [json] = await withTags(tx, [row]);
  return E.right(json ?? channelJson(row));
}

/**
 * `PUT /api/channel/tag`: sets the given fields on every channel carrying the tag, each through
 * the single-channel update (so the abilities follow models, group, status and priority), all in
 * one transaction. Returns how many channels were changed.
 */
export async function updateChannelsByTag(db: Db, edit: TagEdit): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const ids = await channelIdsWithTag(tx, edit.tag);
    const body: Partial<ChannelBody> = {
      ...(edit.priority === undefined ? {} : { priority: edit.priority }),
      ...(edit.weight === undefined ? {} : { weight: edit.weight }),
      ...(edit.models === undefined ? {} : { models: joinList(edit.models) }),
      ...(edit.group === undefined ? {} : { group: joinList(edit.group) }),
      ...(edit.status === undefined ? {} : { status: edit.status }),
    };
    for (const id of ids) {
      const updated = await updateChannelIn(tx, { ...body, id });
      if (E.isLeft(updated)) throw new Error(`channel ${String(id)} vanished during an edit by tag`);
    }
    return ids.length;
  });
}

/** `DELETE /api/channel/:id`: the channel and its abilities (no existence check). */
export async function deleteChannel(db: Db, id: number): Promise<void> {
  if (!Number.isSafeInteger(id)) return;
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('channels').where('id', '=', id).execute();
    await tx.deleteFrom('abilities').where('channel_id', '=', id).execute();
    await deleteTagsOf(tx, [id]);
  });
}

/**
 * `DELETE /api/channel/disabled`: every channel with status 2 or 3; returns how many. Their
 * abilities are deleted too (one-api leaves them as orphans, contract §6 #28 — fixed).
 */
export async function deleteDisabledChannels(db: Db): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const disabled = [channelStatusManuallyDisabled, channelStatusAutoDisabled];
    const rows = await tx.selectFrom('channels').select('id').where('status', 'in', disabled).execute();
    const ids = rows.map((r) => r.id);
    for (let i = 0; i < ids.length; i += insertChunk) {
      const chunk = ids.slice(i, i + insertChunk);
      await tx.deleteFrom('channels').where('id', 'in', chunk).execute();
      await tx.deleteFrom('abilities').where('channel_id', 'in', chunk).execute();
      await deleteTagsOf(tx, chunk);
    }
    return ids.length;
  });
}

// ---------------------------------------------------------------------------------------------
// Groups and the model catalogue

/** The group names: keys of the GroupRatio option's JSON object ([] when it is not an object). */
export function groupNames(groupRatio: string): string[] {
  try {
    const parsed: unknown = JSON.parse(groupRatio);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? Object.keys(parsed) : [];
  } catch {
    return [];
  }
}

/** The permission entry every catalogue model carries. */
const modelPermission = {
  id: 'modelperm-LwHkVFn8AcMItP432fKKDIKJ',
  object: 'model_permission',
  created: 1626777600,
  allow_create_engine: true,
  allow_sampling: true,
  allow_logprobs: true,
  allow_search_indices: false,
  allow_view: true,
  allow_fine_tuning: false,
  organization: '*',
  group: null,
  is_blocking: false,
};

/**
 * Sources of the global catalogue (contract §3.6), in one-api's order: the adaptors by API type
 * (OpenAI, Anthropic, PaLM, Baidu, Zhipu, Ali, Xunfei, Tencent, Gemini, Ollama, AWS, Coze, Cohere,
 * Cloudflare, DeepL, VertexAI, Proxy, Replicate — AI Proxy library skipped), each with the model
 * list of its channel type, then the OpenAI-compatible providers (Azure skipped).
 */
const catalogueSources: ReadonlyArray<readonly [channelType: number, owner: string]> = [
  [1, 'openai'],
  [14, 'anthropic'],
  [11, 'google palm'],
  [15, 'baidu'],
  [16, 'zhipu'],
  [17, 'ali'],
  [18, 'xunfei'],
  [23, 'tencent'],
  [24, 'google gemini'],
  [30, 'ollama'],
  [33, 'aws'],
  [34, 'coze'],
  [35, 'Cohere'],
  [37, 'cloudflare'],
  [38, 'deepl'],
  [42, 'vertexai'],
  [43, 'proxy'],
  [46, 'replicate'],
  [19, '360'],
  [25, 'moonshot'],
  [26, 'baichuan'],
  [27, 'minimax'],
  [40, 'doubao'],
  [28, 'mistralai'],
  [29, 'groq'],
  [31, 'lingyiwanwu'],
  [32, 'stepfun'],
  [36, 'deepseek'],
  [39, 'together.ai'],
  [41, 'novita'],
  [44, 'siliconflow'],
  [45, 'xai'],
  [47, 'baiduv2'],
  [48, 'xunfeiv2'],
];

/** `GET /api/channel/models` body: `{object:"list", data:[OpenAI model objects]}` (ids may repeat). */
export const modelCatalogue = {
  object: 'list',
  data: catalogueSources.flatMap(([type, owner]) =>
    catalogueModelsOf(type).map((id) => ({
      id,
      object: 'model',
      created: 1626777600,
      owned_by: owner,
      permission: [modelPermission],
      root: id,
      parent: null,
    })),
  ),
} as const;
