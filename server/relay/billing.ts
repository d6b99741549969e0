import * as E from 'fp-ts/Either';
import { sql, type Kysely, type Transaction } from 'kysely';
import { logTypeConsume } from '../../src/domain/constants';
import { builtInCompletionRatio, parseRatioMap, type RatioMap } from '../../src/domain/ratioPrices';
import { beforeClose, changeWatchOf, settlementFileOf, syncRunnerOf } from '../db/connect';
import { groupedTransaction } from '../db/groupCommit';
import { changeMarksTable, settlementsMark } from '../db/migrate';
import { precompile, type CompiledTemplate } from '../db/precompiled';
import type { Database } from '../db/schema';
import type { ResolvedDeps } from '../http/env';
import { escapeHtml, sendMail } from '../services/mail';
import { optionDefaults, optionValues, readOptions } from '../services/options';
import { applySettlement, bindArguments, type Runner, type Runners } from './settlementApply.mjs';
import { SettlementLost, startSettlementThread, type SettlementStatements, type SettlementThread } from './settlementThread';
import { relayInstanceId } from './reservationLedger';
import { relayError, type RelayCaller, type RelayError, type Usage } from './types';

/**
 * Quota billing of a relay request (contract §3.5 pricing, §4.6 quota, §4.7 consume log).
 *
 * A request first RESERVES an estimate (`preConsumeQuota`), then either REFUNDS it (the request
 * failed) or SETTLES it at the real price (`finalQuota`). Amounts move in SQL (`quota = quota -
 * ?`) only where the row still holds enough (`AND quota >= ?`, affected rows checked), never
 * read-modify-write. Rows are always locked in the same order (users, tokens, channels) so that
 * transactions cannot deadlock.
 *
 * - PostgreSQL (several gateways may share the database): reserve, refund and settle are each
 *   one transaction of such conditional updates; the conditions are re-checked under the row
 *   lock, so concurrent requests can neither overdraw nor lose an update. A reservation is also
 *   a row in `oa_relay_reservations`, written by the statement that takes the quota and deleted
 *   by the one that settles or refunds it, under the gateway's id: the reservations of a gateway
 *   that stopped without settling them are given back (reservationLedger.ts).
 * - SQLite (one gateway process owns the file): the reservation is HELD in this process's memory
 *   (`Ledger`) instead of being written: reserving reads the user's and token's rows at once (no
 *   await in between) and admits the request only if what they hold, less every reservation
 *   still held, covers it. A refund only forgets the hold; the settlement is the one
 *   transaction, and it never takes from the user or token what other held reservations need
 *   (a compare-and-set on the balance it has just read, in the same synchronous step).
 *   This saves a transaction per request (bench/relay), and a crash can no longer leave a
 *   reservation taken but never settled.
 * - SQLite file databases run that settlement on the settlement thread, with its own connection
 *   (`settleOnThread`, settlementThread.ts): the reservation's hold becomes a hold of the price
 *   until a balance read shows the settlement committed, so no request is admitted on quota a
 *   settlement still in flight will take, and none is refused for one already committed.
 *
 * Invariants, for every limited token and every user: token `remain_quota + used_quota` and user
 * `quota + used_quota` (once no reservation is open) stay constant; what they hold never falls
 * below the reservations held on them (SQLite); `used_quota` grows by exactly
 * the `quota` of the consume log written in the same transaction.
 *
 * Deviations from one-api:
 * - §6 #18 fixed: no "trust shortcut"; every request reserves on the user AND the token, so a
 *   limited token is never overdrawn, whatever the concurrency.
 * - §6 #19 fixed: `refund` gives a failed request's reservation back in full.
 * - Settling never drives a quota below 0: if the final price exceeds what the user or token has
 *   left (the answer was already delivered), what is left is charged, and the log records the
 *   amount actually charged.
 * - A negative ratio (the default table's `openrouter/auto` is -500000) reserves 0 instead of a
 *   negative amount (which would credit quota); its final price is 1, as in one-api.
 * As in one-api, unlimited tokens' `remain_quota`/`used_quota` are left untouched.
 */

type Db = Kysely<Database>;
type Trx = Transaction<Database>;

// ---------------------------------------------------------------------------------------------
// Settings and pricing

/** The options billing reads on every request (besides the ratio tables). */
export interface BillingSettings {
  /** LogConsumeEnabled: write consume logs. */
  readonly logConsumeEnabled: boolean;
  /** QuotaRemindThreshold: the user quota under which a reminder e-mail goes out. */
  readonly quotaRemindThreshold: number;
}

/** Everything the relay reads from the options table, in one query. */
export interface RelaySettings extends BillingSettings {
  readonly modelRatio: RatioMap;
  readonly groupRatio: RatioMap;
  readonly completionRatio: RatioMap;
  /** PreConsumedQuota (default 500). */
  readonly preConsumedQuota: number;
  /** ApproximateTokenEnabled: count prompt tokens approximately. */
  readonly approximateTokenEnabled: boolean;
  /** RetryTimes (default 0). */
  readonly retryTimes: number;
  /** AutomaticDisableChannelEnabled (contract §4.9). */
  readonly automaticDisableChannelEnabled: boolean;
}

const relayOptionKeys = [
  'ModelRatio',
  'GroupRatio',
  'CompletionRatio',
  'PreConsumedQuota',
  'LogConsumeEnabled',
  'QuotaRemindThreshold',
  'ApproximateTokenEnabled',
  'RetryTimes',
  'AutomaticDisableChannelEnabled',
] as const;

/** Parsed ratio tables by their JSON text: a table is parsed once, not per request. */
const parsedTables = new Map<string, RatioMap>();
/** Distinct texts kept (the configured and default texts of three options, plus edits). */
const parsedTablesLimit = 16;

/** The ratio table of an option's JSON text ({} when the text is not a JSON object of numbers). */
function ratioTable(text: string): RatioMap {
  const cached = parsedTables.get(text);
  if (cached !== undefined) return cached;
  const table = parseRatioMap(text) ?? {};
  if (parsedTables.size >= parsedTablesLimit) parsedTables.clear();
  parsedTables.set(text, table);
  return table;
}

/** The built-in tables: the default option values (contract §3.5). */
const defaultText = (key: string): string => optionDefaults().find(([k]) => k === key)?.[1] ?? '{}';
const defaultModelRatio = ratioTable(defaultText('ModelRatio'));
const defaultCompletionRatio = ratioTable(defaultText('CompletionRatio'));

/** A table's own entry (never an inherited property such as `constructor`). */
const entry = (table: RatioMap, key: string): number | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

/** The relay's options query (the keys are constants: compiled once). */
const relayOptionsQuery = precompile(0, (db: Db) => db.selectFrom('options').select(['key', 'value']).where('key', 'in', [...relayOptionKeys]));

