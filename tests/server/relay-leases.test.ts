import * as E from 'fp-ts/Either';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import type { ResolvedDeps } from '../../server/http/env';
import { refund, reserve, settle } from '../../server/relay/billing';
import type { Charge, Reservation } from '../../server/relay/reservations';
import { ReservationGone } from '../../server/relay/writtenReservations';
import { recoverStoppedGateways, relayInstanceId, startRelayLedger } from '../../server/relay/reservationLedger';
import type { RelayCaller } from '../../server/relay/types';
import { insertUser } from './support/db';
import { postgresTarget, type TestDatabase } from './support/targets';

/**
 * Several gateways on one PostgreSQL database (issue 18 item 3): each records its reservations
 * under its own id and keeps a lease; a gateway's start or heartbeat gives back only the
 * reservations of gateways gone (lease run out, or its own previous run on its host and port),
 * never a live one's, with a system log; a settlement whose reservation was given back charges
 * nothing; a gateway that closes gives back what it still holds. Each gateway here is one
 * database handle in this process (the ledger keeps one registration per handle).
 */

describe.skipIf(postgresTarget.skipReason !== null)(`relay reservation leases — ${postgresTarget.label}`, () => {
  let testDb: TestDatabase;
  const handles: DatabaseHandle[] = [];
  let channelId = 0;
  let seq = 0;

  const open = (): DatabaseHandle => {
    const handle = openDatabase(testDb);
    handles.push(handle);
    return handle;
  };
  const depsOf = (handle: DatabaseHandle): ResolvedDeps => ({
    db: handle.db,
    dialect: handle.dialect,
    config: loadConfig({ SESSION_SECRET: 'x' }),
    now: () => Date.now(),
    startTime: 0,
  });

  beforeAll(async () => {
    testDb = await postgresTarget.create();
    const first = open();
    await migrate(first.db, first.dialect);
    channelId = (
      await first.db
        .insertInto('channels')
        .values({ type: 1, key: 'sk-up', status: 1, name: 'lease', created_time: 1, models: 'gpt-4o', group: 'default', config: '{}' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    for (const handle of handles) await handle.close().catch(() => undefined);
    await testDb?.dispose();
  });

  /** A user with 10,000 quota and a limited token with 5,000. */
  async function account(handle: DatabaseHandle): Promise<{ caller: RelayCaller; userId: number; tokenId: number }> {
    seq += 1;
    const userId = await insertUser(handle.db, { username: `lease${seq}` });
    await handle.db.updateTable('users').set({ quota: 10_000 }).where('id', '=', userId).execute();
    const { id: tokenId } = await handle.db
      .insertInto('tokens')
      .values({ user_id: userId, key: `lease${String(seq).padStart(43, '0')}`, status: 1, name: `lease-${seq}`, created_time: 1, accessed_time: 1, expired_time: -1, remain_quota: 5_000, unlimited_quota: false, used_quota: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await handle.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    const token = await handle.db.selectFrom('tokens').selectAll().where('id', '=', tokenId).executeTakeFirstOrThrow();
    return { caller: { user, token, group: 'default', pinnedChannelId: null }, userId, tokenId };
  }

  async function reserved(handle: DatabaseHandle, caller: RelayCaller, amount: number): Promise<Reservation> {
    const result = await reserve(depsOf(handle), caller, amount);
    if (E.isLeft(result)) throw new Error(result.left.error.message);
    return result.right;
  }

  const balances = async (handle: DatabaseHandle, userId: number, tokenId: number) => {
    const user = await handle.db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', userId).executeTakeFirstOrThrow();
    const token = await handle.db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', tokenId).executeTakeFirstOrThrow();
    const systemLogs = await handle.db.selectFrom('logs').select('content').where('user_id', '=', userId).where('type', '=', 4).execute();
    const open = await handle.db.selectFrom('oa_relay_reservations').select('id').where('user_id', '=', userId).execute();
    return { quota: user.quota, used: user.used_quota, remain: token.remain_quota, tokenUsed: token.used_quota, systemLogs: systemLogs.map((l) => l.content), open: open.length };
  };

  const charge = (quota: number): Charge => ({
    quota,
    usage: { promptTokens: 10, completionTokens: 20 },
    content: '倍率：2.50 × 1.00 × 4.00',
    modelName: 'gpt-4o',
    channelId,
    tokenName: 'lease',
    isStream: false,
    elapsedMs: 1,
    systemPromptReset: false,
    requestId: `lease-req-${seq}`,
  });

  it('a reservation is written with its gateway; the settlement and the refund remove it', async () => {
    const a = open();
    const { caller, userId, tokenId } = await account(a);
    const r1 = await reserved(a, caller, 700);
    const r2 = await reserved(a, caller, 300);
    expect(await balances(a, userId, tokenId)).toMatchObject({ quota: 9_000, remain: 4_000, tokenUsed: 1_000, open: 2 });
    expect(await settle(depsOf(a), r1, charge(250))).toBe(250);
    await refund(depsOf(a), r2);
    expect(await balances(a, userId, tokenId)).toEqual({ quota: 9_750, used: 250, remain: 4_750, tokenUsed: 250, systemLogs: [], open: 0 });
  });

  it("another gateway's start and heartbeat leave a live gateway's reservations alone", async () => {
    const a = open();
    const b = open();
    const { caller, userId, tokenId } = await account(a);
    const r = await reserved(a, caller, 1_000);
    expect(await startRelayLedger(b.db, b.dialect, 40_001)).toEqual({ reservations: 0, quota: 0 });
    expect(await recoverStoppedGateways(b.db, b.dialect)).toEqual({ reservations: 0, quota: 0 });
    expect(await balances(a, userId, tokenId)).toMatchObject({ quota: 9_000, remain: 4_000, open: 1 });
    expect(await settle(depsOf(a), r, charge(400))).toBe(400);
    expect(await balances(a, userId, tokenId)).toEqual({ quota: 9_600, used: 400, remain: 4_600, tokenUsed: 400, systemLogs: [], open: 0 });
  });

  it("once a gateway's lease ran out, its reservations come back with a system log; its late settlement charges nothing", async () => {
    const a = open();
    const b = open();
    const { caller, userId, tokenId } = await account(a);
    const r1 = await reserved(a, caller, 600);
    await reserved(a, caller, 400);
    // Gateway a stops renewing (it hangs, or lost the database for a whole lease).
    await a.db.updateTable('oa_relay_instances').set({ lease_until: 0 }).where('id', '=', relayInstanceId(a.db)).execute();
    expect(await recoverStoppedGateways(b.db, b.dialect)).toEqual({ reservations: 2, quota: 1_000 });
    const after = await balances(a, userId, tokenId);
    expect(after).toMatchObject({ quota: 10_000, used: 0, remain: 5_000, tokenUsed: 0, open: 0 });
    expect(after.systemLogs).toHaveLength(1);
    expect(after.systemLogs[0]).toMatch(/2 个请求的预扣额度未结算，已退还/);
    // Gateway a comes back and settles: nothing is charged twice or given back twice.
    await expect(settle(depsOf(a), r1, charge(300))).rejects.toBeInstanceOf(ReservationGone);
    expect(await balances(a, userId, tokenId)).toMatchObject({ quota: 10_000, used: 0, remain: 5_000, tokenUsed: 0 });
    const logs = await a.db.selectFrom('logs').select('id').where('user_id', '=', userId).where('type', '=', 2).execute();
    expect(logs).toEqual([]);
  });

  it('a gateway on the host and port of another takes its reservations only once that one has missed two heartbeats', async () => {
    const killed = open();
    const { caller, userId, tokenId } = await account(killed);
    await startRelayLedger(killed.db, killed.dialect, 40_002);
    await reserved(killed, caller, 800);
    // It renewed its lease just now: it may be alive (containers can share a host name and port).
    const restarted = open();
    expect(await startRelayLedger(restarted.db, restarted.dialect, 40_002)).toEqual({ reservations: 0, quota: 0 });
    expect(await balances(restarted, userId, tokenId)).toMatchObject({ quota: 9_200, remain: 4_200, open: 1 });
    // Killed: it renews no more. Two heartbeats (20 s) later it is taken for gone, long before its lease ends.
    await restarted.db.updateTable('oa_relay_instances').set((eb) => ({ renewed_at: eb('renewed_at', '-', 20_001) })).where('id', '=', relayInstanceId(killed.db)).execute();
    expect(await recoverStoppedGateways(restarted.db, restarted.dialect)).toEqual({ reservations: 1, quota: 800 });
    expect(await balances(restarted, userId, tokenId)).toMatchObject({ quota: 10_000, remain: 5_000, tokenUsed: 0, open: 0 });
  });

  it('a gateway that closes gives back what it still holds', async () => {
    const a = open();
    const { caller, userId, tokenId } = await account(a);
    await reserved(a, caller, 500);
    const id = relayInstanceId(a.db);
    const reader = open();
    await a.close();
    expect(await balances(reader, userId, tokenId)).toMatchObject({ quota: 10_000, remain: 5_000, tokenUsed: 0, open: 0 });
    expect(await reader.db.selectFrom('oa_relay_instances').select('id').where('id', '=', id).execute()).toEqual([]);
  });
});
