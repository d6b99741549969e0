import * as E from 'fp-ts/Either';
import type { Kysely } from 'kysely';
import { channelStatusEnabled } from '../../src/domain/constants';
import { channelTypeByValue } from '../../src/domain/channelTypes';
import type { ChannelRow, Database } from '../db/schema';
import type { ResolvedDeps } from '../http/env';
import { recordNotFound } from './channel';
import { autoDisableChannel } from './channelTest';
import { readOptions } from './options';

/**
 * Provider balance queries (contract §2.9.11, §2.9.12, §4.11). Each supported type reads its
 * provider's billing endpoint with the channel's key and stores `balance` and
 * `balance_updated_time`. Every endpoint hangs off a base URL: the channel's `base_url` when set,
 * else the type's default (one-api ignores `base_url` for the types with fixed hosts).
 *
 * Deviation (contract §6 #29, fixed): `GET /api/channel/update_balance` really updates every enabled
 * channel of a supported type, one after the other (POLLING_INTERVAL seconds apart), and disables
 * a channel whose balance is ≤ 0 (reason `余额不足`) when AutomaticDisableChannelEnabled is on.
 */

type Db = Kysely<Database>;

/** Answer for types without a balance endpoint. */
export const notImplemented = '尚未实现';

/** Reason of the auto-disable at balance ≤ 0. */
export const balanceExhausted = '余额不足';

/** Seconds a provider call may take. */
const balanceTimeoutMs = 30_000;

/** The channel columns a balance query needs. */
export type BalanceChannel = Pick<ChannelRow, 'id' | 'type' | 'key' | 'status' | 'name' | 'base_url'>;

const balanceColumns = ['id', 'type', 'key', 'status', 'name', 'base_url'] as const;

/** Default base URLs that differ from the type's relay default (AI Proxy bills on another host). */
const balanceBaseOverrides: ReadonlyMap<number, string> = new Map([[10, 'https://aiproxy.io']]);

/** The base URL of balance queries for `channel`. */
const balanceBase = (channel: BalanceChannel): string =>
  channel.base_url !== null && channel.base_url !== ''
    ? channel.base_url
    : (balanceBaseOverrides.get(channel.type) ?? channelTypeByValue(channel.type).defaultBaseUrl);

/** The error text of an unknown thrown value. */
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/** A JSON scalar as text (`fallback` for anything else, e.g. absent). */
const text = (u: unknown, fallback: string): string =>
  typeof u === 'string' || typeof u === 'number' || typeof u === 'boolean' ? String(u) : fallback;

/** A JSON number field (0 when absent, as Go's decoder leaves it). */
const num = (u: unknown): number => (typeof u === 'number' ? u : 0);

/** Go's `strconv.ParseFloat` of a JSON string (numbers accepted too). */
function parseFloatField(u: unknown): E.Either<string, number> {
  if (typeof u === 'number') return E.right(u);
  const text = typeof u === 'string' ? u : '';
  const value = Number(text.trim() === text ? text : Number.NaN);
  return text !== '' && Number.isFinite(value) ? E.right(value) : E.left(`strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`);
}

/** GETs `url` and parses its JSON; non-200 → `status code: <n>`. */
async function getJson(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<E.Either<string, unknown>> {
  const timeout = AbortSignal.timeout(balanceTimeoutMs);
  try {
    const response = await fetch(url, { headers, signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) });
    const text = await response.text();
    if (response.status !== 200) return E.left(`status code: ${response.status}`);
    return E.right(JSON.parse(text));
  } catch (error) {
    return E.left(errorText(error));
  }
}

/** `YYYY-MM-DD` of a local date. */
const isoDay = (d: Date): string =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** OpenAI and Custom: subscription hard limit minus this period's usage (cents). */
async function openAiBalance(base: string, headers: Record<string, string>, nowMs: number, signal?: AbortSignal): Promise<E.Either<string, number>> {
  const subscription = await getJson(`${base}/v1/dashboard/billing/subscription`, headers, signal);
  if (E.isLeft(subscription)) return subscription;
  const sub = isObject(subscription.right) ? subscription.right : {};
  const now = new Date(nowMs);
  const start =
    sub.has_payment_method === true
      ? `${isoDay(now).slice(0, 8)}01`
      : isoDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 100));
  const usage = await getJson(`${base}/v1/dashboard/billing/usage?start_date=${start}&end_date=${isoDay(now)}`, headers, signal);
  if (E.isLeft(usage)) return usage;
  const used = isObject(usage.right) ? num(usage.right.total_usage) : 0;
  return E.right(num(sub.hard_limit_usd) - used / 100);
}

/** Reads a field path of a JSON answer. */
const at = (u: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), u);

/**
 * Queries the provider balance of `channel` (contract §4.11). Left = the error text
 * (`尚未实现` for unsupported types).
 */