/** The last settings read per database, with the options table's generation they were read at. */
const settingsCache = new WeakMap<Db, { readonly generation: string; readonly settings: RelaySettings }>();

/**
 * The relay's options (missing rows take the defaults): read in one query, or on SQLite taken
 * from memory while the options table is unchanged (checked on every call, by anyone's writes:
 * see ChangeWatch), which saves reading the three ratio tables' JSON on every request.
 */
export async function relaySettings(db: Db): Promise<RelaySettings> {
  const watch = changeWatchOf(db);
  const generation = watch?.generation('options');
  const cached = settingsCache.get(db);
  if (generation !== undefined && cached?.generation === generation) return cached.settings;
  const settings = await readRelaySettings(db);
  if (generation !== undefined) settingsCache.set(db, { generation, settings });
  return settings;
}

/** Reads the relay's options in one query. */
async function readRelaySettings(db: Db): Promise<RelaySettings> {
  const rows = await relayOptionsQuery.rows(db);
  const o = optionValues(new Map(rows.map((r) => [r.key, r.value ?? ''])));
  return {
    modelRatio: ratioTable(o.str('ModelRatio')),
    groupRatio: ratioTable(o.str('GroupRatio')),
    completionRatio: ratioTable(o.str('CompletionRatio')),
    preConsumedQuota: Math.trunc(o.num('PreConsumedQuota')),
    logConsumeEnabled: o.bool('LogConsumeEnabled'),
    quotaRemindThreshold: Math.trunc(o.num('QuotaRemindThreshold')),
    approximateTokenEnabled: o.bool('ApproximateTokenEnabled'),
    retryTimes: Math.trunc(o.num('RetryTimes')),
    automaticDisableChannelEnabled: o.bool('AutomaticDisableChannelEnabled'),
  };
}

/** The price multipliers of one request. */
export interface Pricing {
  readonly modelRatio: number;
  readonly groupRatio: number;
  readonly completionRatio: number;
  /** modelRatio × groupRatio. */
  readonly ratio: number;
}

/** The model ratio when no table knows the model (contract §3.5). */
export const unknownModelRatio = 30;

/** Models already reported as unpriced (reported once per process, not per request). */
const reportedUnpriced = new Set<string>();

/** Looks `name` up as "name(type)" then "name": configured table first, then the built-in one at each step. */
function lookup(name: string, channelType: number, configured: RatioMap, builtIn: RatioMap): number | undefined {
  const typed = `${name}(${channelType})`;
  return entry(configured, typed) ?? entry(builtIn, typed) ?? entry(configured, name) ?? entry(builtIn, name);
}

/** The pricing of `model` (the mapped name sent upstream) on a channel of `channelType` for a user of `group`. */
export function pricingOf(settings: Pick<RelaySettings, 'modelRatio' | 'groupRatio' | 'completionRatio'>, model: string, channelType: number, group: string): Pricing {
  const priced = model.startsWith('qwen-') || model.startsWith('command-') ? model.replace(/-internet$/, '') : model;
  let modelRatio = lookup(priced, channelType, settings.modelRatio, defaultModelRatio);
  if (modelRatio === undefined) {
    if (!reportedUnpriced.has(model)) {
      reportedUnpriced.add(model);
      console.error(`[billing] model ratio not found: ${model} (channel type ${channelType}); using ${unknownModelRatio}`);
    }
    modelRatio = unknownModelRatio;
  }
  const groupRatio = entry(settings.groupRatio, group) ?? 1;
  const completed = model.startsWith('qwen-') ? model.replace(/-internet$/, '') : model;
  // Hosted chat models priced per model in one-api (no built-in rule here) fall back to 1.
  const completionRatio =
    lookup(completed, channelType, settings.completionRatio, defaultCompletionRatio) ?? builtInCompletionRatio(completed) ?? 1;
  return { modelRatio, groupRatio, completionRatio, ratio: modelRatio * groupRatio };
}

/** `pricingOf` with the options read from `db`. */
export async function pricingFor(db: Db, model: string, channelType: number, group: string): Promise<Pricing> {
  return pricingOf(await relaySettings(db), model, channelType, group);
}

/** A quota as a safe non-negative integer (huge estimates are capped; they are refused anyway). */
const quotaAmount = (x: number): number => (Number.isFinite(x) ? Math.min(Math.max(x, 0), Number.MAX_SAFE_INTEGER) : x > 0 ? Number.MAX_SAFE_INTEGER : 0);

/** The reservation of a text request: floor((PreConsumedQuota + prompt + max_tokens) × ratio) (contract §4.6). */
export const preConsumeQuota = (pricing: Pricing, promptTokens: number, maxTokens: number | null, preConsumed: number): number =>
  quotaAmount(Math.floor((Math.max(0, preConsumed) + promptTokens + (maxTokens ?? 0)) * pricing.ratio));

/**
 * What a text request reserves (issue 18): at least `least` must be free, and as much of `most`
 * as is free is held. `least` is one-api's estimate or, when higher, the price of the prompt plus
 * `max_tokens` completion tokens (at the completion ratio); `most` is what the answer can cost at
 * all (its completion is billed at most `max_tokens`, else `maxCompletion` tokens, per choice
 * (`n`), see `boundedUsage`). With `max_tokens` both are that price, so the answer is paid for in advance;
 * without it, every request but the one that takes a balance's last free quota holds its whole
 * possible price, so whatever PreConsumedQuota is, a user or token gets at most one answer
 * beyond its balance, however many requests run at once.
 */
export function reservationRange(
  pricing: Pricing,
  promptTokens: number,
  maxTokens: number | null,
  preConsumed: number,
  maxCompletion: number,
  choices = 1,
): { readonly least: number; readonly most: number } {
  const estimate = preConsumeQuota(pricing, promptTokens, maxTokens, preConsumed);
  const priceUpTo = (completion: number): number => quotaAmount(Math.ceil((promptTokens + completion * choices * pricing.completionRatio) * pricing.ratio));
  if (maxTokens !== null) {
    const least = Math.max(estimate, priceUpTo(maxTokens));
    return { least, most: least };
  }
  return { least: Math.max(estimate, priceUpTo(0)), most: Math.max(estimate, priceUpTo(maxCompletion)) };
}

/** What a user and a token have free now: their quota less what is held in memory (SQLite); a limited token's remain too. */
async function freeQuota(deps: ResolvedDeps, caller: RelayCaller): Promise<number> {
  const held = heldQuota(deps, caller.user.id, caller.token.id);
  const user = await deps.db.selectFrom('users').select('quota').where('id', '=', caller.user.id).executeTakeFirst();
  const token = await deps.db.selectFrom('tokens').select(['remain_quota', 'unlimited_quota']).where('id', '=', caller.token.id).executeTakeFirst();
  if (user === undefined || token === undefined) return 0;
  const userFree = Number(user.quota) - held.user;
  return Math.max(0, truthy(token.unlimited_quota) ? userFree : Math.min(userFree, Number(token.remain_quota) - held.token));
}

