import * as E from 'fp-ts/Either';
import { sql, type Transaction } from 'kysely';
import { groupedTransaction } from '../db/groupCommit';
import type { Database } from '../db/schema';
import type { ResolvedDeps } from '../http/env';
import {
  chargeChannel,
  consumeLogArgs,
  giveUserQuota,
  insertConsumeLog,
  moveTokenQuotaStatement,
  reserveManyStatement,
  reserveStatement,
  settleManyStatement,
  settleReservedUser,
  settleStatement,
  type ReserveItem,
  type ReserveRow,
  type SettleItem,
  type SettleRow,
  settleUser,
  takeLimitedTokenQuota,
  takeTokenQuota,
  takeUserQuota,
  truthy,
} from './billingStatements';
import { StatementGroups } from './pgBatch';
import { remindIfCrossed } from './quotaReminder';
import type { BillingSettings } from './relaySettings';
import { relayInstanceId } from './reservationLedger';
import { billingMessages, close, type Charge, type Reservation } from './reservations';
import { relayError, type RelayError } from './types';

/**
 * Reservations taken in the database rather than held in memory: on PostgreSQL (several gateways
 * may share the database) the durable ones, each also a row in `oa_relay_reservations` under this
 * gateway's id (reservationLedger.ts), written by the statement that takes the quota and deleted
 * by the one that settles or refunds it; and on a SQLite database without a synchronous
 * connection, one transaction of conditional updates. Reserve, refund and settle each run as
 * such conditional updates, re-checked under the row lock, so concurrent requests can neither
 * overdraw nor lose an update.
 */

type Trx = Transaction<Database>;

/** Thrown inside a transaction to roll it back with the relay error to answer. */
class Refused extends Error {
  constructor(readonly relay: RelayError) {
    super(relay.error.message);
  }
}

