import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveDeps } from '../../server/http/api';
import { isBatchTestRunning, scheduleChannelTests, stopBatchTests } from '../../server/services/channelTest';
import { insertUser, setOption } from './support/db';
import type { Client } from './support/http';
import { startLoopbackSmtp, type LoopbackSmtp } from './support/smtp';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';
import { replyFor, startUpstream, unauthorizedMessage, type ChatMode, type FakeUpstream } from './support/upstream';

/** Channel tests (contract §2.9.9, §2.9.10, §4.9, §4.10) against a loopback upstream, over real HTTP. */

const nowMs = 1_760_000_000_500;
const nowSeconds = 1_760_000_000;
const prompt = 'Output only your specific model name with no additional text.';
const forbidden = '无权进行此操作，权限不足';
const notLoggedIn = '无权进行此操作，未登录且未提供 access token';

const commonToken = 'c0000000000000000000000000000002';

/** Polls `check` every 20 ms until it is true (fails after `timeoutMs`). */
async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`channel tests — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => nowMs });
    const db = () => suite.api.handle.db;
    let upstream: FakeUpstream;
    let root: Client;
    let common: Client;

    beforeAll(async () => {
      upstream = await startUpstream();
      upstream.answer('/push', 200, { success: true, message: 'ok' });
      await insertUser(db(), { username: 'common2', password: 'common-pass', role: 1, accessToken: commonToken });
      root = suite.client();
      common = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      expect((await common.login('common2', 'common-pass')).body.success).toBe(true);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(async () => {
      await db().deleteFrom('abilities').execute();
      await db().deleteFrom('channels').execute();
      await db().deleteFrom('logs').execute();
      for (const [key, value] of Object.entries(defaults)) await setOption(db(), key, value);
      upstream.clear();
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
      return id;
    };
    const row = (id: number) => db().selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const enabledFlags = async (id: number) =>
      (await db().selectFrom('abilities').select('enabled').where('channel_id', '=', id).execute()).map((a) => Boolean(a.enabled));
    const chatRequests = (key: string) => upstream.requestsFor(key).filter((r) => r.path.endsWith('/chat/completions'));
    const sentModel = (key: string) => (JSON.parse(chatRequests(key).at(-1)!.body) as { model: string }).model;
    const pushes = () => upstream.requestsTo('/push').map((r) => JSON.parse(r.body) as Record<string, string>);

    /** Starts a batch run and waits until every listed channel has been tested (test_time set). */
    const runBatch = async (scope: string, ids: readonly number[]) => {
      await db().updateTable('channels').set({ test_time: 0 }).execute();
      const reply = await root.get(`/api/channel/test?scope=${scope}`);
      expect(reply.body).toEqual({ success: true, message: '' });
      await waitFor(async () => {
        const rows = await db().selectFrom('channels').select(['id', 'test_time']).where('id', 'in', [...ids]).execute();
        return rows.every((r) => r.test_time === nowSeconds);
      }, `batch ${scope}`);
      // The run ends right after the last store; a new run is then accepted.
      await waitFor(async () => {
        const again = await root.get('/api/channel/test?scope=none');
        return again.body.success === true;
      }, 'run end');
    };

    describe('guards', () => {
      it('refuses common users and anonymous callers on every route', async () => {
        const id = await addChannel('sk-guard');
        for (const path of [`/api/channel/test/${id}`, '/api/channel/test', '/api/channel/test?scope=all']) {
          expect((await common.get(path)).body).toEqual({ success: false, message: forbidden });
          const anonymous = await suite.client().get(path);
          expect(anonymous.status).toBe(401);
          expect(anonymous.body).toEqual({ success: false, message: notLoggedIn });
          expect((await suite.client().get(path, { headers: { Authorization: commonToken } })).body.message).toBe(forbidden);
        }
        expect(upstream.requests).toHaveLength(0);
        expect((await row(id)).test_time).toBe(0);
      });
    });

    describe('GET /api/channel/test/:id', () => {
      it('sends a chat completion and stores response_time (ms) and test_time (s)', async () => {
        upstream.slowMs = 60;
        const id = await addChannel('sk-ok', {}, 'slow');
        const reply = await root.get(`/api/channel/test/${id}`);
        expect(reply.status).toBe(200);
        expect(Object.keys(reply.body).sort()).toEqual(['message', 'modelName', 'success', 'time']);
        expect(reply.body).toMatchObject({ success: true, message: replyFor('gpt-3.5-turbo'), modelName: '' });
        const stored = await row(id);
        expect(stored.response_time).toBeGreaterThanOrEqual(60);
        expect(reply.body.time).toBe(stored.response_time! / 1000);
        expect(stored.test_time).toBe(nowSeconds);
        expect(stored.status).toBe(1);

        const [request] = chatRequests('sk-ok');
        expect(request!.method).toBe('POST');
        expect(request!.path).toBe('/v1/chat/completions');
        expect(request!.headers.authorization).toBe('Bearer sk-ok');
        expect(JSON.parse(request!.body)).toEqual({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: prompt }] });

        const logs = await db().selectFrom('logs').selectAll().execute();
        expect(logs).toHaveLength(1);
        expect(logs[0]).toMatchObject({
          type: 5, user_id: 0, channel_id: id, model_name: 'gpt-3.5-turbo', quota: 0, created_at: nowSeconds,
          content: `渠道 ch-sk-ok 测试成功，响应：${replyFor('gpt-3.5-turbo')}`,
        });
      });

      it('uses the model query parameter, falls back to the first model, applies the mapping', async () => {
        const id = await addChannel('sk-model', { models: 'gpt-4o,gpt-4o-mini', model_mapping: '{"gpt-4o-mini":"mapped-mini"}' });
        const chosen = await root.get(`/api/channel/test/${id}?model=gpt-4o-mini`);
        expect(chosen.body).toMatchObject({ success: true, message: replyFor('mapped-mini'), modelName: 'gpt-4o-mini' });
        expect(sentModel('sk-model')).toBe('mapped-mini');

        const absent = await root.get(`/api/channel/test/${id}?model=claude-3`);
        expect(absent.body).toMatchObject({ success: true, modelName: 'claude-3' });
        expect(sentModel('sk-model')).toBe('gpt-4o');

        const none = await root.get(`/api/channel/test/${id}`);
        expect(none.body).toMatchObject({ success: true, modelName: '' });
        expect(sentModel('sk-model')).toBe('gpt-4o');
      });

      it('reports upstream failures with time 0, stores 0 ms and never changes the status', async () => {
        await setOption(db(), 'AutomaticDisableChannelEnabled', 'true');
        const id = await addChannel('sk-bad', {}, 'unauthorized');
        const reply = await root.get(`/api/channel/test/${id}?model=gpt-4o`);
        expect(reply.body).toEqual({
          success: false, message: `http status code: 401, error message: ${unauthorizedMessage('sk-bad')}`, time: 0, modelName: 'gpt-4o',
        });
        const stored = await row(id);
        expect(stored).toMatchObject({ response_time: 0, test_time: nowSeconds, status: 1 });
        expect(pushes()).toHaveLength(0);
        const log = await db().selectFrom('logs').selectAll().executeTakeFirstOrThrow();
        expect(log.content).toBe(`渠道 ch-sk-bad 测试失败，错误：http status code: 401, error message: ${unauthorizedMessage('sk-bad')}`);
      });

      it('reads every kind of broken answer as a failure', async () => {
        const cases: ReadonlyArray<readonly [ChatMode, string | RegExp]> = [
          ['rateLimited', 'http status code: 429, error message: Rate limit reached for requests'],
          ['serverError', 'http status code: 500, error message: The server had an error while processing your request.'],
          ['serverErrorText', 'http status code: 500'],
          ['malformed', /JSON/],
          ['noUsage', 'usage is nil'],
        ];
        for (const [mode, message] of cases) {
          const id = await addChannel(`sk-${mode}`, {}, mode);
          const reply = await root.get(`/api/channel/test/${id}`);
          expect(reply.body.success, mode).toBe(false);
          expect(reply.body.message, mode).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
          expect(reply.body.time, mode).toBe(0);
        }
      });

      it('reports an unreachable upstream', async () => {
        const id = await addChannel('sk-down', { base_url: 'http://127.0.0.1:1' });
        const reply = await root.get(`/api/channel/test/${id}`);
        expect(reply.body).toMatchObject({ success: false, time: 0 });
        expect(reply.body.message).toMatch(/^Post "http:\/\/127\.0\.0\.1:1\/v1\/chat\/completions": /);
      });

      it('builds the URL of OpenAI-compatible types (OpenAI compatible, Azure)', async () => {
        const compatible = await addChannel('sk-compat', { type: 50, base_url: `${upstream.url}/v1/` });
        expect((await root.get(`/api/channel/test/${compatible}`)).body.success).toBe(true);
        expect(chatRequests('sk-compat')[0]!.path).toBe('/v1/chat/completions');

        upstream.mode('sk-azure', 'ok');
        const azure = await addChannel('sk-azure', { type: 3, other: '2024-03-01-preview', models: 'gpt-3.5-turbo' });
        expect((await root.get(`/api/channel/test/${azure}`)).body.success).toBe(true);
        const request = upstream.requestsFor('sk-azure')[0]!;
        expect(request.url).toBe('/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-03-01-preview');
        expect(request.headers['api-key']).toBe('sk-azure');
      });

      it('refuses types without an adaptor, without sending anything', async () => {
        const id = await addChannel('sk-palm', { type: 11, models: 'PaLM-2' });
        const reply = await root.get(`/api/channel/test/${id}`);
        expect(reply.body).toEqual({ success: false, message: 'channel type 11 (PaLM2) is not supported yet', time: 0, modelName: '' });
        expect(upstream.requests).toHaveLength(0);
        expect(await db().selectFrom('logs').selectAll().execute()).toHaveLength(0);
      });

      it('answers the envelope for unknown or invalid ids', async () => {
        expect((await root.get('/api/channel/test/999999')).body).toEqual({ success: false, message: 'record not found' });
        expect((await root.get('/api/channel/test/abc')).body).toEqual({
          success: false, message: 'strconv.Atoi: parsing "abc": invalid syntax',
        });
      });
    });

    describe('GET /api/channel/test?scope=', () => {
      it('scope all: disables fatal failures, re-enables auto-disabled channels only, notifies via the message pusher', async () => {
        await setOption(db(), 'AutomaticDisableChannelEnabled', 'true');
        await setOption(db(), 'AutomaticEnableChannelEnabled', 'true');
        await setOption(db(), 'MessagePusherAddress', `${upstream.url}/push`);
        await setOption(db(), 'MessagePusherToken', 'push-token');
        const healthy = await addChannel('sk-a');
        const revoked = await addChannel('sk-b', {}, 'unauthorized');
        const autoOff = await addChannel('sk-c', { status: 3 });
        const manualOff = await addChannel('sk-d', { status: 2 });
        const busy = await addChannel('sk-e', {}, 'rateLimited');
        const broke = await addChannel('sk-f', {}, 'quotaExceeded');
        const all = [healthy, revoked, autoOff, manualOff, busy, broke];
        await runBatch('all', all);

        expect((await row(healthy)).status).toBe(1);
        expect((await row(revoked)).status).toBe(3);
        expect(await enabledFlags(revoked)).toEqual([false, false]);
        expect((await row(autoOff)).status).toBe(1);
        expect(await enabledFlags(autoOff)).toEqual([true, true]);
        expect((await row(manualOff)).status).toBe(2);
        expect((await row(busy)).status).toBe(1);
        expect((await row(broke)).status).toBe(3);
        for (const key of ['sk-a', 'sk-b', 'sk-c', 'sk-d', 'sk-e', 'sk-f']) {
          expect(chatRequests(key), key).toHaveLength(1);
          expect(sentModel(key)).toBe('gpt-3.5-turbo');
        }
        // Failures keep their elapsed time too (batch rule 4).
        for (const id of all) expect((await row(id)).response_time).toBeGreaterThanOrEqual(0);
        expect(await db().selectFrom('logs').select('type').execute()).toHaveLength(6);

        const sent = pushes();
        expect(sent).toHaveLength(3);
        const subjects = new Set(sent.map((p) => p.title));
        expect(subjects).toEqual(new Set(['渠道状态变更提醒']));
        expect(sent.every((p) => p.token === 'push-token' && p.description === p.title)).toBe(true);
        const contents = sent.map((p) => p.content);
        expect(contents).toContain(`渠道「ch-sk-b」（#${revoked}）已被禁用，原因：http status code: 401, error message: ${unauthorizedMessage('sk-b')}`);
        expect(contents).toContain(`渠道「ch-sk-c」（#${autoOff}）已被重新启用`);
        expect(contents.some((c) => (c ?? '').startsWith(`渠道「ch-sk-f」（#${broke}）已被禁用`))).toBe(true);
      });

      it('leaves statuses alone when the automatic options are off', async () => {
        await setOption(db(), 'MessagePusherAddress', `${upstream.url}/push`);
        const revoked = await addChannel('sk-b2', {}, 'unauthorized');
        const autoOff = await addChannel('sk-c2', { status: 3 });
        await runBatch('all', [revoked, autoOff]);
        expect((await row(revoked)).status).toBe(1);
        expect((await row(autoOff)).status).toBe(3);
        expect(pushes()).toHaveLength(0);
      });

      it('scope disabled tests only channels with status 2 or 3; another scope tests nothing', async () => {
        const on = await addChannel('sk-on');
        const manual = await addChannel('sk-man', { status: 2 });
        const auto = await addChannel('sk-auto', { status: 3 });
        await runBatch('disabled', [manual, auto]);
        expect(chatRequests('sk-man')).toHaveLength(1);
        expect(chatRequests('sk-auto')).toHaveLength(1);
        expect(chatRequests('sk-on')).toHaveLength(0);
        expect((await row(on)).test_time).toBe(0);

        upstream.clear();
        expect((await root.get('/api/channel/test?scope=nothing')).body).toEqual({ success: true, message: '' });
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(upstream.requests).toHaveLength(0);
      });

      it('disables a channel slower than ChannelDisableThreshold and answers 测试已在运行中 meanwhile', async () => {
        await setOption(db(), 'AutomaticDisableChannelEnabled', 'true');
        await setOption(db(), 'ChannelDisableThreshold', '0.1');
        await setOption(db(), 'MessagePusherAddress', `${upstream.url}/push`);
        upstream.slowMs = 300;
        const slow = await addChannel('sk-slow', {}, 'slow');
        await db().updateTable('channels').set({ test_time: 0 }).execute();
        expect((await root.get('/api/channel/test')).body).toEqual({ success: true, message: '' });
        expect((await root.get('/api/channel/test?scope=all')).body).toEqual({ success: false, message: '测试已在运行中' });
        await waitFor(async () => (await row(slow)).test_time === nowSeconds, 'slow channel');
        const stored = await row(slow);
        expect(stored.status).toBe(3);
        expect(stored.response_time).toBeGreaterThanOrEqual(300);
        await waitFor(() => Promise.resolve(pushes().length === 1), 'push');
        expect(pushes()[0]!.content).toMatch(new RegExp(`^渠道「ch-sk-slow」（#${slow}）已被禁用，原因：响应时间 0\\.\\d\\ds 超过阈值 0\\.10s$`));
      });

      it('notifies the root user by e-mail when no message pusher is set', async () => {
        const smtp: LoopbackSmtp = await startLoopbackSmtp();
        try {
          await setOption(db(), 'SMTPServer', '127.0.0.1');
          await setOption(db(), 'SMTPPort', String(smtp.port));
          await setOption(db(), 'SMTPFrom', 'gateway@example.com');
          await db().updateTable('users').set({ email: 'root@example.com' }).where('role', '=', 100).execute();
          await setOption(db(), 'AutomaticDisableChannelEnabled', 'true');
          const revoked = await addChannel('sk-mail', {}, 'unauthorized');
          await runBatch('all', [revoked]);
          await waitFor(() => Promise.resolve(smtp.lastTo('root@example.com') !== undefined), 'mail');
          const mail = smtp.lastTo('root@example.com')!;
          expect(mail.subject).toBe('渠道状态变更提醒');
          expect(mail.body).toContain(`渠道「ch-sk-mail」（#${revoked}）已被禁用`);
        } finally {
          await smtp.close();
        }
      });

      it('CHANNEL_TEST_FREQUENCY: test-all runs on a schedule until the schedule stops', async () => {
        const id = await addChannel('sk-sched');
        await db().updateTable('channels').set({ test_time: 0 }).execute();
        const deps = resolveDeps({ db: db(), dialect: suite.api.handle.dialect, config: suite.api.config, now: () => nowMs });
        const stop = scheduleChannelTests(deps, 100);
        try {
          await waitFor(async () => ((await row(id)).test_time ?? 0) > 0, 'scheduled test');
          await waitFor(() => Promise.resolve(upstream.requests.length >= 2), 'second scheduled run');
        } finally {
          await stop();
          await stopBatchTests(db());
        }
        const sent = upstream.requests.length;
        await new Promise((r) => setTimeout(r, 350));
        expect(upstream.requests.length).toBe(sent);
        expect(isBatchTestRunning(db())).toBe(false);
      });

      it('a run in progress stops with the server (no work after stop)', async () => {
        upstream.slowMs = 400;
        const first = await addChannel('sk-stop1', {}, 'slow');
        const second = await addChannel('sk-stop2', {}, 'slow');
        await db().updateTable('channels').set({ test_time: 0 }).execute();
        expect((await root.get('/api/channel/test')).body.success).toBe(true);
        await waitFor(() => Promise.resolve(upstream.requests.length > 0), 'first request');
        await suite.restart();
        // Stopped while the first (highest id) test was in flight: nothing stored, the other never sent.
        expect(upstream.requests).toHaveLength(1);
        expect((await row(second)).test_time).toBe(0);
        expect((await row(first)).test_time).toBe(0);
        root = suite.client();
        common = suite.client();
        expect((await root.login('root', '123456')).body.success).toBe(true);
        expect((await common.login('common2', 'common-pass')).body.success).toBe(true);
      });
    });
  });
}