/**
 * Reserves `most`, or when that is refused as much as is free if that is at least `least` (see
 * `reservationRange`); otherwise the refusal of `most` (which names the user or the token).
 */
export async function reserveUpTo(
  deps: ResolvedDeps,
  caller: RelayCaller,
  range: { readonly least: number; readonly most: number },
  settings?: BillingSettings,
): Promise<E.Either<RelayError, Reservation>> {
  const whole = await reserve(deps, caller, range.most, settings);
  if (E.isRight(whole) || range.most <= range.least) return whole;
  // One quota is left where it can be: a row at 0 reads as exhausted to the token check of the
  // requests behind (it would mark the token used up while this reservation may be refunded).
  const free = await freeQuota(deps, caller);
  const amount = Math.min(range.most, free - 1 >= range.least ? free - 1 : free);
  if (amount < range.least) return whole;
  return reserve(deps, caller, amount, settings);
}

/**
 * The price of an answered text request (contract §4.6): ceil((prompt + completion × completionRatio)
 * × ratio), at least 1 when the ratio is not 0, 0 when no token was used.
 */
export function finalQuota(pricing: Pricing, usage: Usage): number {
  if (usage.promptTokens + usage.completionTokens === 0) return 0;
  const quota = Math.ceil((usage.promptTokens + usage.completionTokens * pricing.completionRatio) * pricing.ratio);
  return quotaAmount(pricing.ratio !== 0 && quota <= 0 ? 1 : quota);
}

/** Go's `%.2f`: like toFixed(2), but an exact tie rounds to even (0.125 → "0.12", 0.625 → "0.62"). */
export function goFixed2(x: number): string {
  const magnitude = Math.abs(x);
  if (!Number.isFinite(x) || magnitude >= 1e20) return x.toFixed(2);
  const [whole = '0', fraction = ''] = magnitude.toFixed(30).split('.');
  if (fraction.slice(2) === `5${'0'.repeat(27)}` && Number(fraction[1]) % 2 === 0) {
    const truncated = `${whole}.${fraction.slice(0, 2)}`;
    return x < 0 ? `-${truncated}` : truncated;
  }
  return x.toFixed(2);
}

/** Log contents by their three ratios: few distinct prices repeat on every request, and goFixed2 is slow. */
const contents = new Map<string, string>();

/** The consume log content of a text request: `倍率：<model> × <group> × <completion>` (contract §4.7). */
export function consumeLogContent(pricing: Pricing): string {
  const key = `${pricing.modelRatio} ${pricing.groupRatio} ${pricing.completionRatio}`;
  const known = contents.get(key);
  if (known !== undefined) return known;
  const content = `倍率：${goFixed2(pricing.modelRatio)} × ${goFixed2(pricing.groupRatio)} × ${goFixed2(pricing.completionRatio)}`;
  if (contents.size >= 1024) contents.clear();
  contents.set(key, content);
  return content;
}

// ---------------------------------------------------------------------------------------------
// Reserve, refund, settle

export const billingMessages = {
  userShort: 'user quota is not enough',
  tokenShort: '令牌额度不足',
  shuttingDown: 'the gateway is shutting down; retry on another instance or after the restart',
} as const;

/** A request's open reservation (plain data: pass it from `reserve` to `refund` or `settle`). */
export interface Reservation {
  readonly userId: number;
  readonly tokenId: number;
  /** Quota taken from the user and moved on the token (remain → used; unlimited tokens are never refused for it). */
  readonly amount: number;
  /** Whether the token is limited: its remain/used quota move with the user's. */
  readonly tokenLimited: boolean;
  /** Whether `amount` is held in memory (SQLite, see `Ledger`) rather than taken in the database. */
  readonly held: boolean;
  /** PostgreSQL: the reservation's row in `oa_relay_reservations` (reservationLedger.ts), null when nothing was taken. */
  readonly ledgerId: number | null;
  /** This process's number for the reservation, while it is open (see `reservationsClosed`). */
  readonly serial: number;
  readonly settings: BillingSettings;
}

/**
 * The reservations held in memory on a SQLite database, per user and per token (every token,
 * so that an unlimited token's hold shows too; only limited tokens are refused for theirs).
 */
interface Ledger {
  readonly users: Map<number, number>;
  readonly tokens: Map<number, number>;
  /**
   * Settlements sent to the settlement thread and not yet reported back, per user and per token:
   * their prices are held like reservations (the thread takes at most that much) until a balance
   * read shows them committed (`lastSettled`) or the thread reports back.
   */
  readonly pendingUsers: Map<number, Pending[]>;
  readonly pendingTokens: Map<number, Pending[]>;
}

/** A settlement sent to the settlement thread: its id and price. */
interface Pending {
  readonly id: number;
  readonly amount: number;
}

/** What the settlements on `key` that a balance read at `applied` does not include yet still hold. */
function pendingOn(map: Map<number, Pending[]>, key: number, applied: number): number {
  let sum = 0;
  for (const p of map.get(key) ?? []) if (p.id > applied) sum += p.amount;
  return sum;
}

function addPending(map: Map<number, Pending[]>, key: number, pending: Pending): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [pending]);
  else list.push(pending);
}

function dropPending(map: Map<number, Pending[]>, key: number, pending: Pending): void {
  const list = map.get(key);
  if (list === undefined) return;
  const left = list.filter((p) => p !== pending);
  if (left.length > 0) map.set(key, left);
  else map.delete(key);
}

const ledgers = new WeakMap<Db, Ledger>();

/** The ledger of `deps`' database, or null when reservations are written (PostgreSQL). */
function ledgerOf(deps: Pick<ResolvedDeps, 'db' | 'dialect'>): Ledger | null {
  if (deps.dialect !== 'sqlite' || syncRunnerOf(deps.db) === undefined) return null;
  let ledger = ledgers.get(deps.db);
  if (ledger === undefined) {
    ledger = { users: new Map(), tokens: new Map(), pendingUsers: new Map(), pendingTokens: new Map() };
    ledgers.set(deps.db, ledger);
  }
  return ledger;
}

const heldOn = (map: Map<number, number>, id: number): number => map.get(id) ?? 0;

/** Adds `amount` (negative: releases) to the hold on `id`. */
function hold(map: Map<number, number>, id: number, amount: number): void {
  const left = heldOn(map, id) + amount;
  if (left > 0) map.set(id, left);
  else map.delete(id);
}

/** Adds `amount` (negative: releases) to the holds on a user and a token. */
function shiftHolds(ledger: Ledger, userId: number, tokenId: number, amount: number): void {
  hold(ledger.users, userId, amount);
  hold(ledger.tokens, tokenId, amount);
}

