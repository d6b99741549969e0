import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { tc3Authorization } from '../../server/relay/tencent';
import {
  consumeLogs,
  createRelayChannel,
  createRelayToken,
  createRelayUser,
  eventually,
  ledgerOf,
  sdkClient,
  sdkError,
  setRelayOptions,
  testCompletionRatio,
  testModelRatio,
  type QuotaSnapshot,
  type RelayToken,
} from './support/relayFixtures';
import { startTencentUpstream, tencentPieces, tencentReply, tencentToolArguments, tencentUsage, type TencentUpstream } from './support/tencentUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Tencent Hunyuan channels (type 23) through the relay, driven by the official openai SDK
 * against a real server and a loopback fake of Hunyuan's ChatCompletions that checks every
 * request's TC3-HMAC-SHA256 signature: the request signed and translated, the answer (whole and
 * streamed) translated back and billed exactly, Tencent's errors (answered with HTTP 200) turned
 * into OpenAI errors with a fitting status and refunded, stream faults (a dropped connection, an
 * error event) ending in an error with the delivered part billed, a malformed event dropped, an
 * incomplete key refused before anything is sent; function calling (tools, tool_choice, tool
 * results and an assistant's calls translated; calls answered whole and streamed); and the
 * channel test. The signer itself is
 * checked against the worked example of Tencent's "Signature v3" page.
 */

const model = 'hunyuan-lite';
const ratio = 0.75;
const completionRatio = 3;
/** Fault channels: their model and their SecretId. */
const faults = {
  badSecret: 'hunyuan-bad-secret',
  unknownId: 'hunyuan-unknown-id',
  limited: 'hunyuan-limited',
  invalid: 'hunyuan-invalid',
  internal: 'hunyuan-internal',
  drop: 'hunyuan-drop',
  malformed: 'hunyuan-malformed',
  errorEvent: 'hunyuan-error-event',
  noSecret: 'hunyuan-no-secret',
} as const;
type Fault = keyof typeof faults;
const quotaOf = (prompt: number, completion: number): number => Math.ceil((prompt + completion * completionRatio) * ratio);
const fullQuota = quotaOf(tencentUsage.PromptTokens, tencentUsage.CompletionTokens);

describe('TC3-HMAC-SHA256 signer', () => {
  it('reproduces the worked example of Tencent Cloud\'s "Signature v3" page', () => {
    const authorization = tc3Authorization('AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE', 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE', {
      service: 'cvm',
      host: 'cvm.tencentcloudapi.com',
      contentType: 'application/json; charset=utf-8',
      body: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
      timestamp: 1551113065,
    });
    expect(authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });
});

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay to Tencent Hunyuan — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: TencentUpstream;
    let userId: number;
    let token: RelayToken;
    let channelId: number;
    const channels = new Map<Fault, number>();
    let sdk: OpenAI;

    beforeAll(async () => {
      upstream = await startTencentUpstream();
      const models = [model, ...Object.values(faults)];
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, ...Object.fromEntries(models.map((m) => [m, ratio])) }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, ...Object.fromEntries(models.map((m) => [m, completionRatio])) }),
      });
      userId = await createRelayUser(db(), { username: 'tencentuser', quota: 500_000 });
      token = await createRelayToken(db(), { userId, name: 'tencent-token', remainQuota: 400_000 });
      channelId = await createRelayChannel(db(), { key: '1250000000|AKIDOK|secret-ok', baseUrl: upstream.url, models: model, type: 23, config: '{"region":"ap-guangzhou"}' });
      const keys: Record<Fault, string> = {
        badSecret: '1250000000|AKIDOK|not-the-secret',
        unknownId: '1250000000|AKIDNOBODY|s0',
        limited: '1250000000|AKIDLIMIT|s1',
        invalid: '1250000000|AKIDINVALID|s2',
        internal: '1250000000|AKIDINTERNAL|s3',
        drop: '1250000000|AKIDDROP|s4',
        malformed: '1250000000|AKIDMAL|s5',
        errorEvent: '1250000000|AKIDERR|s6',
        noSecret: '1250000000|AKIDOK',
      };
      for (const fault of Object.keys(faults) as Fault[]) {
        channels.set(fault, await createRelayChannel(db(), { key: keys[fault], baseUrl: upstream.url, models: faults[fault], type: 23 }));
      }
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
      upstream.account('AKIDOK', 'secret-ok');
      upstream.account('AKIDLIMIT', 's1', { kind: 'error', code: 'RequestLimitExceeded', message: 'Your current request rate exceeds the limit.' });
      upstream.account('AKIDINVALID', 's2', { kind: 'error', code: 'InvalidParameterValue.Model', message: 'The model does not exist.' });
      upstream.account('AKIDINTERNAL', 's3', { kind: 'error', code: 'InternalError', message: 'An internal error occurred.' });
      upstream.account('AKIDDROP', 's4', { kind: 'dropMidStream', deltas: 3 });
      upstream.account('AKIDMAL', 's5', { kind: 'malformedEvent' });
      upstream.account('AKIDERR', 's6', { kind: 'errorMidStream' });
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const snapshot = (id = channelId) => ledger.snapshot(id);
    const expectCharged = (before: QuotaSnapshot, quota: number, id = channelId): Promise<void> => ledger.expectCharged(before, quota, id);
    const { expectUnchanged } = ledger;
    const sent = () => upstream.requests.at(-1)!;
    const streamText = async (fault: Fault): Promise<{ text: string; failure: Error | null }> => {
      let text = '';
      try {
        const stream = await sdk.chat.completions.create({ model: faults[fault], messages: [{ role: 'user', content: 'Hi' }], stream: true });
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        return { text, failure: null };
      } catch (error) {
        return { text, failure: error as Error };
      }
    };

    it('signs the request, sends Hunyuan its body and translates the answer back, billing its usage', async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
          { role: 'assistant', content: 'Hi.' },
          { role: 'user', content: 'Tell me more.' },
        ],
        temperature: 0.4,
        top_p: 0.9,
      });
      expect(answer.choices[0]?.message).toMatchObject({ role: 'assistant', content: tencentReply(model) });
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      expect(answer.usage).toEqual({ prompt_tokens: tencentUsage.PromptTokens, completion_tokens: tencentUsage.CompletionTokens, total_tokens: tencentUsage.TotalTokens });

      const request = sent();
      expect(request.headers['x-tc-action']).toBe('ChatCompletions');
      expect(request.headers['x-tc-version']).toBe('2023-09-01');
      expect(request.headers['x-tc-region']).toBe('ap-guangzhou');
      expect(String(request.headers.authorization)).toMatch(/^TC3-HMAC-SHA256 Credential=AKIDOK\/\d{4}-\d{2}-\d{2}\/hunyuan\/tc3_request, SignedHeaders=content-type;host, Signature=/);
      expect(request.json).toEqual({
        Model: model,
        Messages: [
          { Role: 'system', Content: 'You are terse.' },
          { Role: 'user', Content: 'Hello' },
          { Role: 'assistant', Content: 'Hi.' },
          { Role: 'user', Content: 'Tell me more.' },
        ],
        Stream: false,
        Temperature: 0.4,
        TopP: 0.9,
      });
      await expectCharged(before, fullQuota);
    });

    it('streams Hunyuan events as OpenAI chunks, with the usage chunk when asked, and bills the final usage', async () => {
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Stream please' }], stream: true, stream_options: { include_usage: true } });
      const pieces: string[] = [];
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (choice?.delta.content) pieces.push(choice.delta.content);
        if (choice?.finish_reason) finish = choice.finish_reason;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(pieces).toEqual(tencentPieces(model));
      expect(finish).toBe('stop');
      expect(usage).toEqual({ prompt_tokens: tencentUsage.PromptTokens, completion_tokens: tencentUsage.CompletionTokens, total_tokens: tencentUsage.TotalTokens });
      expect(sent().json).toMatchObject({ Stream: true });
      await expectCharged(before, fullQuota);
    });

    const weather: OpenAI.ChatCompletionTool = {
      type: 'function',
      function: { name: 'get_weather', description: 'The weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    };
    const clock: OpenAI.ChatCompletionTool = { type: 'function', function: { name: 'get_time' } };

    it('sends OpenAI tools and a named tool_choice as Tools / custom CustomTool, and answers the call as tool_calls, billed', async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [clock, weather],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
      });
      const tencentWeather = { Type: 'function', Function: { Name: 'get_weather', Description: 'The weather of a city', Parameters: JSON.stringify(weather.function.parameters) } };
      expect(sent().json).toMatchObject({
        Tools: [{ Type: 'function', Function: { Name: 'get_time', Parameters: '{"type":"object","properties":{}}' } }, tencentWeather],
        ToolChoice: 'custom',
        CustomTool: tencentWeather,
      });
      const choice = answer.choices[0]!;
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.message.content).toBeNull();
      expect(choice.message.tool_calls).toEqual([{ id: expect.stringMatching(/^call-hunyuan-/), type: 'function', function: { name: 'get_weather', arguments: tencentToolArguments } }]);
      await expectCharged(before, fullQuota);
    });

    it('sends an assistant turn with tool_calls as ToolCalls and a tool result as a tool message with its ToolCallId', async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({
        model,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
          { role: 'tool', tool_call_id: 'call-1', content: '18°C, sunny' },
        ],
        tools: [weather],
        tool_choice: 'auto',
      });
      expect(sent().json).toMatchObject({
        Messages: [
          { Role: 'user', Content: 'Weather in Paris?' },
          { Role: 'assistant', Content: '', ToolCalls: [{ Id: 'call-1', Type: 'function', Function: { Name: 'get_weather', Arguments: '{"city":"Paris"}' } }] },
          { Role: 'tool', Content: '18°C, sunny', ToolCallId: 'call-1' },
        ],
        ToolChoice: 'auto',
      });
      expect(answer.choices[0]?.message.content).toBe(tencentReply(model));
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      await expectCharged(before, fullQuota);
    });

    it('streams a tool call as OpenAI tool_calls deltas (the pieces of one Id merged into one call), finishing with tool_calls', async () => {
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather?' }], tools: [weather], stream: true, stream_options: { include_usage: true } });
      const calls = new Map<number, { id: string; name: string; arguments: string }>();
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        for (const call of choice?.delta.tool_calls ?? []) {
          const seen = calls.get(call.index) ?? { id: '', name: '', arguments: '' };
          calls.set(call.index, { id: seen.id + (call.id ?? ''), name: seen.name + (call.function?.name ?? ''), arguments: seen.arguments + (call.function?.arguments ?? '') });
        }
        if (choice?.finish_reason) finish = choice.finish_reason;
        if (chunk.usage) usage = chunk.usage;
      }
      expect([...calls.values()]).toEqual([{ id: expect.stringMatching(/^call-hunyuan-/), name: 'get_weather', arguments: tencentToolArguments }]);
      expect(finish).toBe('tool_calls');
      expect(usage?.total_tokens).toBe(tencentUsage.TotalTokens);
      expect(sent().json).toMatchObject({ Stream: true, Tools: [{ Type: 'function', Function: { Name: 'get_weather' } }] });
      await expectCharged(before, fullQuota);
    });

    it('refuses what Hunyuan cannot take of tools (tool_choice "required", a tool message without its id) with a 400 naming the field, refunded', async () => {
      const before = await snapshot();
      const required = await sdkError(sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], tools: [weather], tool_choice: 'required' }));
      expect(required.status).toBe(400);
      expect(required.message).toContain('tool_choice');
      const unknown = await sdkError(sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], tools: [weather], tool_choice: { type: 'function', function: { name: 'nope' } } }));
      expect(unknown.status).toBe(400);
      expect(unknown.message).toContain('"nope" is not among the tools');
      const orphan = await sdkError(
        sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }, { role: 'tool', content: 'x' } as unknown as OpenAI.ChatCompletionMessageParam] }),
      );
      expect(orphan.status).toBe(400);
      expect(orphan.message).toContain('tool_call_id');
      expect(upstream.requests).toHaveLength(0);
      await expectUnchanged(before, channelId);
    });

    it('answers Tencent errors (HTTP 200 with Response.Error) as OpenAI errors with a fitting status, refunded', async () => {
      for (const [fault, status, type, message] of [
        ['badSecret', 401, 'authentication_error', 'check your signature'],
        ['unknownId', 401, 'authentication_error', 'SecretId is not found'],
        // the last attempt's 429 gets one-api's message (contract §4.8)
        ['limited', 429, 'rate_limit_error', '当前分组上游负载已饱和'],
        ['invalid', 400, 'invalid_request_error', 'The model does not exist.'],
        ['internal', 500, 'upstream_error', 'An internal error occurred.'],
      ] as const) {
        const id = channels.get(fault)!;
        const before = await snapshot(id);
        const error = await sdkError(sdk.chat.completions.create({ model: faults[fault], messages: [{ role: 'user', content: 'Hi' }] }));
        expect(error.status, fault).toBe(status);
        expect(error.message, fault).toContain(message);
        expect((error.error as { type?: string }).type, fault).toBe(type);
        await expectUnchanged(before, id);
        // a streamed request gets the same answer (Tencent answers it with the same JSON error)
        const streamed = await sdkError(sdk.chat.completions.create({ model: faults[fault], messages: [{ role: 'user', content: 'Hi' }], stream: true }));
        expect(streamed.status, `${fault} streamed`).toBe(status);
        await expectUnchanged(before, id);
      }
    });

    it('refuses a key without its three parts before anything is sent, and what Hunyuan cannot take with a 400; refunded', async () => {
      const id = channels.get('noSecret')!;
      const before = await snapshot(id);
      const error = await sdkError(sdk.chat.completions.create({ model: faults.noSecret, messages: [{ role: 'user', content: 'Hi' }] }));
      expect(error.status).toBe(500);
      expect(error.message).toContain('AppId|SecretId|SecretKey');
      await expectUnchanged(before, id);
      const main = await snapshot();
      const image = await sdkError(
        sdk.chat.completions.create({ model, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] }),
      );
      expect(image.status).toBe(400);
      expect(image.message).toContain('text content only');
      expect(upstream.requests).toHaveLength(0);
      await expectUnchanged(main, channelId);
    });

    it('ends a stream broken by a dropped connection or an error event with an error, billing what was delivered', async () => {
      for (const fault of ['drop', 'errorEvent'] as const) {
        const id = channels.get(fault)!;
        const before = await snapshot(id);
        const { text, failure } = await streamText(fault);
        expect(failure, fault).not.toBeNull();
        expect(text, `${fault}: ${String(failure)}`).not.toBe('');
        if (fault === 'errorEvent') expect(failure?.message).toContain('service internal error');
        await eventually(async () => (await consumeLogs(db(), userId)).length === before.logs + 1, `${fault}: the consume log`);
        const after = await snapshot(id);
        const charged = before.user.quota - after.user.quota;
        expect(charged, fault).toBeGreaterThan(0);
        expect(after.token.remainQuota).toBe(before.token.remainQuota - charged);
        expect(after.channelUsed).toBe(before.channelUsed + charged);
        expect((await consumeLogs(db(), userId)).at(-1)?.quota).toBe(charged);
      }
    });

    it('drops a malformed event and completes the stream', async () => {
      const id = channels.get('malformed')!;
      const before = await snapshot(id);
      const { text, failure } = await streamText('malformed');
      expect(failure).toBeNull();
      expect(text).toBe(tencentReply(faults.malformed));
      await expectCharged(before, fullQuota, id);
    });

    it('tests a Tencent channel through the same signing and translation', async () => {
      const root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      const ok = await root.get(`/api/channel/test/${channelId}`);
      expect(ok.body).toMatchObject({ success: true, message: tencentReply(model) });
      expect(sent().json).toMatchObject({ Model: model, Stream: false });
      const refused = await root.get(`/api/channel/test/${channels.get('badSecret')!}`);
      expect(refused.body.success).toBe(false);
      expect(refused.body.message).toContain('http status code: 401, error message: The provided credentials could not be validated');
    });
  });
}
