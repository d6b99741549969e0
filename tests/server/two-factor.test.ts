import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { beforeEach, describe, expect, it } from 'vitest';
import { twoFactor as zh } from '../../src/i18n/zh/twoFactor';
import { challengeLifetimeSeconds } from '../../server/services/twoFactor';
import { sealedPrefix } from '../../server/services/totpSecretBox';
import { insertUser, setOption } from './support/db';
import type { Client } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Two-factor sign-in (TOTP) over real HTTP on SQLite and PostgreSQL: enrolment, the login's
 * second step, wrong and replayed codes, recovery codes, disabling, the pending window, the
 * admin option, and that users without 2FA log in exactly as before.
 */

const notLoggedIn = '无权进行此操作，未登录且未提供 access token';
const twoFactorTables = ['oa_user_totp', 'oa_user_recovery_codes', 'oa_login_challenges'] as const;
const crossSite = { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example', 'accept-language': 'zh-CN' };

let clockMs = 1_760_000_000_000;
/** The code an authenticator app shows for `secret` at the test clock (plus `offsetMs`). */
const codeAt = (secret: string, offsetMs = 0): string =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: clockMs + offsetMs });
/** Moves the clock to the start of a fresh 30-second step. */
const nextStep = () => {
  clockMs = (Math.floor(clockMs / 30_000) + 1) * 30_000 + 1_000;
};

