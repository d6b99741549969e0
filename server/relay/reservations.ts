import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { BillingSettings } from './relaySettings';
import type { Usage } from './types';

/**
 * A reservation as plain data (`Reservation`, and the `Charge` that settles it), and the
 * reservations open in this process: each is numbered while open and marked closed once refunded
 * or settled, so that none is given back or charged twice and shutdown can wait for the requests
 * in flight (`reservationsClosed`) after refusing new ones (`stopReserving`).
 */

type Db = Kysely<Database>;

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

/** Reservations already refunded or settled (guards against giving back or charging twice). */
const closed = new WeakSet<Reservation>();

/** The serials of the reservations open per database (reserved, neither refunded nor settled yet). */
const open = new WeakMap<Db, Set<number>>();
let lastSerial = 0;

/** A new serial, counted as open on `db`. */
export function opened(db: Db): number {
  lastSerial += 1;
  let set = open.get(db);
  if (set === undefined) {
    set = new Set();
    open.set(db, set);
  }
  set.add(lastSerial);
  return lastSerial;
}

/** Forgets the serial of a reservation that was refused or failed (it never opened). */
export function notOpened(db: Db, serial: number): void {
  open.get(db)?.delete(serial);
}

/** Marks `reservation` refunded or settled. */
export function close(db: Db, reservation: Reservation): void {
  closed.add(reservation);
  open.get(db)?.delete(reservation.serial);
}

/** Whether `reservation` was refunded or settled already. */
export const isClosed = (reservation: Reservation): boolean => closed.has(reservation);

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

/** The databases on which shutdown refuses new reservations. */
const stoppedReserving = new WeakSet<Db>();

/** Refuses new reservations on `db` (shutdown): the requests that reach billing get 503. */
export function stopReserving(db: Db): void {
  stoppedReserving.add(db);
}

/** Whether `stopReserving` was called on `db`. */
export const reservingStopped = (db: Db): boolean => stoppedReserving.has(db);
