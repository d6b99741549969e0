import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import WebSocket from 'ws';
import {
  consumeLogs,
  createRelayChannel,
  createRelayToken,
  createRelayUser,
  eventually,
  ledgerOf,
  sdkClient,
  sdkError,
  streamedChat,
  setRelayOptions,
  testCompletionRatio,
  testModelRatio,
  type QuotaSnapshot,
  type RelayToken,
} from './support/relayFixtures';
import { sparkCall, sparkPieces, sparkReply, sparkUsage, startSparkUpstream, type SparkAccount, type SparkUpstream } from './support/xunfeiUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';
import { sparkSignedUrl, sparkSignature, sparkStatusOf, sparkVersionOf } from '../../server/relay/xunfei';

/**
 * Xunfei Spark channels (type 18) through the relay, driven by the official openai SDK against a
 * real server and a loopback fake of Spark's WebSocket chat API that verifies the signed handshake
 * URL: the answer streamed as its frames arrive or assembled for a whole-answer client, billed
 * exactly from Spark's usage; the version and domain from the channel's model version or the
 * model name; tools sent as Spark functions and its function call answered as tool calls; a
 * refused handshake and error frames answered with their status and refunded; a dropped socket
 * and a malformed frame ending clearly with the quota exact; images refused; the channel test.
 */

const model = 'Spark-Max';
const ratio = 0.5;
const completionRatio = 3;
const account = (name: string): SparkAccount => ({ appId: `app${name}`.slice(0, 8), apiSecret: `secret-${name}`, apiKey: `key-${name}` });
const keyOf = (a: SparkAccount): string => `${a.appId}|${a.apiSecret}|${a.apiKey}`;
const ok = account('ok');
const faults = {
  unauthorised: { account: account('auth'), behaviour: { kind: 'errorFrame', code: 11200, message: 'AppIdNoAuthError:(11200)' } },
  limited: { account: account('rate'), behaviour: { kind: 'errorFrame', code: 11202, message: 'AppIdQpsOverFlowError:(11202)' } },
  censored: { account: account('audit'), behaviour: { kind: 'errorFrame', code: 10013, message: 'the input was refused by the audit' } },
  midway: { account: account('midway'), behaviour: { kind: 'errorMidway', code: 10014, message: 'the output was refused by the audit' } },
  drop: { account: account('drop'), behaviour: { kind: 'drop' } },
  malformed: { account: account('malformed'), behaviour: { kind: 'malformed' } },
  slow: { account: account('slow'), behaviour: { kind: 'slow' } },
} as const;
type Fault = keyof typeof faults;
const faultModels: Readonly<Record<Fault, string>> = {
  unauthorised: 'SparkDesk-v1.1',
  limited: 'SparkDesk-v2.1',
  censored: 'SparkDesk-v3.1',
  midway: 'SparkDesk-v3.5',
  drop: 'SparkDesk-v4.0',
  malformed: 'Spark-Pro-128K',
  slow: 'Spark-Max-32K',
};
const quotaOf = (prompt: number, completion: number): number => Math.ceil((prompt + completion * completionRatio) * ratio);
const fullQuota = quotaOf(sparkUsage.prompt_tokens, sparkUsage.completion_tokens);
const fullUsage = { prompt_tokens: sparkUsage.prompt_tokens, completion_tokens: sparkUsage.completion_tokens, total_tokens: sparkUsage.prompt_tokens + sparkUsage.completion_tokens };
const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'The weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