/** Quota held in memory on a user and a token by open reservations and unreported settlements (always 0 on PostgreSQL). */
export function heldQuota(deps: Pick<ResolvedDeps, 'db'>, userId: number, tokenId: number): { readonly user: number; readonly token: number } {
  const ledger = ledgers.get(deps.db);
  if (ledger === undefined) return { user: 0, token: 0 };
  return {
    user: heldOn(ledger.users, userId) + pendingOn(ledger.pendingUsers, userId, 0),
    token: heldOn(ledger.tokens, tokenId) + pendingOn(ledger.pendingTokens, tokenId, 0),
  };
}

/** Reservations already refunded or settled (guards against giving back or charging twice). */
const closed = new WeakSet<Reservation>();

/** The serials of the reservations open per database (reserved, neither refunded nor settled yet). */
const open = new WeakMap<Db, Set<number>>();
let lastSerial = 0;

/** A new serial, counted as open on `db`. */
function opened(db: Db): number {
  lastSerial += 1;
  let set = open.get(db);
  if (set === undefined) {
    set = new Set();
    open.set(db, set);
  }
  set.add(lastSerial);
  return lastSerial;
}

/** Marks `reservation` refunded or settled. */
function close(db: Db, reservation: Reservation): void {
  closed.add(reservation);
  open.get(db)?.delete(reservation.serial);
}

/**
 * Resolves once every reservation open on `db` is refunded or settled (the requests in flight
 * have ended), or after `timeoutMs`; returns how many are still open. Shutdown waits for this
 * before it waits for the settlements.
 */
export async function reservationsClosed(db: Db, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const set = open.get(db);
  while (set !== undefined && set.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return set?.size ?? 0;
}

/** Thrown inside a transaction to roll it back with the relay error to answer. */
class Refused extends Error {
  constructor(readonly relay: RelayError) {
    super(relay.error.message);
  }
}

// The statements of reserve, refund and settle (compiled once per dialect; see precompile).

/** User quota -= amount where enough is left (args: amount, user id). */
const takeUserQuota = precompile(2, (db: Db, amount: number, userId: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '-', amount) }))
    .where('id', '=', userId)
    .where('quota', '>=', amount)
    .returning(['quota', 'email']),
);
/** User quota -= amount where it still holds `expected` (args: amount, user id, expected; returns the row when changed). */
const takeUserQuotaIfAt = precompile(3, (db: Db, amount: number, userId: number, expected: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '-', amount) }))
    .where('id', '=', userId)
    .where('quota', '=', expected)
    .returning('id'),
);
/** A token's remain -= amount, used += amount where remain still holds `expected` (args: amount, token id, expected; returns the row when changed). */
const takeTokenQuotaIfAt = precompile(3, (db: Db, amount: number, tokenId: number, expected: number) =>
  db
    .updateTable('tokens')
    .set((eb) => ({ remain_quota: eb('remain_quota', '-', amount), used_quota: eb('used_quota', '+', amount) }))
    .where('id', '=', tokenId)
    .where('remain_quota', '=', expected)
    .returning('id'),
);
/**
 * SQLite: the settlement thread's mark (see migrate.ts): every settlement up to it is committed
 * (the batch's last id, or just below the batch's first failed settlement). Read in the same
 * statement as a balance, it tells which settlements sent to the thread that balance already
 * includes; the ones above it keep their price held.
 */
const lastSettled = sql<number | null>`(select mark from ${sql.raw(changeMarksTable)} where name = ${sql.lit(settlementsMark)})`;
/** A user's quota and e-mail, and `lastSettled` (args: user id; SQLite). */
const userBalance = precompile(1, (db: Db, userId: number) =>
  db.selectFrom('users').select(['quota', 'email']).select(lastSettled.as('applied')).where('id', '=', userId),
);
/** A token's remaining quota, whether it is unlimited, and `lastSettled` (args: token id; SQLite). */
const tokenBalance = precompile(1, (db: Db, tokenId: number) =>
  db.selectFrom('tokens').select(['remain_quota', 'unlimited_quota']).select(lastSettled.as('applied')).where('id', '=', tokenId),
);
/** A token's remain -= amount, used += amount where unlimited or enough is left (args: amount, token id). */
const takeTokenQuota = precompile(2, (db: Db, amount: number, tokenId: number) =>
  db
    .updateTable('tokens')
    .set((eb) => ({ remain_quota: eb('remain_quota', '-', amount), used_quota: eb('used_quota', '+', amount) }))
    .where('id', '=', tokenId)
    .where((eb) => eb.or([eb('unlimited_quota', '=', true), eb('remain_quota', '>=', amount)]))
    .returning(['unlimited_quota']),
);
/** A limited token's remain -= amount, used += amount where enough is left (args: amount, token id). */
const takeLimitedTokenQuota = precompile(2, (db: Db, amount: number, tokenId: number) =>
  db
    .updateTable('tokens')
    .set((eb) => ({ remain_quota: eb('remain_quota', '-', amount), used_quota: eb('used_quota', '+', amount) }))
    .where('id', '=', tokenId)
    .where('remain_quota', '>=', amount),
);
/** A token's remain -= amount, used += amount, unconditionally (args: amount, token id). */
const moveTokenQuotaStatement = precompile(2, (db: Db, amount: number, tokenId: number) =>
  db
    .updateTable('tokens')
    .set((eb) => ({ remain_quota: eb('remain_quota', '-', amount), used_quota: eb('used_quota', '+', amount) }))
    .where('id', '=', tokenId),
);
/** User quota += amount (args: amount, user id). */
const giveUserQuota = precompile(2, (db: Db, amount: number, userId: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '+', amount) }))
    .where('id', '=', userId),
);
/** The settlement of the user row (args: quota given back, quota charged, user id). */
const settleUser = precompile(3, (db: Db, giveBack: number, charged: number, userId: number) =>
  db
    .updateTable('users')
    .set((eb) => ({
      quota: eb('quota', '+', giveBack),
      used_quota: eb('used_quota', '+', charged),
      request_count: eb('request_count', '+', 1),
    }))
    .where('id', '=', userId)
    .returning(['username', 'email', 'quota']),
);
/**
 * PostgreSQL: `settleUser` that also deletes the reservation's row (args: as `settleUser`, then
 * the row's id); no row changes, and none comes back, when the reservation's row is gone.
 */
const settleReservedUser = precompile(4, (db: Db, giveBack: number, charged: number, userId: number, reservationId: number) =>
  db
    .with('closed_reservation', (qb) => qb.deleteFrom('oa_relay_reservations').where('id', '=', reservationId).returning('id'))
    .updateTable('users')
    .set((eb) => ({
      quota: eb('quota', '+', giveBack),
      used_quota: eb('used_quota', '+', charged),
      request_count: eb('request_count', '+', 1),
    }))
    .where('id', '=', userId)
    .where((eb) => eb.exists(eb.selectFrom('closed_reservation').select('closed_reservation.id')))
    .returning(['username', 'email', 'quota']),
);

