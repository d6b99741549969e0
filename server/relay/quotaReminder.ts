import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { ResolvedDeps } from '../http/env';
import { escapeHtml, sendMail } from '../services/mail';
import { readOptions } from '../services/options';
import type { BillingSettings } from './relaySettings';

/**
 * The quota reminder mail (contract §4.6 step 5): sent when a reservation or a settlement takes a
 * user's quota across QuotaRemindThreshold or down to 0. Fire-and-forget: a request never waits
 * for it or fails with it.
 */

type Db = Kysely<Database>;

export const reminderMessages = {
  subject: '额度提醒',
  low: '您的额度即将用尽',
  exhausted: '您的额度已用尽',
} as const;

/**
 * Sends the quota reminder (contract §4.6 step 5) when this charge took the user's quota from
 * `before` to `after` across QuotaRemindThreshold or down to ≤ 0 (one mail per crossing), and the
 * user has an e-mail. Fire-and-forget: failures are logged, the request never waits or fails.
 */
export function remindIfCrossed(db: Db, settings: BillingSettings, email: string, before: number, after: number): void {
  if (email === '' || after >= before) return;
  const exhausted = before > 0 && after <= 0;
  const low = before >= settings.quotaRemindThreshold && after < settings.quotaRemindThreshold;
  if (!exhausted && !low) return;
  void sendReminder(db, email, after, exhausted).catch((error: unknown) => {
    console.error(`[billing] quota reminder to ${email} failed: ${error instanceof Error ? error.message : String(error)}`);
  });
}

/** The reminder mail: what happened, the quota left, and the top-up page `<ServerAddress>/topup`. */
async function sendReminder(db: Db, email: string, quotaLeft: number, exhausted: boolean): Promise<void> {
  const link = `${(await readOptions(db, ['ServerAddress'])).str('ServerAddress')}/topup`;
  const headline = exhausted ? reminderMessages.exhausted : reminderMessages.low;
  const html =
    `<p>${headline}。剩余额度：${quotaLeft}。</p>` +
    `<p>充值：<a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`;
  await sendMail(db, { to: email, subject: reminderMessages.subject, html });
}

/**
 * The reminder after a held reservation's settlement: what it took beyond the reservation (the
 * reservation's own crossing was reported when it was made), in the quota left for new requests.
 */
export function remindAfterHeld(deps: ResolvedDeps, settings: BillingSettings, done: { charged: number; quota: number | undefined; email: string }, keepUser: number, reserved: number): void {
  if (done.quota === undefined) return;
  const left = done.quota - keepUser;
  remindIfCrossed(deps.db, settings, done.email, left + Math.max(0, done.charged - reserved), left);
}
