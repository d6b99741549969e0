import * as E from 'fp-ts/Either';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { ResolvedDeps } from '../http/env';
import { truthy } from './billingStatements';
import { heldQuota, holdReservation, ledgerOf, releaseHold } from './heldReservations';
import { settleHeldHere } from './heldSettlement';
import { quotaAmount } from './pricing';
import { billingSettings, type BillingSettings } from './relaySettings';
import { isClosed, notOpened, opened, close, reservingStopped, billingMessages, type Charge, type Reservation } from './reservations';
import { settleOnThread, settlementThreadOf } from './settlementBridge';
import { relayError, type RelayCaller, type RelayError } from './types';
import { refundWritten, reserveDurably, reserveWritten, settleWritten } from './writtenReservations';

/**
 * Quota billing of a relay request (contract §4.6 quota, §4.7 consume log): reserve, refund and
 * settle, each choosing how the reservation is kept; pricing (§3.5) is pricing.ts.
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
 *   that stopped without settling them are given back (reservationLedger.ts). See
 *   writtenReservations.ts.
 * - SQLite (one gateway process owns the file): the reservation is HELD in this process's memory
 *   (`Ledger`, heldReservations.ts) instead of being written: reserving reads the user's and
 *   token's rows at once (no await in between) and admits the request only if what they hold,
 *   less every reservation still held, covers it. A refund only forgets the hold; the settlement is the one
 *   transaction, and it never takes from the user or token what other held reservations need
 *   (a compare-and-set on the balance it has just read, in the same synchronous step;
 *   heldSettlement.ts).
 *   This saves a transaction per request (bench/relay), and a crash can no longer leave a
 *   reservation taken but never settled.
 * - SQLite file databases run that settlement on the settlement thread, with its own connection
 *   (`settleOnThread`, settlementBridge.ts): the reservation's hold becomes a hold of the price
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
 * - A negative ratio reserves 0 and is priced 1 (pricing.ts).
 * As in one-api, unlimited tokens' `remain_quota`/`used_quota` are left untouched.
 *
 * The parts: relaySettings.ts (the options read per request), pricing.ts (ratios and prices),
 * reservations.ts (a reservation's data; the ones open in this process, for shutdown),
 * heldReservations.ts (SQLite's in-memory ledger), heldSettlement.ts and settlementBridge.ts
 * (settling a held reservation here or on the settlement thread), writtenReservations.ts
 * (PostgreSQL's durable reservations), billingStatements.ts (their SQL), quotaReminder.ts (the
 * reminder mail). This module chooses between them and tracks the settlements still running.
 */

type Db = Kysely<Database>;

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
  if (reservingStopped(deps.db)) return E.left(relayError(503, billingMessages.shuttingDown, 'gateway_shutting_down'));
  // Counted as open from here, so that a shutdown waits for a reservation being written too.
  const serial = opened(deps.db);
  try {
    const result = await reserveNow(deps, caller, amount, settings, serial);
    if (E.isLeft(result)) notOpened(deps.db, serial);
    return result;
  } catch (error) {
    notOpened(deps.db, serial);
    throw error;
  }
}

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
  return reserveWritten(deps, userId, tokenId, take, billing, serial);
}

/** Gives a failed request's reservation back (user quota; token remain/used), once: a held one is forgotten, a taken one given back in one transaction. */
export async function refund(deps: ResolvedDeps, reservation: Reservation): Promise<void> {
  if (isClosed(reservation)) return;
  if (reservation.held) releaseHold(deps, reservation);
  else await refundWritten(deps, reservation);
  close(deps.db, reservation);
}

/**
 * Settles a reservation at `charge.quota`, in one transaction: the difference to the reservation
 * is taken from (or given back to) the user and the limited token — capped at what they have left,
 * so neither goes below 0; the user's `used_quota` and `request_count`, the channel's
 * `used_quota` grow; the consume log (type 2) is written when LogConsumeEnabled. Returns the
 * quota actually charged (the log's `quota`). A reservation settles once.
 */
export async function settle(deps: ResolvedDeps, reservation: Reservation, charge: Charge): Promise<number> {
  if (isClosed(reservation)) throw new Error('reservation already refunded or settled');
  const ledger = reservation.held ? ledgerOf(deps) : null;
  const price = quotaAmount(Math.trunc(charge.quota));
  if (ledger !== null) {
    const thread = settlementThreadOf(deps.db);
    return thread !== null ? settleOnThread(deps, ledger, thread, reservation, charge, price) : settleHeldHere(deps, ledger, reservation, charge, price);
  }
  // Written reservation (PostgreSQL): the difference to what it took.
  return settleWritten(deps, reservation, charge, price);
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
