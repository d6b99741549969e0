import type { Kysely } from 'kysely';
import { changeWatchOf } from '../db/connect';
import type { Database } from '../db/schema';
import { clusterGeneration, type SyncTopic } from '../services/clusterSync';

/**
 * SQLite: rows the relay reads on every request (a token by its key, a user by id, a channel
 * tier), kept in memory while their change mark is unchanged (ChangeWatch, server/db/connect.ts).
 * The mark is read on every call, so every write that counts (the console's, the relay's own
 * status changes, raw SQL, the settlement thread's, another process's on the same file, a
 * transaction not committed yet) is seen by the next request: triggers give the mark a new random
 * value (server/db/migrations/changeMarks.ts), and any change of it drops every row kept under
 * it. What the marks leave out are the balances the settlements write: a kept token's or user's
 * quota figures may be old, and nothing may rely on them (the reservation reads the balances
 * themselves; a token's `remain_quota` crossing 0, which the token check reads, does change the
 * mark). Only rows found are kept (a wrong key is read every time), at most `limit` per kind.
 *
 * PostgreSQL has no such cheap signal: nothing is kept there (its reads are grouped per turn of
 * the event loop instead, pgBatch.ts), so several gateways on one database need no messages.
 */

type Db = Kysely<Database>;

/**
 * The generation under which what `topic` covers (the relay's options, the channels' top tiers)
 * may be kept: on SQLite its change mark, on PostgreSQL the cluster's (Redis announcements and
 * SYNC_FREQUENCY); undefined: nothing may be kept, read the database.
 */
export function keptGeneration(db: Db, topic: SyncTopic): string | undefined {
  const watch = changeWatchOf(db);
  return watch === undefined ? clusterGeneration(db, topic) : watch.generation(topic);
}

/** The rows of one kind kept for one database, with the mark they were read under. */
interface Kept<K, R> {
  readonly generation: string;
  readonly rows: Map<K, R>;
}

/** One kind of row kept per database under the change mark `mark`. */
export class MarkedRows<K, R> {
  private readonly kept = new WeakMap<Db, Kept<K, R>>();

  constructor(
    private readonly mark: string,
    private readonly limit: number,
  ) {}

  /** The row of `key`: kept, or read with `read` (and kept when found and the mark held meanwhile); always read when the mark is unknown. */
  async get(db: Db, key: K, read: () => Promise<R | undefined>): Promise<R | undefined> {
    const watch = changeWatchOf(db);
    const generation = watch?.generation(this.mark);
    if (watch === undefined || generation === undefined) return read();
    let kept = this.kept.get(db);
    if (kept?.generation !== generation) {
      kept = { generation, rows: new Map() };
      this.kept.set(db, kept);
    }
    const row = kept.rows.get(key);
    if (row !== undefined) return row;
    const fresh = await read();
    // A write between the mark's reading and the row's: the row may be newer than the mark, or older.
    if (fresh === undefined || this.kept.get(db) !== kept || watch.generation(this.mark) !== generation) return fresh;
    if (kept.rows.size >= this.limit) kept.rows.clear();
    kept.rows.set(key, fresh);
    return fresh;
  }
}
