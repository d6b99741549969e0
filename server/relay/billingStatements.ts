import { sql, type Kysely } from 'kysely';
import { logTypeConsume } from '../../src/domain/constants';
import { changeMarksTable, settlementsMark } from '../db/migrations/changeMarks';
import { precompile } from '../db/precompiled';
import type { Database } from '../db/schema';
import type { ResolvedDeps } from '../http/env';
import type { Charge } from './reservations';
import type { SettlementStatements } from './settlementThread';

/**
 * The SQL of reserve, refund and settle, compiled once per dialect (see precompile): the
 * conditional updates that take and give back quota, the balance reads of the SQLite ledger,
 * the settlement of the user row, the channel's charge and the consume log; PostgreSQL's
 * reservation statement; and the set of them the settlement thread runs.
 */

type Db = Kysely<Database>;

/** User quota -= amount where enough is left (args: amount, user id). */
export const takeUserQuota = precompile(2, (db: Db, amount: number, userId: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '-', amount) }))
    .where('id', '=', userId)
    .where('quota', '>=', amount)
    .returning(['quota', 'email']),
);
/** User quota -= amount where it still holds `expected` (args: amount, user id, expected; returns the row when changed). */
export const takeUserQuotaIfAt = precompile(3, (db: Db, amount: number, userId: number, expected: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '-', amount) }))
    .where('id', '=', userId)
    .where('quota', '=', expected)
    .returning('id'),
);
/** A token's remain -= amount, used += amount where remain still holds `expected` (args: amount, token id, expected; returns the row when changed). */
export const takeTokenQuotaIfAt = precompile(3, (db: Db, amount: number, tokenId: number, expected: number) =>
  db
    .updateTable('tokens')
    .set((eb) => ({ remain_quota: eb('remain_quota', '-', amount), used_quota: eb('used_quota', '+', amount) }))
    .where('id', '=', tokenId)
    .where('remain_quota', '=', expected)
    .returning('id'),
);
/**
 * SQLite: the settlement thread's mark (see migrations/changeMarks.ts): every settlement up to it is committed
 * (the batch's last id, or just below the batch's first failed settlement). Read in the same
 * statement as a balance, it tells which settlements sent to the thread that balance already
 * includes; the ones above it keep their price held.
 */
const lastSettled = sql<number | null>`(select mark from ${sql.raw(changeMarksTable)} where name = ${sql.lit(settlementsMark)})`;
/** A user's quota and e-mail, and `lastSettled` (args: user id; SQLite). */
export const userBalance = precompile(1, (db: Db, userId: number) =>
  db.selectFrom('users').select(['quota', 'email']).select(lastSettled.as('applied')).where('id', '=', userId),
);
/** A token's remaining quota, whether it is unlimited, and `lastSettled` (args: token id; SQLite). */
export const tokenBalance = precompile(1, (db: Db, tokenId: number) =>
  db.selectFrom('tokens').select(['remain_quota', 'unlimited_quota']).select(lastSettled.as('applied')).where('id', '=', tokenId),
);
/** A token's remain -= amount, used += amount where unlimited or enough is left (args: amount, token id). */
export const takeTokenQuota = precompile(2, (db: Db, amount: number, tokenId: number) =>
  db
    .updateTable('tokens')
    .set((eb) => ({ remain_quota: eb('remain_quota', '-', amount), used_quota: eb('used_quota', '+', amount) }))
    .where('id', '=', tokenId)
    .where((eb) => eb.or([eb('unlimited_quota', '=', true), eb('remain_quota', '>=', amount)]))
    .returning(['unlimited_quota']),
);
/** A limited token's remain -= amount, used += amount where enough is left (args: amount, token id). */
export const takeLimitedTokenQuota = precompile(2, (db: Db, amount: number, tokenId: number) =>
  db
    .updateTable('tokens')
    .set((eb) => ({ remain_quota: eb('remain_quota', '-', amount), used_quota: eb('used_quota', '+', amount) }))
    .where('id', '=', tokenId)
    .where('remain_quota', '>=', amount),
);
/** A token's remain -= amount, used += amount, unconditionally (args: amount, token id). */
export const moveTokenQuotaStatement = precompile(2, (db: Db, amount: number, tokenId: number) =>
  db
    .updateTable('tokens')
    .set((eb) => ({ remain_quota: eb('remain_quota', '-', amount), used_quota: eb('used_quota', '+', amount) }))
    .where('id', '=', tokenId),
);
/** User quota += amount (args: amount, user id). */
export const giveUserQuota = precompile(2, (db: Db, amount: number, userId: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '+', amount) }))
    .where('id', '=', userId),
);
/** The settlement of the user row (args: quota given back, quota charged, user id). */
export const settleUser = precompile(3, (db: Db, giveBack: number, charged: number, userId: number) =>
  db
    .updateTable('users')
    .set((eb) => ({
      quota: eb('quota', '+', giveBack),
      used_quota: eb('used_quota', '+', charged),
      request_count: eb('request_count', '+', 1),
    }))
    .where('id', '=', userId)
    .returning(['username', 'email', 'quota']),
);
/**
 * PostgreSQL: `settleUser` that also deletes the reservation's row (args: as `settleUser`, then
 * the row's id); no row changes, and none comes back, when the reservation's row is gone.
 */
