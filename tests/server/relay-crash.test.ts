import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { loadConfig } from '../../server/config';
import { bootstrap } from '../../server/db/bootstrap';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import { closedPort, createRelayChannel, createRelayToken, createRelayUser, eventually, setRelayOptions, testModelRatio } from './support/relayFixtures';
import { GatewayProcess } from './support/gatewayProcess';
import { startLoopbackServer, type LoopbackServer } from './support/loopbackServer';
import { dbTargets, type TestDatabase } from './support/targets';

/**
 * A gateway killed (SIGKILL) while a transparent-proxy call and a `/v1/responses` stream hold
 * their reservations (crash-recovery.test.ts style: the real server as a child process, restarted
 * on the same database). After the restart the user's and the token's quota are exactly what
 * they were before the two requests, no consume log was written for them, and on PostgreSQL
 * (where reservations are written) the restarted gateway gives them back with a system log that
 * says so; on SQLite (reservations held in the gateway's memory) nothing was ever taken.
 */

const respModel = 'gpt-4o-mini';
const userStart = 5_000_000;
const tokenStart = 4_000_000;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`a gateway killed mid-proxy and mid-/v1/responses stream — ${target.label}`, () => {
    let testDb: TestDatabase;
    let handle: DatabaseHandle;
    let upstream: LoopbackServer;
    let gateway: GatewayProcess;
    let userId: number;
    let token: { id: number; key: string; name: string };
    let proxyChannel: number;
    let respChannel: number;
    /** Requests the fake has received and holds open. */
    const holding: string[] = [];

    beforeAll(async () => {
      testDb = await target.create();
      upstream = await startLoopbackServer(async (req: IncomingMessage, res: ServerResponse) => {
        for await (const chunk of req) void chunk;
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (path === '/v1/responses') {
          // a stream that has begun and never ends
          res.writeHead(200, { 'Content-Type': 'text/event-stream' });
          res.write(`event: response.created\ndata: ${JSON.stringify({ type: 'response.created', response: { id: 'resp_1', status: 'in_progress' } })}\n\n`);
          res.write(`event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', delta: 'Hello' })}\n\n`);
        }
        // the proxy call: no answer at all
        holding.push(path);
        await new Promise((resolve) => res.once('close', resolve));
      });
      const database = testDb.database;
      const env: Record<string, string> = database.kind === 'sqlite' ? { SQLITE_PATH: database.path } : { SQL_DSN: database.dsn };
      Object.assign(env, { SESSION_SECRET: randomBytes(16).toString('hex'), RELAY_LEASE_SECONDS: '3', GLOBAL_API_RATE_LIMIT: '100000' });
      handle = openDatabase({ database: database.kind === 'sqlite' ? { ...database, settlementThread: false } : database });
      await migrate(handle.db, handle.dialect);
      await bootstrap(handle.db, handle.dialect, loadConfig({ SESSION_SECRET: 'x' }));
      await setRelayOptions(handle.db, { ModelRatio: JSON.stringify({ ...testModelRatio, 'oneapi-proxy': 2.5 }) });
      userId = await createRelayUser(handle.db, { username: 'crashed', quota: userStart });
      token = await createRelayToken(handle.db, { userId, name: 'crashed-token', remainQuota: tokenStart });
      proxyChannel = await createRelayChannel(handle.db, { key: 'up-proxy', baseUrl: `${upstream.url}/base`, models: '', type: 43 });
      respChannel = await createRelayChannel(handle.db, { key: 'up-resp', baseUrl: upstream.url, models: respModel, type: 1 });
      gateway = new GatewayProcess(await closedPort(), env);
      await gateway.start();
    }, 120_000);

    afterAll(async () => {
      await gateway?.stop('SIGKILL');
      await handle?.close();
      await upstream?.close();
      await testDb?.dispose();
    });

    const quotas = async () => {
      const user = await handle.db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', userId).executeTakeFirstOrThrow();
      const tok = await handle.db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', token.id).executeTakeFirstOrThrow();
      const channels = await handle.db.selectFrom('channels').select(['id', 'used_quota']).where('id', 'in', [proxyChannel, respChannel]).execute();
      return { user: [Number(user.quota), Number(user.used_quota)], token: [Number(tok.remain_quota), Number(tok.used_quota)], channels: channels.map((c) => Number(c.used_quota)) };
    };
    const logsOf = (type: number) => handle.db.selectFrom('logs').select(['content', 'quota', 'model_name']).where('user_id', '=', userId).where('type', '=', type).execute();

    it('SIGKILL while both hold reservations; after the restart the quota is exactly what it was, with a log that explains the refund', async () => {
      const before = await quotas();
      expect(before).toEqual({ user: [userStart, 0], token: [tokenStart, 0], channels: [0, 0] });
      const auth = { Authorization: `Bearer sk-${token.key}` };
      const proxied = fetch(`${gateway.url}/v1/oneapi/proxy/${proxyChannel}/held`, { headers: auth }).then(
        (res) => `answered ${res.status}`,
        () => 'cut',
      );
      const streamed = await fetch(`${gateway.url}/v1/responses`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: respModel, input: 'a stream cut by a crash', stream: true, max_output_tokens: 1000 }),
      });
      expect(streamed.status).toBe(200);
      const reader = streamed.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).toContain('response.created');
      await eventually(() => Promise.resolve(holding.length === 2), 'both requests to reach the upstream', 10_000);

      if (handle.dialect === 'postgres') {
        // the two reservations are written, and taken from the rows while held
        const { rows } = await sql<{ n: number }>`select count(*) as n from oa_relay_reservations`.execute(handle.db);
        expect(Number(rows[0]?.n)).toBe(2);
        expect((await quotas()).user[0]).toBeLessThan(userStart);
      }

      await gateway.stop('SIGKILL');
      expect(await proxied).toBe('cut');
      // the stream is cut, never ended: what was sent before the kill (events may arrive in
      // several packets) reads, then the read fails instead of reaching a clean end
      const readToEnd = async (): Promise<void> => {
        while (!(await reader.read()).done);
      };
      await expect(readToEnd()).rejects.toThrow();

      await gateway.start();
      await eventually(async () => JSON.stringify(await quotas()) === JSON.stringify(before), `the quota to come back\n${gateway.output.slice(-2000)}`, 15_000);
      expect(await logsOf(2)).toEqual([]);
      if (handle.dialect === 'postgres') {
        const system = await logsOf(4);
        expect(system).toHaveLength(1);
        const { rows } = await sql<{ n: number }>`select count(*) as n from oa_relay_reservations`.execute(handle.db);
        expect(Number(rows[0]?.n)).toBe(0);
        expect(system[0]?.content).toMatch(/^网关停止时 2 个请求的预扣额度未结算，已退还 /);
      } else {
        // SQLite holds reservations in the gateway's memory: the killed one took nothing from the rows
        expect(await logsOf(4)).toEqual([]);
      }
      // the restarted gateway serves the same token again
      const again = await fetch(`${gateway.url}/v1/oneapi/proxy/${proxyChannel}/held`, { headers: auth, signal: AbortSignal.timeout(500) }).catch(() => null);
      expect(again).toBeNull();
      await eventually(() => Promise.resolve(holding.length === 3), 'the restarted gateway to proxy again', 5_000);
    }, 150_000);
  });
}
