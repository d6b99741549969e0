import * as E from 'fp-ts/Either';
import type { Kysely } from 'kysely';
import { syncRunnerOf } from '../db/connect';
import type { Database } from '../db/schema';
import type { ResolvedDeps } from '../http/env';
import { tokenBalance, truthy, userBalance } from './billingStatements';
import { remindIfCrossed } from './quotaReminder';
import type { BillingSettings } from './relaySettings';
import { billingMessages, type Reservation } from './reservations';
import { relayError, type RelayError } from './types';

/**
 * The in-memory ledger of the reservations held on a SQLite database (one gateway process owns
 * the file, so a reservation is held here instead of being written): per user and per token, the
 * quota held by open reservations and by settlements sent to the settlement thread and not yet
 * reported back. A reservation is admitted (`holdReservation`) only if what the rows hold, less
 * every hold, covers it; the check and the hold happen with no await in between.
 */

type Db = Kysely<Database>;

/**
 * The reservations held in memory on a SQLite database, per user and per token (every token,
 * so that an unlimited token's hold shows too; only limited tokens are refused for theirs).
 */
export interface Ledger {
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
export interface Pending {
  readonly id: number;
  readonly amount: number;
}

/** What the settlements on `key` that a balance read at `applied` does not include yet still hold. */
function pendingOn(map: Map<number, Pending[]>, key: number, applied: number): number {
  let sum = 0;
  for (const p of map.get(key) ?? []) if (p.id > applied) sum += p.amount;
  return sum;
}

export function addPending(map: Map<number, Pending[]>, key: number, pending: Pending): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [pending]);
  else list.push(pending);
}

export function dropPending(map: Map<number, Pending[]>, key: number, pending: Pending): void {
  const list = map.get(key);
  if (list === undefined) return;
  const left = list.filter((p) => p !== pending);
  if (left.length > 0) map.set(key, left);
  else map.delete(key);
}

const ledgers = new WeakMap<Db, Ledger>();

/** The ledger of `deps`' database, or null when reservations are written (PostgreSQL). */
export function ledgerOf(deps: Pick<ResolvedDeps, 'db' | 'dialect'>): Ledger | null {
  if (deps.dialect !== 'sqlite' || syncRunnerOf(deps.db) === undefined) return null;
  let ledger = ledgers.get(deps.db);
  if (ledger === undefined) {
    ledger = { users: new Map(), tokens: new Map(), pendingUsers: new Map(), pendingTokens: new Map() };
    ledgers.set(deps.db, ledger);
  }
  return ledger;
}

export const heldOn = (map: Map<number, number>, id: number): number => map.get(id) ?? 0;

/** Adds `amount` (negative: releases) to the hold on `id`. */
function hold(map: Map<number, number>, id: number, amount: number): void {
  const left = heldOn(map, id) + amount;
  if (left > 0) map.set(id, left);
  else map.delete(id);
}

/** Adds `amount` (negative: releases) to the holds on a user and a token. */
export function shiftHolds(ledger: Ledger, userId: number, tokenId: number, amount: number): void {
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

/**
 * The SQLite reservation: reads the user's and the token's rows and records the hold with no
 * await in between, so no other request's hold or settlement can slip between the check and the
 * hold. (The rows may include a settlement's take not yet committed on this connection; its hold
 * was released in the same step as that take, and comes back if the take rolls back.)
 */
export function holdReservation(
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
export function releaseHold(deps: ResolvedDeps, reservation: Reservation): void {
  const ledger = ledgerOf(deps);
  if (ledger !== null && reservation.held) shiftHolds(ledger, reservation.userId, reservation.tokenId, -reservation.amount);
}