/** The settlement of a reservation whose row a recovery has given back: nothing is charged. */
export class ReservationGone extends Error {
  constructor(readonly ledgerId: number) {
    super(`reservation ${ledgerId} was given back by a recovery (this gateway was presumed stopped, or the user is gone): the answer is not billed`);
  }
}

/** A channel's used quota += amount (args: amount, channel id). */
const chargeChannel = precompile(2, (db: Db, amount: number, channelId: number) =>
  db
    .updateTable('channels')
    .set((eb) => ({ used_quota: eb('used_quota', '+', amount) }))
    .where('id', '=', channelId),
);

/** The consume log's values, in the order of `insertConsumeLog`'s arguments. */
type ConsumeLogArgs = [
  userId: number,
  createdAt: number,
  content: string,
  username: string,
  tokenName: string,
  modelName: string,
  quota: number,
  promptTokens: number,
  completionTokens: number,
  channelId: number,
  requestId: string,
  elapsedTime: number,
  isStream: boolean,
  systemPromptReset: boolean,
];
const insertConsumeLog = precompile(14, (db: Db, ...v: ConsumeLogArgs) =>
  db.insertInto('logs').values({
    user_id: v[0],
    created_at: v[1],
    type: logTypeConsume,
    content: v[2],
    username: v[3],
    token_name: v[4],
    model_name: v[5],
    quota: v[6],
    prompt_tokens: v[7],
    completion_tokens: v[8],
    channel_id: v[9],
    request_id: v[10],
    elapsed_time: v[11],
    is_stream: v[12],
    system_prompt_reset: v[13],
  }),
);

/** SQLite may hand booleans back as 0/1. */
const truthy = (value: unknown): boolean => value === true || Number(value) === 1;

/** The billing options, read when the caller did not pass them. */
async function billingSettings(db: Db): Promise<BillingSettings> {
  const o = await readOptions(db, ['LogConsumeEnabled', 'QuotaRemindThreshold']);
  return { logConsumeEnabled: o.bool('LogConsumeEnabled'), quotaRemindThreshold: Math.trunc(o.num('QuotaRemindThreshold')) };
}

/**
 * Reserves `amount` for the caller's request: the user's quota must cover it (else 403
 * `insufficient_user_quota`), then the token's (limited tokens, else 403
 * `pre_consume_token_quota_failed` `令牌额度不足`); a refusal changes nothing. On SQLite the
 * amount is held in memory against what the rows hold less the other holds (see `Ledger`); on
 * PostgreSQL it is taken in one transaction of conditional updates. `amount` ≤ 0 reserves
 * nothing. `settings` (from `relaySettings`) saves a query.
 */
export async function reserve(
  deps: ResolvedDeps,
  caller: RelayCaller,
  amount: number,
  settings?: BillingSettings,
): Promise<E.Either<RelayError, Reservation>> {
  if (stoppedReserving.has(deps.db)) return E.left(relayError(503, billingMessages.shuttingDown, 'gateway_shutting_down'));
  // Counted as open from here, so that a shutdown waits for a reservation being written too.
  const serial = opened(deps.db);
  try {
    const result = await reserveNow(deps, caller, amount, settings, serial);
    if (E.isLeft(result)) open.get(deps.db)?.delete(serial);
    return result;
  } catch (error) {
    open.get(deps.db)?.delete(serial);
    throw error;
  }
}

/** Refuses new reservations on `db` (shutdown): the requests that reach billing get 503. */
export function stopReserving(db: Db): void {
  stoppedReserving.add(db);
}
const stoppedReserving = new WeakSet<Db>();

/** `reserve` under the open reservation number `serial`. */
async function reserveNow(
  deps: ResolvedDeps,
  caller: RelayCaller,
  amount: number,
  settings: BillingSettings | undefined,
  serial: number,
): Promise<E.Either<RelayError, Reservation>> {
  const billing = settings ?? (await billingSettings(deps.db));
  const userId = caller.user.id;
  const tokenId = caller.token.id;
  const take = quotaAmount(Math.trunc(amount));
  if (take === 0) {
    const held = ledgerOf(deps) !== null;
    return E.right({ userId, tokenId, amount: 0, tokenLimited: !truthy(caller.token.unlimited_quota), held, ledgerId: null, serial, settings: billing });
  }
  const ledger = ledgerOf(deps);
  if (ledger !== null) {
    // Started with the first reservation, so that it is up by the first settlement.
    settlementThreadOf(deps.db);
    return holdReservation(deps, ledger, userId, tokenId, take, billing, serial);
  }
  if (deps.dialect === 'postgres') return reserveDurably(deps, userId, tokenId, take, billing, serial);
  try {
    const outcome = await groupedTransaction(deps.db, deps.dialect, async (trx) => {
      const user = await takeUserQuota.first(trx, take, userId);
      if (user === undefined) throw new Refused(relayError(403, billingMessages.userShort, 'insufficient_user_quota'));
      // One statement for both kinds of token: unlimited ones pass the condition; both move their
      // numbers, so an unlimited token's used quota shows what it spent (its remain is not read).
      const token = await takeTokenQuota.first(trx, take, tokenId);
      if (token === undefined) throw new Refused(relayError(403, billingMessages.tokenShort, 'pre_consume_token_quota_failed'));
      return { quotaAfter: user.quota, email: user.email ?? '', tokenLimited: !truthy(token.unlimited_quota) };
    });
    remindIfCrossed(deps.db, billing, outcome.email, outcome.quotaAfter + take, outcome.quotaAfter);
    return E.right({ userId, tokenId, amount: take, tokenLimited: outcome.tokenLimited, held: false, ledgerId: null, serial, settings: billing });
  } catch (error) {
    if (error instanceof Refused) return E.left(error.relay);
    throw error;
  }
}

/**
 * The PostgreSQL reservation: one statement (`oa_relay_reserve`, migrate.ts) locks the user's
 * then the token's row, checks both, takes the amount from both and records the reservation
 * under this gateway's id (reservationLedger.ts), so that it is given back if the gateway stops
 * before settling it. A refusal changes nothing.
 */
async function reserveDurably(deps: ResolvedDeps, userId: number, tokenId: number, take: number, billing: BillingSettings, serial: number): Promise<E.Either<RelayError, Reservation>> {
  const { rows } = await reserveStatement(take, userId, tokenId, relayInstanceId(deps.db)).execute(deps.db);
  const row = rows[0];
  if (row?.r_outcome === 'user' || row === undefined) return E.left(relayError(403, billingMessages.userShort, 'insufficient_user_quota'));
  if (row.r_outcome === 'token') return E.left(relayError(403, billingMessages.tokenShort, 'pre_consume_token_quota_failed'));
  const quotaAfter = Number(row.r_quota);
  remindIfCrossed(deps.db, billing, row.r_email ?? '', quotaAfter + take, quotaAfter);
  return E.right({ userId, tokenId, amount: take, tokenLimited: row.r_unlimited !== true, held: false, ledgerId: Number(row.r_id), serial, settings: billing });
}