describe('Spark signing and versions', () => {
  it('signs host, date and the request line with the APISecret as the docs show', () => {
    const url = new URL(sparkSignedUrl('wss://spark-api.xf-yun.com/v3.5/chat', { appId: 'a', apiSecret: 'MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi', apiKey: 'addd2272b6d8b7c8abdd79531420ca3b' }, new Date('2023-05-05T10:43:39Z')));
    expect(url.searchParams.get('date')).toBe('Fri, 05 May 2023 10:43:39 GMT');
    expect(url.searchParams.get('host')).toBe('spark-api.xf-yun.com');
    const origin = Buffer.from(url.searchParams.get('authorization') ?? '', 'base64').toString('utf8');
    const signature = sparkSignature('MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi', 'spark-api.xf-yun.com', 'Fri, 05 May 2023 10:43:39 GMT', '/v3.5/chat');
    expect(origin).toBe(`api_key="addd2272b6d8b7c8abdd79531420ca3b", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`);
  });

  it('maps the model version (else the model name) to the path and domain, and error codes to statuses', () => {
    expect(sparkVersionOf('v3.5', 'anything')).toEqual({ path: '/v3.5/chat', domain: 'generalv3.5' });
    expect(sparkVersionOf('', 'Spark-4.0-Ultra')).toEqual({ path: '/v4.0/chat', domain: '4.0Ultra' });
    expect(sparkVersionOf(null, 'Spark-Pro-128K')).toEqual({ path: '/chat/pro-128k', domain: 'pro-128k' });
    expect(sparkVersionOf(null, 'SparkDesk-v3.1')).toEqual({ path: '/v3.1/chat', domain: 'generalv3' });
    expect(sparkVersionOf(null, 'SparkDesk')).toEqual({ path: '/v1.1/chat', domain: 'lite' });
    expect(sparkVersionOf('v9', 'Spark-Max')).toContain('model version');
    expect([11200, 11201, 11203, 10013, 10014, 10019, 10907, 10012].map(sparkStatusOf)).toEqual([401, 429, 429, 400, 400, 400, 400, 500]);
  });
});

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay to Xunfei Spark — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: SparkUpstream;
    let userId: number;
    let token: RelayToken;
    let channelId: number;
    let ultraId: number;
    let badSecretId: number;
    const channels = new Map<Fault, number>();
    let sdk: OpenAI;

    beforeAll(async () => {
      upstream = await startSparkUpstream();
      const all = [model, 'Spark-Lite', 'Spark-Pro', ...Object.values(faultModels)];
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, ...Object.fromEntries(all.map((m) => [m, ratio])) }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, ...Object.fromEntries(all.map((m) => [m, completionRatio])) }),
      });
      userId = await createRelayUser(db(), { username: 'sparkuser', quota: 500_000 });
      token = await createRelayToken(db(), { userId, name: 'spark-token', remainQuota: 400_000 });
      channelId = await createRelayChannel(db(), { key: keyOf(ok), baseUrl: upstream.url, models: model, type: 18 });
      // the console's model version (the `other` column) names the version whatever the model
      ultraId = await createRelayChannel(db(), { key: keyOf(ok), baseUrl: upstream.url, models: 'Spark-Lite', type: 18 });
      await db().updateTable('channels').set({ other: 'v4.0' }).where('id', '=', ultraId).execute();
      badSecretId = await createRelayChannel(db(), { key: `${ok.appId}|wrong-secret|${ok.apiKey}`, baseUrl: upstream.url, models: 'Spark-Pro', type: 18 });
      for (const fault of Object.keys(faults) as Fault[]) {
        channels.set(fault, await createRelayChannel(db(), { key: keyOf(faults[fault].account), baseUrl: upstream.url, models: faultModels[fault], type: 18 }));
      }
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
      upstream.account(ok);
      for (const fault of Object.values(faults)) upstream.account(fault.account, fault.behaviour);
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const snapshot = (id = channelId) => ledger.snapshot(id);
    const expectCharged = (before: QuotaSnapshot, quota: number, id = channelId): Promise<void> => ledger.expectCharged(before, quota, id);
    const { expectUnchanged } = ledger;
    const sent = () => upstream.requests.at(-1)!;

    it('sends the signed frame (app id, domain, messages, parameters) and assembles the streamed frames for a whole-answer client', async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'Answer in one line.' },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi!' },
          { role: 'user', content: [{ type: 'text', text: 'What can you do?' }] },
        ],
        temperature: 0.5,
        max_tokens: 512,
        user: 'user-42',
      });
      expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: sparkReply('generalv3.5') }, finish_reason: 'stop' });
      expect(answer.usage).toEqual(fullUsage);
      expect(sent().path).toBe('/v3.5/chat');
      expect(sent().frame).toEqual({
        header: { app_id: ok.appId, uid: 'user-42' },
        parameter: { chat: { domain: 'generalv3.5', temperature: 0.5, max_tokens: 512 } },
        payload: {
          message: {
            text: [
              { role: 'system', content: 'Answer in one line.' },
              { role: 'user', content: 'Hello' },
              { role: 'assistant', content: 'Hi!' },
              { role: 'user', content: 'What can you do?' },
            ],
          },
        },
      });
      await expectCharged(before, fullQuota);
    });

    it('streams the frames as OpenAI chunks with the usage, and bills it', async () => {
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } });
      const { pieces, usage, finish } = await streamedChat(stream);
      expect(pieces).toEqual(sparkPieces('generalv3.5'));
      expect(finish).toBe('stop');
      expect(usage).toEqual(fullUsage);
      await expectCharged(before, fullQuota);
    });

    it("takes the version from the channel's model version over the model name", async () => {
      const before = await snapshot(ultraId);
      const answer = await sdk.chat.completions.create({ model: 'Spark-Lite', messages: [{ role: 'user', content: 'Hi' }] });
      expect(answer.choices[0]?.message.content).toBe(sparkReply('4.0Ultra'));
      expect(sent().path).toBe('/v4.0/chat');
      expect((sent().frame.parameter as { chat: { domain: string } }).chat.domain).toBe('4.0Ultra');
      await expectCharged(before, fullQuota, ultraId);
    });

    it('sends tools as Spark functions and answers its function call as a tool call, whole and streamed', async () => {
      const before = await snapshot();
      const whole = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather in Hefei?' }], tools: [weatherTool] });
      expect(sent().frame.payload).toMatchObject({ functions: { text: [weatherTool.function] } });
      expect(whole.choices[0]?.finish_reason).toBe('tool_calls');
      expect(whole.choices[0]?.message.tool_calls).toEqual([{ id: expect.any(String), type: 'function', function: sparkCall }]);
      expect(whole.usage).toEqual(fullUsage);
      await expectCharged(before, fullQuota);

      const middle = await snapshot();
      const stream = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather in Hefei?' }], tools: [weatherTool], stream: true });
      const calls: unknown[] = [];
      let finish: string | null = null;
      for await (const chunk of stream) {
        calls.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(calls).toEqual([{ index: 0, id: expect.any(String), type: 'function', function: sparkCall }]);
      expect(finish).toBe('tool_calls');
      await expectCharged(middle, fullQuota);

      // the result goes back as a tool turn, the call as the assistant's text
      await sdk.chat.completions.create({
        model,
        messages: [
          { role: 'user', content: 'Weather in Hefei?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: sparkCall }] },
          { role: 'tool', tool_call_id: 'call_1', content: 'Sunny, 21 °C' },
        ],
      });
      expect((sent().frame.payload as { message: { text: unknown[] } }).message.text).toEqual([
        { role: 'user', content: 'Weather in Hefei?' },
        { role: 'assistant', content: JSON.stringify({ name: 'get_weather', arguments: { city: 'Hefei' } }) },
        { role: 'tool', content: 'Sunny, 21 °C' },
      ]);
    });

    it('answers a handshake refused for its signature with 401, refunded, and the fake refuses a stale date with 403', async () => {
      const before = await snapshot(badSecretId);
      for (const stream of [false, true]) {
        const error = await sdkError(sdk.chat.completions.create({ model: 'Spark-Pro', messages: [{ role: 'user', content: 'Hi' }], stream }));
        expect(error.status).toBe(401);
        expect(error.message).toContain('HMAC signature does not match');
      }
      expect(upstream.refusals).toEqual([401, 401]);
      expect(upstream.requests).toHaveLength(0);
      await expectUnchanged(before, badSecretId);

      const stale = new WebSocket(sparkSignedUrl(`${upstream.url}/v3.5/chat`, ok, new Date(Date.now() - 600_000)));
      const status = await new Promise<number>((resolve) => {
        stale.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        stale.on('error', () => resolve(-1));
      });
      expect(status).toBe(403);
    });

    it('answers error frames with the status of their code, refunded, whole or streamed', async () => {
      const cases: readonly [Fault, number][] = [
        ['unauthorised', 401],
        ['limited', 429],
        ['censored', 400],
      ];
      for (const [fault, status] of cases) {
        const id = channels.get(fault)!;
        const before = await snapshot(id);
        for (const stream of [false, true]) {
          const error = await sdkError(sdk.chat.completions.create({ model: faultModels[fault], messages: [{ role: 'user', content: 'Hi' }], stream }));
          expect(error.status, `${fault} stream=${stream}`).toBe(status);
          // the relay answers an upstream 429 with its own saturation message, as one-api does
          if (status !== 429) expect(error.message).toContain(faults[fault].behaviour.kind === 'errorFrame' ? faults[fault].behaviour.message : '');
        }
        await expectUnchanged(before, id);
      }
    });

    it('ends an answer whose socket drops or that meets an error frame midway: refunded when whole, the delivered part billed when streamed', async () => {
      for (const fault of ['drop', 'midway'] as const) {
        const id = channels.get(fault)!;
        const domain = fault === 'drop' ? '4.0Ultra' : 'generalv3.5';
        const before = await snapshot(id);
        const whole = await sdkError(sdk.chat.completions.create({ model: faultModels[fault], messages: [{ role: 'user', content: 'Hi' }] }));
        if (fault === 'drop') expect(whole.status, fault).toBeGreaterThanOrEqual(500);
        else {
          expect(whole.status).toBe(400);
          expect(whole.message).toContain('refused by the audit');
        }
        await expectUnchanged(before, id);

        let text = '';
        let failure: Error | null = null;
        try {
          const stream = await sdk.chat.completions.create({ model: faultModels[fault], messages: [{ role: 'user', content: 'Hi' }], stream: true });
          for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        } catch (error) {
          failure = error as Error;
        }
        expect(failure, fault).not.toBeNull();
        if (fault === 'midway') expect(failure?.message).toContain('refused by the audit');
        expect(text).toBe(sparkPieces(domain).slice(0, 2).join(''));
        const charged = await ledger.expectPartCharged(before, id, fault);
        expect(charged, fault).toBeLessThan(fullQuota);
      }
    });

    it('drops a frame that is not JSON and completes the answer', async () => {
      const id = channels.get('malformed')!;
      const before = await snapshot(id);
      const stream = await sdk.chat.completions.create({ model: faultModels.malformed, messages: [{ role: 'user', content: 'Hi' }], stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe(sparkReply('pro-128k'));
      await expectCharged(before, fullQuota, id);
    });

    it('closes the socket when the client leaves mid-stream, billing what was delivered', async () => {
      const id = channels.get('slow')!;
      const before = await snapshot(id);
      const stream = await sdk.chat.completions.create({ model: faultModels.slow, messages: [{ role: 'user', content: 'Hi' }], stream: true });
      let text = '';
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (text !== '') break;
      }
      expect(text).toBe(sparkPieces('max-32k')[0]);
      expect(upstream.closedEarly).toBe(0);
      await eventually(() => Promise.resolve(upstream.requests.length === 1 && upstream.closedEarly >= 1), 'the socket closed');
      await eventually(async () => (await consumeLogs(db(), userId)).length === before.logs + 1, 'the consume log');
      const after = await snapshot(id);
      expect(after.token.remainQuota).toBe(before.token.remainQuota - (before.user.quota - after.user.quota));
    });

    it('refuses images and a request without a user message before calling Spark', async () => {
      const before = await snapshot();
      const image = await sdkError(sdk.chat.completions.create({ model, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }] }));
      expect(image.status).toBe(400);
      expect(image.message).toContain('images are not supported');
      const noUser = await sdkError(sdk.chat.completions.create({ model, messages: [{ role: 'system', content: 'Be brief.' }] }));
      expect(noUser.status).toBe(400);
      expect(noUser.message).toContain('user message');
      expect(upstream.requests).toHaveLength(0);
      expect(upstream.refusals).toHaveLength(0);
      await expectUnchanged(before, channelId);
    });

    it('tests a Spark channel through the same exchange and translation', async () => {
      const root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      const passed = await root.get(`/api/channel/test/${channelId}?model=${model}`);
      expect(passed.body, JSON.stringify(passed.body)).toMatchObject({ success: true, message: sparkReply('generalv3.5') });
      const refused = await root.get(`/api/channel/test/${channels.get('unauthorised')!}`);
      expect(refused.body).toMatchObject({ success: false });
      expect(refused.body.message).toContain('11200');
      const badSecret = await root.get(`/api/channel/test/${badSecretId}`);
      expect(badSecret.body).toMatchObject({ success: false });
      expect(badSecret.body.message).toContain('HMAC signature does not match');
    });
  });
}
