import { sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../schema';

/**
 * PostgreSQL's schema of the durable relay reservations: the tables of gateways and their
 * reservations and the functions that take and give back a reservation in one statement
 * (used by server/relay/writtenReservations.ts and reservationLedger.ts).
 */

type Db = Kysely<Database>;

/**
 * PostgreSQL: the durable relay reservations (server/relay/reservationLedger.ts). Several gateways
 * may share the database, so a reservation taken from a user and a token is written, in the same
 * statement as the taking, with the gateway that took it; a gateway's lease row says whether it
 * still runs. `oa_relay_reserve` takes and records a reservation in one round trip (rows locked
 * users → tokens, as everywhere); `oa_relay_refund` gives one back once. SQLite needs none of this
 * (one gateway owns the file; reservations are held in its memory and nothing is written before
 * the settlement).
 */
export const relayLedgerTables = ['oa_relay_instances', 'oa_relay_reservations'] as const;

const relayLedgerDdl: readonly string[] = [
  `create table if not exists oa_relay_instances (id text primary key, host text not null, port integer not null,
    pid integer not null, started_at bigint not null, renewed_at bigint not null, lease_until bigint not null)`,
  `create table if not exists oa_relay_reservations (id bigserial primary key, instance_id text not null,
    user_id bigint not null, token_id bigint not null, amount bigint not null, created_at bigint not null)`,
  // The happy path is two conditional updates and the insert (no `for update` first: a row lock
  // is one more WAL record per row). A token too short takes back what the user update took,
  // in the same statement, so nothing of it shows.
  `create or replace function oa_relay_reserve(p_amount bigint, p_user bigint, p_token bigint, p_instance text)
    returns table (r_outcome text, r_quota bigint, r_email text, r_unlimited boolean, r_id bigint)
    language plpgsql as $$
    declare
      v_quota bigint; v_email text; v_unlimited boolean; v_id bigint;
    begin
      update users u set quota = u.quota - p_amount where u.id = p_user and u.quota >= p_amount
        returning u.quota, u.email into v_quota, v_email;
      if not found then
        return query select 'user'::text, null::bigint, null::text, null::boolean, null::bigint;
        return;
      end if;
      update tokens t set remain_quota = t.remain_quota - p_amount, used_quota = t.used_quota + p_amount
        where t.id = p_token and (t.unlimited_quota = true or t.remain_quota >= p_amount)
        returning t.unlimited_quota into v_unlimited;
      if not found then
        update users u set quota = u.quota + p_amount where u.id = p_user;
        return query select 'token'::text, null::bigint, null::text, null::boolean, null::bigint;
        return;
      end if;
      insert into oa_relay_reservations (instance_id, user_id, token_id, amount, created_at)
        values (p_instance, p_user, p_token, p_amount, (extract(epoch from clock_timestamp()) * 1000)::bigint)
        returning id into v_id;
      return query select 'ok'::text, v_quota, v_email, coalesce(v_unlimited, false), v_id;
    end $$`,
  // The settlement in one statement (server/relay/writtenReservations.ts `settleWritten`): the
  // row locks are held for the statement only, not across round trips of a transaction, so the
  // settlements of many requests of one user and token follow each other closely. Order as
  // `oa_relay_refund` and the recovery: the reservation's row, then users → tokens → channels.
  // 'gone' (nothing changed) when the reservation's row or the user is gone: a recovery gave it
  // back, the answer is not billed. Beyond the reservation it takes what the user (and a limited
  // token) still hold, at most; below it, it gives the difference back.
  `create or replace function oa_relay_settle(p_id bigint, p_user bigint, p_token bigint, p_limited boolean,
      p_reserved bigint, p_price bigint, p_channel bigint, p_log boolean, p_created_at bigint, p_content text,
      p_token_name text, p_model text, p_prompt bigint, p_completion bigint, p_request_id text, p_elapsed bigint,
      p_stream boolean, p_reset boolean)
    returns table (s_outcome text, s_charged bigint, s_extra bigint, s_username text, s_email text, s_quota bigint)
    language plpgsql as $$
    declare
      v_delta bigint := p_price - p_reserved; v_have bigint; v_extra bigint := 0; v_charged bigint;
      v_username text; v_email text; v_quota bigint;
    begin
      perform 1 from users u where u.id = p_user;
      if not found then
        return query select 'gone'::text, 0::bigint, 0::bigint, null::text, null::text, null::bigint;
        return;
      end if;
      if p_id is not null then
        delete from oa_relay_reservations r where r.id = p_id;
        if not found then
          return query select 'gone'::text, 0::bigint, 0::bigint, null::text, null::text, null::bigint;
          return;
        end if;
      end if;
      if v_delta > 0 then
        select greatest(u.quota, 0) into v_have from users u where u.id = p_user for update;
        v_extra := least(v_delta, coalesce(v_have, 0));
        if v_extra > 0 and p_limited then
          select greatest(t.remain_quota, 0) into v_have from tokens t where t.id = p_token for update;
          v_extra := least(v_extra, coalesce(v_have, 0));
        end if;
      else
        v_extra := v_delta;
      end if;
      v_charged := p_reserved + v_extra;
      update users u set quota = u.quota - v_extra, used_quota = u.used_quota + v_charged, request_count = u.request_count + 1
        where u.id = p_user returning u.username, u.email, u.quota into v_username, v_email, v_quota;
      if v_extra <> 0 then
        update tokens t set remain_quota = t.remain_quota - v_extra, used_quota = t.used_quota + v_extra where t.id = p_token;
      end if;
      if v_charged <> 0 then
        update channels c set used_quota = c.used_quota + v_charged where c.id = p_channel;
      end if;
      if p_log then
        insert into logs (user_id, created_at, type, content, username, token_name, model_name, quota, prompt_tokens,
            completion_tokens, channel_id, request_id, elapsed_time, is_stream, system_prompt_reset)
          values (p_user, p_created_at, 2, p_content, coalesce(v_username, ''), p_token_name, p_model, v_charged, p_prompt,
            p_completion, p_channel, p_request_id, p_elapsed, p_stream, p_reset);
      end if;
      return query select 'ok'::text, v_charged, v_extra, v_username, v_email, v_quota;
    end $$`,
  `create or replace function oa_relay_refund(p_id bigint) returns bigint language plpgsql as $$
    declare
      v_user bigint; v_token bigint; v_amount bigint;
    begin
      delete from oa_relay_reservations r where r.id = p_id returning r.user_id, r.token_id, r.amount into v_user, v_token, v_amount;
      if not found then
        return null;
      end if;
      update users u set quota = u.quota + v_amount where u.id = v_user;
      update tokens t set remain_quota = t.remain_quota + v_amount, used_quota = t.used_quota - v_amount where t.id = v_token;
      return v_amount;
    end $$`,
];

/** PostgreSQL: creates the relay's reservation tables and functions (functions replaced on every start); returns the tables created. */
export async function ensureRelayLedger(db: Db, dialect: Dialect, tables: Set<string>): Promise<string[]> {
  if (dialect !== 'postgres') return [];
  for (const ddl of relayLedgerDdl) await sql.raw(ddl).execute(db);
  return relayLedgerTables.filter((t) => !tables.has(t));
}