/** The reservation statement (PostgreSQL). */
const reserveStatement = (amount: number, userId: number, tokenId: number, instanceId: string) =>
  sql<{ r_outcome: string; r_quota: number | null; r_email: string | null; r_unlimited: boolean | null; r_id: number | null }>`select * from oa_relay_reserve(${amount}, ${userId}, ${tokenId}, ${instanceId})`;

/**
 * The SQLite reservation: reads the user's and the token's rows and records the hold with no
 * await in between, so no other request's hold or settlement can slip between the check and the
 * hold. (The rows may include a settlement's take not yet committed on this connection; its hold
 * was released in the same step as that take, and comes back if the take rolls back.)
 */
function holdReservation(
  deps: ResolvedDeps,
  ledger: Ledger,
  userId: number,
  tokenId: number,
  take: number,
  billing: BillingSettings,
  serial: number,
): E.Either<RelayError, Reservation> {
  const user = userBalance.firstNow(deps.db, userId);
  const free = user === undefined ? 0 : Number(user.quota) - heldOn(ledger.users, userId) - pendingOn(ledger.pendingUsers, userId, Number(user.applied ?? 0));
  if (user === undefined || free < take) return E.left(relayError(403, billingMessages.userShort, 'insufficient_user_quota'));
  const token = tokenBalance.firstNow(deps.db, tokenId);
  if (token === undefined) return E.left(relayError(403, billingMessages.tokenShort, 'pre_consume_token_quota_failed'));
  const tokenLimited = !truthy(token.unlimited_quota);
  const tokenFree = Number(token.remain_quota) - heldOn(ledger.tokens, tokenId) - pendingOn(ledger.pendingTokens, tokenId, Number(token.applied ?? 0));
  if (tokenLimited && tokenFree < take) {
    return E.left(relayError(403, billingMessages.tokenShort, 'pre_consume_token_quota_failed'));
  }
  shiftHolds(ledger, userId, tokenId, take);
  remindIfCrossed(deps.db, billing, user.email ?? '', free, free - take);
  return E.right({ userId, tokenId, amount: take, tokenLimited, held: true, ledgerId: null, serial, settings: billing });
}

/** Forgets a held reservation (SQLite). */
function releaseHold(deps: ResolvedDeps, reservation: Reservation): void {
  const ledger = ledgerOf(deps);
  if (ledger !== null && reservation.held) shiftHolds(ledger, reservation.userId, reservation.tokenId, -reservation.amount);
}

/** Gives a failed request's reservation back (user quota; token remain/used), once: a held one is forgotten, a taken one given back in one transaction. */
export async function refund(deps: ResolvedDeps, reservation: Reservation): Promise<void> {
  if (closed.has(reservation)) return;
  const { amount, userId, tokenId } = reservation;
  if (reservation.held) releaseHold(deps, reservation);
  else if (reservation.ledgerId !== null) {
    // One statement: the row goes, the quota comes back (nothing if a recovery gave it back already).
    await sql`select oa_relay_refund(${reservation.ledgerId})`.execute(deps.db);
  } else if (amount > 0) {
    await groupedTransaction(deps.db, deps.dialect, async (trx) => {
      await giveUserQuota.execute(trx, amount, userId);
      await moveTokenQuota(trx, tokenId, -amount);
    });
  }
  close(deps.db, reservation);
}

/** What an answered request costs and what its consume log says. */
export interface Charge {
  /** The final price (`finalQuota`). */
  readonly quota: number;
  readonly usage: Usage;
  /** Log content (`consumeLogContent`). */
  readonly content: string;
  /** The model billed (the mapped name). */
  readonly modelName: string;
  readonly channelId: number;
  readonly tokenName: string;
  readonly isStream: boolean;
  readonly elapsedMs: number;
  readonly systemPromptReset: boolean;
  readonly requestId: string;
}

/** Token `remain_quota -= amount`, `used_quota += amount` (a negative amount gives back). */
async function moveTokenQuota(trx: Trx, tokenId: number, amount: number): Promise<void> {
  await moveTokenQuotaStatement.execute(trx, amount, tokenId);
}

/**
 * Takes up to `want` (> 0) from a balance that may hold less: compare-and-set on the value read
 * (`WHERE balance = <read>`), retried when another transaction changed it in between. Returns the
 * amount taken (0 when the row is gone or empty).
 */
async function takeUpTo(
  want: number,
  read: () => Promise<number | undefined>,
  compareAndTake: (expected: number, take: number) => Promise<boolean>,
): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const have = await read();
    if (have === undefined || have <= 0) return 0;
    const take = Math.min(want, have);
    if (await compareAndTake(have, take)) return take;
  }
  throw new Error('quota kept changing while settling');
}

/** Takes `want` (> 0) from the user's quota, or all that is left when less. */
async function takeFromUser(trx: Trx, userId: number, want: number): Promise<number> {
  if ((await takeUserQuota.first(trx, want, userId)) !== undefined) return want;
  return takeUpTo(
    want,
    async () => (await trx.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirst())?.quota,
    async (expected, take) => {
      const done = await trx
        .updateTable('users')
        .set((eb) => ({ quota: eb('quota', '-', take) }))
        .where('id', '=', userId)
        .where('quota', '=', expected)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },
  );
}

/** Takes `want` (> 0) from a limited token's remaining quota (moved to used), or all that is left when less. */
async function takeFromToken(trx: Trx, tokenId: number, want: number): Promise<number> {
  if ((await takeLimitedTokenQuota.affected(trx, want, tokenId)) === 1) return want;
  return takeUpTo(
    want,
    async () => (await trx.selectFrom('tokens').select('remain_quota').where('id', '=', tokenId).executeTakeFirst())?.remain_quota,
    async (expected, take) => {
      const done = await trx
        .updateTable('tokens')
        .set((eb) => ({ remain_quota: eb('remain_quota', '-', take), used_quota: eb('used_quota', '+', take) }))
        .where('id', '=', tokenId)
        .where('remain_quota', '=', expected)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },
  );
}

/**
 * Settles a reservation at `charge.quota`, in one transaction: the difference to the reservation
 * is taken from (or given back to) the user and the limited token — capped at what they have left,
 * so neither goes below 0; the user's `used_quota` and `request_count`, the channel's
 * `used_quota` grow; the consume log (type 2) is written when LogConsumeEnabled. Returns the
 * quota actually charged (the log's `quota`). A reservation settles once.
 */