let seq = 0;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`two-factor sign-in — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => clockMs });
    const db = () => suite.api.handle.db;
    let username = '';
    let userId = 0;

    beforeEach(async () => {
      seq += 1;
      username = `tf${seq}${target.kind.slice(0, 2)}`;
      userId = await insertUser(db(), { username, password: 'password123' });
      nextStep();
    });

    /** A signed-in browser of the current user. */
    const signedIn = async (): Promise<Client> => {
      const browser = suite.client();
      expect((await browser.login(username, 'password123')).body.success).toBe(true);
      return browser;
    };

    /** Enrols the current user; returns the secret and recovery codes and the browser. */
    const enrol = async () => {
      const browser = await signedIn();
      const setup = await browser.post('/api/user/2fa/setup');
      expect(setup.body.success).toBe(true);
      const secret = setup.body.data.secret as string;
      const enabled = await browser.post('/api/user/2fa/enable', { code: codeAt(secret) });
      expect(enabled.body.success).toBe(true);
      nextStep();
      return { secret, codes: enabled.body.data.recovery_codes as string[], browser };
    };

    /** Logs in with the password only; returns the browser waiting for its second step. */
    const firstStep = async (): Promise<Client> => {
      const browser = suite.client();
      const reply = await browser.login(username, 'password123');
      expect(reply.body).toEqual({ success: true, message: '', data: { require_2fa: true } });
      return browser;
    };

    it('leaves users without 2FA unaffected: one-step login, unchanged answer, status off', async () => {
      const browser = suite.client();
      const reply = await browser.login(username, 'password123');
      expect(reply.body.success).toBe(true);
      expect(Object.keys(reply.body.data)).not.toContain('require_2fa');
      expect(Object.keys(reply.body.data)).not.toContain('require_2fa_setup');
      expect(reply.setCookies.map((c) => c.split('=')[0])).toEqual(['session']);
      expect((await browser.get('/api/user/2fa/status')).body.data).toEqual({ enabled: false, recovery_codes_left: 0, required: false });
    });

    it('enrols: setup gives a secret and URI (not yet on), a wrong code is refused, the right one enables and gives 10 codes once', async () => {
      const browser = await signedIn();
      const setup = await browser.post('/api/user/2fa/setup');
      const secret = setup.body.data.secret as string;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(setup.body.data.uri).toMatch(new RegExp(`^otpauth://totp/.*${username}\\?.*secret=${secret}`));
      expect((await browser.get('/api/user/2fa/status')).body.data.enabled).toBe(false);
      const wrong = await browser.post('/api/user/2fa/enable', { code: '000000' === codeAt(secret) ? '111111' : '000000' });
      expect(wrong.body).toEqual({ success: false, message: zh['twoFactor.error.codeInvalid'] });
      expect((await browser.post('/api/user/2fa/enable', { code: '' })).body.message).toBe(zh['twoFactor.error.codeRequired']);
      const enabled = await browser.post('/api/user/2fa/enable', { code: codeAt(secret) });
      expect(enabled.body.success).toBe(true);
      const codes = enabled.body.data.recovery_codes as string[];
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      const status = await browser.get('/api/user/2fa/status');
      expect(status.body.data).toEqual({ enabled: true, recovery_codes_left: 10, required: false });
      expect(status.text).not.toContain(secret);
      expect((await browser.post('/api/user/2fa/setup')).body.message).toBe(zh['twoFactor.error.alreadyEnabled']);
      // Stored in our own tables, the codes hashed; one-api's users table has no new column.
      const stored = await db().selectFrom('oa_user_recovery_codes').select('code_hash').where('user_id', '=', userId).execute();
      expect(stored).toHaveLength(10);
      expect(stored.map((r) => r.code_hash)).not.toContain(codes[0]);
      const userColumns = Object.keys(await db().selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow());
      expect(userColumns.some((name) => /totp|2fa|two/i.test(name))).toBe(false);
    });

    it('asks for a second step without a session, then signs in with the code; the same code is refused afterwards', async () => {
      const { secret } = await enrol();
      const browser = await firstStep();
      expect(browser.jar.has('session')).toBe(false);
      expect(browser.jar.has('login_2fa')).toBe(true);
      expect((await browser.get('/api/user/self')).body.message).toBe(notLoggedIn);
      const code = codeAt(secret);
      const reply = await browser.post('/api/user/login/2fa', { code });
      expect(reply.body.success).toBe(true);
      expect(reply.body.data).toMatchObject({ id: userId, username });
      expect(browser.jar.has('session')).toBe(true);
      expect(browser.jar.has('login_2fa')).toBe(false);
      expect((await browser.get('/api/user/self')).body.data.username).toBe(username);
      // Replay of the same step in another login is refused; the next step works.
      const again = await firstStep();
      expect((await again.post('/api/user/login/2fa', { code })).body).toEqual({ success: false, message: zh['twoFactor.error.codeInvalid'] });
      nextStep();
      expect((await again.post('/api/user/login/2fa', { code: codeAt(secret) })).body.success).toBe(true);
    });

    it('refuses wrong codes and restarts after the fifth', async () => {
      const { secret } = await enrol();
      const browser = await firstStep();
      const wrong = codeAt(secret, 10 * 60_000) === codeAt(secret) ? '123456' : codeAt(secret, 10 * 60_000);
      for (let i = 1; i <= 4; i += 1) {
        expect((await browser.post('/api/user/login/2fa', { code: wrong })).body.message).toBe(zh['twoFactor.error.codeInvalid']);
      }
      expect((await browser.post('/api/user/login/2fa', { code: wrong })).body.message).toBe(zh['twoFactor.error.tooManyAttempts']);
      const late = await browser.post('/api/user/login/2fa', { code: codeAt(secret) });
      expect(late.body).toEqual({ success: false, message: zh['twoFactor.error.challengeMissing'] });
      expect(browser.jar.has('session')).toBe(false);
    });

    it('accepts each recovery code once', async () => {
      const { codes } = await enrol();
      const first = await firstStep();
      expect((await first.post('/api/user/login/2fa', { code: codes[0]!.toUpperCase() })).body.success).toBe(true);
      const second = await firstStep();
      expect((await second.post('/api/user/login/2fa', { code: codes[0] })).body.message).toBe(zh['twoFactor.error.recoveryInvalid']);
      expect((await second.post('/api/user/login/2fa', { code: codes[1] })).body.success).toBe(true);
      expect((await second.get('/api/user/2fa/status')).body.data.recovery_codes_left).toBe(8);
    });

    it('lets the pending step expire, and refuses a missing or forged challenge cookie', async () => {
      const { secret } = await enrol();
      const browser = await firstStep();
      clockMs += (challengeLifetimeSeconds + 1) * 1000;
      const expired = await browser.post('/api/user/login/2fa', { code: codeAt(secret) });
      expect(expired.body).toEqual({ success: false, message: zh['twoFactor.error.challengeMissing'] });
      expect((await suite.client().post('/api/user/login/2fa', { code: codeAt(secret) })).body.message).toBe(
        zh['twoFactor.error.challengeMissing'],
      );
      const forged = suite.client();
      forged.jar.set('login_2fa', `${'a'.repeat(64)}.bad`);
      expect((await forged.post('/api/user/login/2fa', { code: codeAt(secret) })).body.message).toBe(zh['twoFactor.error.challengeMissing']);
    });

    it('refuses absurd codes and bodies on every code route, changing nothing', async () => {
      const { browser: owner } = await enrol();
      let deep: unknown = '000000';
      for (let i = 0; i < 200; i++) deep = { code: deep };
      const bad: unknown[] = [{ code: 123456 }, { code: -1 }, { code: 1.5 }, { code: 1e308 }, { code: null }, { code: 'x'.repeat(100_000) }, { code: ['123456'] }, deep, {}];
      for (const body of bad) {
        for (const path of ['/api/user/2fa/disable', '/api/user/2fa/recovery-codes']) {
          const reply = await owner.post(path, body);
          expect(reply.body.success, `${path} ${JSON.stringify(body).slice(0, 40)}`).toBe(false);
        }
        const pending = await firstStep();
        expect((await pending.post('/api/user/login/2fa', body)).body.success).toBe(false);
        expect(pending.jar.has('session')).toBe(false);
      }
      const status = await owner.get('/api/user/2fa/status');
      expect(status.body.data).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    });

    it('refuses cross-site requests to the 2FA routes and the second step', async () => {
      const { secret, browser: owner } = await enrol();
      const browser = await firstStep();
      const foreign = await browser.post('/api/user/login/2fa', { code: codeAt(secret) }, { headers: crossSite });
      expect(foreign.status).toBe(403);
      expect(browser.jar.has('session')).toBe(false);
      expect((await owner.post('/api/user/2fa/disable', { password: 'password123' }, { headers: crossSite })).status).toBe(403);
      expect((await owner.get('/api/user/2fa/status')).body.data.enabled).toBe(true);
      expect((await suite.client().get('/api/user/2fa/status')).body.message).toBe(notLoggedIn);
    });

    it('regenerates recovery codes with a code (old ones stop working) and disables with a password', async () => {
      const { secret, codes } = await enrol();
      const browser = await firstStep();
      expect((await browser.post('/api/user/login/2fa', { code: codeAt(secret) })).body.success).toBe(true);
      nextStep();
      const fresh = await browser.post('/api/user/2fa/recovery-codes', { code: codeAt(secret) });
      expect(fresh.body.data.recovery_codes).toHaveLength(10);
      const check = await firstStep();
      expect((await check.post('/api/user/login/2fa', { code: codes[2] })).body.message).toBe(zh['twoFactor.error.recoveryInvalid']);
      expect((await browser.post('/api/user/2fa/disable', {})).body.message).toBe(zh['twoFactor.error.proofRequired']);
      expect((await browser.post('/api/user/2fa/disable', { password: 'wrong-pass' })).body.message).toBe(zh['twoFactor.error.passwordInvalid']);
      expect((await browser.post('/api/user/2fa/disable', { password: 'password123' })).body.success).toBe(true);
      const plain = await suite.client().login(username, 'password123');
      expect(plain.body.data.username).toBe(username);
      const left = await db().selectFrom('oa_user_totp').selectAll().where('user_id', '=', userId).execute();
      expect(left).toEqual([]);
    });

    it('disables with a TOTP code', async () => {
      const { secret, browser } = await enrol();
      expect((await browser.post('/api/user/2fa/disable', { code: codeAt(secret) })).body.success).toBe(true);
      expect((await browser.get('/api/user/2fa/status')).body.data.enabled).toBe(false);
    });

    it('TwoFactorRequiredForAdmins flags admins without 2FA at login and in the status, not common users', async () => {
      const admin = `adm${seq}${target.kind.slice(0, 2)}`;
      await insertUser(db(), { username: admin, password: 'password123', role: 10 });
      await setOption(db(), 'TwoFactorRequiredForAdmins', 'true');
      try {
        const browser = suite.client();
        const reply = await browser.login(admin, 'password123');
        expect(reply.body.data).toMatchObject({ username: admin, require_2fa_setup: true });
        expect((await browser.get('/api/user/2fa/status')).body.data.required).toBe(true);
        const common = await suite.client().login(username, 'password123');
        expect(Object.keys(common.body.data)).not.toContain('require_2fa_setup');
      } finally {
        await sql`delete from options where ${sql.ref('key')} = 'TwoFactorRequiredForAdmins'`.execute(db());
      }
    });

    /** The rows of the user in each two-factor table. */
    const twoFactorRows = async (id: number): Promise<number[]> => {
      const counts: number[] = [];
      for (const table of twoFactorTables) {
        counts.push((await db().selectFrom(table).select('user_id').where('user_id', '=', id).execute()).length);
      }
      return counts;
    };

    /** Runs `body` with TwoFactorRequiredForAdmins on, removing the option afterwards. */
    const withRequired = async (body: () => Promise<void>): Promise<void> => {
      await setOption(db(), 'TwoFactorRequiredForAdmins', 'true');
      try {
        await body();
      } finally {
        await sql`delete from options where ${sql.ref('key')} = 'TwoFactorRequiredForAdmins'`.execute(db());
      }
    };

    it('never shows the secret again after enrolment: status, a new setup and the login answers hold no secret', async () => {
      const { secret, browser } = await enrol();
      const status = await browser.get('/api/user/2fa/status');
      expect(status.body.data).toEqual({ enabled: true, recovery_codes_left: 10, required: false });
      expect(status.text).not.toContain(secret);
      const again = await browser.post('/api/user/2fa/setup');
      expect(again.body).toEqual({ success: false, message: zh['twoFactor.error.alreadyEnabled'] });
      expect(again.text).not.toContain(secret);
      const self = await browser.get('/api/user/self');
      expect(self.text).not.toContain(secret);
      const pending = await firstStep();
      const done = await pending.post('/api/user/login/2fa', { code: codeAt(secret) });
      expect(done.body.success).toBe(true);
      expect(done.text).not.toContain(secret);
    });

    it('stores the secret sealed (AES-256-GCM): the column holds no base32 secret, and login still works', async () => {
      const { secret } = await enrol();
      const row = await db().selectFrom('oa_user_totp').select('secret').where('user_id', '=', userId).executeTakeFirstOrThrow();
      expect(row.secret.startsWith(sealedPrefix)).toBe(true);
      expect(row.secret).not.toContain(secret);
      expect(row.secret.toUpperCase()).not.toContain(secret);
      const browser = await firstStep();
      expect((await browser.post('/api/user/login/2fa', { code: codeAt(secret) })).body.success).toBe(true);
      // A sealed row moved to another user does not open (the user id is bound to the ciphertext).
      const other = await insertUser(db(), { username: `${username}x`, password: 'password123' });
      await db().insertInto('oa_user_totp').values({ user_id: other, secret: row.secret, enabled_at: 1, created_at: 1, last_step: 0 }).execute();
      nextStep();
      const thief = suite.client();
      expect((await thief.login(`${username}x`, 'password123')).body.data).toEqual({ require_2fa: true });
      expect((await thief.post('/api/user/login/2fa', { code: codeAt(secret) })).body.message).toBe(zh['twoFactor.error.codeInvalid']);
      expect(thief.jar.has('session')).toBe(false);
    });

    it('a plaintext row written before secrets were sealed still works and is sealed at its next use', async () => {
      const { secret } = await enrol();
      await db().updateTable('oa_user_totp').set({ secret }).where('user_id', '=', userId).execute();
      const browser = await firstStep();
      expect((await browser.post('/api/user/login/2fa', { code: codeAt(secret) })).body.success).toBe(true);
      const row = await db().selectFrom('oa_user_totp').select('secret').where('user_id', '=', userId).executeTakeFirstOrThrow();
      expect(row.secret.startsWith(sealedPrefix)).toBe(true);
      expect(row.secret).not.toContain(secret);
      nextStep();
      const again = await firstStep();
      expect((await again.post('/api/user/login/2fa', { code: codeAt(secret) })).body.success).toBe(true);
    });

    it('deleting the own account removes its two-factor rows (secret, recovery codes, pending challenges)', async () => {
      const { browser } = await enrol();
      await firstStep();
      expect(await twoFactorRows(userId)).toEqual([1, 10, 1]);
      const other = `${username}k`;
      const keptId = await insertUser(db(), { username: other, password: 'password123' });
      const kept = suite.client();
      await kept.login(other, 'password123');
      await kept.post('/api/user/2fa/setup');
      const reply = await browser.request('DELETE', '/api/user/self');
      expect(reply.body.success).toBe(true);
      expect(await twoFactorRows(userId)).toEqual([0, 0, 0]);
      expect(await twoFactorRows(keptId)).toEqual([1, 0, 0]);
    });

    it('deleting a user as admin (DELETE /api/user/:id and manage delete) removes its two-factor rows', async () => {
      const admin = `adm${seq}d${target.kind.slice(0, 2)}`;
      await insertUser(db(), { username: admin, password: 'password123', role: 10 });
      const adminBrowser = suite.client();
      expect((await adminBrowser.login(admin, 'password123')).body.success).toBe(true);
      await enrol();
      await firstStep();
      expect(await twoFactorRows(userId)).toEqual([1, 10, 1]);
      const reply = await adminBrowser.request('DELETE', `/api/user/${userId}`);
      expect(reply.body.success).toBe(true);
      expect(await twoFactorRows(userId)).toEqual([0, 0, 0]);

      const second = `${username}m`;
      const secondId = await insertUser(db(), { username: second, password: 'password123' });
      const owner = suite.client();
      await owner.login(second, 'password123');
      const setup = await owner.post('/api/user/2fa/setup');
      expect((await owner.post('/api/user/2fa/enable', { code: codeAt(setup.body.data.secret as string) })).body.success).toBe(true);
      expect(await twoFactorRows(secondId)).toEqual([1, 10, 0]);
      const manage = await adminBrowser.post('/api/user/manage', { username: second, action: 'delete' });
      expect(manage.body.success).toBe(true);
      expect(await twoFactorRows(secondId)).toEqual([0, 0, 0]);
    });

    it('TwoFactorRequiredForAdmins after a reload: the same session, with no login answer, reads the enrolment from the status (the console holds the admin again); it follows the option and the enrolment', async () => {
      const admin = `adm${seq}r${target.kind.slice(0, 2)}`;
      await insertUser(db(), { username: admin, password: 'password123', role: 10 });
      const browser = suite.client();
      // signed in while the option was off: the login answer said nothing
      const reply = await browser.login(admin, 'password123');
      expect(Object.keys(reply.body.data)).not.toContain('require_2fa_setup');
      expect((await browser.get('/api/user/2fa/status')).body.data.required).toBe(false);
      await withRequired(async () => {
        // the console restored from storage asks the status, the only place that can say so now
        expect((await browser.get('/api/user/2fa/status')).body.data).toEqual({ enabled: false, recovery_codes_left: 0, required: true });
        expect((await browser.get('/api/channel/')).status).toBe(403);
        // the own record stays one-api's (no field added)
        expect(Object.keys((await browser.get('/api/user/self')).body.data)).not.toContain('require_2fa_setup');
        const setup = await browser.post('/api/user/2fa/setup');
        expect((await browser.post('/api/user/2fa/enable', { code: codeAt(setup.body.data.secret as string) })).body.success).toBe(true);
        expect((await browser.get('/api/user/2fa/status')).body.data.required).toBe(false);
      });
    });

    it('TwoFactorRequiredForAdmins enforced: an admin without 2FA is refused admin routes (403) until enrolled; off allows; common users unaffected', async () => {
      const admin = `adm${seq}e${target.kind.slice(0, 2)}`;
      const accessToken = `tfa${seq}${target.kind.slice(0, 2)}`.padEnd(32, '0');
      const adminId = await insertUser(db(), { username: admin, password: 'password123', role: 10, accessToken });
      const browser = suite.client();
      expect((await browser.login(admin, 'password123')).body.success).toBe(true);
      // Option off (the default): allowed.
      expect((await browser.get('/api/channel/')).body.success).toBe(true);
      await withRequired(async () => {
        const refused = await browser.get('/api/channel/');
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({ success: false, message: zh['twoFactor.error.enrolmentRequired'] });
        const english = await browser.get('/api/channel/', { headers: { 'accept-language': 'en-US' } });
        expect(english.body.message).toMatch(/two-factor/i);
        // The access token is no way around it.
        const viaToken = await suite.client().get('/api/channel/', { headers: { Authorization: `Bearer ${accessToken}` } });
        expect(viaToken.status).toBe(403);
        // Still open: the own account, the status and the enrolment (user-level routes).
        expect((await browser.get('/api/user/self')).body.data.id).toBe(adminId);
        expect((await browser.get('/api/status')).body.success).toBe(true);
        expect((await browser.get('/api/user/2fa/status')).body.data).toEqual({ enabled: false, recovery_codes_left: 0, required: true });
        const setup = await browser.post('/api/user/2fa/setup');
        expect((await browser.post('/api/user/2fa/enable', { code: codeAt(setup.body.data.secret as string) })).body.success).toBe(true);
        // Enrolled: allowed again.
        expect((await browser.get('/api/channel/')).body.success).toBe(true);
        expect((await browser.get('/api/user/2fa/status')).body.data.required).toBe(false);
        // Common users: their routes unaffected, and admin routes refused as before (not with the enrolment message).
        const common = await signedIn();
        expect((await common.get('/api/user/self')).body.data.username).toBe(username);
        expect((await common.get('/api/token/')).body.success).toBe(true);
        const forbidden = await common.get('/api/channel/');
        expect(forbidden.body.success).toBe(false);
        expect(forbidden.body.message).not.toBe(zh['twoFactor.error.enrolmentRequired']);
      });
      // The option off again: allowed.
      expect((await browser.get('/api/channel/')).body.success).toBe(true);
    });
  });
}