/** Takes `take` (> 0) from the user and the token in one transaction of conditional updates (SQLite without a synchronous connection). */
export async function reserveWritten(
  deps: ResolvedDeps,
  userId: number,
  tokenId: number,
  take: number,
  billing: BillingSettings,
  serial: number,
): Promise<E.Either<RelayError, Reservation>> {
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
 * The PostgreSQL reservation: one statement (`oa_relay_reserve`, db/migrations/relayLedger.ts)
 * locks the user's then the token's row, checks both, takes the amount from both and records the
 * reservation under this gateway's id (reservationLedger.ts), so that it is given back if the
 * gateway stops before settling it. A refusal changes nothing.
 */
export async function reserveDurably(deps: ResolvedDeps, userId: number, tokenId: number, take: number, billing: BillingSettings, serial: number): Promise<E.Either<RelayError, Reservation>> {
  const row = await reservations.run(deps.db, { amount: take, userId, tokenId });
  if (row?.r_outcome === 'user' || row === undefined) return E.left(relayError(403, billingMessages.userShort, 'insufficient_user_quota'));
  if (row.r_outcome === 'token') return E.left(relayError(403, billingMessages.tokenShort, 'pre_consume_token_quota_failed'));
  const quotaAfter = Number(row.r_quota);
  remindIfCrossed(deps.db, billing, row.r_email ?? '', quotaAfter + take, quotaAfter);
  return E.right({ userId, tokenId, amount: take, tokenLimited: row.r_unlimited !== true, held: false, ledgerId: Number(row.r_id), serial, settings: billing });
}

/** By user, then token: the order in which a group locks their rows (every quota statement locks users → tokens). */
const byUserThenToken = (a: { readonly userId: number; readonly tokenId: number }, b: { readonly userId: number; readonly tokenId: number }): number =>
  a.userId - b.userId || a.tokenId - b.tokenId;

/** The reservations requested in one turn of the event loop, in one statement (pgBatch.ts). */
const reservations = new StatementGroups<ReserveItem, ReserveRow | undefined>(
  async (db, items) => {
    const { rows } = await reserveManyStatement(items, relayInstanceId(db)).execute(db);
    return inItemOrder(rows, (row) => row.r_index, items.length);
  },
  async (db, item) => (await reserveStatement(item.amount, item.userId, item.tokenId, relayInstanceId(db)).execute(db)).rows[0],
  byUserThenToken,
);

/** The settlements started in one turn of the event loop, in one statement (pgBatch.ts). */
const settlements = new StatementGroups<SettleItem, SettleRow | undefined>(
  async (db, items) => {
    const { rows } = await settleManyStatement(items).execute(db);
    return inItemOrder(rows, (row) => row.s_index, items.length);
  },
  async (db, item) => (await settleStatement(item.ledgerId, item.reservation, item.price, item.log, item.args).execute(db)).rows[0],
  (a, b) => byUserThenToken(a.reservation, b.reservation),
);

/** The rows of a group's statement by their 1-based item index. */
function inItemOrder<R>(rows: readonly R[], indexOf: (row: R) => number, count: number): (R | undefined)[] {
  const ordered: (R | undefined)[] = Array.from({ length: count }, () => undefined);
  for (const row of rows) ordered[Number(indexOf(row)) - 1] = row;
  return ordered;
}

/** Gives a written reservation back: its row and its quota in one statement (PostgreSQL), else in one transaction. */
export async function refundWritten(deps: ResolvedDeps, reservation: Reservation): Promise<void> {
  const { amount, userId, tokenId } = reservation;
  if (reservation.ledgerId !== null) {
    // One statement: the row goes, the quota comes back (nothing if a recovery gave it back already).
    await sql`select oa_relay_refund(${reservation.ledgerId})`.execute(deps.db);
  } else if (amount > 0) {
    await groupedTransaction(deps.db, deps.dialect, async (trx) => {
      await giveUserQuota.execute(trx, amount, userId);
      await moveTokenQuota(trx, tokenId, -amount);
    });
  }
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

/** The settlement of a reservation whose row a recovery has given back: nothing is charged. */
export class ReservationGone extends Error {
  constructor(readonly ledgerId: number) {
    super(`reservation ${ledgerId} was given back by a recovery (this gateway was presumed stopped, or the user is gone): the answer is not billed`);
  }
}

/**
 * Settles a written reservation at `price`: the difference to what it took, in one transaction
 * (see `settle`). Returns the quota actually charged.
 */
export async function settleWritten(deps: ResolvedDeps, reservation: Reservation, charge: Charge, price: number): Promise<number> {
  if (deps.dialect === 'postgres') return settleDurably(deps, reservation, charge, price);
  const { userId, tokenId, amount: reserved, tokenLimited, settings } = reservation;
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

/**
 * The PostgreSQL settlement: one statement (`oa_relay_settle`, db/migrations/relayLedger.ts) does
 * what `settleWritten`'s transaction does, so the user's, token's and channel's rows are locked
 * for that statement only, not across the round trips of a transaction (with thousands of
 * streams of one user, every settlement waited for the ones before to finish theirs).
 */
async function settleDurably(deps: ResolvedDeps, reservation: Reservation, charge: Charge, price: number): Promise<number> {
  const { settings } = reservation;
  const row = await settlements.run(deps.db, { ledgerId: reservation.ledgerId, reservation, price, log: settings.logConsumeEnabled, args: consumeLogArgs(deps, reservation.userId, charge, '', 0) });
  if (row?.s_outcome !== 'ok') {
    close(deps.db, reservation);
    // The reservation's row (or the user) was gone: given back by a recovery (this gateway was presumed stopped).
    if (reservation.ledgerId !== null) throw new ReservationGone(reservation.ledgerId);
    return 0;
  }
  close(deps.db, reservation);
  const extra = Number(row.s_extra);
  // The reminder covers what this settlement took beyond the reservation (the reservation's own
  // crossing was reported when it was made).
  if (row.s_quota !== null) remindIfCrossed(deps.db, settings, row.s_email ?? '', Number(row.s_quota) + extra, Number(row.s_quota));
  return Number(row.s_charged);
}