export async function settle(deps: ResolvedDeps, reservation: Reservation, charge: Charge): Promise<number> {
  if (closed.has(reservation)) throw new Error('reservation already refunded or settled');
  const { userId, tokenId, amount: reserved, tokenLimited, settings } = reservation;
  const ledger = reservation.held ? ledgerOf(deps) : null;
  const price = quotaAmount(Math.trunc(charge.quota));
  if (ledger !== null) {
    const thread = settlementThreadOf(deps.db);
    return thread !== null ? settleOnThread(deps, ledger, thread, reservation, charge, price) : settleHeldHere(deps, ledger, reservation, charge, price);
  }
  // Written reservation (PostgreSQL): the difference to what it took.
  const delta = price - reserved;
  const settlement = groupedTransaction(deps.db, deps.dialect, async (trx) => {
    let extra = delta;
    let giveBackToUser = -delta;
    if (delta > 0) {
      const fromUser = await takeFromUser(trx, userId, delta);
      if (tokenLimited) extra = fromUser > 0 ? await takeFromToken(trx, tokenId, fromUser) : 0;
      else {
        extra = fromUser;
        if (fromUser > 0) await moveTokenQuota(trx, tokenId, fromUser);
      }
      giveBackToUser = fromUser - extra;
    }
    const charged = reserved + extra;
    const user =
      reservation.ledgerId === null
        ? await settleUser.first(trx, giveBackToUser, charged, userId)
        : await settleReservedUser.first(trx, giveBackToUser, charged, userId, reservation.ledgerId);
    // The reservation's row was gone: given back by a recovery (this gateway was presumed stopped).
    if (user === undefined && reservation.ledgerId !== null) throw new ReservationGone(reservation.ledgerId);
    // After the user row (lock order users → tokens, as everywhere): give back to the token.
    if (delta < 0) await moveTokenQuota(trx, tokenId, delta);
    if (charged !== 0) await chargeChannel.execute(trx, charged, charge.channelId);
    if (settings.logConsumeEnabled) await insertConsumeLog.execute(trx, ...consumeLogArgs(deps, userId, charge, user?.username ?? '', charged));
    return { charged, extra, user };
  });
  let outcome;
  try {
    outcome = await settlement;
  } catch (error) {
    if (error instanceof ReservationGone) close(deps.db, reservation);
    throw error;
  }
  const { charged, extra, user } = outcome;
  close(deps.db, reservation);
  // The reminder covers what this settlement took beyond the reservation (the reservation's own
  // crossing was reported when it was made).
  if (user !== undefined) remindIfCrossed(deps.db, settings, user.email ?? '', user.quota + extra, user.quota);
  return charged;
}

/** The consume log of a settled request (`insertConsumeLog`'s arguments). */
function consumeLogArgs(deps: ResolvedDeps, userId: number, charge: Charge, username: string, charged: number): ConsumeLogArgs {
  return [
    userId,
    Math.floor(deps.now() / 1000),
    charge.content,
    username,
    charge.tokenName,
    charge.modelName,
    charged,
    charge.usage.promptTokens,
    charge.usage.completionTokens,
    charge.channelId,
    charge.requestId,
    Math.max(0, Math.round(charge.elapsedMs)),
    charge.isStream,
    charge.systemPromptReset,
  ];
}

/** The statements of a held reservation's settlement (`applySettlement`), compiled for SQLite. */
function settlementStatements(db: Db): SettlementStatements {
  return {
    userBalance: userBalance.compiled(db),
    takeUserQuotaIfAt: takeUserQuotaIfAt.compiled(db),
    tokenBalance: tokenBalance.compiled(db),
    takeTokenQuotaIfAt: takeTokenQuotaIfAt.compiled(db),
    moveTokenQuota: moveTokenQuotaStatement.compiled(db),
    settleUser: settleUser.compiled(db),
    chargeChannel: chargeChannel.compiled(db),
    insertConsumeLog: insertConsumeLog.compiled(db),
  };
}

/** `applySettlement`'s statements run at once on the main connection (inside its open transaction). */
const mainRunners = new WeakMap<Db, Runners>();
function mainRunnersOf(db: Db): Runners {
  let runners = mainRunners.get(db);
  if (runners === undefined) {
    const run = syncRunnerOf(db);
    if (run === undefined) throw new Error('held settlements need a SQLite database');
    const runner = (template: CompiledTemplate): Runner => ({
      first: (args) => run(template.sql, bindArguments(template, args))[0] as Record<string, unknown> | undefined,
    });
    const t = settlementStatements(db);
    runners = {
      userBalance: runner(t.userBalance),
      takeUserQuotaIfAt: runner(t.takeUserQuotaIfAt),
      tokenBalance: runner(t.tokenBalance),
      takeTokenQuotaIfAt: runner(t.takeTokenQuotaIfAt),
      moveTokenQuota: runner(t.moveTokenQuota),
      settleUser: runner(t.settleUser),
      chargeChannel: runner(t.chargeChannel),
      insertConsumeLog: runner(t.insertConsumeLog),
    };
    mainRunners.set(db, runners);
  }
  return runners;
}

/**
 * The settlement of a held reservation on this thread (SQLite with the settlement thread off,
 * or `:memory:`), as one piece of a group commit. At once, inside the transaction (no await, so
 * no hold can be added or released meanwhile): what the user and the token must keep for the
 * other reservations is read from the ledger, `applySettlement` runs, and the hold is released,
 * so that another settlement in the same transaction neither counts this one twice nor misses it.
 * If the transaction rolls back, the reservation is held again for the biller's retry.
 */
async function settleHeldHere(deps: ResolvedDeps, ledger: Ledger, reservation: Reservation, charge: Charge, price: number): Promise<number> {
  const { userId, tokenId, amount: reserved, tokenLimited, settings } = reservation;
  let released = false;
  let outcome;
  try {
    outcome = await groupedTransaction(deps.db, deps.dialect, () => {
      const keepUser = heldOn(ledger.users, userId) - reserved;
      const keepToken = heldOn(ledger.tokens, tokenId) - reserved;
      const log = settings.logConsumeEnabled ? consumeLogArgs(deps, userId, charge, '', 0) : null;
      const done = applySettlement(mainRunnersOf(deps.db), { id: 0, userId, tokenId, tokenLimited, want: price, keepUser, keepToken, channelId: charge.channelId, log });
      releaseHold(deps, reservation);
      released = true;
      return Promise.resolve({ ...done, keepUser });
    });
  } catch (error) {
    if (released) shiftHolds(ledger, userId, tokenId, reserved);
    throw error;
  }
  close(deps.db, reservation);
  remindAfterHeld(deps, settings, outcome, outcome.keepUser, reserved);
  return outcome.charged;
}

/**
 * The reminder after a held reservation's settlement: what it took beyond the reservation (the
 * reservation's own crossing was reported when it was made), in the quota left for new requests.
 */
