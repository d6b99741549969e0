import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A loopback SMTP peer (smtp-server) that accepts every message and keeps it, decoded enough for
 * assertions: envelope, headers, subject (RFC 2047 words decoded) and body (quoted-printable /
 * base64 decoded). Plain SMTP without STARTTLS; authentication is optional and accepted.
 */

export interface CapturedMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly headers: ReadonlyMap<string, string>;
  readonly subject: string;
  readonly body: string;
}

export interface LoopbackSmtp {
  readonly port: number;
  readonly messages: CapturedMail[];
  /** Logins seen (user names). */
  readonly logins: string[];
  /** The last message sent to `address` (compared without regard to case), if any. */
  lastTo(address: string): CapturedMail | undefined;
  close(): Promise<void>;
}

/** Decodes quoted-printable text (soft line breaks and =XX bytes) as UTF-8. */
function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const text = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`). */
function decodeWords(s: string): string {
  return s
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replaceAll('_', ' ')),
    );
}

/** Splits a raw message into unfolded, lower-cased headers and the decoded body. */
function parse(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const rest = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  const body =
    encoding === 'base64'
      ? Buffer.from(rest.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(rest)
        : rest;
  return { headers, body };
}

/** Starts the peer on `host` (127.0.0.1) with a random port (or `port`); rejects when the port cannot be bound. */
export async function startLoopbackSmtp(port = 0, host = '127.0.0.1'): Promise<LoopbackSmtp> {
  const messages: CapturedMail[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(auth.username ?? '');
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const { headers, body } = parse(Buffer.concat(chunks).toString('utf8'));
        messages.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          headers,
          subject: decodeWords(headers.get('subject') ?? ''),
          body,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    messages,
    logins,
    lastTo: (address) => [...messages].reverse().find((m) => m.to.some((to) => to.toLowerCase() === address.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
