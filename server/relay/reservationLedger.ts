import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Kysely, type Transaction } from 'kysely';
import { logTypeSystem } from '../../src/domain/constants';
import { beforeClose } from '../db/connect';
import type { Database, Dialect } from '../db/schema';
import { logQuota, logQuotaKeys, readOptions } from '../services/options';

/**
 * Durable relay reservations on PostgreSQL, where several gateways may share one database.
 *
 * A reservation takes its estimate from the user and the token before the upstream call
 * (billing.ts `reserve`, writtenReservations.ts); the same statement (`oa_relay_reserve`, see db/migrations/relayLedger.ts) records it in
 * `oa_relay_reservations` with the id of the gateway that took it. The settlement deletes that
 * row in its transaction, a refund deletes it in its statement: a row exists exactly while the
 * quota it took is neither billed nor given back. A gateway killed meanwhile leaves its rows.
 *
 * Every gateway registers in `oa_relay_instances` with a lease (`RELAY_LEASE_SECONDS`, 30 s, on
 * the database's clock) that it renews every third of it. The rows of a gateway whose lease ran
 * out are given back (`recover`) by any gateway: at its start, and at each heartbeat. A gateway
 * that starts on the host and port a registered one used (most likely its own previous run) gives
 * that one's rows back as soon as it has not renewed for two heartbeats (20 s), instead of
 * waiting for its whole lease; a live gateway renews in time, so it is never taken for gone, even
 * by one sharing its host name and port (containers). Each refund writes a
 * system log (type 4) per user saying what came back and why. A live gateway's rows are never
 * touched; if a gateway was wrongly presumed gone (it could not reach the database for a whole
 * lease), its settlements find their rows gone and charge nothing: that answer is not billed,
 * and no quota is taken twice or given back twice.
 */

type Db = Kysely<Database>;

/** How long a gateway counts as running after its last heartbeat, unless configured (`RELAY_LEASE_SECONDS`). */
export const defaultLeaseMs = 30_000;
/** How often a gateway renews its lease (and looks for reservations of gateways gone): a third of the lease. */
const heartbeatOf = (leaseMs: number): number => Math.floor(leaseMs / 3);

/** The database clock in epoch milliseconds (gateways' clocks may differ; the database's is one). */
const dbNowMs = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** This process's registration on one database. */
interface Instance {
  readonly id: string;
  readonly host: string;
  port: number;
  leaseMs: number;
  readonly startedAt: number;
  /** Resolves once the lease row was written. */
  registered: Promise<void>;
  timer: NodeJS.Timeout | null;
  stopped: boolean;
}

const instances = new WeakMap<Db, Instance>();

/** Writes (or renews) the lease row of `instance`. */
async function renew(db: Db, instance: Instance): Promise<void> {
  await sql`insert into oa_relay_instances (id, host, port, pid, started_at, renewed_at, lease_until)
    values (${instance.id}, ${instance.host}, ${instance.port}, ${process.pid}, ${instance.startedAt}, ${dbNowMs}, ${dbNowMs} + ${instance.leaseMs})
    on conflict (id) do update set port = excluded.port, renewed_at = excluded.renewed_at, lease_until = excluded.lease_until`.execute(db);
}

