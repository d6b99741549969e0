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
  // Several reservations in one statement (server/relay/pgBatch.ts): each exactly as
  // `oa_relay_reserve`, in the order given (the caller sorts them by user, then token: the lock
  // order). One round trip for every request that reached its reservation in one event-loop turn.
  `create or replace function oa_relay_reserve_many(p_amounts bigint[], p_users bigint[], p_tokens bigint[], p_instance text)
    returns table (r_index integer, r_outcome text, r_quota bigint, r_email text, r_unlimited boolean, r_id bigint)
    language plpgsql as $$
    begin
      for i in 1 .. coalesce(array_length(p_amounts, 1), 0) loop
        return query select i, r.r_outcome, r.r_quota, r.r_email, r.r_unlimited, r.r_id
          from oa_relay_reserve(p_amounts[i], p_users[i], p_tokens[i], p_instance) r;
      end loop;
    end $$`,
  // Several settlements in one statement: each exactly as `oa_relay_settle` for the reservation,
  // user and token (in the order given, sorted by user then token), then the channels' charges
  // (summed, by channel id) and the consume logs: the lock order of one settlement, kept across
  // the group.
  `create or replace function oa_relay_settle_many(p_ids bigint[], p_users bigint[], p_tokens bigint[], p_limited boolean[],
      p_reserved bigint[], p_prices bigint[], p_channels bigint[], p_logs boolean[], p_created_at bigint[], p_contents text[],
      p_token_names text[], p_models text[], p_prompts bigint[], p_completions bigint[], p_request_ids text[], p_elapsed bigint[],
      p_streams boolean[], p_resets boolean[])
    returns table (s_index integer, s_outcome text, s_charged bigint, s_extra bigint, s_username text, s_email text, s_quota bigint)
    language plpgsql as $$
    declare
      n integer := coalesce(array_length(p_ids, 1), 0); v_delta bigint; v_have bigint; v_extra bigint; v_charged bigint;
      v_username text; v_email text; v_quota bigint; v_done boolean[] := array[]::boolean[]; v_names text[] := array[]::text[];
      v_amounts bigint[] := array[]::bigint[]; v_channel record;
    begin
      for i in 1 .. n loop
        v_done[i] := false; v_names[i] := ''; v_amounts[i] := 0;
        perform 1 from users u where u.id = p_users[i];
        if not found then
          return query select i, 'gone'::text, 0::bigint, 0::bigint, null::text, null::text, null::bigint;
          continue;
        end if;
        if p_ids[i] is not null then
          delete from oa_relay_reservations r where r.id = p_ids[i];
          if not found then
            return query select i, 'gone'::text, 0::bigint, 0::bigint, null::text, null::text, null::bigint;
            continue;
          end if;
        end if;
        v_delta := p_prices[i] - p_reserved[i];
        if v_delta > 0 then
          select greatest(u.quota, 0) into v_have from users u where u.id = p_users[i] for update;
          v_extra := least(v_delta, coalesce(v_have, 0));
          if v_extra > 0 and p_limited[i] then
            select greatest(t.remain_quota, 0) into v_have from tokens t where t.id = p_tokens[i] for update;
            v_extra := least(v_extra, coalesce(v_have, 0));
          end if;
        else
          v_extra := v_delta;
        end if;
        v_charged := p_reserved[i] + v_extra;
        update users u set quota = u.quota - v_extra, used_quota = u.used_quota + v_charged, request_count = u.request_count + 1
          where u.id = p_users[i] returning u.username, u.email, u.quota into v_username, v_email, v_quota;
        if v_extra <> 0 then
          update tokens t set remain_quota = t.remain_quota - v_extra, used_quota = t.used_quota + v_extra where t.id = p_tokens[i];
        end if;
        v_done[i] := true; v_names[i] := coalesce(v_username, ''); v_amounts[i] := v_charged;
        return query select i, 'ok'::text, v_charged, v_extra, v_username, v_email, v_quota;
      end loop;
      for v_channel in
        select c.ch, sum(c.amount)::bigint as amount from unnest(p_channels, v_amounts, v_done) as c(ch, amount, done)
          where c.done group by c.ch having sum(c.amount) <> 0 order by c.ch
      loop
        update channels c set used_quota = c.used_quota + v_channel.amount where c.id = v_channel.ch;
      end loop;
      for i in 1 .. n loop
        if v_done[i] and p_logs[i] then
          insert into logs (user_id, created_at, type, content, username, token_name, model_name, quota, prompt_tokens,
              completion_tokens, channel_id, request_id, elapsed_time, is_stream, system_prompt_reset)
            values (p_users[i], p_created_at[i], 2, p_contents[i], v_names[i], p_token_names[i], p_models[i], v_amounts[i],
              p_prompts[i], p_completions[i], p_channels[i], p_request_ids[i], p_elapsed[i], p_streams[i], p_resets[i]);
        end if;
      end loop;
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
