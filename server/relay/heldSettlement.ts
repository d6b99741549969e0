import type { Kysely } from 'kysely';
import { syncRunnerOf } from '../db/connect';
import { groupedTransaction } from '../db/groupCommit';
import type { CompiledTemplate } from '../db/precompiled';
import type { Database } from '../db/schema';
import type { ResolvedDeps } from '../http/env';
import { consumeLogArgs, settlementStatements } from './billingStatements';
import { heldOn, releaseHold, shiftHolds, type Ledger } from './heldReservations';
import { remindAfterHeld } from './quotaReminder';
import { close, type Charge, type Reservation } from './reservations';
import { applySettlement, bindArguments, type Runner, type Runners } from './settlementApply.mjs';

/**
 * The settlement of a held reservation (SQLite) on this thread, when there is no settlement
 * thread (`:memory:`, or turned off): `applySettlement` runs on the main connection at once,
 * inside a group commit, and it never takes from the user or token what other held reservations
 * need (a compare-and-set on the balance it has just read, in the same synchronous step).
 */

type Db = Kysely<Database>;

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
export async function settleHeldHere(deps: ResolvedDeps, ledger: Ledger, reservation: Reservation, charge: Charge, price: number): Promise<number> {
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
