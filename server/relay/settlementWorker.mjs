// @ts-check
/**
 * The settlement thread of a SQLite file database (see settlementThread.ts, which starts it and
 * owns the quota ledger): it applies relay settlements with its own connection, so that their
 * statements and COMMIT leave the event loop that answers requests.
 *
 * Settlements are applied first in, first out, in batches: the first settlement after a batch
 * starts a timer of `intervalMs` (or the batch fills up), and the settlements received by then
 * share one `begin immediate` transaction, each in its own savepoint (one that fails rolls back
 * alone), and one COMMIT; then one message reports every settlement of the batch, only after the
 * COMMIT (or reports them all failed when the COMMIT fails). Fewer commits cost less here, and on
 * the main thread too: SQLite drops a connection's page cache whenever another connection has
 * committed, so every commit here makes the main thread's next reads go to the file again.
 *
 * Plain JavaScript, not TypeScript: a worker thread would need a TypeScript loader, which takes
 * about a second to start (it is started on the first relay request). The SQL comes from the main
 * thread (the statements billingStatements.ts compiles), so there is one source for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { applySettlement, bindArguments } from './settlementApply.mjs';

/**
 * @typedef {import('./settlementThread').SettlementJob} Job
 * @typedef {import('./settlementThread').SettlementDone} Done
 * @typedef {import('./settlementThread').WorkerData} Data
 * @typedef {import('./settlementThread').ToWorker} Incoming
 * @typedef {import('./settlementThread').FromWorker} Outgoing
 */

const port = parentPort;
if (port === null) throw new Error('settlementWorker.mjs runs as a worker thread');
const data = /** @type {Data} */ (workerData);

const sqlite = new BetterSqlite3(data.path, { timeout: data.busyTimeoutMs });
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
sqlite.pragma('temp_store = MEMORY');
sqlite.pragma('cache_size = -65536');

/** @param {unknown} value */
const bindable = (value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

/**
 * A compiled statement prepared on this connection.
 * @param {import('./settlementThread').SettlementStatements[keyof import('./settlementThread').SettlementStatements]} template
 * @returns {import('./settlementApply.mjs').Runner}
 */
function prepared(template) {
  const statement = sqlite.prepare(template.sql);
  return {
    first: (args) => {
      const bound = bindArguments(template, args).map(bindable);
      if (statement.reader) return /** @type {Record<string, unknown> | undefined} */ (statement.get(...bound));
      statement.run(...bound);
      return undefined;
    },
  };
}

const st = data.statements;
/** @type {import('./settlementApply.mjs').Runners} */
const runners = {
  userBalance: prepared(st.userBalance),
  takeUserQuotaIfAt: prepared(st.takeUserQuotaIfAt),
  tokenBalance: prepared(st.tokenBalance),
  takeTokenQuotaIfAt: prepared(st.takeTokenQuotaIfAt),
  moveTokenQuota: prepared(st.moveTokenQuota),
  settleUser: prepared(st.settleUser),
  chargeChannel: prepared(st.chargeChannel),
  insertConsumeLog: prepared(st.insertConsumeLog),
};
/** Records the last settlement committed: the main thread reads it with each balance. */
const markSettled = sqlite.prepare(data.markSettledSql);

const begin = sqlite.prepare('begin immediate');
const commit = sqlite.prepare('commit');
const rollback = sqlite.prepare('rollback');
const savepoint = sqlite.prepare('savepoint settlement');
const release = sqlite.prepare('release savepoint settlement');
const rollbackTo = sqlite.prepare('rollback to savepoint settlement');

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * Applies one batch in one transaction; the outcome of each settlement.
 * @param {readonly Job[]} batch
 * @returns {Done[]}
 */
function runBatch(batch) {
  /** @type {Done[]} */
  const outcomes = [];
  try {
    begin.run();
  } catch (error) {
    return batch.map((job) => ({ id: job.id, ok: false, error: messageOf(error) }));
  }
  // The mark this COMMIT writes: the last id of the batch, or just below its first failed
  // settlement. Balance reads count every sent settlement above the mark as not applied yet, so a
  // failed one keeps its price counted until its report arrives and its reservation is held again
  // (the applied ones after it count twice meanwhile: a moment of refusing too much, never of
  // admitting what its retry would then miss).
  let mark = batch[batch.length - 1]?.id ?? 0;
  for (const job of batch) {
    savepoint.run();
    try {
      outcomes.push({ id: job.id, ok: true, ...applySettlement(runners, job) });
      release.run();
    } catch (error) {
      rollbackTo.run();
      release.run();
      outcomes.push({ id: job.id, ok: false, error: messageOf(error) });
      mark = Math.min(mark, job.id - 1);
    }
  }
  try {
    markSettled.run(mark);
    commit.run();
  } catch (error) {
    if (sqlite.inTransaction) rollback.run();
    return batch.map((job) => ({ id: job.id, ok: false, error: messageOf(error) }));
  }
  return outcomes;
}

/** Most settlements sharing one COMMIT (bounds how long the write lock is held at once). */
const maxBatch = 256;
/** Settlements received and not yet applied. */
/** @type {Job[]} */
const queue = [];
/** The pending batch's timer (started by the first settlement after a batch). */
/** @type {NodeJS.Timeout | undefined} */
let timer;
let closing = false;

function drain() {
  timer = undefined;
  while (queue.length > 0) port?.postMessage(/** @type {Outgoing} */ (runBatch(queue.splice(0, maxBatch))));
  if (closing) {
    sqlite.close();
    port?.close();
  }
}

port.postMessage('ready');

port.on('message', (/** @type {Incoming} */ message) => {
  if (message.kind === 'close') {
    // What was sent is applied at once; then the connection closes.
    closing = true;
    clearTimeout(timer);
    timer = setTimeout(drain, 0);
    return;
  }
  for (const job of message.jobs) queue.push(job);
  if (queue.length >= maxBatch) {
    clearTimeout(timer);
    timer = setTimeout(drain, 0);
  } else if (timer === undefined && !closing) {
    timer = setTimeout(drain, data.intervalMs);
  }
});
