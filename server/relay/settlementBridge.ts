import type { Kysely } from 'kysely';
import { beforeClose, settlementFileOf, syncRunnerOf } from '../db/connect';
import { changeMarksTable, settlementsMark } from '../db/migrations/changeMarks';
import type { Database } from '../db/schema';
import type { ResolvedDeps } from '../http/env';
import { consumeLogArgs, settlementStatements } from './billingStatements';
import { addPending, dropPending, heldOn, ledgerOf, shiftHolds, type Ledger, type Pending } from './heldReservations';
import { remindAfterHeld } from './quotaReminder';
import { close, type Charge, type Reservation } from './reservations';
import { SettlementLost, startSettlementThread, type SettlementThread } from './settlementThread';

/**
 * The bridge between the held reservations (SQLite file databases) and the settlement thread
 * (settlementThread.ts), which settles with its own connection: the thread is started with the
 * server (or the first reservation) and closed with the database handle; a settlement sent to it
 * turns the reservation's hold into a hold of the price until the thread reports back, so no
 * request is admitted on quota a settlement still in flight will take, and none is refused for
 * one already committed.
 */

type Db = Kysely<Database>;

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
export function settlementThreadOf(db: Db): SettlementThread | null {
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
export async function settleOnThread(deps: ResolvedDeps, ledger: Ledger, thread: SettlementThread, reservation: Reservation, charge: Charge, price: number): Promise<number> {
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
