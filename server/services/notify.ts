import type { Kysely } from 'kysely';
import { roleRoot } from '../../src/domain/constants';
import type { Database } from '../db/schema';
import { escapeHtml, sendMail } from './mail';
import { readOptions } from './options';

/**
 * Notifications to the root user (contract §4.9): through the message pusher when
 * MessagePusherAddress is set (an HTTP POST of `{title, description, content, token}` answered by
 * `{success, message}`), else — or when the pusher fails — by e-mail to the root user's address.
 * A notification never throws: failures are logged.
 */

type Db = Kysely<Database>;

/** Seconds a message pusher call may take. */
const pusherTimeoutMs = 10_000;

/** How a notification was delivered (null: it was not). */
export type Delivery = 'pusher' | 'mail' | null;

/** The error text of an unknown thrown value. */
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * POSTs one message to the message pusher at `address`; rejects with the pusher's `message`
 * when it answers `success:false`, or with the transport or decoding error.
 */
export async function sendPusherMessage(
  address: string,
  token: string,
  message: { readonly title: string; readonly description: string; readonly content: string },
  signal?: AbortSignal,
): Promise<void> {
  const timeout = AbortSignal.timeout(pusherTimeoutMs);
  const response = await fetch(address, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...message, token }),
    signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
  });
  const body = (await response.json()) as { success?: unknown; message?: unknown } | null;
  if (body?.success !== true) throw new Error(typeof body?.message === 'string' ? body.message : 'message pusher refused the message');
}

/** The e-mail address of the root user ('' when there is none). */
async function rootEmail(db: Db): Promise<string> {
  const row = await db.selectFrom('users').select('email').where('role', '=', roleRoot).orderBy('id').executeTakeFirst();
  return row?.email ?? '';
}

/**
 * Notifies the root user: message pusher first (title and description = `subject`, content =
 * `content`), then e-mail (`content` as the HTML body, escaped) if the pusher is not configured
 * or failed. Returns how the message went out.
 */
export async function notifyRoot(db: Db, subject: string, content: string, signal?: AbortSignal): Promise<Delivery> {
  try {
    const o = await readOptions(db, ['MessagePusherAddress', 'MessagePusherToken']);
    const address = o.str('MessagePusherAddress');
    if (address !== '') {
      try {
        await sendPusherMessage(address, o.str('MessagePusherToken'), { title: subject, description: subject, content }, signal);
        return 'pusher';
      } catch (error) {
        console.error(`[notify] message pusher failed: ${errorText(error)}`);
        if (signal?.aborted === true) return null;
      }
    }
    const to = await rootEmail(db);
    if (to === '') {
      console.error(`[notify] not sent (no message pusher and the root user has no e-mail): ${subject}`);
      return null;
    }
    await sendMail(db, { to, subject, html: `<p>${escapeHtml(content)}</p>` });
    return 'mail';
  } catch (error) {
    console.error(`[notify] e-mail to root failed: ${errorText(error)}`);
    return null;
  }
}

/** Subject of channel status notifications. */
export const channelStatusSubject = '渠道状态变更提醒';

/** Body of the auto-disable notification. */
export const channelDisabledText = (name: string, id: number, reason: string): string =>
  `渠道「${name}」（#${id}）已被禁用，原因：${reason}`;

/** Body of the auto-enable notification. */
export const channelEnabledText = (name: string, id: number): string => `渠道「${name}」（#${id}）已被重新启用`;
