import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Database, Dialect } from './schema';

/**
 * Transactions that may share one commit (group commit), for the relay's many small quota
 * transactions. On SQLite every transaction already runs alone on the one connection, and its
 * COMMIT writes each page it changed to the WAL: the user's, the token's, the channel's, the log
 * table's and its indexes'. Requests in flight at the same time change the same pages, so
 * running the transactions waiting at that moment inside ONE database transaction, each in its
 * own savepoint, writes those pages once instead of once per request.
 *
 * Each piece of work keeps its own outcome: one that throws is rolled back to its savepoint (and
 * rejects with its error) without touching the others; the others resolve only once the shared
 * COMMIT succeeded, so a caller never sees a result that is not durable. If the COMMIT itself
 * fails, every piece of that batch rejects with the failure and nothing of it is written.
 * Alone, a piece runs as a plain transaction (no savepoint). PostgreSQL runs every piece as its
 * own transaction: there, concurrent transactions proceed in parallel under row locks.
 */

type Db = Kysely<Database>;
type Work<T> = (trx: Transaction<Database>) => Promise<T>;

interface Job {
  readonly work: Work<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Most pieces of work sharing one commit (bounds how long the connection is held at once). */
const maxBatch = 64;

const savepoint = CompiledQuery.raw('savepoint group_commit_piece');
const release = CompiledQuery.raw('release savepoint group_commit_piece');
const rollbackTo = CompiledQuery.raw('rollback to savepoint group_commit_piece');

/** Counts since start (all databases): transactions run by the batcher and the pieces they held. */
export const groupCommitStats = { transactions: 0, pieces: 0 };

/** The pieces waiting per database, and whether a batch is running. */
const queues = new WeakMap<Db, { jobs: Job[]; running: boolean }>();

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/** Runs one batch in one transaction; the outcome of each piece, in order. */
async function runBatch(db: Db, batch: readonly Job[]): Promise<Outcome[]> {
  groupCommitStats.transactions += 1;
  groupCommitStats.pieces += batch.length;
  const only = batch.length === 1 ? batch[0] : undefined;
  if (only !== undefined) {
    try {
      return [{ ok: true, value: await db.transaction().execute(only.work) }];
    } catch (error) {
      return [{ ok: false, error }];
    }
  }
  const outcomes: Outcome[] = [];
  await db.transaction().execute(async (trx) => {
    for (const job of batch) {
      await trx.executeQuery(savepoint);
      try {
        const value = await job.work(trx);
        await trx.executeQuery(release);
        outcomes.push({ ok: true, value });
      } catch (error) {
        await trx.executeQuery(rollbackTo);
        await trx.executeQuery(release);
        outcomes.push({ ok: false, error });
      }
    }
  });
  return outcomes;
}

/** Runs batches until nothing waits. */
async function drain(db: Db, queue: { jobs: Job[]; running: boolean }): Promise<void> {
  try {
    while (queue.jobs.length > 0) {
      const batch = queue.jobs.splice(0, maxBatch);
      let outcomes: Outcome[];
      try {
        outcomes = await runBatch(db, batch);
      } catch (error) {
        // BEGIN, a savepoint statement or the COMMIT failed: nothing of the batch was written.
        for (const job of batch) job.reject(error);
        continue;
      }
      batch.forEach((job, i) => {
        const outcome = outcomes[i];
        if (outcome?.ok === true) job.resolve(outcome.value);
        else job.reject(outcome === undefined ? new Error('group commit: piece not run') : outcome.error);
      });
    }
  } finally {
    queue.running = false;
  }
}

/** Runs `work` in a transaction that may share its commit with others waiting (SQLite), see above. */
export function groupedTransaction<T>(db: Db, dialect: Dialect, work: Work<T>): Promise<T> {
  if (dialect !== 'sqlite') return db.transaction().execute(work);
  let queue = queues.get(db);
  if (queue === undefined) {
    queue = { jobs: [], running: false };
    queues.set(db, queue);
  }
  const waiting = queue;
  return new Promise<T>((resolve, reject) => {
    waiting.jobs.push({ work, resolve: resolve as (value: unknown) => void, reject });
    if (!waiting.running) {
      // Start on the next turn of the event loop: the requests whose data arrived in this turn
      // reach this point first and join the batch (starting at once, every batch held one piece:
      // a SQLite transaction completes without yielding to I/O).
      waiting.running = true;
      setImmediate(() => void drain(db, waiting));
    }
  });
}
