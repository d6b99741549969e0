import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Statements of many requests sent as one (PostgreSQL): the reservations, and the settlements,
 * that requests reach in one turn of the event loop go to the database in one statement
 * (`oa_relay_reserve_many`, `oa_relay_settle_many`, db/migrations/relayLedger.ts) instead of one
 * each. Each statement is one round trip on one pooled connection, and a connection carries one
 * statement per turn of the event loop (its answer is read in the next one): with thousands of
 * streams a turn lasts tens of milliseconds, and one statement per request left the pool the
 * bottleneck (bench/relay, many streams) while PostgreSQL itself sat idle.
 *
 * Each item keeps its own outcome, and nothing of a group shows before its statement committed
 * (one statement is one transaction). A group whose statement fails with a database error
 * (rolled back: nothing of it was written) is run again item by item with `single`, so that one
 * bad item cannot fail the others; any other failure (the connection lost: the statement may
 * have committed) rejects every item of the group with it, as a failed single statement would.
 */

type Db = Kysely<Database>;

interface Pending<I, R> {
  readonly item: I;
  readonly resolve: (value: R) => void;
  readonly reject: (error: unknown) => void;
}

/** Most items in one statement (bounds the time its row locks are held). */
const maxGroup = 256;

/** A PostgreSQL error answered by the server (the statement was rolled back), as opposed to a lost connection. */
const isServerError = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test((error as { code: string }).code);

/** Groups calls per database, see above. */
export class StatementGroups<I, R> {
  private readonly queues = new WeakMap<Db, Pending<I, R>[]>();

  /**
   * `many` runs a group (in the order given: `order` sorts it first) and answers one result per
   * item, in that order; `single` runs one item alone.
   */
  constructor(
    private readonly many: (db: Db, items: readonly I[]) => Promise<R[]>,
    private readonly single: (db: Db, item: I) => Promise<R>,
    private readonly order: (a: I, b: I) => number,
  ) {}

  /** Runs `item` in the group of this turn of the event loop on `db`. */
  run(db: Db, item: I): Promise<R> {
    let queue = this.queues.get(db);
    const first = queue === undefined || queue.length === 0;
    if (queue === undefined) {
      queue = [];
      this.queues.set(db, queue);
    }
    const waiting = queue;
    return new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      // Sent on the next turn: the requests whose turn this is join the group first.
      if (first) setImmediate(() => this.flush(db));
    });
  }

  private flush(db: Db): void {
    const queue = this.queues.get(db);
    if (queue === undefined) return;
    const all = queue.splice(0);
    for (let start = 0; start < all.length; start += maxGroup) void this.send(db, all.slice(start, start + maxGroup));
  }

  private async send(db: Db, group: Pending<I, R>[]): Promise<void> {
    if (group.length === 1) {
      const only = group[0]!;
      await this.single(db, only.item).then(only.resolve, only.reject);
      return;
    }
    const sorted = [...group].sort((a, b) => this.order(a.item, b.item));
    let results: R[];
    try {
      results = await this.many(
        db,
        sorted.map((p) => p.item),
      );
    } catch (error) {
      if (!isServerError(error)) {
        for (const p of sorted) p.reject(error);
        return;
      }
      // Rolled back: each alone, so that only the item at fault fails.
      await Promise.all(sorted.map((p) => this.single(db, p.item).then(p.resolve, p.reject)));
      return;
    }
    sorted.forEach((p, i) => {
      const result = results[i];
      if (result === undefined) p.reject(new Error('statement group: no result for an item'));
      else p.resolve(result);
    });
  }
}