export const settleReservedUser = precompile(4, (db: Db, giveBack: number, charged: number, userId: number, reservationId: number) =>
  db
    .with('closed_reservation', (qb) => qb.deleteFrom('oa_relay_reservations').where('id', '=', reservationId).returning('id'))
    .updateTable('users')
    .set((eb) => ({
      quota: eb('quota', '+', giveBack),
      used_quota: eb('used_quota', '+', charged),
      request_count: eb('request_count', '+', 1),
    }))
    .where('id', '=', userId)
    .where((eb) => eb.exists(eb.selectFrom('closed_reservation').select('closed_reservation.id')))
    .returning(['username', 'email', 'quota']),
);

/** A channel's used quota += amount (args: amount, channel id). */
export const chargeChannel = precompile(2, (db: Db, amount: number, channelId: number) =>
  db
    .updateTable('channels')
    .set((eb) => ({ used_quota: eb('used_quota', '+', amount) }))
    .where('id', '=', channelId),
);

/** The consume log's values, in the order of `insertConsumeLog`'s arguments. */
export type ConsumeLogArgs = [
  userId: number,
  createdAt: number,
  content: string,
  username: string,
  tokenName: string,
  modelName: string,
  quota: number,
  promptTokens: number,
  completionTokens: number,
  channelId: number,
  requestId: string,
  elapsedTime: number,
  isStream: boolean,
  systemPromptReset: boolean,
];
export const insertConsumeLog = precompile(14, (db: Db, ...v: ConsumeLogArgs) =>
  db.insertInto('logs').values({
    user_id: v[0],
    created_at: v[1],
    type: logTypeConsume,
    content: v[2],
    username: v[3],
    token_name: v[4],
    model_name: v[5],
    quota: v[6],
    prompt_tokens: v[7],
    completion_tokens: v[8],
    channel_id: v[9],
    request_id: v[10],
    elapsed_time: v[11],
    is_stream: v[12],
    system_prompt_reset: v[13],
  }),
);

/** SQLite may hand booleans back as 0/1. */
export const truthy = (value: unknown): boolean => value === true || Number(value) === 1;

/** The reservation statement (PostgreSQL). */
export const reserveStatement = (amount: number, userId: number, tokenId: number, instanceId: string) =>
  sql<ReserveRow>`select * from oa_relay_reserve(${amount}, ${userId}, ${tokenId}, ${instanceId})`;

/** What `oa_relay_settle` answers: 'ok' with the amounts and the user row after, or 'gone' (nothing changed). */
export interface SettleRow {
  readonly s_outcome: string;
  readonly s_charged: number | null;
  readonly s_extra: number | null;
  readonly s_username: string | null;
  readonly s_email: string | null;
  readonly s_quota: number | null;
}

/**
 * The settlement statement (PostgreSQL, `oa_relay_settle` in db/migrations/relayLedger.ts): the
 * reservation's row `ledgerId` (null: none was written), the user's, token's and channel's
 * numbers and the consume log (when `log`), in one round trip.
 */
