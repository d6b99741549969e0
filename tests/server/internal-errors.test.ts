import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * An unexpected failure (here: the database losing a table under a running server) answers a
 * generic message in the caller's language with the request id, and logs the detail; no SQL or
 * driver text reaches the caller.
 */

const driverWords = /sessions|relation|no such table|SQLITE|syntax|constraint|select|delete/i;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`unexpected errors reach people as a generic message — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;

    afterEach(() => {
      vi.restoreAllMocks();
    });

    /** Runs `body` while the sessions table is away (renamed), then puts it back. */
    async function withoutSessions(body: () => Promise<void>): Promise<void> {
      await sql`ALTER TABLE sessions RENAME TO sessions_away`.execute(db());
      try {
        await body();
      } finally {
        await sql`ALTER TABLE sessions_away RENAME TO sessions`.execute(db());
      }
    }

    it('answers the request id in the caller language and logs the database error', async () => {
      const browser = suite.client();
      expect((await browser.login('root', '123456')).body.success).toBe(true);
      const logged: unknown[][] = [];
      vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
        logged.push(args);
      });
      await withoutSessions(async () => {
        const zh = await browser.get('/api/user/logout');
        const id = zh.headers.get('X-Oneapi-Request-Id');
        expect(zh.status).toBe(200);
        expect(zh.body).toEqual({ success: false, message: `服务器内部错误，请稍后重试（请求 ID：${id}）` });
        expect(zh.text).not.toMatch(driverWords);
        const en = await browser.get('/api/user/self', { headers: { 'Accept-Language': 'en-GB,en;q=0.8' } });
        const enId = en.headers.get('X-Oneapi-Request-Id');
        expect(en.body).toEqual({ success: false, message: `internal server error, please try again later (request id: ${enId})` });
        expect(en.text).not.toMatch(driverWords);
      });
      // The detail went to the log, with the request id.
      const lines = logged.map((args) => args.map(String).join(' '));
      expect(lines.some((line) => /\[api\] \d+ GET \/api\/user\/logout/.test(line) && driverWords.test(line))).toBe(true);
    });
  });
}
