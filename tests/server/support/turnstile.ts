import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for Cloudflare's Turnstile siteverify endpoint (real HTTP on 127.0.0.1).
 * It accepts only POSTs with a form body (`secret`, `response`, `remoteip`), records every call,
 * and answers like Cloudflare: `{"success":true,...}` for a token issued by `issue()` under the
 * configured secret, used for the first time; otherwise `{"success":false,"error-codes":[...]}`.
 * `mode = 'garbage'` answers a non-JSON body instead.
 */

/** One call the fake received. */
export interface SiteverifyCall {
  readonly contentType: string;
  readonly secret: string;
  readonly response: string;
  readonly remoteip: string | null;
}

export interface FakeSiteverify {
  /** Full URL to give the server as `TURNSTILE_VERIFY_URL`. */
  readonly url: string;
  /** The secret key the fake expects. */
  readonly secret: string;
  readonly calls: SiteverifyCall[];
  /** How the fake answers: like Cloudflare (default) or with a body that is not JSON. */
  mode: 'normal' | 'garbage';
  /** A fresh valid token (single-use, as Cloudflare's). */
  issue(): string;
  close(): Promise<void>;
}

/** Reads a request body as text. */
const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** Sends `body` as JSON. */
const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** Starts the fake on 127.0.0.1 with a random port, expecting `secret`. */
export async function startFakeSiteverify(secret = 'turnstile-test-secret'): Promise<FakeSiteverify> {
  const valid = new Set<string>();
  const used = new Set<string>();
  let issued = 0;
  const state: { mode: 'normal' | 'garbage' } = { mode: 'normal' };
  const calls: SiteverifyCall[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== '/turnstile/v0/siteverify') {
        res.writeHead(404).end();
        return;
      }
      const form = new URLSearchParams(await readBody(req));
      const call: SiteverifyCall = {
        contentType: req.headers['content-type'] ?? '',
        secret: form.get('secret') ?? '',
        response: form.get('response') ?? '',
        remoteip: form.get('remoteip'),
      };
      calls.push(call);
      if (state.mode === 'garbage') {
        res.writeHead(502, { 'Content-Type': 'text/html' }).end('<html>bad gateway</html>');
        return;
      }
      const errors: string[] = [];
      if (call.secret !== secret) errors.push(call.secret === '' ? 'missing-input-secret' : 'invalid-input-secret');
      if (call.response === '') errors.push('missing-input-response');
      else if (used.has(call.response)) errors.push('timeout-or-duplicate');
      else if (!valid.has(call.response)) errors.push('invalid-input-response');
      if (errors.length > 0) {
        sendJson(res, 200, { success: false, 'error-codes': errors, messages: [] });
        return;
      }
      valid.delete(call.response);
      used.add(call.response);
      sendJson(res, 200, { success: true, challenge_ts: new Date().toISOString(), hostname: 'localhost', 'error-codes': [], action: '', cdata: '' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/turnstile/v0/siteverify`,
    secret,
    calls,
    get mode() {
      return state.mode;
    },
    set mode(value) {
      state.mode = value;
    },
    issue: () => {
      issued += 1;
      const token = `0.tok-${String(issued).padStart(4, '0')}-${Math.random().toString(36).slice(2)}`;
      valid.add(token);
      return token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
