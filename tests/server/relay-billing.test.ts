import * as E from 'fp-ts/Either';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { syncRunnerOf } from '../../server/db/connect';
import type { ResolvedDeps } from '../../server/http/env';
import { refund, reserve, settle } from '../../server/relay/billing';
import { heldQuota } from '../../server/relay/heldReservations';
import { consumeLogContent, finalQuota, goFixed2, preConsumeQuota, pricingFor, pricingOf, type Pricing } from '../../server/relay/pricing';
import { relaySettings } from '../../server/relay/relaySettings';
import type { Charge, Reservation } from '../../server/relay/reservations';
import type { RelayCaller } from '../../server/relay/types';
import { insertUser, setOption } from './support/db';
import { tokenQuota, userQuota } from './support/relayFixtures';
import { startLoopbackSmtp, type LoopbackSmtp } from './support/smtp';
import { setupSuite } from './support/suite';
import { billingTargets as dbTargets, sqliteTarget } from './support/targets';

/**
 * Quota billing (contract §3.5, §4.6, §4.7; fixes §6 #18, #19) on a real database: pricing
 * lookups, the §4.6 formulas, reserve / refund / settle with their conditional updates and log
 * rows, the quota reminder e-mail (loopback SMTP), and 200 parallel requests on 10 limited
 * tokens keeping every invariant.
 */

/** 2025-06-15T15:06:40Z. */
const nowMs = 1_750_000_000_000;

const userShort = { status: 403, error: { message: 'user quota is not enough', type: 'one_api_error', param: '', code: 'insufficient_user_quota' } };
const tokenShort = { status: 403, error: { message: '令牌额度不足', type: 'one_api_error', param: '', code: 'pre_consume_token_quota_failed' } };