/** The heartbeat: renew the lease, then give back the reservations of gateways whose lease ran out. */
async function heartbeat(db: Db, instance: Instance): Promise<void> {
  if (instance.stopped) return;
  try {
    await renew(db, instance);
    await recover(db, instance, { claimSameAddress: true });
  } catch (error) {
    console.error(`[relay] reservation lease heartbeat failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * This process's instance on `db` (PostgreSQL), registered on first use: its id goes into every
 * reservation. The lease is renewed until the database handle closes; closing gives back what
 * is still reserved by this process and removes its row.
 */
function instanceOf(db: Db): Instance {
  let instance = instances.get(db);
  if (instance === undefined) {
    const created: Instance = { id: randomUUID(), host: hostname(), port: 0, leaseMs: defaultLeaseMs, startedAt: Date.now(), registered: Promise.resolve(), timer: null, stopped: false };
    instance = created;
    instances.set(db, created);
    created.registered = renew(db, created).catch((error: unknown) => {
      console.error(`[relay] reservation lease not written: ${error instanceof Error ? error.message : String(error)}`);
    });
    startHeartbeat(db, created);
    beforeClose(db, () => release(db, created));
  }
  return instance;
}

/** (Re)starts the heartbeat of `instance` at a third of its lease. */
function startHeartbeat(db: Db, instance: Instance): void {
  if (instance.timer !== null) clearInterval(instance.timer);
  instance.timer = setInterval(() => void heartbeat(db, instance), heartbeatOf(instance.leaseMs));
  instance.timer.unref();
}

/** The id under which this process records its reservations on `db`. */
export function relayInstanceId(db: Db): string {
  return instanceOf(db).id;
}

/** What a recovery gave back. */
export interface Recovered {
  readonly reservations: number;
  readonly quota: number;
}

/**
 * Gives back, in one transaction, the reservations of gateways gone: those whose lease ran out,
 * those registered on this gateway's host and port (`claimSameAddress`: this gateway holds that
 * port now), rows whose gateway is not registered at all and that are older than a lease, or (at
 * shutdown, `own`) this gateway's own. Users get their quota back, tokens their remaining quota
 * (their used quota goes down by as much), and each user a system log.
 */
async function recover(db: Db, instance: Instance, how: { readonly claimSameAddress: boolean; readonly own?: boolean }): Promise<Recovered> {
  return db.transaction().execute(async (trx) => {
    const gone = await goneInstances(trx, instance, how);
    const taken = await trx
      .deleteFrom('oa_relay_reservations')
      .where((eb) =>
        eb.or([
          ...(gone.length > 0 ? [eb('instance_id', 'in', gone)] : []),
          eb.and([
            eb('created_at', '<', sql<number>`${dbNowMs} - ${instance.leaseMs}`),
            eb.not(eb.exists(eb.selectFrom('oa_relay_instances').select('oa_relay_instances.id').whereRef('oa_relay_instances.id', '=', 'oa_relay_reservations.instance_id'))),
          ]),
        ]),
      )
      .returning(['user_id', 'token_id', 'amount'])
      .execute();
    if (taken.length === 0) return { reservations: 0, quota: 0 };
    const perUser = new Map<number, { amount: number; count: number }>();
    const perToken = new Map<number, number>();
    for (const r of taken) {
      const user = perUser.get(Number(r.user_id)) ?? { amount: 0, count: 0 };
      perUser.set(Number(r.user_id), { amount: user.amount + Number(r.amount), count: user.count + 1 });
      perToken.set(Number(r.token_id), (perToken.get(Number(r.token_id)) ?? 0) + Number(r.amount));
    }
    // Rows locked users → tokens, as every other quota transaction does.
    const users = [...perUser.entries()].sort((a, b) => a[0] - b[0]);
    for (const [userId, { amount }] of users) {
      await trx.updateTable('users').set((eb) => ({ quota: eb('quota', '+', amount) })).where('id', '=', userId).execute();
    }
    for (const [tokenId, amount] of [...perToken.entries()].sort((a, b) => a[0] - b[0])) {
      await trx
        .updateTable('tokens')
        .set((eb) => ({ remain_quota: eb('remain_quota', '+', amount), used_quota: eb('used_quota', '-', amount) }))
        .where('id', '=', tokenId)
        .execute();
    }
    const options = await readOptions(trx, logQuotaKeys);
    const now = Math.floor(Date.now() / 1000);
    const names = new Map(
      (await trx.selectFrom('users').select(['id', 'username']).where('id', 'in', users.map(([id]) => id)).execute()).map((u) => [Number(u.id), u.username ?? '']),
    );
    await trx
      .insertInto('logs')
      .values(
        users.map(([userId, { amount, count }]) => ({
          user_id: userId,
          created_at: now,
          type: logTypeSystem,
          content: recoveryLogContent(count, logQuota(amount, options)),
          username: names.get(userId) ?? '',
          channel_id: 0,
        })),
      )
      .execute();
    return { reservations: taken.length, quota: taken.reduce((sum, r) => sum + Number(r.amount), 0) };
  });
}

/** The system log of a recovery: how many requests' reservations came back, and how much. */
export const recoveryLogContent = (requests: number, quota: string): string =>
  `网关停止时 ${requests} 个请求的预扣额度未结算，已退还 ${quota}`;

/** Another gateway registered on this gateway's host and port. */
const sameAddress = (instance: Instance) =>
  sql<boolean>`host = ${instance.host} and port = ${instance.port} and id <> ${instance.id}`;

/** A gateway that has not renewed its lease for `ms`. */
const silentFor = (ms: number) => sql<boolean>`renewed_at < ${dbNowMs} - ${ms}`;

/** Deletes the lease rows of the gateways gone (see `recover`) and returns their ids. */
async function goneInstances(trx: Transaction<Database>, instance: Instance, how: { readonly claimSameAddress: boolean; readonly own?: boolean }): Promise<string[]> {
  const rows = await trx
    .deleteFrom('oa_relay_instances')
    .where((eb) =>
      eb.or([
        eb('lease_until', '<', dbNowMs),
        ...(how.own === true ? [eb('id', '=', instance.id)] : []),
        ...(how.claimSameAddress && instance.port !== 0 ? [eb.and([sameAddress(instance), silentFor(2 * heartbeatOf(instance.leaseMs))])] : []),
      ]),
    )
    .returning('id')
    .execute();
  const ids = rows.map((r) => r.id);
  if (how.own === true && !ids.includes(instance.id)) ids.push(instance.id);
  return ids;
}

/**
 * Start-up (server/main.ts, once the gateway listens on `port`): registers this gateway with its
 * address and gives back the reservations of gateways gone, its own previous run on this host and
 * port included. Nothing on SQLite (reservations there live in the one gateway's memory).
 */
export async function startRelayLedger(db: Db, dialect: Dialect, port: number, leaseMs = defaultLeaseMs): Promise<Recovered> {
  if (dialect !== 'postgres') return { reservations: 0, quota: 0 };
  const instance = instanceOf(db);
  instance.port = port;
  if (instance.leaseMs !== leaseMs) {
    instance.leaseMs = leaseMs;
    startHeartbeat(db, instance);
  }
  await instance.registered;
  await renew(db, instance);
  const now = await recover(db, instance, { claimSameAddress: true });
  // A previous run on this address that renewed its lease less than two heartbeats ago is
  // looked at again once it has been silent that long (a live one keeps renewing: never taken).
  const waiting = await db.selectFrom('oa_relay_instances').select('id').where(sameAddress(instance)).executeTakeFirst();
  if (waiting !== undefined) {
    const later = setTimeout(() => {
      if (instance.stopped) return;
      recover(db, instance, { claimSameAddress: true }).then(
        (back) => {
          if (back.reservations > 0) console.warn(`[relay] gave back ${back.reservations} unsettled reservation(s) of this gateway's previous run (${back.quota} quota)`);
        },
        (error: unknown) => console.error(`[relay] recovery of unsettled reservations failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    }, 2 * heartbeatOf(leaseMs) + 500);
    later.unref();
  }
  return now;
}

/** What a heartbeat does after renewing the lease: gives back the reservations of gateways gone (PostgreSQL; see `recover`). */
export async function recoverStoppedGateways(db: Db, dialect: Dialect): Promise<Recovered> {
  if (dialect !== 'postgres') return { reservations: 0, quota: 0 };
  return recover(db, instanceOf(db), { claimSameAddress: true });
}

/** Stops the heartbeat, gives back what this gateway still has reserved and removes its lease row. */
async function release(db: Db, instance: Instance): Promise<void> {
  if (instance.stopped) return;
  instance.stopped = true;
  if (instance.timer !== null) clearInterval(instance.timer);
  await instance.registered;
  try {
    const back = await recover(db, instance, { claimSameAddress: false, own: true });
    if (back.reservations > 0) console.warn(`[relay] gave back ${back.reservations} reservation(s) still open at shutdown (${back.quota} quota)`);
  } catch (error) {
    console.error(`[relay] reservations open at shutdown not given back (the next start will): ${error instanceof Error ? error.message : String(error)}`);
  }
}
