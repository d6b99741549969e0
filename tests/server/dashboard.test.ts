import { beforeAll, describe, expect, it } from 'vitest';
import { dumpDatabase, insertUser } from './support/db';
import type { Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * `GET /api/user/dashboard` (contract §2.4.8, extended by a range): the default window is one-api's
 * (the caller's consume logs of the last 7 UTC days); `start_timestamp`/`end_timestamp` choose an
 * inclusive range, `utc_offset` the caller's local days, `user_id` (admins) one user or all (0).
 * Every answer is compared with a model computed from the seeded rows.
 */

const tokens = {
  common: 'd1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1',
  admin: 'd2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2',
  other: 'd3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3',
} as const;

const day = 86_400;
/** The server's clock: Monday 2026-11-23 10:00:00 UTC. */
const nowMs = Date.UTC(2026, 10, 23, 10, 0, 0);
const now = nowMs / 1000;
const todayStart = Date.UTC(2026, 10, 23) / 1000;
const rangeInvalid = '统计时间范围不合法';
const forbidden = '无权进行此操作，权限不足';

interface Seeded {
  user_id: number;
  created_at: number;
  type: number;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
}

interface Row {
  Day: string;
  ModelName: string;
  RequestCount: number;
  Quota: number;
  PromptTokens: number;
  CompletionTokens: number;
}

/** What the dashboard must answer for these rows: consume logs of the window, per local day and model. */
function model(rows: readonly Seeded[], w: { start: number; end: number; offsetMinutes?: number; userId: number | null }): Row[] {
  const groups = new Map<string, Row>();
  for (const r of rows) {
    if (r.type !== 2 || r.created_at < w.start || r.created_at > w.end) continue;
    if (w.userId !== null && r.user_id !== w.userId) continue;
    const dayText = new Date((r.created_at + (w.offsetMinutes ?? 0) * 60) * 1000).toISOString().slice(0, 10);
    const key = `${dayText} ${r.model_name}`;
    const g = groups.get(key) ?? { Day: dayText, ModelName: r.model_name, RequestCount: 0, Quota: 0, PromptTokens: 0, CompletionTokens: 0 };
    g.RequestCount += 1;
    g.Quota += r.quota;
    g.PromptTokens += r.prompt_tokens;
    g.CompletionTokens += r.completion_tokens;
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => (a.Day === b.Day ? (a.ModelName < b.ModelName ? -1 : 1) : a.Day < b.Day ? -1 : 1));
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`dashboard — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => nowMs });
    const db = () => suite.api.handle.db;
    const users = { common: 0, admin: 0, other: 0 };
    const seeded: Seeded[] = [];

    const get = (who: keyof typeof tokens | 'anonymous', query = '', headers: Record<string, string> = {}): Promise<Reply> =>
      suite.client().request('GET', `/api/user/dashboard${query}`, {
        headers: who === 'anonymous' ? headers : { ...headers, Authorization: tokens[who] },
      });

    beforeAll(async () => {
      users.common = await insertUser(db(), { username: 'erin', password: 'erin-pass1', accessToken: tokens.common });
      users.admin = await insertUser(db(), { username: 'frank', password: 'frank-pass', role: 10, accessToken: tokens.admin });
      users.other = await insertUser(db(), { username: 'grace', password: 'grace-pass', accessToken: tokens.other });
      const owners = [users.common, users.admin, users.other];
      const models = ['gpt-4o', 'claude-3', 'gpt-4o-mini'];
      // Every 5 hours from 40 days ago to 2 days ahead, plus the edges of the default window.
      const times: number[] = [];
      for (let t = todayStart - 40 * day + 1800; t < todayStart + 2 * day; t += 5 * 3600) times.push(t);
      times.push(todayStart - 6 * day, todayStart - 6 * day - 1, todayStart + day - 1, todayStart + day);
      times.forEach((t, i) => {
        seeded.push({
          user_id: owners[i % 3]!,
          created_at: t,
          type: i % 7 === 0 ? 1 : 2,
          model_name: models[i % models.length]!,
          quota: 100 + i,
          prompt_tokens: i,
          completion_tokens: 2 * i,
        });
      });
      // The edges belong to the common user and are consume logs.
      for (const s of seeded.slice(-4)) Object.assign(s, { user_id: users.common, type: 2 });
      for (let i = 0; i < seeded.length; i += 200) {
        const values = seeded.slice(i, i + 200).map((s) => ({ ...s, username: 'x', content: '' }));
        await db().insertInto('logs').values(values).execute();
      }
    });

    it('without parameters: the caller’s consume logs of the last 7 UTC days, per day then model (one-api)', async () => {
      const reply = await get('common');
      expect(reply.body.success).toBe(true);
      expect(reply.body.message).toBe('');
      const expected = model(seeded, { start: todayStart - 6 * day, end: todayStart + day - 1, userId: users.common });
      expect(expected.length).toBeGreaterThan(5);
      expect(reply.body.data).toEqual(expected);
      expect(Object.keys(reply.body.data[0]).sort()).toEqual(['CompletionTokens', 'Day', 'ModelName', 'PromptTokens', 'Quota', 'RequestCount']);
      expect(reply.body.data[0].Day).toBe('2026-11-17');
      expect(reply.body.data.at(-1).Day).toBe('2026-11-23');
      expect((await get('common', '?utc_offset=0')).body.data).toEqual(expected);
      expect((await get('admin', `?user_id=${users.admin}`)).body.data).toEqual(
        model(seeded, { start: todayStart - 6 * day, end: todayStart + day - 1, userId: users.admin }),
      );
    });

    it('an inclusive range of the caller’s logs (up to 366 days)', async () => {
      const cases: [number, number][] = [
        [todayStart - 30 * day, now],
        [todayStart - 6 * day, todayStart - 6 * day],
        [todayStart - 6 * day - 1, todayStart + day],
        [todayStart - 366 * day, todayStart],
        [0, 0],
      ];
      for (const [start, end] of cases) {
        const reply = await get('common', `?start_timestamp=${start}&end_timestamp=${end}`);
        expect(reply.body, `${start}..${end}`).toEqual({ success: true, message: '', data: model(seeded, { start, end, userId: users.common }) });
      }
    });

    it('utc_offset makes the days the caller’s local days (window and buckets)', async () => {
      const start = todayStart - 20 * day;
      const end = todayStart;
      for (const offset of [480, -300, 840, -720, 330]) {
        const reply = await get('common', `?start_timestamp=${start}&end_timestamp=${end}&utc_offset=${offset}`);
        expect(reply.body.data, String(offset)).toEqual(model(seeded, { start, end, offsetMinutes: offset, userId: users.common }));
      }
      // A log at 20:00 UTC is on the next day at UTC+8 and the same day at UTC-5.
      const evening = seeded.find((s) => s.user_id === users.common && s.type === 2 && (s.created_at % day) >= 16 * 3600 && s.created_at < end)!;
      const single = `?start_timestamp=${evening.created_at}&end_timestamp=${evening.created_at}`;
      const utcDay = new Date(evening.created_at * 1000).toISOString().slice(0, 10);
      const nextDay = new Date((evening.created_at + day) * 1000).toISOString().slice(0, 10);
      expect((await get('common', `${single}&utc_offset=480`)).body.data[0].Day).toBe(nextDay);
      expect((await get('common', `${single}&utc_offset=-300`)).body.data[0].Day).toBe(utcDay);
      // Default window in local days: the last 7 days of UTC+8 (local now is 18:00 on the 23rd).
      const localToday = todayStart - 8 * 3600;
      expect((await get('common', '?utc_offset=480')).body.data).toEqual(
        model(seeded, { start: localToday - 6 * day, end: localToday + day - 1, offsetMinutes: 480, userId: users.common }),
      );
    });

    it('admins: user_id=0 is everyone, N one user, an unknown id nobody', async () => {
      const range = `start_timestamp=${todayStart - 30 * day}&end_timestamp=${now}`;
      const window = { start: todayStart - 30 * day, end: now };
      expect((await get('admin', `?${range}&user_id=0`)).body.data).toEqual(model(seeded, { ...window, userId: null }));
      expect((await get('admin', `?${range}&user_id=${users.other}`)).body.data).toEqual(model(seeded, { ...window, userId: users.other }));
      expect((await get('admin', `?${range}`)).body.data).toEqual(model(seeded, { ...window, userId: users.admin }));
      expect((await get('admin', `?${range}&user_id=999999`)).body).toEqual({ success: true, message: '', data: [] });
    });

    it('a common user may name only himself', async () => {
      const before = await dumpDatabase(db());
      for (const id of [0, users.other, users.admin, 999999]) {
        expect((await get('common', `?user_id=${id}`)).body, String(id)).toEqual({ success: false, message: forbidden, data: null });
      }
      expect((await get('common', `?user_id=${users.common}`)).body.data).toEqual((await get('common')).body.data);
      expect(await dumpDatabase(db())).toBe(before);
    });

    it('bad ranges and bad numbers are refused with data null, nothing changes', async () => {
      const before = await dumpDatabase(db());
      const ranges = [
        `?start_timestamp=${now}`,
        `?end_timestamp=${now}`,
        `?start_timestamp=${now}&end_timestamp=${now - 1}`,
        `?start_timestamp=${now - 367 * day}&end_timestamp=${now}`,
        `?start_timestamp=-5&end_timestamp=${now}`,
      ];
      for (const query of ranges) {
        expect((await get('common', query)).body, query).toEqual({ success: false, message: rangeInvalid, data: null });
      }
      const numbers = ['?start_timestamp=abc&end_timestamp=1', '?utc_offset=841', '?utc_offset=-721', '?utc_offset=1.5', '?user_id=-1', '?user_id=x'];
      for (const query of numbers) {
        expect((await get('admin', query)).body, query).toEqual({ success: false, message: 'invalid parameter', data: null });
        expect((await get('admin', query, { 'Accept-Language': 'zh-CN' })).body.message).toBe('无效的参数');
      }
      expect(await dumpDatabase(db())).toBe(before);
    });

    it('anonymous callers get the guard’s 401', async () => {
      const reply = await get('anonymous', '?user_id=0');
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ success: false, message: '无权进行此操作，未登录且未提供 access token' });
    });
  });
}
