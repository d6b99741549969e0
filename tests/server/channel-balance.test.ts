import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertUser, setOption } from './support/db';
import type { Client } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';
import { startUpstream, type FakeUpstream } from './support/upstream';

/** Provider balance queries (contract §2.9.11, §2.9.12, §4.11) against a loopback provider, over real HTTP. */

const nowMs = 1_760_000_000_500;
const nowSeconds = 1_760_000_000;
const forbidden = '无权进行此操作，权限不足';

/** Local `YYYY-MM-DD`. */
const day = (d: Date): string =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const today = day(new Date(nowMs));
const firstOfMonth = `${today.slice(0, 8)}01`;
const hundredDaysAgo = (() => {
  const d = new Date(nowMs);
  return day(new Date(d.getFullYear(), d.getMonth(), d.getDate() - 100));
})();

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`channel balances — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => nowMs });
    const db = () => suite.api.handle.db;
    let upstream: FakeUpstream;
    let root: Client;
    let common: Client;

    beforeAll(async () => {
      upstream = await startUpstream();
      upstream.answer('/push', 200, { success: true, message: 'ok' });
      await insertUser(db(), { username: 'common3', password: 'common-pass', role: 1 });
      root = suite.client();
      common = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      expect((await common.login('common3', 'common-pass')).body.success).toBe(true);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(async () => {
      await db().deleteFrom('abilities').execute();
      await db().deleteFrom('channels').execute();
      await setOption(db(), 'AutomaticDisableChannelEnabled', 'false');
      await setOption(db(), 'MessagePusherAddress', '');
      upstream.clear();
    });

    /** Creates a channel of `type` (base_url = the fake unless given) and returns its id. */
    const addChannel = async (type: number, key: string, fields: Record<string, unknown> = {}): Promise<number> => {
      const reply = await root.post('/api/channel/', { type, key, name: `bal-${key}`, models: 'gpt-4o', base_url: upstream.url, ...fields });
      expect(reply.body).toEqual({ success: true, message: '' });
      return (await db().selectFrom('channels').select('id').where('key', '=', key).executeTakeFirstOrThrow()).id;
    };
    const row = (id: number) => db().selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const balanceOf = (id: number) => root.get(`/api/channel/update_balance/${id}`);

    it('guards: common users are refused', async () => {
      const id = await addChannel(4, 'sk-guard');
      for (const path of [`/api/channel/update_balance/${id}`, '/api/channel/update_balance']) {
        expect((await common.get(path)).body).toEqual({ success: false, message: forbidden });
        expect((await suite.client().get(path)).status).toBe(401);
      }
      expect(upstream.requests).toHaveLength(0);
    });

    it('OpenAI: subscription hard limit minus the month usage; balance stored and shown', async () => {
      upstream.answer('/v1/dashboard/billing/subscription', 200, { object: 'billing_subscription', has_payment_method: true, hard_limit_usd: 120 });
      upstream.answer('/v1/dashboard/billing/usage', 200, { object: 'list', total_usage: 2050 });
      const id = await addChannel(1, 'sk-openai');
      const reply = await balanceOf(id);
      expect(reply.body).toEqual({ success: true, message: '', balance: 99.5 });
      const [subscription, usage] = upstream.requestsFor('sk-openai');
      expect(subscription!.path).toBe('/v1/dashboard/billing/subscription');
      expect(subscription!.headers.authorization).toBe('Bearer sk-openai');
      expect(usage!.path).toBe('/v1/dashboard/billing/usage');
      expect(usage!.query.get('start_date')).toBe(firstOfMonth);
      expect(usage!.query.get('end_date')).toBe(today);
      expect(await row(id)).toMatchObject({ balance: 99.5, balance_updated_time: nowSeconds });
      expect((await root.get(`/api/channel/${id}`)).body.data).toMatchObject({ balance: 99.5, balance_updated_time: nowSeconds });
    });

    it('OpenAI without a payment method counts usage from 100 days back; Custom works the same way', async () => {
      upstream.answer('/v1/dashboard/billing/subscription', 200, { has_payment_method: false, hard_limit_usd: 18 });
      upstream.answer('/v1/dashboard/billing/usage', 200, { total_usage: 300 });
      const id = await addChannel(8, 'sk-custom');
      expect((await balanceOf(id)).body).toEqual({ success: true, message: '', balance: 15 });
      expect(upstream.requestsFor('sk-custom')[1]!.query.get('start_date')).toBe(hundredDaysAgo);
    });

    it('upstream non-200 → status code: <n>, nothing stored', async () => {
      upstream.answer('/v1/dashboard/billing/subscription', 401, { error: { message: 'bad key' } });
      const id = await addChannel(1, 'sk-denied');
      expect((await balanceOf(id)).body).toEqual({ success: false, message: 'status code: 401' });
      expect(await row(id)).toMatchObject({ balance: 0, balance_updated_time: 0 });
    });

    it('CloseAI, API2GPT, AIGC2D: credit grants', async () => {
      upstream.answer('/dashboard/billing/credit_grants', 200, { total_available: 7.25, total_remaining: 3.5 });
      expect((await balanceOf(await addChannel(4, 'sk-closeai'))).body.balance).toBe(7.25);
      expect((await balanceOf(await addChannel(12, 'sk-api2gpt'))).body.balance).toBe(3.5);
      expect((await balanceOf(await addChannel(13, 'sk-aigc2d'))).body.balance).toBe(7.25);
    });

    it('OpenAI-SB: data.credit as a number; null data → msg', async () => {
      upstream.answer('/sb-api/user/status', 200, { data: { credit: '1234.5' } });
      const id = await addChannel(5, 'sb key');
      expect((await balanceOf(id)).body.balance).toBe(1234.5);
      expect(upstream.requestsFor('sb key')[0]!.query.get('api_key')).toBe('sb key');
      upstream.answer('/sb-api/user/status', 200, { data: null, msg: 'invalid api_key' });
      expect((await balanceOf(id)).body).toEqual({ success: false, message: 'invalid api_key' });
    });

    it('AI Proxy: Api-Key header, totalPoints; success false → code and message', async () => {
      upstream.answer('/api/report/getUserOverview', 200, { success: true, data: { totalPoints: 4200 } });
      const id = await addChannel(10, 'sk-aiproxy');
      expect((await balanceOf(id)).body.balance).toBe(4200);
      expect(upstream.requests.at(-1)!.headers['api-key']).toBe('sk-aiproxy');
      upstream.answer('/api/report/getUserOverview', 200, { success: false, error_code: 401, message: 'key invalid' });
      expect((await balanceOf(id)).body).toEqual({ success: false, message: 'code: 401, message: key invalid' });
    });

    it('OpenRouter: total credits minus total usage', async () => {
      upstream.answer('/v1/credits', 200, { data: { total_credits: 25, total_usage: 5.5 } });
      expect((await balanceOf(await addChannel(20, 'sk-or'))).body).toEqual({ success: true, message: '', balance: 19.5 });
    });

    it('DeepSeek: the CNY entry; no CNY entry → currency CNY not found', async () => {
      upstream.answer('/user/balance', 200, {
        is_available: true,
        balance_infos: [
          { currency: 'USD', total_balance: '1.00' },
          { currency: 'CNY', total_balance: '110.50' },
        ],
      });
      const id = await addChannel(36, 'sk-deepseek');
      expect((await balanceOf(id)).body.balance).toBe(110.5);
      upstream.answer('/user/balance', 200, { balance_infos: [{ currency: 'USD', total_balance: '1.00' }] });
      expect((await balanceOf(id)).body).toEqual({ success: false, message: 'currency CNY not found' });
      expect((await row(id)).balance).toBe(110.5);
    });

    it('SiliconFlow: data.totalBalance; code ≠ 20000 → code and message', async () => {
      upstream.answer('/v1/user/info', 200, { code: 20000, message: 'OK', status: true, data: { totalBalance: '8.25' } });
      const id = await addChannel(44, 'sk-silicon');
      expect((await balanceOf(id)).body.balance).toBe(8.25);
      upstream.answer('/v1/user/info', 200, { code: 40001, message: 'Invalid token', status: false, data: null });
      expect((await balanceOf(id)).body).toEqual({ success: false, message: 'code: 40001, message: Invalid token' });
    });

    it('unsupported types → 尚未实现; unknown id → record not found', async () => {
      for (const type of [3, 14, 2]) {
        const id = await addChannel(type, `sk-unsupported-${type}`);
        expect((await balanceOf(id)).body).toEqual({ success: false, message: '尚未实现' });
      }
      expect(upstream.requests).toHaveLength(0);
      expect((await balanceOf(999999)).body).toEqual({ success: false, message: 'record not found' });
    });

    it('update all: every enabled supported channel; balance ≤ 0 disables when the option is on', async () => {
      await setOption(db(), 'AutomaticDisableChannelEnabled', 'true');
      await setOption(db(), 'MessagePusherAddress', `${upstream.url}/push`);
      upstream.answer('/dashboard/billing/credit_grants', 200, { total_available: 6 });
      upstream.answer('/v1/credits', 200, { data: { total_credits: 5, total_usage: 5 } });
      const closeai = await addChannel(4, 'sk-all-closeai');
      const empty = await addChannel(20, 'sk-all-or');
      const off = await addChannel(4, 'sk-all-off', { status: 2 });
      const unsupported = await addChannel(14, 'sk-all-ant');
      expect((await root.get('/api/channel/update_balance')).body).toEqual({ success: true, message: '' });
      expect(await row(closeai)).toMatchObject({ balance: 6, balance_updated_time: nowSeconds, status: 1 });
      expect(await row(empty)).toMatchObject({ balance: 0, balance_updated_time: nowSeconds, status: 3 });
      expect(await row(off)).toMatchObject({ balance_updated_time: 0, status: 2 });
      expect((await row(unsupported)).balance_updated_time).toBe(0);
      const pushes = upstream.requestsTo('/push').map((r) => JSON.parse(r.body) as Record<string, string>);
      expect(pushes.map((p) => p.content)).toEqual([`渠道「bal-sk-all-or」（#${empty}）已被禁用，原因：余额不足`]);
    });
  });
}
