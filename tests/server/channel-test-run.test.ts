import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveDeps } from '../../server/http/api';
import { isBatchTestRunning, scheduleChannelTests, stopBatchTests } from '../../server/services/channelTest';
import { ChannelTestRun } from '../../src/domain/channel';
import { insertUser, setOption } from './support/db';
import type { Client, Reply } from './support/http';
import { stableDump } from './support/badInput';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';
import { replyFor, startUpstream, unauthorizedMessage, type ChatMode, type FakeUpstream } from './support/upstream';

/**
 * Recorded channel test runs (`/api/channel/test_run`): live progress of a batch test, its
 * results per channel, the `after` cursor, cancelling, and the shared one-run-per-database rule
 * with one-api's `GET /api/channel/test?scope=`. Real HTTP against a loopback upstream.
 */

const nowMs = 1_760_000_000_500;
const nowSeconds = 1_760_000_000;
const forbidden = '无权进行此操作，权限不足';
const notLoggedIn = '无权进行此操作，未登录且未提供 access token';
const alreadyRunning = { success: false, message: '测试已在运行中' };

/** Polls `check` every 20 ms until it is true (fails after `timeoutMs`). */
async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The run in an answer, checked against the shared codec. */
function runOf(reply: Reply): ChannelTestRun {
  expect(reply.body, reply.text).toMatchObject({ success: true, message: '' });
  expect(ChannelTestRun.is(reply.body.data), reply.text).toBe(true);
  return reply.body.data as ChannelTestRun;
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`channel test runs — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => nowMs });
    const db = () => suite.api.handle.db;
    let upstream: FakeUpstream;
    let root: Client;
    let common: Client;

    const login = async () => {
      root = suite.client();
      common = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      expect((await common.login('common3', 'common-pass')).body.success).toBe(true);
    };

    beforeAll(async () => {
      upstream = await startUpstream();
      upstream.answer('/push', 200, { success: true, message: 'ok' });
      await insertUser(db(), { username: 'common3', password: 'common-pass', role: 1 });
      await login();
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(async () => {
      await stopBatchTests(db());
      await db().deleteFrom('abilities').execute();
      await db().deleteFrom('channels').execute();
      await db().deleteFrom('logs').execute();
      for (const [key, value] of Object.entries(defaults)) await setOption(db(), key, value);
      upstream.clear();
      upstream.slowMs = 300;
    });

    const defaults: Record<string, string> = {
      AutomaticDisableChannelEnabled: 'false',
      AutomaticEnableChannelEnabled: 'false',
      ChannelDisableThreshold: '5',
      MessagePusherAddress: '',
      MessagePusherToken: '',
      SMTPServer: '',
    };

    /** Creates a channel through the API (key = `key`, upstream = the fake); sets `status` if given; returns its id. */
    const addChannel = async (key: string, fields: Record<string, unknown> = {}, mode: ChatMode = 'ok'): Promise<number> => {
      upstream.mode(key, mode);
      const { status, ...body } = fields;
      const reply = await root.post('/api/channel/', {
        type: 1, key, name: `ch-${key}`, models: 'gpt-3.5-turbo,gpt-4o', group: 'default', base_url: upstream.url, ...body,
      });
      expect(reply.body).toEqual({ success: true, message: '' });
      const { id } = await db().selectFrom('channels').select('id').where('key', '=', key).executeTakeFirstOrThrow();
      if (status !== undefined) {
        expect((await root.request('PUT', '/api/channel/', { body: { id, status } })).body.success).toBe(true);
      }
      await db().updateTable('channels').set({ test_time: 0 }).where('id', '=', id).execute();
      return id;
    };
    const row = (id: number) => db().selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const chatRequests = (key: string) => upstream.requestsFor(key).filter((r) => r.path.endsWith('/chat/completions'));
    const start = (body: unknown) => root.post('/api/channel/test_run', body);
    const current = async () => (await root.get('/api/channel/test_run')).body.data as ChannelTestRun | null;
    /** Polls the run until it is no longer running; answers its final state. */
    const settle = async (id: number): Promise<ChannelTestRun> => {
      let run: ChannelTestRun | undefined;
      await waitFor(async () => {
        run = runOf(await root.get(`/api/channel/test_run/${id}`));
        return run.status !== 'running';
      }, `run ${id}`);
      return run!;
    };

    it('GET /api/channel/test_run answers null before any run', async () => {
      expect((await root.get('/api/channel/test_run')).body).toEqual({ success: true, message: '', data: null });
    });

    it('guards every route: Admin only', async () => {
      for (const [method, path] of [
        ['POST', '/api/channel/test_run'],
        ['GET', '/api/channel/test_run'],
        ['GET', '/api/channel/test_run/1'],
        ['DELETE', '/api/channel/test_run/1'],
      ] as const) {
        const options = method === 'POST' ? { body: { scope: 'all' } } : {};
        expect((await common.request(method, path, options)).body).toEqual({ success: false, message: forbidden });
        const anonymous = await suite.client().request(method, path, options);
        expect(anonymous.status).toBe(401);
        expect(anonymous.body).toEqual({ success: false, message: notLoggedIn });
      }
      expect(isBatchTestRunning(db())).toBe(false);
      expect(upstream.requests).toHaveLength(0);
    });

    it('scope all: answers the run at once, then records one result per channel as it goes', async () => {
      upstream.slowMs = 50;
      const healthy = await addChannel('sk-a', {}, 'slow');
      const revoked = await addChannel('sk-b', {}, 'unauthorized');
      const manualOff = await addChannel('sk-c', { status: 2 });
      const started = runOf(await start({ scope: 'all' }));
      expect(Object.keys(started).sort()).toEqual(
        ['channel_ids', 'done', 'finished_at', 'id', 'results', 'scope', 'started_at', 'status', 'total'],
      );
      expect(started).toMatchObject({
        scope: 'all', status: 'running', total: 3, started_at: nowSeconds, finished_at: 0, channel_ids: [manualOff, revoked, healthy],
      });
      expect(started.done).toBe(started.results.length);

      const run = await settle(started.id);
      expect(run).toMatchObject({ id: started.id, scope: 'all', status: 'finished', total: 3, done: 3, finished_at: nowSeconds });
      expect(run.results.map((r) => [r.index, r.channel_id])).toEqual([[0, manualOff], [1, revoked], [2, healthy]]);
      for (const result of run.results) {
        const stored = await row(result.channel_id);
        expect(Object.keys(result).sort()).toEqual(
          ['channel_id', 'index', 'message', 'model', 'response_time', 'status', 'success', 'test_time', 'time'],
        );
        expect(result.response_time).toBe(stored.response_time);
        expect(result.time).toBe(result.response_time / 1000);
        expect(result.test_time).toBe(nowSeconds);
        expect(stored.test_time).toBe(nowSeconds);
        expect(result.status).toBe(stored.status);
        expect(result.model).toBe('gpt-3.5-turbo');
      }
      const [manual, bad, good] = run.results;
      expect(manual).toMatchObject({ success: true, message: replyFor('gpt-3.5-turbo'), status: 2 });
      expect(bad).toMatchObject({ success: false, message: `http status code: 401, error message: ${unauthorizedMessage('sk-b')}`, status: 1 });
      expect(good).toMatchObject({ success: true, message: replyFor('gpt-3.5-turbo'), status: 1 });
      expect(good!.response_time).toBeGreaterThanOrEqual(50);

      // The latest run stays readable, for a console that reloads.
      expect(await current()).toEqual(run);
      // One test log per channel, as with one-api's route.
      expect(await db().selectFrom('logs').select('id').execute()).toHaveLength(3);
    });

    it('ids: only the listed channels that exist, duplicates dropped, in the given order', async () => {
      const a = await addChannel('sk-ids-a');
      const b = await addChannel('sk-ids-b');
      const other = await addChannel('sk-ids-other');
      const started = runOf(await start({ ids: [a, 987654, b, a] }));
      expect(started).toMatchObject({ scope: 'ids', total: 2, channel_ids: [a, b] });
      const run = await settle(started.id);
      expect(run).toMatchObject({ status: 'finished', done: 2 });
      expect(run.results.map((r) => r.channel_id)).toEqual([a, b]);
      const order = upstream.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.key);
      expect(order).toEqual(['sk-ids-a', 'sk-ids-b']);
      expect((await row(other)).test_time).toBe(0);
      expect(chatRequests('sk-ids-other')).toHaveLength(0);
    });

    it('ids that match nothing: an empty run that finishes at once', async () => {
      const ids = Array.from({ length: 10_000 }, (_, i) => 900_000 + i);
      const started = runOf(await start({ ids }));
      expect(started).toMatchObject({ scope: 'ids', total: 0, channel_ids: [] });
      expect(await settle(started.id)).toMatchObject({ status: 'finished', total: 0, done: 0, results: [] });
      expect(upstream.requests).toHaveLength(0);
    });

    it('scope disabled: only channels with status 2 or 3', async () => {
      const on = await addChannel('sk-dis-on');
      const manual = await addChannel('sk-dis-man', { status: 2 });
      const auto = await addChannel('sk-dis-auto', { status: 3 });
      const started = runOf(await start({ scope: 'disabled' }));
      expect(started).toMatchObject({ scope: 'disabled', total: 2, channel_ids: [auto, manual] });
      const run = await settle(started.id);
      expect(run.results.map((r) => [r.channel_id, r.status])).toEqual([[auto, 3], [manual, 2]]);
      expect(chatRequests('sk-dis-on')).toHaveLength(0);
      expect((await row(on)).test_time).toBe(0);
    });

    it('results reflect automatic disabling and enabling', async () => {
      await setOption(db(), 'AutomaticDisableChannelEnabled', 'true');
      await setOption(db(), 'AutomaticEnableChannelEnabled', 'true');
      const revoked = await addChannel('sk-auto-b', {}, 'unauthorized');
      const back = await addChannel('sk-auto-c', { status: 3 });
      const broke = await addChannel('sk-auto-f', {}, 'quotaExceeded');
      const busy = await addChannel('sk-auto-e', {}, 'rateLimited');
      const run = await settle(runOf(await start({ scope: 'all' })).id);
      const statusOf = (id: number) => run.results.find((r) => r.channel_id === id)?.status;
      expect([statusOf(revoked), statusOf(back), statusOf(broke), statusOf(busy)]).toEqual([3, 1, 3, 1]);
      for (const id of [revoked, back, broke, busy]) expect((await row(id)).status).toBe(statusOf(id));
      expect(run.results.find((r) => r.channel_id === back)).toMatchObject({ success: true });
      expect(run.results.find((r) => r.channel_id === broke)).toMatchObject({ success: false });
    });

    it('slow channels over ChannelDisableThreshold are disabled and the result says so', async () => {
      await setOption(db(), 'AutomaticDisableChannelEnabled', 'true');
      await setOption(db(), 'ChannelDisableThreshold', '0.1');
      upstream.slowMs = 250;
      const slow = await addChannel('sk-thr', {}, 'slow');
      const run = await settle(runOf(await start({ ids: [slow] })).id);
      expect(run.results[0]).toMatchObject({ channel_id: slow, success: true, status: 3 });
      expect(run.results[0]!.response_time).toBeGreaterThanOrEqual(250);
      expect((await row(slow)).status).toBe(3);
    });

    it('one run per database: POST refuses while GET /api/channel/test runs, and the other way round', async () => {
      upstream.slowMs = 300;
      const first = await addChannel('sk-lock-1', {}, 'slow');
      const second = await addChannel('sk-lock-2', {}, 'slow');

      // one-api's route starts a run the console can watch.
      expect((await root.get('/api/channel/test?scope=all')).body).toEqual({ success: true, message: '' });
      const watched = await current();
      expect(watched).toMatchObject({ scope: 'all', status: 'running', finished_at: 0 });
      expect((await start({ scope: 'all' })).body).toEqual(alreadyRunning);
      expect((await start({ ids: [first] })).body).toEqual(alreadyRunning);
      const ended = await settle(watched!.id);
      expect(ended).toMatchObject({ status: 'finished', total: 2, done: 2, channel_ids: [second, first] });

      // A recorded run refuses one-api's route (and the scope it would ignore) until it ends.
      const started = runOf(await start({ scope: 'all' }));
      expect(started.id).toBeGreaterThan(ended.id);
      expect((await root.get('/api/channel/test?scope=all')).body).toEqual(alreadyRunning);
      expect((await root.get('/api/channel/test?scope=disabled')).body).toEqual(alreadyRunning);
      expect((await root.get('/api/channel/test?scope=none')).body).toEqual(alreadyRunning);
      await settle(started.id);
      expect((await root.get('/api/channel/test?scope=none')).body).toEqual({ success: true, message: '' });
      // A scope one-api ignores tests nothing and records no run.
      expect((await current())!.id).toBe(started.id);
    });

    it('the CHANNEL_TEST_FREQUENCY schedule records its runs too', async () => {
      const id = await addChannel('sk-sched');
      const deps = resolveDeps({ db: db(), dialect: suite.api.handle.dialect, config: suite.api.config, now: () => nowMs });
      const before = (await current())?.id ?? 0;
      const stop = scheduleChannelTests(deps, 50);
      try {
        await waitFor(async () => ((await current())?.id ?? 0) > before, 'scheduled run');
      } finally {
        // Resolves once a start a tick had begun has recorded its run: the latest run is the last.
        await stop();
      }
      const run = await settle((await current())!.id);
      expect(run).toMatchObject({ scope: 'all', status: 'finished', channel_ids: [id] });
      expect(isBatchTestRunning(db())).toBe(false);
    });

    it('DELETE cancels a run mid-test: the upstream call is aborted and nothing is written for that channel', async () => {
      upstream.slowMs = 1000;
      const first = await addChannel('sk-cancel-1', {}, 'slow');
      const second = await addChannel('sk-cancel-2', {}, 'slow');
      const started = runOf(await start({ scope: 'all' }));
      expect(started).toMatchObject({ status: 'running', done: 0, channel_ids: [second, first] });
      await waitFor(() => Promise.resolve(upstream.requests.length > 0), 'first request');

      const cancelled = runOf(await root.request('DELETE', `/api/channel/test_run/${started.id}`));
      expect(cancelled).toMatchObject({ id: started.id, status: 'cancelled', total: 2, done: 0, results: [], finished_at: nowSeconds });
      expect(isBatchTestRunning(db())).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(upstream.requests).toHaveLength(1);
      expect(chatRequests('sk-cancel-2')).toHaveLength(1);
      expect((await row(first)).test_time).toBe(0);
      expect((await row(second)).test_time).toBe(0);
      expect(await db().selectFrom('logs').select('id').execute()).toHaveLength(0);
      expect(await current()).toEqual(cancelled);

      // Cancelling an ended run answers it unchanged; a new run starts at once.
      expect(runOf(await root.request('DELETE', `/api/channel/test_run/${started.id}`))).toEqual(cancelled);
      const next = runOf(await start({ ids: [first] }));
      const finished = await settle(next.id);
      expect(finished.status).toBe('finished');
      expect(runOf(await root.request('DELETE', `/api/channel/test_run/${next.id}`))).toEqual(finished);
    });

    it('DELETE after some results keeps them and stops before the rest', async () => {
      upstream.slowMs = 1000;
      const quick = await addChannel('sk-part-quick');
      const slow = await addChannel('sk-part-slow', {}, 'slow');
      const last = await addChannel('sk-part-last');
      const started = runOf(await start({ ids: [quick, slow, last] }));
      await waitFor(async () => runOf(await root.get(`/api/channel/test_run/${started.id}`)).done === 1, 'first result');
      await waitFor(() => Promise.resolve(chatRequests('sk-part-slow').length === 1), 'slow request');
      const cancelled = runOf(await root.request('DELETE', `/api/channel/test_run/${started.id}`));
      expect(cancelled).toMatchObject({ status: 'cancelled', total: 3, done: 1 });
      expect(cancelled.results.map((r) => r.channel_id)).toEqual([quick]);
      expect((await row(quick)).test_time).toBe(nowSeconds);
      expect((await row(slow)).test_time).toBe(0);
      expect(chatRequests('sk-part-last')).toHaveLength(0);
    });

    it('the after cursor answers only the results from index N on; bad cursors and ids are refused', async () => {
      const ids = [await addChannel('sk-cur-1'), await addChannel('sk-cur-2'), await addChannel('sk-cur-3')];
      const run = await settle(runOf(await start({ ids })).id);
      expect(run.results.map((r) => r.index)).toEqual([0, 1, 2]);
      const after = async (n: string) => runOf(await root.get(`/api/channel/test_run/${run.id}?after=${n}`));
      expect((await after('0')).results).toEqual(run.results);
      const tail = await after('1');
      expect(tail.results.map((r) => [r.index, r.channel_id])).toEqual([[1, ids[1]], [2, ids[2]]]);
      expect(tail).toMatchObject({ total: 3, done: 3, channel_ids: ids });
      expect((await after('3')).results).toEqual([]);
      expect((await after('99')).results).toEqual([]);

      for (const bad of ['x', '-1', '1.5', '', '99999999999999999999']) {
        const reply = await root.get(`/api/channel/test_run/${run.id}?after=${encodeURIComponent(bad)}`);
        expect(reply.body).toEqual({
          success: false, message: `invalid after: expected a non-negative integer, got ${JSON.stringify(bad)}`,
        });
      }
      expect((await root.get('/api/channel/test_run/987654')).body).toEqual({ success: false, message: 'record not found' });
      expect((await root.request('DELETE', '/api/channel/test_run/987654')).body).toEqual({ success: false, message: 'record not found' });
      expect((await root.get('/api/channel/test_run/abc')).body).toEqual({
        success: false, message: 'strconv.Atoi: parsing "abc": invalid syntax',
      });
      // test_run is never read as a channel id.
      const bare = await root.request('DELETE', '/api/channel/test_run');
      expect(bare.status).toBe(404);
      expect(bare.body.error.message).toBe('Invalid URL (DELETE /api/channel/test_run)');
    });

    it.each([
      ['no body', undefined, 'invalid test run request: empty body, expected {"scope":"all"|"disabled"} or {"ids":[channel ids]}'],
      ['not JSON', '{"scope":', /^invalid test run request: body is not JSON \(.+\)$/],
      ['an array', '[1,2]', 'invalid test run request: expected an object with "scope" or "ids"'],
      ['null', 'null', 'invalid test run request: expected an object with "scope" or "ids"'],
      ['neither scope nor ids', '{"scopes":"all"}', 'invalid test run request: expected "scope" or "ids"'],
      ['both scope and ids', '{"scope":"all","ids":[1]}', 'invalid test run request: give either "scope" or "ids", not both'],
      ['scope x', '{"scope":"x"}', 'invalid test run request: scope: expected "all" | "disabled"'],
      ['scope ids', '{"scope":"ids"}', 'invalid test run request: scope: expected "all" | "disabled"'],
      ['empty ids', '{"ids":[]}', 'invalid test run request: ids: expected list of 1 to 10000 channel ids'],
      ['ids not a list', '{"ids":"1,2"}', 'invalid test run request: ids: expected list of 1 to 10000 channel ids'],
      ['fractional id', '{"ids":[1,1.5]}', 'invalid test run request: ids.1: expected positive integer'],
      ['string id', '{"ids":["1"]}', 'invalid test run request: ids.0: expected positive integer'],
      ['zero id', '{"ids":[0]}', 'invalid test run request: ids.0: expected positive integer'],
      ['negative id', '{"ids":[-3]}', 'invalid test run request: ids.0: expected positive integer'],
      ['unsafe id', '{"ids":[9007199254740993]}', 'invalid test run request: ids.0: expected positive integer'],
      ['too many ids', JSON.stringify({ ids: Array.from({ length: 10_001 }, (_, i) => i + 1) }), 'invalid test run request: ids: expected list of 1 to 10000 channel ids'],
    ] as const)('POST with %s → a clear error, nothing started or written', async (_label, raw, message) => {
      await addChannel('sk-bad-body');
      const before = await current();
      const dump = await stableDump(db());
      const reply = await root.request('POST', '/api/channel/test_run', raw === undefined ? {} : { rawBody: raw });
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.body as object).sort()).toEqual(['message', 'success']);
      expect(reply.body.success).toBe(false);
      expect(reply.body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
      expect(isBatchTestRunning(db())).toBe(false);
      expect(await current()).toEqual(before);
      expect(await stableDump(db())).toBe(dump);
      expect(upstream.requests).toHaveLength(0);
    });

    it('runs live in the database: a restarted server answers the same run and its results; unknown ids are refused', async () => {
      const run = await settle(runOf(await start({ ids: [await addChannel('sk-restart')] })).id);
      await suite.restart();
      await login();
      expect(runOf(await root.get('/api/channel/test_run'))).toEqual(run);
      expect(runOf(await root.get(`/api/channel/test_run/${run.id}`))).toEqual(run);
      expect((await root.get(`/api/channel/test_run/${run.id + 1000}`)).body).toEqual({ success: false, message: 'record not found' });
    });
  });
}
