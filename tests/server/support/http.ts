/**
 * A tiny HTTP client over global fetch with a cookie jar (one per simulated browser).
 * The jar honours `Max-Age=0` / empty values as deletions; attributes are kept for assertions.
 */

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body (undefined when not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions walk arbitrary JSON
  readonly body: any;
  /** Raw Set-Cookie headers of this response. */
  readonly setCookies: readonly string[];
}

export interface RequestOptions {
  readonly body?: unknown;
  /** Send this exact string as the body (no JSON encoding). */
  readonly rawBody?: string;
  readonly headers?: Record<string, string>;
}

/** Parses `name=value; attr...` into its name, value and lower-cased attributes. */
export function parseSetCookie(header: string) {
  const [pair = '', ...attrs] = header.split(';').map((s) => s.trim());
  const eq = pair.indexOf('=');
  const attributes = new Map<string, string>();
  for (const attr of attrs) {
    const i = attr.indexOf('=');
    attributes.set((i < 0 ? attr : attr.slice(0, i)).toLowerCase(), i < 0 ? '' : attr.slice(i + 1));
  }
  return { name: pair.slice(0, eq), value: pair.slice(eq + 1), attributes };
}

export class Client {
  readonly jar = new Map<string, string>();

  /** A client for the server at `base`. */
  constructor(readonly base: string) {}

  /** The Cookie header for the jar's content. */
  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Sends a request, updates the jar from Set-Cookie, returns the reply. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    // A page of the server's own origin sent it, as the console's requests (server/http/csrf.ts);
    // pass `referer` (possibly '') to send another.
    const headers: Record<string, string> = { referer: `${this.base}/`, ...options.headers };
    if (this.jar.size > 0 && headers.cookie === undefined) headers.cookie = this.cookieHeader();
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    const response = await fetch(this.base + path, { method, headers, body });
    const text = await response.text();
    const setCookies = response.headers.getSetCookie();
    for (const header of setCookies) {
      const cookie = parseSetCookie(header);
      if (cookie.value === '' || cookie.attributes.get('max-age') === '0') this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed, setCookies };
  }

  /** GET `path`. */
  get(path: string, options?: RequestOptions): Promise<Reply> {
    return this.request('GET', path, options);
  }

  /** POST `body` as JSON to `path`. */
  post(path: string, body?: unknown, options: RequestOptions = {}): Promise<Reply> {
    return this.request('POST', path, { ...options, body });
  }

  /** Logs in with username/password; returns the reply. */
  login(username: string, password: string, headers?: Record<string, string>): Promise<Reply> {
    return this.post('/api/user/login', { username, password }, { headers });
  }
}
