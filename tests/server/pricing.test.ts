import { beforeAll, describe, expect, it } from 'vitest';
import { dumpDatabase, insertUser, setOption } from './support/db';
import type { Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * `GET /api/pricing`: the caller's models and prices for their group (quota per 1M tokens with
 * the group multiplier applied), availability from the abilities of enabled channels, models of
 * other groups not listed, no channel data, no writes, anonymous callers refused.
 */

const tokens = {
  vip: 'p1p1p1p1p1p1p1p1p1p1p1p1p1p1p1p1',
  plain: 'p2p2p2p2p2p2p2p2p2p2p2p2p2p2p2p2',
} as const;

interface SeedChannel {
  readonly name: string;
  readonly type?: number;
  readonly status?: number;
  readonly groups: readonly string[];
  readonly models: readonly string[];
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`pricing — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;

    const get = (who: keyof typeof tokens | 'anonymous'): Promise<Reply> =>
      suite.client().request('GET', '/api/pricing', { headers: who === 'anonymous' ? {} : { Authorization: tokens[who] } });

    async function channel(seed: SeedChannel): Promise<void> {
      const status = seed.status ?? 1;
      const { id } = await db()
        .insertInto('channels')
        .values({
          type: seed.type ?? 1,
          key: `sk-secret-${seed.name}`,
          status,
          name: seed.name,
          weight: 0,
          created_time: 1,
          base_url: 'http://127.0.0.1:9',
          models: seed.models.join(','),
          group: seed.groups.join(','),
          model_mapping: '',
          priority: 0,
          config: '{}',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const group of seed.groups) {
        for (const model of seed.models) {
          await db().insertInto('abilities').values({ group, model, channel_id: id, enabled: status === 1, priority: 0 }).execute();
        }
      }
    }

    beforeAll(async () => {
      const vip = await insertUser(db(), { username: 'vera', password: 'vera-pass1', accessToken: tokens.vip });
      await insertUser(db(), { username: 'paul', password: 'paul-pass1', accessToken: tokens.plain });
      await db().updateTable('users').set({ group: 'vip' }).where('id', '=', vip).execute();
      await setOption(db(), 'ModelRatio', JSON.stringify({ 'gpt-4o': 2.5, 'my-model': 1, 'other-only': 3, 'off-model': 0.5 }));
      await setOption(db(), 'CompletionRatio', JSON.stringify({ 'my-model': 2 }));
      await setOption(db(), 'GroupRatio', JSON.stringify({ default: 1, vip: 0.5 }));
      await channel({ name: 'alpha-secret-name', groups: ['default', 'vip'], models: ['gpt-4o', 'my-model'] });
      await channel({ name: 'beta-secret-name', groups: ['default'], models: ['other-only'] });
      await channel({ name: 'gamma-secret-name', status: 2, groups: ['vip'], models: ['off-model'] });
    });

    it('a common user in group vip sees vip prices (quota per 1M tokens), their group’s models only', async () => {
      const reply = await get('vip');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        success: true,
        message: '',
        data: {
          group: 'vip',
          group_ratio: 0.5,
          models: [
            // gpt-4o: 2.5 × 0.5 per token; the built-in completion rule for gpt-4o is 4.
            { model: 'gpt-4o', input_per_million: 1_250_000, output_per_million: 5_000_000, available: true },
            { model: 'my-model', input_per_million: 500_000, output_per_million: 1_000_000, available: true },
            // Only a disabled channel serves it: listed, unavailable.
            { model: 'off-model', input_per_million: 250_000, output_per_million: 250_000, available: false },
          ],
        },
      });
    });

    it('a default-group user sees default prices and not the vip-only model', async () => {
      const reply = await get('plain');
      expect(reply.body.success).toBe(true);
      expect(reply.body.data.group).toBe('default');
      expect(reply.body.data.group_ratio).toBe(1);
      expect(reply.body.data.models.map((m: { model: string }) => m.model)).toEqual(['gpt-4o', 'my-model', 'other-only']);
      expect(reply.body.data.models[1]).toEqual({ model: 'my-model', input_per_million: 1_000_000, output_per_million: 2_000_000, available: true });
    });

    it('leaks no channel data and writes nothing', async () => {
      const before = await dumpDatabase(db());
      const text = JSON.stringify((await get('vip')).body) + JSON.stringify((await get('plain')).body);
      expect(text).not.toMatch(/secret|channel/);
      expect(await dumpDatabase(db())).toBe(before);
    });

    it('anonymous callers get the guard’s 401', async () => {
      const reply = await get('anonymous');
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ success: false, message: '无权进行此操作，未登录且未提供 access token' });
    });
  });
}
