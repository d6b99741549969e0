import type { Kysely } from 'kysely';
import { syncRunnerOf } from './connect';
import type { Database } from './schema';

/**
 * Reads that the requests of one turn of the event loop share (PostgreSQL): every request asking
 * for the same thing (the relay's options, the channels of one group and model) in one turn gets
 * the answer of one statement, sent on the next turn, instead of sending its own.
 *
 * Without it, each of thousands of concurrent streams sent these reads on its own, and a pooled
 * connection carries one statement per turn (its answer is read in the next one): the reads
 * queued behind each other for the pool's few connections, and the requests waited seconds for
 * their first token while PostgreSQL sat idle (bench/relay, many streams).
 *
 * As fresh as a read of one's own: the statement is sent after every request sharing it asked,
 * so it sees whatever was committed before any of them did. A request asking once the statement
 * is sent waits for the next one. A failed read fails every request that shared it. A SQLite
 * database (one synchronous connection) reads at once, unshared.
 */

type Db = Kysely<Database>;

/** One read per key and turn, per database. */
export class TurnReads<R> {
  private readonly waiting = new WeakMap<Db, Map<string, Promise<R>>>();

  /** `read` runs the read of `key` on `db` (the database, never an open transaction). */
  constructor(private readonly read: (db: Db, key: string) => Promise<R>) {}

  /** The read of `key` sent on the next turn, shared with every request of this turn that asks for it. */
  run(db: Db, key: string): Promise<R> {
    if (syncRunnerOf(db) !== undefined) return this.read(db, key);
    let byKey = this.waiting.get(db);
    if (byKey === undefined) {
      byKey = new Map();
      this.waiting.set(db, byKey);
    }
    const joined = byKey.get(key);
    if (joined !== undefined) return joined;
    const pending = byKey;
    const shared = new Promise<R>((resolve, reject) => {
      setImmediate(() => {
        // Sent: whoever asks from now on waits for a read of its own turn.
        pending.delete(key);
        this.read(db, key).then(resolve, reject);
      });
    });
    pending.set(key, shared);
    return shared;
  }
}