let seq = 0;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay billing — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => nowMs });
    const db = () => suite.api.handle.db;
    const deps = (): ResolvedDeps => ({ db: db(), dialect: suite.api.handle.dialect, config: suite.api.config, now: () => nowMs, startTime: 0 });
    let channelId = 0;

    beforeAll(async () => {
      channelId = (
        await db()
          .insertInto('channels')
          .values({ type: 1, key: 'sk-up', status: 1, name: 'billing', created_time: 1, models: 'gpt-4o', group: 'default', config: '{}' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    });

    interface Account {
      readonly caller: RelayCaller;
      readonly userId: number;
      readonly tokenId: number;
      readonly tokenName: string;
    }

    /** A user with `quota` and one token (limited with `remain` unless `remain` is null = unlimited). */
    async function account(quota: number, remain: number | null, email = ''): Promise<Account> {
      seq += 1;
      const n = seq;
      const username = `bill${n}`;
      const userId = await insertUser(db(), { username, email });
      await db().updateTable('users').set({ quota }).where('id', '=', userId).execute();
      const tokenName = `token-${n}`;
      const { id: tokenId } = await db()
        .insertInto('tokens')
        .values({
          user_id: userId,
          key: `bill${String(n).padStart(44, '0')}`,
          status: 1,
          name: tokenName,
          created_time: 1,
          accessed_time: 1,
          expired_time: -1,
          remain_quota: remain ?? 0,
          unlimited_quota: remain === null,
          used_quota: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const user = await db().selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
      const token = await db().selectFrom('tokens').selectAll().where('id', '=', tokenId).executeTakeFirstOrThrow();
      return { caller: { user, token, group: user.group, pinnedChannelId: null }, userId, tokenId, tokenName };
    }

    /**
     * The numbers billing moves, as a request sees them (`userQuota` and `tokenQuota` count the
     * reservations SQLite holds in memory as taken, as PostgreSQL's written ones are).
     */
    async function state(a: Account) {
      const user = await userQuota(db(), a.userId);
      const token = await tokenQuota(db(), a.tokenId);
      const logs = await db().selectFrom('logs').selectAll().where('user_id', '=', a.userId).where('type', '=', 2).orderBy('id').execute();
      return { quota: user.quota, userUsed: user.usedQuota, requests: user.requestCount, remain: token.remainQuota, tokenUsed: token.usedQuota, logs };
    }

    const channelUsed = async () => (await db().selectFrom('channels').select('used_quota').where('id', '=', channelId).executeTakeFirstOrThrow()).used_quota;

    const charge = (a: Account, quota: number, extra: Partial<Charge> = {}): Charge => ({
      quota,
      usage: { promptTokens: 21, completionTokens: 266 },
      content: '倍率：2.50 × 1.00 × 4.00',
      modelName: 'gpt-4o',
      channelId,
      tokenName: a.tokenName,
      isStream: false,
      elapsedMs: 123,
      systemPromptReset: false,
      requestId: `req-${seq}`,
      ...extra,
    });

    /** Reserves and expects success. */
    async function reserved(a: Account, amount: number): Promise<Reservation> {
      const result = await reserve(deps(), a.caller, amount);
      if (E.isLeft(result)) throw new Error(`reserve refused: ${result.left.error.message}`);
      return result.right;
    }

    describe('pricing (contract §3.5)', () => {
      it('default table, completion rules and group ratio; the §4.6 worked example is 2713', async () => {
        const p = await pricingFor(db(), 'gpt-4o', 1, 'default');
        expect(p).toEqual({ modelRatio: 2.5, groupRatio: 1, completionRatio: 4, ratio: 2.5 });
        expect(finalQuota(p, { promptTokens: 21, completionTokens: 266 })).toBe(2713);
        expect(consumeLogContent(p)).toBe('倍率：2.50 × 1.00 × 4.00');
        expect((await pricingFor(db(), 'gpt-3.5-turbo', 1, 'default')).completionRatio).toBe(3);
        expect((await pricingFor(db(), 'claude-3-haiku-20240307', 14, 'default')).completionRatio).toBe(5);
        expect((await pricingFor(db(), 'o3-mini', 1, 'default')).completionRatio).toBe(1);
        // Hosted chat models with a per-model table in one-api fall back to 1 here.
        expect((await pricingFor(db(), 'mistralai/mistral-large', 1, 'default')).completionRatio).toBe(1);
      });

      it('"m(t)" keys: configured "m(t)", default "m(t)", configured m, default m, else 30', async () => {
        // Default "m(t)" beats the default bare name.
        expect((await pricingFor(db(), 'llama3-8b-8192', 33, 'default')).modelRatio).toBe(0.15);
        expect((await pricingFor(db(), 'llama3-8b-8192', 1, 'default')).modelRatio).toBe(0.000025);
        expect((await pricingFor(db(), 'llama3-8b-8192', 33, 'default')).completionRatio).toBe(2);
        await setOption(db(), 'ModelRatio', JSON.stringify({ 'llama3-8b-8192': 9, 'my-model(7)': 4, 'my-model': 3, 'gpt-4o': 1 }));
        // Configured bare name loses to default "m(t)" but beats the default bare name.
        expect((await pricingFor(db(), 'llama3-8b-8192', 33, 'default')).modelRatio).toBe(0.15);
        expect((await pricingFor(db(), 'llama3-8b-8192', 1, 'default')).modelRatio).toBe(9);
        expect((await pricingFor(db(), 'my-model', 7, 'default')).modelRatio).toBe(4);
        expect((await pricingFor(db(), 'my-model', 8, 'default')).modelRatio).toBe(3);
        expect((await pricingFor(db(), 'gpt-4o', 1, 'default')).modelRatio).toBe(1);
        // Removed from the configured table: the built-in default still applies.
        expect((await pricingFor(db(), 'dall-e-3', 1, 'default')).modelRatio).toBe(20);
        await setOption(db(), 'ModelRatio', JSON.stringify({ 'llama3-8b-8192(33)': 5 }));
        expect((await pricingFor(db(), 'llama3-8b-8192', 33, 'default')).modelRatio).toBe(5);
        // Unknown (also names of Object.prototype properties) → 30.
        expect((await pricingFor(db(), 'no-such-model', 1, 'default')).modelRatio).toBe(30);
        expect((await pricingFor(db(), 'constructor', 1, 'default')).modelRatio).toBe(30);
        // -internet is stripped for qwen-* and command-*.
        expect((await pricingFor(db(), 'qwen-turbo-internet', 17, 'default')).modelRatio).toBe(0.0213);
        expect((await pricingFor(db(), 'command-r-internet', 34, 'default')).modelRatio).toBe(0.25);
        await db().deleteFrom('options').where('key', '=', 'ModelRatio').execute();
        // The pure form over already-read tables.
        expect(pricingOf({ modelRatio: { x: 2 }, groupRatio: { g: 3 }, completionRatio: { x: 1.5 } }, 'x', 1, 'g')).toEqual({
          modelRatio: 2,
          groupRatio: 3,
          completionRatio: 1.5,
          ratio: 6,
        });
      });

      it('completion ratio: configured "m(t)" / m, defaults, rules; group ratio configured else 1', async () => {
        await setOption(db(), 'CompletionRatio', JSON.stringify({ 'gpt-4o(3)': 7, 'gpt-4o': 6 }));
        await setOption(db(), 'GroupRatio', JSON.stringify({ default: 1, vip: 0.5, svip: 2 }));
        expect((await pricingFor(db(), 'gpt-4o', 3, 'default')).completionRatio).toBe(7);
        expect((await pricingFor(db(), 'gpt-4o', 1, 'default')).completionRatio).toBe(6);
        expect((await pricingFor(db(), 'deepseek-chat', 1, 'default')).completionRatio).toBe(2);
        expect((await pricingFor(db(), 'gpt-4-turbo', 1, 'default')).completionRatio).toBe(3);
        const svip = await pricingFor(db(), 'gpt-4o', 1, 'svip');
        expect(svip).toMatchObject({ modelRatio: 2.5, groupRatio: 2, ratio: 5 });
        expect(consumeLogContent(svip)).toBe('倍率：2.50 × 2.00 × 6.00');
        expect((await pricingFor(db(), 'gpt-4o', 1, 'nobody')).groupRatio).toBe(1);
        await db().deleteFrom('options').where('key', 'in', ['CompletionRatio', 'GroupRatio']).execute();
      });

      it('parses each option text once (cached by text) and reads the relay options in one go', async () => {
        const a = await relaySettings(db());
        const b = await relaySettings(db());
        expect(b.modelRatio).toBe(a.modelRatio);
        expect(b.completionRatio).toBe(a.completionRatio);
        expect(a).toMatchObject({ preConsumedQuota: 500, logConsumeEnabled: true, quotaRemindThreshold: 1000, approximateTokenEnabled: false, retryTimes: 0 });
        expect(Object.keys(a.modelRatio)).toHaveLength(566);
      });

      it('formulas: pre-consume floor, final ceil, minimum 1, zero tokens 0, negative ratio 1; Go %.2f rounding', () => {
        const p = (modelRatio: number, completionRatio = 1, groupRatio = 1): Pricing => ({ modelRatio, groupRatio, completionRatio, ratio: modelRatio * groupRatio });
        expect(preConsumeQuota(p(2.5), 21, null, 500)).toBe(Math.floor(521 * 2.5));
        expect(preConsumeQuota(p(2.5), 21, 100, 500)).toBe(Math.floor(621 * 2.5));
        expect(preConsumeQuota(p(0.075), 3, null, 500)).toBe(37);
        expect(preConsumeQuota(p(2.5), 1, 1e300, 500)).toBe(Number.MAX_SAFE_INTEGER);
        expect(finalQuota(p(0.0001), { promptTokens: 1, completionTokens: 1 })).toBe(1);
        expect(finalQuota(p(0), { promptTokens: 100, completionTokens: 100 })).toBe(0);
        expect(finalQuota(p(2.5), { promptTokens: 0, completionTokens: 0 })).toBe(0);
        // As one-api: a non-positive price at a non-zero ratio is 1; the estimate is never negative.
        expect(finalQuota(p(-500000), { promptTokens: 10, completionTokens: 10 })).toBe(1);
        expect(preConsumeQuota(p(-500000), 10, null, 500)).toBe(0);
        expect(finalQuota(p(0.125, 5), { promptTokens: 10, completionTokens: 10 })).toBe(Math.ceil(60 * 0.125));
        expect([0.125, 0.375, 0.625, 2.675, 1.005, 4 / 3, 2.5, 0, -0.125, 1.32075].map(goFixed2)).toEqual([
          '0.12', '0.38', '0.62', '2.67', '1.00', '1.33', '2.50', '0.00', '-0.12', '1.32',
        ]);
      });
    });

    describe('reserve, refund, settle', () => {
      it('reserve takes from user and limited token; refusals (user first, then token) change nothing', async () => {
        const a = await account(1000, 600);
        const before = await state(a);
        expect(await reserve(deps(), a.caller, 1001)).toEqual(E.left(userShort));
        expect(await reserve(deps(), a.caller, 601)).toEqual(E.left(tokenShort));
        expect(await state(a)).toEqual(before);
        const r = await reserved(a, 600);
        expect(r).toMatchObject({ userId: a.userId, tokenId: a.tokenId, amount: 600, tokenLimited: true });
        expect(await state(a)).toMatchObject({ quota: 400, remain: 0, tokenUsed: 600, userUsed: 0, requests: 0, logs: [] });
        expect(await reserve(deps(), a.caller, 1)).toEqual(E.left(tokenShort));
        // Amount 0 reserves nothing (and is never refused).
        const zero = await reserve(deps(), a.caller, 0);
        expect(E.isRight(zero) && zero.right.amount).toBe(0);
        expect(await state(a)).toMatchObject({ quota: 400, remain: 0, tokenUsed: 600 });
      });

      it('no trust shortcut (§6 #18): a rich user still cannot overdraw a limited token', async () => {
        const a = await account(10_000_000, 50);
        expect(await reserve(deps(), a.caller, 51)).toEqual(E.left(tokenShort));
        expect(await state(a)).toMatchObject({ quota: 10_000_000, remain: 50, tokenUsed: 0 });
      });

      it('unlimited tokens: never refused for their own numbers, which still record what they spent', async () => {
        const a = await account(1000, null);
        const r = await reserved(a, 300);
        expect(r.tokenLimited).toBe(false);
        expect(await state(a)).toMatchObject({ quota: 700, remain: -300, tokenUsed: 300 });
        expect(await settle(deps(), r, charge(a, 450))).toBe(450);
        expect(await state(a)).toMatchObject({ quota: 550, userUsed: 450, remain: -450, tokenUsed: 450, requests: 1 });
        const back = await reserved(a, 100);
        await refund(deps(), back);
        expect(await state(a)).toMatchObject({ quota: 550, remain: -450, tokenUsed: 450 });
      });

      it('refund (§6 #19) restores user and token exactly, once', async () => {
        const a = await account(1000, 800);
        const before = await state(a);
        const r = await reserved(a, 700);
        await refund(deps(), r);
        expect(await state(a)).toEqual(before);
        await refund(deps(), r);
        expect(await state(a)).toEqual(before);
        await expect(settle(deps(), r, charge(a, 5))).rejects.toThrow(/already/);
      });

      it('settle with a positive delta: charges the difference, counts the request, writes the log row', async () => {
        const a = await account(10_000, 5000);
        const channelBefore = await channelUsed();
        const r = await reserved(a, 1302);
        const charged = await settle(deps(), r, charge(a, 2713, { isStream: true, systemPromptReset: true, requestId: 'req-positive', elapsedMs: 456.6 }));
        expect(charged).toBe(2713);
        const s = await state(a);
        expect(s).toMatchObject({ quota: 10_000 - 2713, userUsed: 2713, requests: 1, remain: 5000 - 2713, tokenUsed: 2713 });
        expect(await channelUsed()).toBe(channelBefore + 2713);
        expect(s.logs).toHaveLength(1);
        expect(s.logs[0]).toMatchObject({
          user_id: a.userId,
          created_at: nowMs / 1000,
          type: 2,
          content: '倍率：2.50 × 1.00 × 4.00',
          username: a.caller.user.username,
          token_name: a.tokenName,
          model_name: 'gpt-4o',
          quota: 2713,
          prompt_tokens: 21,
          completion_tokens: 266,
          channel_id: channelId,
          request_id: 'req-positive',
          elapsed_time: 457,
          is_stream: true,
          system_prompt_reset: true,
        });
        await expect(settle(deps(), r, charge(a, 1))).rejects.toThrow(/already/);
        await refund(deps(), r);
        expect((await state(a)).quota).toBe(10_000 - 2713);
      });

      it('settle with a negative delta gives the rest back', async () => {
        const a = await account(10_000, 5000);
        const r = await reserved(a, 3000);
        expect(await settle(deps(), r, charge(a, 120))).toBe(120);
        expect(await state(a)).toMatchObject({ quota: 9880, userUsed: 120, remain: 4880, tokenUsed: 120, requests: 1 });
        expect((await state(a)).logs.map((l) => l.quota)).toEqual([120]);
      });

      it('settle at 0 (no tokens) refunds everything but still counts the request and logs 0', async () => {
        const a = await account(1000, 1000);
        const channelBefore = await channelUsed();
        const r = await reserved(a, 500);
        expect(await settle(deps(), r, charge(a, 0, { usage: { promptTokens: 0, completionTokens: 0 } }))).toBe(0);
        expect(await state(a)).toMatchObject({ quota: 1000, userUsed: 0, remain: 1000, tokenUsed: 0, requests: 1 });
        expect((await state(a)).logs.map((l) => l.quota)).toEqual([0]);
        expect(await channelUsed()).toBe(channelBefore);
      });

      it('caps at 0: a final price above what the token has left charges what is left (and logs it)', async () => {
        const a = await account(100_000, 1000);
        const r = await reserved(a, 800);
        expect(await settle(deps(), r, charge(a, 5000))).toBe(1000);
        expect(await state(a)).toMatchObject({ quota: 99_000, userUsed: 1000, remain: 0, tokenUsed: 1000 });
        expect((await state(a)).logs.map((l) => l.quota)).toEqual([1000]);
      });

      it('caps at 0: a final price above what the user has left charges what is left (and logs it)', async () => {
        const a = await account(900, null);
        const r = await reserved(a, 500);
        expect(await settle(deps(), r, charge(a, 2000))).toBe(900);
        expect(await state(a)).toMatchObject({ quota: 0, userUsed: 900 });
        const b = await account(900, 5000);
        const rb = await reserved(b, 500);
        expect(await settle(deps(), rb, charge(b, 2000))).toBe(900);
        expect(await state(b)).toMatchObject({ quota: 0, userUsed: 900, remain: 4100, tokenUsed: 900 });
        expect((await state(b)).logs.map((l) => l.quota)).toEqual([900]);
      });

      it('LogConsumeEnabled off: quotas move, no log row', async () => {
        await setOption(db(), 'LogConsumeEnabled', 'false');
        try {
          const a = await account(5000, 5000);
          const settings = await relaySettings(db());
          const r = await reserve(deps(), a.caller, 100, settings);
          if (E.isLeft(r)) throw new Error('refused');
          expect(await settle(deps(), r.right, charge(a, 250))).toBe(250);
          const s = await state(a);
          expect(s).toMatchObject({ quota: 4750, userUsed: 250, remain: 4750, tokenUsed: 250, requests: 1 });
          expect(s.logs).toEqual([]);
        } finally {
          await setOption(db(), 'LogConsumeEnabled', 'true');
        }
      });
    });

    describe('reservations held in memory (SQLite)', () => {
      /** The rows as written (no holds counted). */
      const written = async (a: Account) => {
        const user = await db().selectFrom('users').select(['quota', 'used_quota']).where('id', '=', a.userId).executeTakeFirstOrThrow();
        const token = await db().selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', a.tokenId).executeTakeFirstOrThrow();
        return { quota: user.quota, userUsed: user.used_quota, remain: token.remain_quota, tokenUsed: token.used_quota };
      };

      it.skipIf(target.kind !== 'sqlite')('nothing is written until the settlement, which leaves other holds what they reserved', async () => {
        const a = await account(1000, 800);
        const before = await written(a);
        // A refund only forgets the hold.
        await refund(deps(), await reserved(a, 800));
        expect(heldQuota(deps(), a.userId, a.tokenId)).toEqual({ user: 0, token: 0 });
        const r1 = await reserved(a, 500);
        expect(r1.held).toBe(true);
        expect(await written(a)).toEqual(before);
        expect(heldQuota(deps(), a.userId, a.tokenId)).toEqual({ user: 500, token: 500 });
        expect(await reserve(deps(), a.caller, 301)).toEqual(E.left(tokenShort));
        const r2 = await reserved(a, 300);
        // r1 costs more than it reserved: it may take what is left beyond r2's hold, not r2's 300.
        expect(await settle(deps(), r1, charge(a, 700))).toBe(500);
        expect(heldQuota(deps(), a.userId, a.tokenId)).toEqual({ user: 300, token: 300 });
        expect(await written(a)).toEqual({ quota: 500, userUsed: 500, remain: 300, tokenUsed: 500 });
        expect(await settle(deps(), r2, charge(a, 300))).toBe(300);
        expect(heldQuota(deps(), a.userId, a.tokenId)).toEqual({ user: 0, token: 0 });
        expect(await written(a)).toEqual({ quota: 200, userUsed: 800, remain: 0, tokenUsed: 800 });
      });

      it.skipIf(target.kind !== 'sqlite')('a settlement that rolls back holds its reservation again, and a retry settles it once', async () => {
        const a = await account(1000, 1000);
        await sql`CREATE TRIGGER billing_no_log BEFORE INSERT ON logs WHEN NEW.token_name = ${sql.lit(a.tokenName)} BEGIN SELECT RAISE(ABORT, 'log refused'); END`.execute(db());
        const r = await reserved(a, 400);
        try {
          await expect(settle(deps(), r, charge(a, 600))).rejects.toThrow(/log refused/);
        } finally {
          await sql`DROP TRIGGER IF EXISTS billing_no_log`.execute(db());
        }
        expect(heldQuota(deps(), a.userId, a.tokenId)).toEqual({ user: 400, token: 400 });
        expect(await written(a)).toEqual({ quota: 1000, userUsed: 0, remain: 1000, tokenUsed: 0 });
        expect(await settle(deps(), r, charge(a, 600))).toBe(600);
        expect(heldQuota(deps(), a.userId, a.tokenId)).toEqual({ user: 0, token: 0 });
        expect(await state(a)).toMatchObject({ quota: 400, userUsed: 600, remain: 400, tokenUsed: 600, requests: 1 });
        expect((await state(a)).logs.map((l) => l.quota)).toEqual([600]);
      });

      it.skipIf(target !== sqliteTarget)(
        'a settlement that fails inside a batch that commits keeps its price counted until its report arrives',
        async () => {
          const a = await account(1000, 1000);
          const b = await account(1000, 1000);
          const rA = await reserved(a, 400);
          const rB = await reserved(b, 100);
          await sql`CREATE TRIGGER billing_no_log_batch BEFORE INSERT ON logs WHEN NEW.token_name = ${sql.lit(a.tokenName)} BEGIN SELECT RAISE(ABORT, 'log refused'); END`.execute(db());
          try {
            // a's settlement first, then b's: once b's shows committed, so has a's batch.
            const failing = settle(deps(), rA, charge(a, 600));
            const passing = settle(deps(), rB, charge(b, 100));
            // The settlements of one event-loop turn leave for the thread together at its end
            // (settlementThread.ts): one turn, before the thread can even have applied them.
            await new Promise((resolve) => setImmediate(resolve));
            const read = syncRunnerOf(db())!;
            const bUsed = () => Number((read('select used_quota from users where id = ?', [b.userId])[0] as { used_quota: number }).used_quota);
            // Wait without yielding to the event loop, so the thread's report cannot be handled meanwhile.
            const deadline = Date.now() + 5000;
            while (bUsed() !== 100 && Date.now() < deadline) {
              /* polling the committed rows */
            }
            expect(bUsed()).toBe(100);
            // Between the COMMIT and the report, a's price (600 of 1000) must still count: a request
            // for all 1000 would leave the retry nothing to take.
            const meanwhile = await reserve(deps(), a.caller, 1000, rA.settings);
            expect(E.isLeft(meanwhile)).toBe(true);
            const rest = await reserve(deps(), a.caller, 400, rA.settings);
            if (E.isLeft(rest)) throw new Error(`reserve refused: ${rest.left.error.message}`);
            await expect(failing).rejects.toThrow(/log refused/);
            expect(await passing).toBe(100);
            await refund(deps(), rest.right);
          } finally {
            await sql`DROP TRIGGER IF EXISTS billing_no_log_batch`.execute(db());
          }
          // The reservation is held again; its retry takes the whole price.
          expect(heldQuota(deps(), a.userId, a.tokenId)).toEqual({ user: 400, token: 400 });
          expect(await settle(deps(), rA, charge(a, 600))).toBe(600);
          expect(await state(a)).toMatchObject({ quota: 400, userUsed: 600, remain: 400, tokenUsed: 600, requests: 1 });
        },
      );

      it.skipIf(target.kind === 'sqlite')('PostgreSQL writes every reservation (several gateways may share the database)', async () => {
        const a = await account(1000, 800);
        const r = await reserved(a, 500);
        expect(r.held).toBe(false);
        expect(heldQuota(deps(), a.userId, a.tokenId)).toEqual({ user: 0, token: 0 });
        expect(await written(a)).toEqual({ quota: 500, userUsed: 0, remain: 300, tokenUsed: 500 });
        await refund(deps(), r);
        expect(await written(a)).toEqual({ quota: 1000, userUsed: 0, remain: 800, tokenUsed: 0 });
      });
    });

    describe('quota reminder e-mail', () => {
      let smtp: LoopbackSmtp;
      beforeAll(async () => {
        smtp = await startLoopbackSmtp();
        await setOption(db(), 'SMTPServer', '127.0.0.1');
        await setOption(db(), 'SMTPPort', String(smtp.port));
        await setOption(db(), 'SMTPFrom', 'noreply@example.com');
        await setOption(db(), 'ServerAddress', 'https://gw.example.com');
      });
      afterAll(async () => {
        await smtp.close();
      });

      const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));

      it('one mail when the quota crosses QuotaRemindThreshold, one when it is used up; none otherwise', async () => {
        const email = `remind${seq + 1}@example.com`;
        const a = await account(1500, null, email);
        const r1 = await reserved(a, 400); // 1100: above the threshold
        await settle(deps(), r1, charge(a, 400));
        const r2 = await reserved(a, 200); // 900: crossed
        await vi.waitFor(() => expect(mailsTo(email)).toHaveLength(1), { timeout: 5000, interval: 20 });
        const low = mailsTo(email)[0]!;
        expect(low.subject).toBe('额度提醒');
        expect(low.body).toContain('您的额度即将用尽');
        expect(low.body).toContain('900');
        expect(low.body).toContain('https://gw.example.com/topup');
        await settle(deps(), r2, charge(a, 150)); // back to 950: no mail
        const r3 = await reserved(a, 100); // 850: already below, no mail
        await settle(deps(), r3, charge(a, 950)); // settles to 0: used up
        await vi.waitFor(() => expect(mailsTo(email)).toHaveLength(2), { timeout: 5000, interval: 20 });
        expect(mailsTo(email)[1]!.body).toContain('您的额度已用尽');
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(mailsTo(email)).toHaveLength(2);
        expect((await state(a)).quota).toBe(0);
      });

      it('no e-mail address: nothing is sent; a failing SMTP server never fails the request', async () => {
        const sent = smtp.messages.length;
        const a = await account(1200, null);
        await settle(deps(), await reserved(a, 1200), charge(a, 1200));
        await setOption(db(), 'SMTPPort', '1');
        try {
          const b = await account(1200, null, `broken${seq}@example.com`);
          const r = await reserved(b, 1100);
          expect(await settle(deps(), r, charge(b, 1100))).toBe(1100);
        } finally {
          await setOption(db(), 'SMTPPort', String(smtp.port));
        }
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(smtp.messages.length).toBe(sent);
      });
    });

    describe('concurrency', () => {
      it('200 parallel reserve+settle on 10 tokens of 1000: exactly 10 succeed per token, nothing below 0', async () => {
        const accounts = await Promise.all(Array.from({ length: 10 }, () => account(1_000_000, 1000)));
        const outcomes = await Promise.all(
          Array.from({ length: 200 }, async (_, i) => {
            const a = accounts[i % 10]!;
            const r = await reserve(deps(), a.caller, 100);
            if (E.isLeft(r)) return { token: i % 10, refused: r.left };
            await settle(deps(), r.right, charge(a, 100, { requestId: `c1-${i}` }));
            return { token: i % 10, refused: null };
          }),
        );
        for (const [index, a] of accounts.entries()) {
          const mine = outcomes.filter((o) => o.token === index);
          expect(mine.filter((o) => o.refused === null)).toHaveLength(10);
          for (const o of mine) if (o.refused !== null) expect(o.refused).toEqual(tokenShort);
          const s = await state(a);
          expect(s).toMatchObject({ remain: 0, tokenUsed: 1000, quota: 1_000_000 - 1000, userUsed: 1000, requests: 10 });
          expect(s.logs.reduce((sum, l) => sum + l.quota, 0)).toBe(1000);
        }
      });

      it('200 parallel requests with varying prices, users shared by two tokens: every invariant holds', async () => {
        const users = await Promise.all(Array.from({ length: 5 }, () => account(4000, 3000)));
        // A second limited token for each user.
        const accounts: Account[] = [...users];
        for (const u of users) {
          seq += 1;
          const { id } = await db()
            .insertInto('tokens')
            .values({ user_id: u.userId, key: `bill2${String(seq).padStart(43, '0')}`, status: 1, name: `token-${seq}`, created_time: 1, expired_time: -1, remain_quota: 3000, unlimited_quota: false, used_quota: 0 })
            .returning('id')
            .executeTakeFirstOrThrow();
          const token = await db().selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
          accounts.push({ ...u, caller: { ...u.caller, token }, tokenId: id, tokenName: `token-${seq}` });
        }
        const outcomes = await Promise.all(
          Array.from({ length: 200 }, async (_, i) => {
            const a = accounts[i % accounts.length]!;
            const r = await reserve(deps(), a.caller, 100 + ((i * 37) % 200));
            if (E.isLeft(r)) return r.left;
            if (i % 7 === 0) {
              await refund(deps(), r.right);
              return null;
            }
            await settle(deps(), r.right, charge(a, (i * 53) % 400, { requestId: `c2-${i}` }));
            return null;
          }),
        );
        for (const refusal of outcomes) if (refusal !== null) expect([userShort, tokenShort]).toContainEqual(refusal);
        expect(outcomes.some((o) => o !== null)).toBe(true);
        for (const a of accounts) {
          const token = await db().selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', a.tokenId).executeTakeFirstOrThrow();
          expect(token.remain_quota).toBeGreaterThanOrEqual(0);
          expect(token.remain_quota + token.used_quota).toBe(3000);
          const logs = await db().selectFrom('logs').select('quota').where('token_name', '=', a.tokenName).where('type', '=', 2).execute();
          expect(token.used_quota).toBe(logs.reduce((sum, l) => sum + l.quota, 0));
        }
        for (const u of users) {
          const s = await state(u);
          expect(s.quota).toBeGreaterThanOrEqual(0);
          expect(s.quota + s.userUsed).toBe(4000);
          expect(s.userUsed).toBe(s.logs.reduce((sum, l) => sum + l.quota, 0));
          expect(s.requests).toBe(s.logs.length);
        }
      });
    });
  });
}
