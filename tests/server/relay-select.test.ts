import * as E from 'fp-ts/Either';
import { beforeEach, describe, expect, it } from 'vitest';
import { noChannelError, pickChannel, pinnedChannel, weightedIndex } from '../../server/relay/select';
import { relayChannelColumns, type RelayChannel } from '../../server/relay/types';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Channel selection (contract §4.3, §4.8; weight deviation §6 #21) against a real database:
 * priority tiers, exclusion for retries, disabled abilities and channels, the weighted draw
 * (1000 seeded draws), the all-zero uniform draw, and the pinned-channel errors.
 */

/** A small deterministic generator (mulberry32) for reproducible draws. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface SeedChannel {
  readonly name: string;
  readonly priority?: number | null;
  readonly weight?: number | null;
  readonly status?: number;
  readonly groups?: readonly string[];
  readonly models?: readonly string[];
  readonly abilityEnabled?: boolean;
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay channel selection — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;

    /** Inserts a channel and its abilities (one per group × model) as the channel service would. */
    async function channel(seed: SeedChannel): Promise<number> {
      const groups = seed.groups ?? ['default'];
      const models = seed.models ?? ['m1'];
      const { id } = await db()
        .insertInto('channels')
        .values({
          type: 1,
          key: `sk-${seed.name}`,
          status: seed.status ?? 1,
          name: seed.name,
          weight: seed.weight === undefined ? 0 : seed.weight,
          created_time: 1,
          base_url: 'http://127.0.0.1:9',
          models: models.join(','),
          group: groups.join(','),
          model_mapping: '',
          priority: seed.priority === undefined ? 0 : seed.priority,
          config: '{}',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const group of groups) {
        for (const model of models) {
          await db()
            .insertInto('abilities')
            .values({ group, model, channel_id: id, enabled: seed.abilityEnabled ?? (seed.status ?? 1) === 1, priority: seed.priority === undefined ? 0 : seed.priority })
            .execute();
        }
      }
      return id;
    }

    /**
     * Counts the channel ids of `n` concurrent draws. Every draw sees the same candidates, so the
     * counts depend only on the multiset of random numbers drawn: reproducible for a seed.
     */
    async function draws(n: number, group: string, model: string, exclude: ReadonlySet<number> = new Set(), seed = 42): Promise<Map<number, number>> {
      const random = seeded(seed);
      const picked = await Promise.all(Array.from({ length: n }, () => pickChannel(db(), group, model, exclude, random)));
      const counts = new Map<number, number>();
      for (const channel of picked) {
        expect(channel).not.toBeNull();
        counts.set(channel!.id, (counts.get(channel!.id) ?? 0) + 1);
      }
      return counts;
    }

    beforeEach(async () => {
      await db().deleteFrom('abilities').execute();
      await db().deleteFrom('channels').execute();
    });

    it('keeps the highest priority tier; retries (exclusion) walk the tier, then lower tiers; null priority counts as 0', async () => {
      const a = await channel({ name: 'a', priority: 10 });
      const b = await channel({ name: 'b', priority: 10 });
      const c = await channel({ name: 'c', priority: 5 });
      const d = await channel({ name: 'd', priority: null });
      const e = await channel({ name: 'e', priority: -3 });
      expect([...(await draws(60, 'default', 'm1')).keys()].sort()).toEqual([a, b].sort());
      expect([...(await draws(20, 'default', 'm1', new Set([a]))).keys()]).toEqual([b]);
      expect([...(await draws(20, 'default', 'm1', new Set([a, b]))).keys()]).toEqual([c]);
      expect([...(await draws(20, 'default', 'm1', new Set([a, b, c]))).keys()]).toEqual([d]);
      expect([...(await draws(20, 'default', 'm1', new Set([a, b, c, d]))).keys()]).toEqual([e]);
      expect(await pickChannel(db(), 'default', 'm1', new Set([a, b, c, d, e]))).toBeNull();
    });

    it('returns exactly the RelayChannel columns of the chosen channel', async () => {
      const id = await channel({ name: 'cols', priority: 1, weight: 7 });
      const picked = (await pickChannel(db(), 'default', 'm1', new Set())) as RelayChannel;
      expect(Object.keys(picked).sort()).toEqual([...relayChannelColumns].sort());
      expect(picked).toMatchObject({ id, type: 1, key: 'sk-cols', name: 'cols', status: 1, priority: 1, weight: 7, base_url: 'http://127.0.0.1:9' });
    });

    it('matches group and model exactly; disabled abilities and disabled channels are never chosen', async () => {
      const ok = await channel({ name: 'ok', priority: 0, groups: ['default', 'vip'], models: ['m1', 'm2'] });
      await channel({ name: 'off-ability', priority: 100, abilityEnabled: false });
      await channel({ name: 'off-channel', priority: 100, status: 2, abilityEnabled: true });
      await channel({ name: 'auto-off', priority: 100, status: 3 });
      await channel({ name: 'other-group', priority: 100, groups: ['svip'] });
      await channel({ name: 'other-model', priority: 100, models: ['m3'] });
      expect([...(await draws(20, 'default', 'm1')).keys()]).toEqual([ok]);
      expect((await pickChannel(db(), 'vip', 'm2', new Set()))?.id).toBe(ok);
      expect(await pickChannel(db(), 'vip', 'm3', new Set())).toBeNull();
      expect(await pickChannel(db(), 'nobody', 'm1', new Set())).toBeNull();
      expect(await pickChannel(db(), 'default', 'M1', new Set())).toBeNull();
    });

    it('draws by weight: 1000 seeded draws over weights 1/3/6 land near 10%/30%/60%', async () => {
      const w1 = await channel({ name: 'w1', priority: 2, weight: 1 });
      const w3 = await channel({ name: 'w3', priority: 2, weight: 3 });
      const w6 = await channel({ name: 'w6', priority: 2, weight: 6 });
      await channel({ name: 'low', priority: 1, weight: 1000 });
      const counts = await draws(1000, 'default', 'm1');
      expect([...counts.keys()].sort()).toEqual([w1, w3, w6].sort());
      expect(Math.abs(counts.get(w1)! - 100)).toBeLessThan(40);
      expect(Math.abs(counts.get(w3)! - 300)).toBeLessThan(50);
      expect(Math.abs(counts.get(w6)! - 600)).toBeLessThan(50);
    });

    it('a weight-0 (or negative / null) channel beside weighted ones takes no share, but retries still reach it', async () => {
      const heavy = await channel({ name: 'heavy', priority: 0, weight: 5 });
      const zero = await channel({ name: 'zero', priority: 0, weight: 0 });
      const negative = await channel({ name: 'neg', priority: 0, weight: -4 });
      const missing = await channel({ name: 'null', priority: 0, weight: null });
      expect([...(await draws(300, 'default', 'm1')).keys()]).toEqual([heavy]);
      const rest = await draws(300, 'default', 'm1', new Set([heavy]));
      expect([...rest.keys()].sort()).toEqual([zero, negative, missing].sort());
      for (const count of rest.values()) expect(Math.abs(count - 100)).toBeLessThan(35);
    });

    it('all weights 0: uniform over the tier (1000 seeded draws)', async () => {
      const ids = [await channel({ name: 'u1' }), await channel({ name: 'u2' }), await channel({ name: 'u3' }), await channel({ name: 'u4' })];
      const counts = await draws(1000, 'default', 'm1', new Set(), 7);
      expect([...counts.keys()].sort()).toEqual([...ids].sort());
      for (const id of ids) expect(Math.abs(counts.get(id)! - 250)).toBeLessThan(50);
    });

    it('the draw arithmetic is exact at the edges', () => {
      expect(weightedIndex([1, 3, 6], 0)).toBe(0);
      expect(weightedIndex([1, 3, 6], 0.0999)).toBe(0);
      expect(weightedIndex([1, 3, 6], 0.1)).toBe(1);
      expect(weightedIndex([1, 3, 6], 0.4)).toBe(2);
      expect(weightedIndex([1, 3, 6], 0.999999999)).toBe(2);
      expect(weightedIndex([0, 5, 0], 0)).toBe(1);
      expect(weightedIndex([0, 5, 0], 0.99999)).toBe(1);
      expect(weightedIndex([0, 0, 0], 0.5)).toBe(1);
      expect(weightedIndex([0, 0, 0], 0.99999)).toBe(2);
      expect(weightedIndex([null, -1], 0.2)).toBe(0);
    });

    it('pinned channel: unknown id → 400 无效的渠道 Id; not enabled → 403 该渠道已被禁用; enabled → the channel', async () => {
      const on = await channel({ name: 'pin-on', priority: 0, groups: ['other'], models: ['x'] });
      const manual = await channel({ name: 'pin-manual', status: 2 });
      const auto = await channel({ name: 'pin-auto', status: 3 });
      const pinned = await pinnedChannel(db(), on);
      expect(E.isRight(pinned) && pinned.right.id).toBe(on);
      expect(await pinnedChannel(db(), 999_999)).toEqual(E.left({ status: 400, error: { message: '无效的渠道 Id', type: 'one_api_error' } }));
      expect(await pinnedChannel(db(), Number.NaN)).toEqual(E.left({ status: 400, error: { message: '无效的渠道 Id', type: 'one_api_error' } }));
      for (const id of [manual, auto]) {
        expect(await pinnedChannel(db(), id)).toEqual(E.left({ status: 403, error: { message: '该渠道已被禁用', type: 'one_api_error' } }));
      }
    });

    it('no channel: 503 with the group and model in the message', () => {
      expect(noChannelError('vip', 'gpt-4o')).toEqual({
        status: 503,
        error: { message: '当前分组 vip 下对于模型 gpt-4o 无可用渠道', type: 'one_api_error' },
      });
    });
  });
}