export async function queryBalance(channel: BalanceChannel, nowMs: number, signal?: AbortSignal): Promise<E.Either<string, number>> {
  const base = balanceBase(channel);
  const key = channel.key ?? '';
  const bearer = { Authorization: `Bearer ${key}` };
  const read = async (path: string, pick: (body: unknown) => E.Either<string, number>, headers: Record<string, string> = bearer) => {
    const body = await getJson(`${base}${path}`, headers, signal);
    return E.isLeft(body) ? body : pick(body.right);
  };
  switch (channel.type) {
    case 1:
    case 8:
      return openAiBalance(base, bearer, nowMs, signal);
    case 4:
    case 13:
      return read('/dashboard/billing/credit_grants', (b) => E.right(num(at(b, 'total_available'))));
    case 12:
      return read('/dashboard/billing/credit_grants', (b) => E.right(num(at(b, 'total_remaining'))));
    case 5:
      return read(`/sb-api/user/status?api_key=${encodeURIComponent(key)}`, (b) => {
        const data = at(b, 'data');
        return isObject(data) ? parseFloatField(data.credit) : E.left(text(at(b, 'msg'), ''));
      });
    case 10:
      return read(
        '/api/report/getUserOverview',
        (b) =>
          at(b, 'success') === true
            ? E.right(num(at(b, 'data', 'totalPoints')))
            : E.left(`code: ${text(at(b, 'error_code'), '0')}, message: ${text(at(b, 'message'), '')}`),
        { 'Api-Key': key },
      );
    case 20:
      return read('/v1/credits', (b) => E.right(num(at(b, 'data', 'total_credits')) - num(at(b, 'data', 'total_usage'))));
    case 36:
      return read('/user/balance', (b) => {
        const infos = at(b, 'balance_infos');
        const cny = Array.isArray(infos) ? (infos as unknown[]).find((info) => at(info, 'currency') === 'CNY') : undefined;
        return cny === undefined ? E.left('currency CNY not found') : parseFloatField(at(cny, 'total_balance'));
      });
    case 44:
      return read('/v1/user/info', (b) => {
        const code = at(b, 'code');
        if (code !== 20000) return E.left(`code: ${text(code, '0')}, message: ${text(at(b, 'message'), '')}`);
        return parseFloatField(at(b, 'data', 'totalBalance'));
      });
    default:
      return E.left(notImplemented);
  }
}

/** Whether `type` has a balance query. */
export const hasBalanceQuery = (type: number): boolean => [1, 4, 5, 8, 10, 12, 13, 20, 36, 44].includes(type);

/** Queries and stores the balance of one channel row. */
async function refreshBalance(deps: ResolvedDeps, channel: BalanceChannel, signal?: AbortSignal): Promise<E.Either<string, number>> {
  const balance = await queryBalance(channel, deps.now(), signal);
  if (E.isLeft(balance)) return balance;
  await deps.db
    .updateTable('channels')
    .set({ balance: balance.right, balance_updated_time: Math.floor(deps.now() / 1000) })
    .where('id', '=', channel.id)
    .execute();
  return balance;
}

/** `GET /api/channel/update_balance/:id`: the stored new balance, or the failure message. */
export async function updateChannelBalance(deps: ResolvedDeps, id: number, signal?: AbortSignal): Promise<E.Either<string, number>> {
  const channel = Number.isSafeInteger(id)
    ? await deps.db.selectFrom('channels').select(balanceColumns).where('id', '=', id).executeTakeFirst()
    : undefined;
  if (channel === undefined) return E.left(recordNotFound);
  return refreshBalance(deps, channel, signal);
}

/** Resolves after `ms` (at once when `signal` aborts). */
const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted === true) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/**
 * `GET /api/channel/update_balance`: refreshes every enabled channel of a supported type in turn;
 * failures are skipped; a balance ≤ 0 disables the channel when AutomaticDisableChannelEnabled.
 * Returns how many balances were stored.
 */
export async function updateAllBalances(deps: ResolvedDeps, signal?: AbortSignal): Promise<number> {
  const db: Db = deps.db;
  const channels = await db.selectFrom('channels').select(balanceColumns).where('status', '=', channelStatusEnabled).orderBy('id').execute();
  let updated = 0;
  let first = true;
  for (const channel of channels.filter((c) => hasBalanceQuery(c.type))) {
    if (signal?.aborted === true) break;
    if (!first) await pause(deps.config.pollingIntervalSeconds * 1000, signal);
    first = false;
    const balance = await refreshBalance(deps, channel, signal);
    if (E.isLeft(balance)) continue;
    updated += 1;
    if (balance.right <= 0 && (await readOptions(db, ['AutomaticDisableChannelEnabled'])).bool('AutomaticDisableChannelEnabled')) {
      await autoDisableChannel(db, channel, balanceExhausted, signal);
    }
  }
  return updated;
}