export const settleStatement = (
  ledgerId: number | null,
  reservation: { readonly userId: number; readonly tokenId: number; readonly tokenLimited: boolean; readonly amount: number },
  price: number,
  log: boolean,
  v: ConsumeLogArgs,
) =>
  sql<SettleRow>`select * from oa_relay_settle(${ledgerId}::bigint, ${reservation.userId}::bigint, ${reservation.tokenId}::bigint, ${reservation.tokenLimited}::boolean,
    ${reservation.amount}::bigint, ${price}::bigint, ${v[9]}::bigint, ${log}::boolean, ${v[1]}::bigint, ${v[2]}::text, ${v[4]}::text, ${v[5]}::text,
    ${v[7]}::bigint, ${v[8]}::bigint, ${v[10]}::text, ${v[11]}::bigint, ${v[12]}::boolean, ${v[13]}::boolean)`;

/** One reservation of `reserveManyStatement`. */
export interface ReserveItem {
  readonly amount: number;
  readonly userId: number;
  readonly tokenId: number;
}
/** A row of `reserveStatement`. */
export type ReserveRow = { r_outcome: string; r_quota: number | null; r_email: string | null; r_unlimited: boolean | null; r_id: number | null };

/** Several reservations in one statement (PostgreSQL, `oa_relay_reserve_many`): a row per item, `r_index` 1-based. */
export const reserveManyStatement = (items: readonly ReserveItem[], instanceId: string) =>
  sql<ReserveRow & { r_index: number }>`select * from oa_relay_reserve_many(${items.map((i) => i.amount)}::bigint[], ${items.map((i) => i.userId)}::bigint[], ${items.map((i) => i.tokenId)}::bigint[], ${instanceId})`;

/** One settlement of `settleManyStatement` (`settleStatement`'s arguments). */
export interface SettleItem {
  readonly ledgerId: number | null;
  readonly reservation: { readonly userId: number; readonly tokenId: number; readonly tokenLimited: boolean; readonly amount: number };
  readonly price: number;
  readonly log: boolean;
  readonly args: ConsumeLogArgs;
}

/** Several settlements in one statement (PostgreSQL, `oa_relay_settle_many`): a row per item, `s_index` 1-based. */
export const settleManyStatement = (items: readonly SettleItem[]) => {
  const column = <T>(pick: (item: SettleItem) => T): T[] => items.map(pick);
  return sql<SettleRow & { s_index: number }>`select * from oa_relay_settle_many(${column((i) => i.ledgerId)}::bigint[], ${column((i) => i.reservation.userId)}::bigint[],
    ${column((i) => i.reservation.tokenId)}::bigint[], ${column((i) => i.reservation.tokenLimited)}::boolean[], ${column((i) => i.reservation.amount)}::bigint[],
    ${column((i) => i.price)}::bigint[], ${column((i) => i.args[9])}::bigint[], ${column((i) => i.log)}::boolean[], ${column((i) => i.args[1])}::bigint[],
    ${column((i) => i.args[2])}::text[], ${column((i) => i.args[4])}::text[], ${column((i) => i.args[5])}::text[], ${column((i) => i.args[7])}::bigint[],
    ${column((i) => i.args[8])}::bigint[], ${column((i) => i.args[10])}::text[], ${column((i) => i.args[11])}::bigint[], ${column((i) => i.args[12])}::boolean[],
    ${column((i) => i.args[13])}::boolean[])`;
};

/** The consume log of a settled request (`insertConsumeLog`'s arguments). */
export function consumeLogArgs(deps: ResolvedDeps, userId: number, charge: Charge, username: string, charged: number): ConsumeLogArgs {
  return [
    userId,
    Math.floor(deps.now() / 1000),
    charge.content,
    username,
    charge.tokenName,
    charge.modelName,
    charged,
    charge.usage.promptTokens,
    charge.usage.completionTokens,
    charge.channelId,
    charge.requestId,
    Math.max(0, Math.round(charge.elapsedMs)),
    charge.isStream,
    charge.systemPromptReset,
  ];
}

/** The statements of a held reservation's settlement (`applySettlement`), compiled for SQLite. */
export function settlementStatements(db: Db): SettlementStatements {
  return {
    userBalance: userBalance.compiled(db),
    takeUserQuotaIfAt: takeUserQuotaIfAt.compiled(db),
    tokenBalance: tokenBalance.compiled(db),
    takeTokenQuotaIfAt: takeTokenQuotaIfAt.compiled(db),
    moveTokenQuota: moveTokenQuotaStatement.compiled(db),
    settleUser: settleUser.compiled(db),
    chargeChannel: chargeChannel.compiled(db),
    insertConsumeLog: insertConsumeLog.compiled(db),
  };
}
