import * as E from 'fp-ts/Either';
import type { Kysely } from 'kysely';
import { precompile } from '../db/precompiled';
import type { Database } from '../db/schema';
import { TurnReads } from '../db/turnReads';
import { keptGeneration } from './callerCache';
import { relayChannelColumns, relayError, type RelayChannel, type RelayError } from './types';

/**
 * Channel selection (contract §4.3, §4.8). A relay request either names its channel (`sk-<key>-<id>`,
 * admins only: no group/model check, never retried) or draws one from the enabled abilities of its
 * (group, model): only the highest priority tier takes part, and within it the draw is WEIGHTED
 * (deviation, contract §6 #21: one-api stores `weight` but draws uniformly). A channel's share is
 * max(weight, 0) / Σ; when every weight of the tier is 0 the draw is uniform. Retries call
 * `pickChannel` again with the failed channels excluded, so they go through the rest of the top
 * tier (weight-0 channels beside weighted ones included: they take no share while the others are
 * candidates, but are reached once those are excluded), then the lower tiers.
 */

type Db = Kysely<Database>;

export const selectMessages = {
  invalidChannelId: '无效的渠道 Id',
  channelDisabled: '该渠道已被禁用',
} as const;

/** Channel status "enabled" (contract §3.2). */
const channelEnabled = 1;

/** The pinned channel `id`: 400 when there is none, 403 when it is not enabled (contract §4.3 step 2). */
export async function pinnedChannel(db: Db, id: number): Promise<E.Either<RelayError, RelayChannel>> {
  const channel = Number.isSafeInteger(id)
    ? await db.selectFrom('channels').select(relayChannelColumns).where('id', '=', id).executeTakeFirst()
    : undefined;
  if (channel === undefined) return E.left(relayError(400, selectMessages.invalidChannelId));
  if (channel.status !== channelEnabled) return E.left(relayError(403, selectMessages.channelDisabled));
  return E.right(channel);
}

/** `c.<column>` for every column a RelayChannel holds. */
const joinedColumns = relayChannelColumns.map((column) => `c.${column}` as const);

/**
 * Index of the weighted draw among `weights` with `r` in [0, 1): share ∝ max(w, 0); uniform when
 * every share is 0. Exported for tests of the arithmetic.
 */
export function weightedIndex(weights: readonly (number | null)[], r: number): number {
  const shares = weights.map((w) => Math.max(w ?? 0, 0));
  const total = shares.reduce((sum, w) => sum + w, 0);
  if (total <= 0) return Math.min(Math.floor(r * weights.length), weights.length - 1);
  const target = r * total;
  let cumulative = 0;
  for (const [i, share] of shares.entries()) {
    cumulative += share;
    if (share > 0 && target < cumulative) return i;
  }
  // Rounding at the top end: the last channel with a share.
  return shares.findLastIndex((share) => share > 0);
}

/** The candidates of the highest priority tier of (`group`, `model`), without the `excluded` channels. */
function topTierQuery(db: Db, group: string, model: string, excluded: readonly number[]) {
  return db
    .selectFrom('abilities as a')
    .innerJoin('channels as c', 'c.id', 'a.channel_id')
    .select(joinedColumns)
    .where('a.group', '=', group)
    .where('a.model', '=', model)
    .where('a.enabled', '=', true)
    .where('c.status', '=', channelEnabled)
    .$if(excluded.length > 0, (qb) => qb.where('c.id', 'not in', excluded))
    .where((eb) =>
      eb(
        eb.fn.coalesce('a.priority', eb.lit(0)),
        '=',
        eb
          .selectFrom('abilities as a2')
          .innerJoin('channels as c2', 'c2.id', 'a2.channel_id')
          .select((sub) => sub.fn.max(sub.fn.coalesce('a2.priority', sub.lit(0))).as('top'))
          .where('a2.group', '=', group)
          .where('a2.model', '=', model)
          .where('a2.enabled', '=', true)
          .where('c2.status', '=', channelEnabled)
          .$if(excluded.length > 0, (qb) => qb.where('c2.id', 'not in', excluded)),
      ),
    )
    .orderBy('c.id');
}

/** The first draw of every request (nothing excluded yet), compiled once per dialect. */
const topTier = precompile(2, (db: Db, group: string, model: string) => topTierQuery(db, group, model, []));

type TierRows = Awaited<ReturnType<typeof topTier.readRows>>;

/** The top tiers of the first draw kept per database, with the channels' generation they were read at. */
const tierCache = new WeakMap<Db, { generation: string; readonly tiers: Map<string, TierRows> }>();
/** Distinct (group, model) pairs kept at most; past that the cache starts over. */
const tierCacheLimit = 2048;

/** PostgreSQL: the first draws of one turn for one (group, model) share one read (see TurnReads); the key is `[group, model]` as JSON. */
const tierReads = new TurnReads<TierRows>((db, key) => {
  const [group, model] = JSON.parse(key) as [string, string];
  return topTier.readRows(db, group, model);
});

/**
 * The top tier of (`group`, `model`) for a first draw. On SQLite it is kept in memory while the
 * channels' change mark is unchanged (triggers on channels and abilities, by any connection or
 * process: ChangeWatch, server/db/connect.ts; a channel's used quota, balance and test results
 * do not count). On PostgreSQL with Redis (several processes announcing their channel changes,
 * services/clusterSync.ts) it is kept until a channel or ability change is announced anywhere
 * (automatic disabling included) or SYNC_FREQUENCY passes; else read every time (the requests of
 * one turn sharing the read).
 */
async function firstDraw(db: Db, group: string, model: string): Promise<TierRows> {
  const generation = keptGeneration(db, 'channels');
  const key = JSON.stringify([group, model]);
  if (generation === undefined) return tierReads.run(db, key);
  let cache = tierCache.get(db);
  if (cache === undefined || cache.generation !== generation) {
    cache = { generation, tiers: new Map() };
    tierCache.set(db, cache);
  }
  const kept = cache.tiers.get(key);
  if (kept !== undefined) return kept;
  const rows = await tierReads.run(db, key);
  // A change announced (or marked) while reading: the rows may be older than it, do not keep them.
  if (keptGeneration(db, 'channels') !== generation) return rows;
  if (cache.tiers.size >= tierCacheLimit) cache.tiers.clear();
  cache.tiers.set(key, rows);
  return rows;
}

/**
 * Draws a channel for (`group`, `model`) among enabled abilities of enabled channels, not in
 * `exclude`, in the highest remaining priority tier (NULL priority counts as 0); null when there
 * is none. One query: the tier is chosen in SQL (`priority = max(priority)` over the same
 * candidates), only its rows come back, ordered by id so that a seeded `random` is reproducible.
 */
export async function pickChannel(
  db: Db,
  group: string,
  model: string,
  exclude: ReadonlySet<number>,
  random: () => number = Math.random,
): Promise<RelayChannel | null> {
  const excluded = [...exclude];
  const rows = excluded.length === 0 ? await firstDraw(db, group, model) : await topTierQuery(db, group, model, excluded).execute();
  if (rows.length === 0) return null;
  return rows[weightedIndex(rows.map((row) => row.weight), random())] ?? null;
}

/** No channel serves the model in the group: 503 (contract §4.3). */
export const noChannelError = (group: string, model: string): RelayError =>
  relayError(503, `当前分组 ${group} 下对于模型 ${model} 无可用渠道`);
