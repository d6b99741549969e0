import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { Database } from '../db/schema';
import { readOptions } from './options';

/**
 * Outgoing e-mail as one-api sends it (contract §2.3.4, §2.3.5, §3.4): the SMTP settings are read
 * from the options table on every send (SMTPServer, SMTPPort, SMTPAccount, SMTPToken, SMTPFrom),
 * the sender is `<SystemName> <SMTPFrom or SMTPAccount>`, the body is HTML.
 *
 * Transport rules: port 465 is implicit TLS; any other port speaks plain SMTP and upgrades with
 * STARTTLS when the server offers it. Authentication (PLAIN/LOGIN) is used only when an account or
 * a password is configured. Deviations (fixes): certificates are verified on port 465 too (one-api
 * skips verification there, which would hand the SMTP password to a man in the middle), and
 * credentials are never sent over an unencrypted connection to a non-loopback host (as Go's
 * PlainAuth refuses to).
 */

type Db = Kysely<Database>;

/** The option keys a send reads. */
const mailKeys = ['SMTPServer', 'SMTPPort', 'SMTPAccount', 'SMTPToken', 'SMTPFrom', 'SystemName'] as const;

/** Error text when no SMTP server is configured (one-api would fail to dial `:<port>`). */
export const smtpNotConfigured = 'SMTP server is not configured';

/** Seconds the SMTP dialogue may take per stage. */
const smtpTimeoutMs = 10_000;

/** Whether `host` is this machine (plain-text authentication is tolerated there, as Go's PlainAuth does). */
const isLoopback = (host: string): boolean => host === 'localhost' || host === '::1' || host.startsWith('127.');

/** An outgoing message. */
export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly html: string;
}

/** Sends `mail` with the current SMTP options; rejects with the transport's error (its message is shown to the caller). */
export async function sendMail(db: Db, mail: Mail): Promise<void> {
  const o = await readOptions(db, mailKeys);
  const host = o.str('SMTPServer').trim();
  if (host === '') throw new Error(smtpNotConfigured);
  const port = Math.trunc(o.num('SMTPPort'));
  const account = o.str('SMTPAccount');
  const password = o.str('SMTPToken');
  const from = o.str('SMTPFrom') === '' ? account : o.str('SMTPFrom');
  const withAuth = account !== '' || password !== '';
  const implicitTls = port === 465;
  const transport = nodemailer.createTransport({
    host,
    port,
    secure: implicitTls,
    requireTLS: withAuth && !implicitTls && !isLoopback(host),
    auth: withAuth ? { user: account, pass: password } : undefined,
    connectionTimeout: smtpTimeoutMs,
    greetingTimeout: smtpTimeoutMs,
    socketTimeout: smtpTimeoutMs,
  });
  const domain = from.split('@')[1] ?? 'localhost';
  try {
    await transport.sendMail({
      from: { name: o.str('SystemName'), address: from },
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      messageId: `<${randomBytes(16).toString('hex')}@${domain}>`,
    });
  } finally {
    transport.close();
  }
}

/** Escapes text for an HTML body. */
export const escapeHtml = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
