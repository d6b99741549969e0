import { describe, expect, it } from 'vitest';
import { storeCode } from '../../server/services/verification';
import { insertUser } from './support/db';
import type { Client } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * A changed or reset password ends every other credential of the account: the other login
 * sessions and the access token. Only the credential that changed the user's own password stays.
 */

let seq = 0;
const uname = (prefix: string): string => `${prefix}${(seq += 1)}`.slice(0, 12);

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`password changes end other sessions — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;

    async function makeUser(options: { role?: number; email?: string } = {}) {
      const username = uname('ps');
      const password = 'password-1';
      const id = await insertUser(db(), { username, password, role: options.role, email: options.email });
      const row = await db().selectFrom('users').select('access_token').where('id', '=', id).executeTakeFirstOrThrow();
      return { id, username, password, accessToken: row.access_token! };
    }

    async function loggedIn(username: string, password: string): Promise<Client> {
      const browser = suite.client();
      expect((await browser.login(username, password)).body.success).toBe(true);
      return browser;
    }

    /** Whether `browser`'s session still admits it to /api/user/self. */
    const admitted = async (browser: Client): Promise<boolean> => (await browser.get('/api/user/self')).body?.success === true;
    const tokenWorks = async (token: string): Promise<boolean> =>
      (await suite.client().get('/api/user/self', { headers: { Authorization: `Bearer ${token}` } })).body?.success === true;
    const sessionCount = async (userId: number): Promise<number> =>
      (await db().selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;

    it('a user changing their own password keeps this session and ends the others and the access token', async () => {
      const user = await makeUser();
      const here = await loggedIn(user.username, user.password);
      const elsewhere = await loggedIn(user.username, user.password);
      const reply = await here.request('PUT', '/api/user/self', { body: { password: 'new-password-1' } });
      expect(reply.body).toEqual({ success: true, message: '' });
      expect(await admitted(here)).toBe(true);
      expect(await admitted(elsewhere)).toBe(false);
      expect(await sessionCount(user.id)).toBe(1);
      expect(await tokenWorks(user.accessToken)).toBe(false);
      // The new password logs in, the old one does not.
      expect((await suite.client().login(user.username, 'new-password-1')).body.success).toBe(true);
      expect((await suite.client().login(user.username, user.password)).body.success).toBe(false);
    });

    it('a change made with the access token keeps that token and ends every session', async () => {
      const user = await makeUser();
      const browser = await loggedIn(user.username, user.password);
      const reply = await suite
        .client()
        .request('PUT', '/api/user/self', { body: { password: 'new-password-2' }, headers: { Authorization: user.accessToken } });
      expect(reply.body).toEqual({ success: true, message: '' });
      expect(await admitted(browser)).toBe(false);
      expect(await sessionCount(user.id)).toBe(0);
      expect(await tokenWorks(user.accessToken)).toBe(true);
    });

    it('editing only the display name or username ends nothing', async () => {
      const user = await makeUser();
      const here = await loggedIn(user.username, user.password);
      const elsewhere = await loggedIn(user.username, user.password);
      const reply = await here.request('PUT', '/api/user/self', { body: { display_name: 'Renamed', username: uname('rn') } });
      expect(reply.body).toEqual({ success: true, message: '' });
      expect(await admitted(elsewhere)).toBe(true);
      expect(await tokenWorks(user.accessToken)).toBe(true);
    });

    it("an admin setting another user's password ends all of that user's sessions and its access token, not the admin's", async () => {
      const user = await makeUser();
      const browser = await loggedIn(user.username, user.password);
      const admin = await makeUser({ role: 10 });
      const adminBrowser = await loggedIn(admin.username, admin.password);
      const reply = await adminBrowser.request('PUT', '/api/user/', { body: { id: user.id, password: 'admin-set-pw' } });
      expect(reply.body).toEqual({ success: true, message: '' });
      expect(await admitted(browser)).toBe(false);
      expect(await sessionCount(user.id)).toBe(0);
      expect(await tokenWorks(user.accessToken)).toBe(false);
      expect(await admitted(adminBrowser)).toBe(true);
      expect(await tokenWorks(admin.accessToken)).toBe(true);
    });

    it('an admin edit without a password ends nothing', async () => {
      const user = await makeUser();
      const browser = await loggedIn(user.username, user.password);
      const root = await loggedIn('root', '123456');
      const reply = await root.request('PUT', '/api/user/', { body: { id: user.id, display_name: 'Kept' } });
      expect(reply.body).toEqual({ success: true, message: '' });
      expect(await admitted(browser)).toBe(true);
      expect(await tokenWorks(user.accessToken)).toBe(true);
    });

    it('root changing its own password through the admin edit keeps the session it used', async () => {
      const root = await makeUser({ role: 100 });
      const here = await loggedIn(root.username, root.password);
      const elsewhere = await loggedIn(root.username, root.password);
      const reply = await here.request('PUT', '/api/user/', { body: { id: root.id, password: 'root-new-pw' } });
      expect(reply.body).toEqual({ success: true, message: '' });
      expect(await admitted(here)).toBe(true);
      expect(await admitted(elsewhere)).toBe(false);
    });

    it('a password reset by e-mail link ends every session and the access token', async () => {
      const email = `${uname('rs')}@example.com`;
      const user = await makeUser({ email });
      const browser = await loggedIn(user.username, user.password);
      const token = 'f'.repeat(32);
      await storeCode(db(), 'r', email, token, Math.floor(Date.now() / 1000));
      const reply = await suite.client().post('/api/user/reset', { email, token });
      expect(reply.body.success).toBe(true);
      expect(await admitted(browser)).toBe(false);
      expect(await sessionCount(user.id)).toBe(0);
      expect(await tokenWorks(user.accessToken)).toBe(false);
      expect((await suite.client().login(user.username, reply.body.data as string)).body.success).toBe(true);
    });

    it('a login that checked the old password while the password changed gets no lasting session', async () => {
      const user = await makeUser();
      const owner = await loggedIn(user.username, user.password);
      // Race many old-password logins against the change: none may leave a session behind.
      const logins = Array.from({ length: 6 }, () => suite.client().login(user.username, user.password));
      const change = owner.request('PUT', '/api/user/self', { body: { password: 'raced-pass-1' } });
      const [changed] = await Promise.all([change, ...logins]);
      expect(changed.body).toEqual({ success: true, message: '' });
      expect(await sessionCount(user.id)).toBe(1);
      expect(await admitted(owner)).toBe(true);
    });
  });
}
