import { Worker } from 'node:worker_threads';
import type { CompiledTemplate } from '../db/precompiled';

/**
 * The main thread's side of the settlement worker (settlementWorker.mjs): a second SQLite
 * connection, on its own thread, that applies relay settlements first in, first out, in
 * group-commit batches. settlementBridge.ts decides what each settlement may take (from the ledger
 * of held quota, heldReservations.ts); this module only carries settlements there and outcomes back.
 */

/** One settlement, as the worker applies it (plain data: it crosses threads). */
export interface SettlementJob {
  readonly id: number;
  readonly userId: number;
  readonly tokenId: number;
  readonly tokenLimited: boolean;
  /** The price: taken from the user (and the token) up to what they hold beyond `keep*`. */
  readonly want: number;
  /** Quota the user must keep for other requests' reservations. */
  readonly keepUser: number;
  /** Quota a limited token must keep for other requests' reservations. */
  readonly keepToken: number;
  readonly channelId: number;
  /** The consume log's arguments (billingStatements.ts `insertConsumeLog`; the worker fills in the username and the quota charged), or null. */
  readonly log: readonly unknown[] | null;
}

/** What became of one settlement, reported after its batch's COMMIT. */
export type SettlementDone =
  | { readonly id: number; readonly ok: true; readonly charged: number; readonly quota: number | undefined; readonly email: string }
  | { readonly id: number; readonly ok: false; readonly error: string };

/** The outcome of a settlement that committed. */
export type Settled = Extract<SettlementDone, { ok: true }>;

/** The statements the worker runs, by name (compiled by billingStatements.ts for SQLite). */
export type SettlementStatements = Readonly<
  Record<'userBalance' | 'takeUserQuotaIfAt' | 'tokenBalance' | 'takeTokenQuotaIfAt' | 'moveTokenQuota' | 'settleUser' | 'chargeChannel' | 'insertConsumeLog', CompiledTemplate>
>;

/** The worker's `workerData`. */
export interface WorkerData {
  readonly path: string;
  readonly busyTimeoutMs: number;
  readonly statements: SettlementStatements;
  /** Records the batch's mark (one parameter: its last id, or just below its first failed settlement), in the batch's transaction. */
  readonly markSettledSql: string;
  /** How long a batch gathers settlements before it commits. */
  readonly intervalMs: number;
}

/** Messages to the worker: the settlements sent in one turn of the event loop, in order, or the close. */
export type ToWorker = { readonly kind: 'settle'; readonly jobs: readonly SettlementJob[] } | { readonly kind: 'close' };
/** Messages from the worker: `ready` once its connection is open, then the outcomes of each batch. */
export type FromWorker = 'ready' | readonly SettlementDone[];

/** The worker stopped with settlements in flight: whether they were committed is unknown. */
export class SettlementLost extends Error {}

/** A running settlement worker. */
export interface SettlementThread {
  /** Whether it still takes settlements (false once it stopped or failed). */
  readonly alive: () => boolean;
  /**
   * Sends `job`, under the next id (ids grow from `firstId`; the worker records up to which one
   * everything is committed, see billingStatements.ts `lastSettled`). `done` resolves after the COMMIT, or rejects with the
   * worker's error (nothing of it was written) or `SettlementLost`.
   */
  readonly settle: (job: Omit<SettlementJob, 'id'>) => { readonly id: number; readonly done: Promise<Settled> };
  /** Lets the worker apply what it was sent, close its connection and end. */
  readonly close: () => Promise<void>;
}

/**
 * How long the worker gathers settlements before it commits them together. At concurrency 1 a
 * commit per request cost the worker a COMMIT and the main thread its page cache each time
 * (bench/relay: 20 ms took about 15 % off the gateway's p50 and CPU per request). The client never
 * waits for it: the answer has gone out, and the request's price is held until the commit.
 */
export const settlementIntervalMs = 20;

/** The worker's wait for the write lock: the main connection's transactions may span awaits. */
const workerBusyTimeoutMs = 60_000;

/** Starts the settlement worker on the SQLite file at `path`; its first settlement gets id `firstId`. */
export function startSettlementThread(
  path: string,
  busyTimeoutMs: number,
  statements: SettlementStatements,
  markSettledSql: string,
  firstId: number,
): SettlementThread {
  const data: WorkerData = { path, busyTimeoutMs: Math.max(busyTimeoutMs, workerBusyTimeoutMs), statements, markSettledSql, intervalMs: settlementIntervalMs };
  const worker = new Worker(new URL('./settlementWorker.mjs', import.meta.url), { workerData: data });
  // The worker never keeps the process alive: shutdown closes it after the last settlement.
  worker.unref();
  const waiting = new Map<number, { readonly resolve: (done: Settled) => void; readonly reject: (error: Error) => void }>();
  let nextId = firstId;
  let running = true;
  /**
   * The settlements of this turn of the event loop, sent together at its end: a message each
   * (its clone, the worker's wake-up) cost about 2.7 % of the gateway's time with 5,000 streams
   * ending within seconds (bench/relay, many-streams scenario). The worker gathers them for
   * `settlementIntervalMs` anyway, and their holds are in the ledger from the start.
   */
  let outbox: SettlementJob[] = [];
  let flushing: NodeJS.Immediate | null = null;
  const flush = (): void => {
    if (flushing !== null) clearImmediate(flushing);
    flushing = null;
    if (outbox.length === 0) return;
    const message: ToWorker = { kind: 'settle', jobs: outbox };
    outbox = [];
    worker.postMessage(message);
  };
  let closed: Promise<void> | undefined;

  /** Whether the worker has opened its connection (before that, it cannot have committed anything). */
  let ready = false;
  const stopped = (reason: string): void => {
    running = false;
    // Not sent yet: nothing of them can have been written (a retry may settle them elsewhere).
    const unsent = new Set(outbox.map((job) => job.id));
    outbox = [];
    for (const [id, pending] of waiting) {
      pending.reject(
        ready && !unsent.has(id)
          ? new SettlementLost(`settlement worker stopped (${reason}): the settlement may or may not have been committed`)
          : new Error(`settlement worker failed to start (${reason}): nothing was written`),
      );
    }
    waiting.clear();
  };
  worker.on('message', (message: FromWorker) => {
    if (message === 'ready') {
      ready = true;
      return;
    }
    for (const done of message) {
      const pending = waiting.get(done.id);
      if (pending === undefined) continue;
      waiting.delete(done.id);
      if (done.ok) pending.resolve(done);
      else pending.reject(new Error(done.error));
    }
  });
  worker.on('error', (error) => {
    console.error('[billing] settlement worker failed:', error);
    stopped(error.message);
  });
  const exited = new Promise<void>((resolve) => {
    worker.on('exit', (code) => {
      if (waiting.size > 0 || closed === undefined) stopped(`exit code ${code}`);
      running = false;
      resolve();
    });
  });

  return {
    alive: () => running,
    settle: (job) => {
      const id = nextId;
      nextId += 1;
      const done = new Promise<Settled>((resolve, reject) => {
        if (!running) {
          // Nothing sent: a retry may settle it elsewhere.
          reject(new Error('settlement worker not running'));
          return;
        }
        waiting.set(id, { resolve, reject });
        outbox.push({ ...job, id });
        flushing ??= setImmediate(flush);
      });
      return { id, done };
    },
    close: () => {
      if (closed === undefined) {
        const message: ToWorker = { kind: 'close' };
        // Kept alive until the worker has applied what it was sent and closed its connection.
        worker.ref();
        if (running) {
          flush();
          worker.postMessage(message);
        }
        running = false;
        closed = exited;
      }
      return closed;
    },
  };
}
