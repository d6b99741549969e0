import { createServer, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dumpDatabase, insertUser, setOption } from './support/db';
import { startLoopbackSmtp, type CapturedMail, type LoopbackSmtp } from './support/smtp';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/** E-mail verification, password reset, e-mail bind and register-with-code (contract §2.3.3–§2.3.6, §2.3.10) over real HTTP and SMTP. */

const invalidParameter = 'invalid parameter';
const badCode = '验证码错误或已过期';

let seq = 0;
/** A unique username of at most 12 characters. */
const uname = (prefix: string): string => `${prefix}${(seq += 1)}`.slice(0, 12);
/** A unique address. */
const address = (prefix: string, domain = 'example.com'): string => `${prefix}${(seq += 1)}@${domain}`;

/** A TCP port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The 6-hex code of a verification mail. */
const codeOf = (mail: CapturedMail | undefined): string => {
  const match = /<strong>([0-9a-f]{6})<\/strong>/.exec(mail?.body ?? '');
  if (match === null) throw new Error('no code in mail');
  return match[1]!;
};

/** 2025-06-15T15:06:40Z. */
const startMs = 1_750_000_000_000;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`mail: verification, reset, bind — ${target.label}`, () => {
    let clock = startMs;
    const suite = setupSuite(target, { now: () => clock });
    const db = () => suite.api.handle.db;
    let smtp: LoopbackSmtp;

    beforeAll(async () => {
      smtp = await startLoopbackSmtp();
      await setOption(db(), 'SMTPServer', '127.0.0.1');
      await setOption(db(), 'SMTPPort', String(smtp.port));
      await setOption(db(), 'SMTPFrom', 'noreply@example.com');
    });
    afterAll(async () => {
      await smtp.close();
    });
    /** What the server logged through console.error (mail failures, with their request id), kept quiet. */
    const logged: string[] = [];
    beforeEach(() => {
      logged.length = 0;
      vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(' '));
      });
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    /** Runs `body` with some options set, restoring their previous values afterwards. */
    async function withOptions(values: Record<string, string>, body: () => Promise<void>): Promise<void> {
      const previous = await db().selectFrom('options').selectAll().where('key', 'in', Object.keys(values)).execute();
      for (const [key, value] of Object.entries(values)) await setOption(db(), key, value);
      try {
        await body();
      } finally {
        for (const p of previous) await setOption(db(), p.key, p.value ?? '');
      }
    }

    async function makeUser(email = '', password = 'password-1') {
      const username = uname('m');
      const id = await insertUser(db(), { username, password, email });
      return { id, username, email, password };
    }

    const row = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const codes = () => db().selectFrom('verification_codes').selectAll().execute();

    /** Asks for a verification code for `email` and returns it from the captured mail. */
    async function mailedCode(email: string): Promise<string> {
      const reply = await suite.client().get(`/api/verification?email=${encodeURIComponent(email)}&turnstile=`);
      expect(reply.body).toEqual({ success: true, message: '' });
      return codeOf(smtp.lastTo(email));
    }

    describe('GET /api/verification', () => {
      it('mails a 6-hex code with one-api\'s subject and sender; stores only its hash', async () => {
        const email = address('v');
        const code = await mailedCode(email);
        const mail = smtp.lastTo(email)!;
        expect(mail.subject).toBe('One API 邮箱验证邮件');
        expect(mail.from).toBe('noreply@example.com');
        expect(mail.headers.get('from')).toContain('noreply@example.com');
        expect(mail.headers.get('content-type')).toMatch(/^text\/html/);
        expect(code).toMatch(/^[0-9a-f]{6}$/);
        const stored = (await codes()).filter((r) => r.email === email);
        expect(stored).toHaveLength(1);
        expect(stored[0]).toMatchObject({ purpose: 'v', created_at: clock / 1000, attempts: 0 });
        expect(stored[0]!.code_hash).not.toContain(code);
      });

      it('refuses a missing or malformed address with invalid_parameter (localised), sending and storing nothing', async () => {
        const before = await dumpDatabase(db());
        const sent = smtp.messages.length;
        for (const query of ['', '?email=', '?email=nope', '?email=a%20b@example.com', '?email=a@', '?email=@example.com', `?email=${'x'.repeat(45)}@example.com`]) {
          const reply = await suite.client().get(`/api/verification${query}`);
          expect(reply.body, query).toEqual({ success: false, message: invalidParameter });
        }
        const zh = await suite.client().get('/api/verification?email=nope', { headers: { 'Accept-Language': 'zh-CN' } });
        expect(zh.body).toEqual({ success: false, message: '无效的参数' });
        expect(smtp.messages.length).toBe(sent);
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('refuses an address already used by a user', async () => {
        const user = await makeUser(address('taken'));
        const before = await dumpDatabase(db());
        const reply = await suite.client().get(`/api/verification?email=${user.email}`);
        expect(reply.body).toEqual({ success: false, message: '邮箱地址已被占用' });
        expect(smtp.lastTo(user.email)).toBeUndefined();
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('applies the domain whitelist when EmailDomainRestrictionEnabled', async () => {
        await withOptions({ EmailDomainRestrictionEnabled: 'true', EmailDomainWhitelist: 'example.com,corp.test' }, async () => {
          const before = await dumpDatabase(db());
          for (const email of [address('w', 'evil.org'), address('w', 'notexample.com'), address('w', 'example.com.evil.org')]) {
            const reply = await suite.client().get(`/api/verification?email=${email}`);
            expect(reply.body, email).toEqual({ success: false, message: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中' });
            expect(smtp.lastTo(email)).toBeUndefined();
          }
          expect(await dumpDatabase(db())).toBe(before);
          await mailedCode(address('w', 'corp.test'));
          await mailedCode(address('w', 'Example.COM'));
        });
        // Off again: any domain.
        await mailedCode(address('w', 'evil.org'));
      });

      it('checks Turnstile first when TurnstileCheckEnabled', async () => {
        await withOptions({ TurnstileCheckEnabled: 'true' }, async () => {
          const email = address('ts');
          const reply = await suite.client().get(`/api/verification?email=${email}`);
          expect(reply.body).toEqual({ success: false, message: 'Turnstile token 为空' });
          const reset = await suite.client().get(`/api/reset_password?email=${email}&turnstile=`);
          expect(reset.body).toEqual({ success: false, message: 'Turnstile token 为空' });
          expect(smtp.lastTo(email)).toBeUndefined();
        });
      });

      it('SMTP down: a generic message with the request id (the transport error is logged), nothing stored', async () => {
        const port = await closedPort();
        const user = await makeUser(address('down'));
        await withOptions({ SMTPPort: String(port) }, async () => {
          const before = await dumpDatabase(db());
          const email = address('down');
          const reply = await suite.client().get(`/api/verification?email=${email}`);
          expect(reply.body.success).toBe(false);
          // Ours: the caller (often anonymous) never sees the mail host or its answers (one-api: the transport error).
          expect(reply.body.message).toBe(`邮件发送失败，请稍后重试或联系管理员（请求 ID：${reply.headers.get('X-Oneapi-Request-Id')}）`);
          const reset = await suite.client().get(`/api/reset_password?email=${user.email}`, { headers: { 'Accept-Language': 'en' } });
          expect(reset.body.success).toBe(false);
          expect(reset.body.message).toBe(
            `the e-mail could not be sent; try again later or contact the administrator (request id: ${reset.headers.get('X-Oneapi-Request-Id')})`,
          );
          expect(logged.some((line) => line.includes(reset.headers.get('X-Oneapi-Request-Id')!) && /ECONNREFUSED/.test(line))).toBe(true);
          expect(await dumpDatabase(db())).toBe(before);
        });
        await withOptions({ SMTPServer: '' }, async () => {
          const reply = await suite.client().get(`/api/verification?email=${address('nosmtp')}`);
          expect(reply.body).toEqual({ success: false, message: 'SMTP server is not configured' });
        });
      });

      it('port 465 means implicit TLS (a plain-text peer there fails the handshake; nothing stored)', async (ctx) => {
        let plain: LoopbackSmtp;
        try {
          plain = await startLoopbackSmtp(465);
        } catch {
          ctx.skip();
          return;
        }
        try {
          await withOptions({ SMTPPort: '465' }, async () => {
            const before = await dumpDatabase(db());
            const email = address('tls');
            const reply = await suite.client().get(`/api/verification?email=${email}`);
            expect(reply.body.success).toBe(false);
            expect(reply.body.message).toMatch(/^邮件发送失败/);
            expect(logged.some((line) => /wrong version number/.test(line))).toBe(true);
            expect(plain.messages).toEqual([]);
            expect(await dumpDatabase(db())).toBe(before);
          });
        } finally {
          await plain.close();
        }
      });

      it('never sends credentials unencrypted to a non-loopback host (STARTTLS required when authenticating)', async (ctx) => {
        const lan = Object.values(networkInterfaces()).flat().find((i) => i !== undefined && i.family === 'IPv4' && !i.internal);
        if (lan === undefined) {
          ctx.skip();
          return;
        }
        const remote = await startLoopbackSmtp(0, lan.address);
        try {
          const settings = { SMTPServer: lan.address, SMTPPort: String(remote.port), SMTPAccount: 'mailer@example.com', SMTPToken: 'secret-pass' };
          await withOptions(settings, async () => {
            const before = await dumpDatabase(db());
            const reply = await suite.client().get(`/api/verification?email=${address('lan')}`);
            expect(reply.body.success).toBe(false);
            expect(reply.body.message).toMatch(/^邮件发送失败/);
            expect(logged.some((line) => /STARTTLS/.test(line))).toBe(true);
            expect(remote.logins).toEqual([]);
            expect(remote.messages).toEqual([]);
            expect(await dumpDatabase(db())).toBe(before);
          });
          // Without credentials the plain connection is fine.
          await withOptions({ SMTPServer: lan.address, SMTPPort: String(remote.port) }, async () => {
            const email = address('lan');
            const reply = await suite.client().get(`/api/verification?email=${email}`);
            expect(reply.body).toEqual({ success: true, message: '' });
            expect(remote.lastTo(email)).toBeDefined();
          });
        } finally {
          await remote.close();
        }
      });

      it('authenticates when an account is configured (loopback peer: no TLS needed)', async () => {
        await withOptions({ SMTPAccount: 'mailer@example.com', SMTPToken: 'secret-pass', SMTPFrom: '' }, async () => {
          const email = address('auth');
          await mailedCode(email);
          expect(smtp.logins).toContain('mailer@example.com');
          expect(smtp.lastTo(email)!.from).toBe('mailer@example.com');
        });
      });
    });

    describe('POST /api/user/register with EmailVerificationEnabled', () => {
      const register = (body: Record<string, unknown>) => suite.client().post('/api/user/register', body);

      it('accepts the mailed code once, stores the e-mail; wrong, reused and expired codes are refused', async () => {
        await withOptions({ EmailVerificationEnabled: 'true' }, async () => {
          const email = address('reg');
          const code = await mailedCode(email);
          const username = uname('reg');
          const wrong = await register({ username, password: 'reg-password', email, verification_code: code === '000000' ? '111111' : '000000' });
          expect(wrong.body).toEqual({ success: false, message: badCode });
          const otherEmail = await register({ username, password: 'reg-password', email: address('other'), verification_code: code });
          expect(otherEmail.body).toEqual({ success: false, message: badCode });
          const reply = await register({ username, password: 'reg-password', email, verification_code: code });
          expect(reply.body).toEqual({ success: true, message: '' });
          const created = await db().selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
          expect(created.email).toBe(email);
          expect((await suite.client().login(username, 'reg-password')).body.success).toBe(true);
          const again = await register({ username: uname('reg'), password: 'reg-password', email, verification_code: code });
          expect(again.body).toEqual({ success: false, message: badCode });

          const late = address('late');
          const lateCode = await mailedCode(late);
          clock += 600_000;
          try {
            const expired = await register({ username: uname('late'), password: 'reg-password', email: late, verification_code: lateCode });
            expect(expired.body).toEqual({ success: false, message: badCode });
          } finally {
            clock = startMs;
          }
        });
      });

      it('keeps the code when the username is taken; a new code replaces the old one', async () => {
        await withOptions({ EmailVerificationEnabled: 'true' }, async () => {
          const existing = await makeUser();
          const email = address('dup');
          const first = await mailedCode(email);
          const dup = await register({ username: existing.username, password: 'reg-password', email, verification_code: first });
          expect(dup.body).toEqual({ success: false, message: '用户名已被占用，请换一个' });
          const second = await mailedCode(email);
          if (second !== first) {
            const old = await register({ username: uname('dup'), password: 'reg-password', email, verification_code: first });
            expect(old.body).toEqual({ success: false, message: badCode });
          }
          const ok = await register({ username: uname('dup'), password: 'reg-password', email, verification_code: second });
          expect(ok.body).toEqual({ success: true, message: '' });
        });
      });

      it('drops a code after 5 wrong guesses', async () => {
        await withOptions({ EmailVerificationEnabled: 'true' }, async () => {
          const email = address('guess');
          const code = await mailedCode(email);
          const wrongCode = code === 'aaaaaa' ? 'bbbbbb' : 'aaaaaa';
          for (let i = 0; i < 5; i += 1) {
            const reply = await register({ username: uname('g'), password: 'reg-password', email, verification_code: wrongCode });
            expect(reply.body).toEqual({ success: false, message: badCode });
          }
          const right = await register({ username: uname('g'), password: 'reg-password', email, verification_code: code });
          expect(right.body).toEqual({ success: false, message: badCode });
        });
      });
    });

    describe('password reset', () => {
      /** Requests a reset mail for `email` and returns the link. */
      async function resetLink(email: string): Promise<string> {
        const reply = await suite.client().get(`/api/reset_password?email=${encodeURIComponent(email)}&turnstile=`);
        expect(reply.body).toEqual({ success: true, message: '' });
        const mail = smtp.lastTo(email)!;
        expect(mail.subject).toBe('One API 密码重置');
        const match = /href="([^"]+)"/.exec(mail.body);
        return match![1]!.replaceAll('&amp;', '&');
      }

      it('mails <ServerAddress>/user/reset?email=&token=; the token sets a new 12-hex password once', async () => {
        const user = await makeUser(address('rst'));
        const link = await resetLink(user.email);
        expect(link).toMatch(new RegExp(`^http://localhost:3000/user/reset\\?email=${user.email}&token=[0-9a-f]{32}$`));
        const token = new URL(link).searchParams.get('token')!;
        const browser = suite.client();
        expect((await browser.login(user.username, user.password)).body.success).toBe(true);
        const reply = await suite.client().post('/api/user/reset', { email: user.email, token });
        expect(reply.body.success).toBe(true);
        expect(reply.body.message).toBe('');
        const password: string = reply.body.data;
        expect(password).toMatch(/^[0-9a-f]{12}$/);
        expect((await suite.client().login(user.username, password)).body.success).toBe(true);
        expect((await suite.client().login(user.username, user.password)).body.success).toBe(false);
        // Existing sessions end with the reset.
        expect((await browser.get('/api/user/self')).status).toBe(401);
        const reuse = await suite.client().post('/api/user/reset', { email: user.email, token });
        expect(reuse.body).toEqual({ success: false, message: '重置链接非法或已过期' });
      });

      it('uses ServerAddress; encodes only query-breaking characters of the address', async () => {
        await withOptions({ ServerAddress: 'https://gw.example.org' }, async () => {
          const n = (seq += 1);
          const user = await makeUser(`a+b${n}@example.com`);
          const link = await resetLink(user.email);
          expect(link).toMatch(new RegExp(`^https://gw\\.example\\.org/user/reset\\?email=a%2Bb${n}@example\\.com&token=[0-9a-f]{32}$`));
          const token = new URL(link).searchParams.get('token')!;
          expect(new URL(link).searchParams.get('email')).toBe(user.email);
          const reply = await suite.client().post('/api/user/reset', { email: user.email, token });
          expect(reply.body.success).toBe(true);
        });
      });

      it('refuses unknown addresses, bad bodies, wrong and expired tokens without writing', async () => {
        const user = await makeUser(address('rst'));
        const unknown = await suite.client().get(`/api/reset_password?email=${address('nobody')}`);
        expect(unknown.body).toEqual({ success: false, message: '该邮箱地址未注册' });
        const invalid = await suite.client().get('/api/reset_password?email=nope');
        expect(invalid.body).toEqual({ success: false, message: invalidParameter });
        const link = await resetLink(user.email);
        const token = new URL(link).searchParams.get('token')!;
        const before = await dumpDatabase(db());
        for (const body of [{}, { email: user.email }, { email: '', token }, { email: user.email, token: '' }, { email: 1, token }, []]) {
          const reply = await suite.client().post('/api/user/reset', body);
          expect(reply.body, JSON.stringify(body)).toEqual({ success: false, message: invalidParameter });
        }
        const notJson = await suite.client().request('POST', '/api/user/reset', { rawBody: '{' });
        expect(notJson.body).toEqual({ success: false, message: invalidParameter });
        expect(await dumpDatabase(db())).toBe(before);
        const wrong = await suite.client().post('/api/user/reset', { email: user.email, token: '0'.repeat(32) });
        expect(wrong.body).toEqual({ success: false, message: '重置链接非法或已过期' });
        const otherEmail = await suite.client().post('/api/user/reset', { email: address('x'), token });
        expect(otherEmail.body).toEqual({ success: false, message: '重置链接非法或已过期' });
        clock += 600_000;
        try {
          const expired = await suite.client().post('/api/user/reset', { email: user.email, token });
          expect(expired.body).toEqual({ success: false, message: '重置链接非法或已过期' });
        } finally {
          clock = startMs;
        }
        expect((await suite.client().login(user.username, user.password)).body.success).toBe(true);
      });
    });

    describe('GET /api/oauth/email/bind', () => {
      it('needs a logged-in user', async () => {
        const reply = await suite.client().get('/api/oauth/email/bind?email=a@example.com&code=abcdef');
        expect(reply.status).toBe(401);
      });

      it('sets the caller\'s e-mail with the mailed code, once; wrong codes change nothing', async () => {
        const user = await makeUser();
        const browser = suite.client();
        expect((await browser.login(user.username, user.password)).body.success).toBe(true);
        const email = address('bind');
        const code = await mailedCode(email);
        for (const query of [`email=${email}&code=`, `email=${email}&code=zzzzzz`, `email=${address('o')}&code=${code}`, 'email=nope&code=x', '']) {
          const reply = await browser.get(`/api/oauth/email/bind?${query}`);
          expect(reply.body, query).toEqual({ success: false, message: badCode });
        }
        // Wrong guesses count attempts, nothing else changes.
        expect((await row(user.id)).email).toBe('');
        expect((await codes()).find((r) => r.email === email)!.attempts).toBe(1);
        const reply = await browser.get(`/api/oauth/email/bind?email=${email}&code=${code}`);
        expect(reply.body).toEqual({ success: true, message: '' });
        expect((await row(user.id)).email).toBe(email);
        const again = await browser.get(`/api/oauth/email/bind?email=${email}&code=${code}`);
        expect(again.body).toEqual({ success: false, message: badCode });
        // The bound address now counts as taken.
        const taken = await suite.client().get(`/api/verification?email=${email}`);
        expect(taken.body).toEqual({ success: false, message: '邮箱地址已被占用' });
      });

      it('accepts an access token caller too', async () => {
        const username = uname('tok');
        const accessToken = 'f'.repeat(20) + String(seq).padStart(12, '0');
        const id = await insertUser(db(), { username, password: 'password-1', accessToken });
        const email = address('tok');
        const code = await mailedCode(email);
        const reply = await suite.client().get(`/api/oauth/email/bind?email=${email}&code=${code}`, { headers: { Authorization: `Bearer ${accessToken}` } });
        expect(reply.body).toEqual({ success: true, message: '' });
        expect((await row(id)).email).toBe(email);
      });
    });
  });
}