function remindAfterHeld(deps: ResolvedDeps, settings: BillingSettings, done: { charged: number; quota: number | undefined; email: string }, keepUser: number, reserved: number): void {
  if (done.quota === undefined) return;
  const left = done.quota - keepUser;
  remindIfCrossed(deps.db, settings, done.email, left + Math.max(0, done.charged - reserved), left);
}

/**
 * Starts the settlement thread of a SQLite file database now (at server start) rather than with
 * the first reservation, so that the first answers' settlements do not wait for it to open its
 * connection: a crash just after a start then leaves fewer answers unbilled.
 */
export function startSettlements(deps: Pick<ResolvedDeps, 'db' | 'dialect'>): void {
  if (ledgerOf(deps) !== null) settlementThreadOf(deps.db);
}

/** The settlement threads of SQLite file databases (null: none, settle on this thread). */
const threads = new WeakMap<Db, SettlementThread | null>();

/**
 * The settlement thread of `db`, started on first use, or null (PostgreSQL, `:memory:`, turned
 * off, or stopped after a failure). It is closed with the database handle, after the
 * settlements it was sent.
 */
function settlementThreadOf(db: Db): SettlementThread | null {
  let thread = threads.get(db);
  if (thread === undefined) {
    const file = settlementFileOf(db);
    thread = null;
    if (file !== undefined) {
      const statements = settlementStatements(db);
      // Ids continue from the last one committed, so that the mark never counts a new settlement as done.
      const last = syncRunnerOf(db)?.(`select mark from ${changeMarksTable} where name = '${settlementsMark}'`, [])[0] as { mark?: unknown } | undefined;
      const markSettledSql = `update ${changeMarksTable} set mark = ? where name = '${settlementsMark}'`;
      const started = startSettlementThread(file.path, file.busyTimeoutMs, statements, markSettledSql, Number(last?.mark ?? 0) + 1);
      beforeClose(db, () => started.close());
      thread = started;
    }
    threads.set(db, thread);
  }
  return thread !== null && thread.alive() ? thread : null;
}

/**
 * The settlement of a held reservation on the settlement thread (SQLite file databases). On this
 * thread, at once: the reservation's hold becomes a hold of the price (`pending*`), which new
 * reservations see until the thread reports back; the thread is told what the user and the token
 * must keep for the other reservations held now (the settlements sent before this one are applied
 * before it, and the reservations made after this one counted its price). The thread takes up to
 * the price (`applySettlement`, as `settleHeldHere` does) and writes the rest in its batch's transaction.
 * If that rolls back, the reservation is held again for the biller's retry. If the thread stopped
 * with it in flight (`SettlementLost`), whether it was committed is unknown: the price stays held
 * and it is not retried, so it is never charged twice.
 */
async function settleOnThread(deps: ResolvedDeps, ledger: Ledger, thread: SettlementThread, reservation: Reservation, charge: Charge, price: number): Promise<number> {
  const { userId, tokenId, amount: reserved, tokenLimited, settings } = reservation;
  const keepUser = heldOn(ledger.users, userId) - reserved;
  const keepToken = heldOn(ledger.tokens, tokenId) - reserved;
  const log = settings.logConsumeEnabled ? consumeLogArgs(deps, userId, charge, '', 0) : null;
  const sent = thread.settle({ userId, tokenId, tokenLimited, want: price, keepUser, keepToken, channelId: charge.channelId, log });
  // At once (before any report can arrive): the reservation's hold becomes the price's.
  const pending: Pending = { id: sent.id, amount: price };
  shiftHolds(ledger, userId, tokenId, -reserved);
  addPending(ledger.pendingUsers, userId, pending);
  addPending(ledger.pendingTokens, tokenId, pending);
  let done;
  try {
    done = await sent.done;
  } catch (error) {
    if (error instanceof SettlementLost) {
      close(deps.db, reservation);
    } else {
      dropPending(ledger.pendingUsers, userId, pending);
      dropPending(ledger.pendingTokens, tokenId, pending);
      shiftHolds(ledger, userId, tokenId, reserved);
    }
    throw error;
  }
  dropPending(ledger.pendingUsers, userId, pending);
  dropPending(ledger.pendingTokens, tokenId, pending);
  close(deps.db, reservation);
  remindAfterHeld(deps, settings, done, keepUser, reserved);
  return done.charged;
}

/** Settlements still running, per database: the relay bills after answering (see `afterAnswer`). */
const running = new WeakMap<Db, Set<Promise<void>>>();

/**
 * Runs a request's billing (`work`, which never rejects) after its answer went out, as one-api
 * does (contract §4.4 step 12): the client does not wait for the settlement's transaction. The
 * reservation taken before the upstream call still bounds what the request can cost, and
 * `settlementsDone` lets shutdown (and tests) wait until every answered request is billed.
 */
export function afterAnswer(db: Db, work: Promise<void>): void {
  let set = running.get(db);
  if (set === undefined) {
    set = new Set();
    running.set(db, set);
  }
  const pending = set;
  const tracked = work.finally(() => pending.delete(tracked));
  pending.add(tracked);
}

/** Resolves once every settlement started on `db` (including ones started meanwhile) has finished. */
export async function settlementsDone(db: Db): Promise<void> {
  const set = running.get(db);
  while (set !== undefined && set.size > 0) await Promise.all([...set]);
}

// ---------------------------------------------------------------------------------------------
// Quota reminder

export const reminderMessages = {
  subject: '额度提醒',
  low: '您的额度即将用尽',
  exhausted: '您的额度已用尽',
} as const;

/**
 * Sends the quota reminder (contract §4.6 step 5) when this charge took the user's quota from
 * `before` to `after` across QuotaRemindThreshold or down to ≤ 0 (one mail per crossing), and the
 * user has an e-mail. Fire-and-forget: failures are logged, the request never waits or fails.
 */
function remindIfCrossed(db: Db, settings: BillingSettings, email: string, before: number, after: number): void {
  if (email === '' || after >= before) return;
  const exhausted = before > 0 && after <= 0;
  const low = before >= settings.quotaRemindThreshold && after < settings.quotaRemindThreshold;
  if (!exhausted && !low) return;
  void sendReminder(db, email, after, exhausted).catch((error: unknown) => {
    console.error(`[billing] quota reminder to ${email} failed: ${error instanceof Error ? error.message : String(error)}`);
  });
}

/** The reminder mail: what happened, the quota left, and the top-up page `<ServerAddress>/topup`. */
async function sendReminder(db: Db, email: string, quotaLeft: number, exhausted: boolean): Promise<void> {
  const link = `${(await readOptions(db, ['ServerAddress'])).str('ServerAddress')}/topup`;
  const headline = exhausted ? reminderMessages.exhausted : reminderMessages.low;
  const html =
    `<p>${headline}。剩余额度：${quotaLeft}。</p>` +
    `<p>充值：<a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`;
  await sendMail(db, { to: email, subject: reminderMessages.subject, html });
}
