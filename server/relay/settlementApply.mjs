// @ts-check
/**
 * The settlement of a reservation held in memory (SQLite; see heldReservations.ts `Ledger`), inside an open
 * transaction that holds the write lock. One implementation for both places that run it: the
 * settlement thread (settlementWorker.mjs, its own connection) and, when that thread is off, the
 * main thread (heldSettlement.ts, through the main connection at once). Plain JavaScript so that the
 * worker thread loads it without a TypeScript loader.
 */

/**
 * @typedef {import('./settlementThread').SettlementJob} Job
 * @typedef {import('./settlementThread').SettlementStatements} Statements
 * @typedef {{ readonly first: (args: readonly unknown[]) => Record<string, unknown> | undefined }} Runner
 * @typedef {{ readonly [K in keyof Statements]: Runner }} Runners
 */

/**
 * The parameters of a compiled statement (`Precompiled.compiled`) for `args`.
 * @param {Statements[keyof Statements]} template
 * @param {readonly unknown[]} args
 * @returns {unknown[]}
 */
export const bindArguments = (template, args) => template.parameters.map((p) => ('arg' in p ? args[p.arg] : p.value));

/**
 * Up to `want` from the user, leaving `keepUser` (what other requests' reservations hold), and
 * as much of it from the token (limited: leaving `keepToken`; unlimited: all of it, its numbers
 * only record). Each take is a compare-and-set on the balance just read (the transaction holds
 * the write lock: nothing changes it in between). The user's used quota and request count, the
 * channel's used quota and the consume log (the job's `log` with the username and the quota
 * charged filled in) follow. Returns the quota charged and the user's quota and e-mail after it.
 * @param {Runners} s
 * @param {Job} job
 * @returns {{ charged: number, quota: number | undefined, email: string }}
 */
export function applySettlement(s, job) {
  let fromUser = 0;
  let charged = 0;
  if (job.want > 0) {
    const user = s.userBalance.first([job.userId]);
    const have = user === undefined ? 0 : Number(user.quota);
    fromUser = Math.max(0, Math.min(job.want, have - job.keepUser));
    if (fromUser > 0 && s.takeUserQuotaIfAt.first([fromUser, job.userId, have]) === undefined) fromUser = 0;
    if (fromUser > 0 && !job.tokenLimited) {
      s.moveTokenQuota.first([fromUser, job.tokenId]);
      charged = fromUser;
    } else if (fromUser > 0) {
      const token = s.tokenBalance.first([job.tokenId]);
      const remain = token === undefined ? 0 : Number(token.remain_quota);
      charged = Math.max(0, Math.min(fromUser, remain - job.keepToken));
      if (charged > 0 && s.takeTokenQuotaIfAt.first([charged, job.tokenId, remain]) === undefined) charged = 0;
    }
  }
  // What the user gave but the token could not cover goes back to the user.
  const user = s.settleUser.first([fromUser - charged, charged, job.userId]);
  if (charged !== 0) s.chargeChannel.first([charged, job.channelId]);
  if (job.log !== null) {
    const log = [...job.log];
    log[3] = user === undefined ? '' : String(user.username ?? '');
    log[6] = charged;
    s.insertConsumeLog.first(log);
  }
  return {
    charged,
    quota: user === undefined ? undefined : Number(user.quota),
    email: user === undefined ? '' : String(user.email ?? ''),
  };
}
