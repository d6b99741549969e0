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
 * thread (the statements billing.ts compiles), so there is one source for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

/**
 * @typedef {{ readonly arg: number } | { readonly value: unknown }} Parameter
 * @typedef {{ readonly sql: string, readonly parameters: readonly Parameter[] }} Template
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
 * A template prepared once; `run` binds the arguments where the template has them.
 * @param {Template} template
 */
function prepared(template) {
  const statement = sqlite.prepare(template.sql);
  /** @param {readonly unknown[]} args */
  const bind = (args) => template.parameters.map((p) => bindable('arg' in p ? args[p.arg] : p.value));
  return {
    /** @param {readonly unknown[]} args @returns {Record<string, unknown> | undefined} */
    first: (args) => {
      if (statement.reader) return /** @type {Record<string, unknown> | undefined} */ (statement.get(...bind(args)));
      statement.run(...bind(args));
      return undefined;
    },
  };
}

const s = Object.fromEntries(Object.entries(data.statements).map(([name, template]) => [name, prepared(template)]));
/** @param {string} name */
const statement = (name) => {
  const found = s[name];
  if (found === undefined) throw new Error(`settlement worker: no statement ${name}`);
  return found;
};
const userBalance = statement('userBalance');
const takeUserQuotaIfAt = statement('takeUserQuotaIfAt');
const tokenBalance = statement('tokenBalance');
const takeTokenQuotaIfAt = statement('takeTokenQuotaIfAt');
const moveTokenQuota = statement('moveTokenQuota');
const settleUser = statement('settleUser');
const chargeChannel = statement('chargeChannel');
const insertConsumeLog = statement('insertConsumeLog');
/** Records the last settlement committed: the main thread reads it with each balance. */
const markSettled = sqlite.prepare(data.markSettledSql);

const begin = sqlite.prepare('begin immediate');
const commit = sqlite.prepare('commit');
const rollback = sqlite.prepare('rollback');
const savepoint = sqlite.prepare('savepoint settlement');
const release = sqlite.prepare('release savepoint settlement');
const rollbackTo = sqlite.prepare('rollback to savepoint settlement');

/**
 * One settlement, inside the batch's transaction: up to `want` from the user, leaving `keepUser`
 * (what other requests' reservations hold), and as much of it from the token (limited: leaving
 * `keepToken`; unlimited: all of it, its numbers only record). Each take is a compare-and-set on
 * the balance just read (the transaction holds the write lock: nothing changes it in between).
 * The user's used quota and request count, the channel's used quota and the consume log follow.
 * @param {Job} job
 * @returns {{ charged: number, quota: number | undefined, email: string }}
 */
function apply(job) {
  let fromUser = 0;
  let charged = 0;
  if (job.want > 0) {
    const user = userBalance.first([job.userId]);
    const have = user === undefined ? 0 : Number(user.quota);
    fromUser = Math.max(0, Math.min(job.want, have - job.keepUser));
    if (fromUser > 0 && takeUserQuotaIfAt.first([fromUser, job.userId, have]) === undefined) fromUser = 0;
    if (fromUser > 0 && !job.tokenLimited) {
      moveTokenQuota.first([fromUser, job.tokenId]);
      charged = fromUser;
    } else if (fromUser > 0) {
      const token = tokenBalance.first([job.tokenId]);
      const remain = token === undefined ? 0 : Number(token.remain_quota);
      charged = Math.max(0, Math.min(fromUser, remain - job.keepToken));
      if (charged > 0 && takeTokenQuotaIfAt.first([charged, job.tokenId, remain]) === undefined) charged = 0;
    }
  }
  // What the user gave but the token could not cover goes back to the user.
  const user = settleUser.first([fromUser - charged, charged, job.userId]);
  if (charged !== 0) chargeChannel.first([charged, job.channelId]);
  if (job.log !== null) {
    const log = [...job.log];
    log[3] = user === undefined ? '' : String(user.username ?? '');
    log[6] = charged;
    insertConsumeLog.first(log);
  }
  return {
    charged,
    quota: user === undefined ? undefined : Number(user.quota),
    email: user === undefined ? '' : String(user.email ?? ''),
  };
}

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
  for (const job of batch) {
    savepoint.run();
    try {
      outcomes.push({ id: job.id, ok: true, ...apply(job) });
      release.run();
    } catch (error) {
      rollbackTo.run();
      release.run();
      outcomes.push({ id: job.id, ok: false, error: messageOf(error) });
    }
  }
  try {
    markSettled.run(batch[batch.length - 1]?.id ?? 0);
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
  queue.push(message.job);
  if (queue.length >= maxBatch) {
    clearTimeout(timer);
    timer = setTimeout(drain, 0);
  } else if (timer === undefined && !closing) {
    timer = setTimeout(drain, data.intervalMs);
  }
});
