import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
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
import { anthropicPieces, anthropicPromptTokens, anthropicReply, anthropicToolInput, anthropicUsage } from './support/anthropicUpstream';
import {
  conversePieces,
  converseReply,
  converseToolInput,
  converseUsage,
  startBedrockUpstream,
  titanTokens,
  titanVector,
  type BedrockUpstream,
} from './support/bedrockUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * AWS Bedrock channels (type 33, Claude through InvokeModel) through the relay, driven by the
 * official openai SDK against a real server and a loopback fake of Bedrock Runtime that checks
 * every request's Signature Version 4: the request signed and translated into Bedrock's
 * Anthropic body, the answer (whole, and streamed as AWS's binary event stream) translated back,
 * usage billed exactly, AWS errors answered as OpenAI errors with their status and refunded,
 * stream faults (exception frame, corrupt frame, dropped connection) ending in a clear error with
 * the delivered part billed; a channel key without its three parts refused before anything is
 * sent; and the channel test. Other chat models (Llama) go through Converse / ConverseStream, and
 * the Titan and Cohere embedding models through InvokeModel, each billed from their usage.
 */

const model = 'claude-3-5-haiku-20241022';
const modelId = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const ratio = 1.5;
const completionRatio = 5;
const region = 'eu-west-3';
/** Fault channels: their model (a Bedrock id, sent as it is) and their access key. */
const faults = {
  throttled: 'anthropic.claude-throttled-v1:0',
  badSecret: 'anthropic.claude-bad-secret-v1:0',
  unknownKey: 'anthropic.claude-unknown-key-v1:0',
  drop: 'anthropic.claude-drop-v1:0',
  exception: 'anthropic.claude-exception-v1:0',
  corrupt: 'anthropic.claude-corrupt-v1:0',
  malformed: 'anthropic.claude-malformed-v1:0',
  errorFirst: 'anthropic.claude-error-first-v1:0',
  noRegion: 'anthropic.claude-no-region-v1:0',
} as const;
type Fault = keyof typeof faults;
const quotaOf = (prompt: number, completion: number): number => Math.ceil((prompt + completion * completionRatio) * ratio);
const fullQuota = quotaOf(anthropicPromptTokens, anthropicUsage.output_tokens);
const llama = 'meta.llama3-8b-instruct-v1:0';
const titan = 'amazon.titan-embed-text-v2:0';
const cohere = 'cohere.embed-english-v3';
const converseQuota = quotaOf(converseUsage.inputTokens, converseUsage.outputTokens);

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay to AWS Bedrock (Claude) — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: BedrockUpstream;
    let userId: number;
    let token: RelayToken;
    let channelId: number;
    const channels = new Map<Fault, number>();
    let sdk: OpenAI;

    beforeAll(async () => {
      upstream = await startBedrockUpstream();
      const models = [model, llama, titan, cohere, ...Object.values(faults)];
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, ...Object.fromEntries(models.map((m) => [m, ratio])) }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, ...Object.fromEntries(models.map((m) => [m, completionRatio])) }),
      });
      userId = await createRelayUser(db(), { username: 'bedrockuser', quota: 500_000 });
      token = await createRelayToken(db(), { userId, name: 'bedrock-token', remainQuota: 400_000 });
      upstream.account('AKIDOK', 'secret-ok');
      channelId = await createRelayChannel(db(), { key: `AKIDOK|secret-ok|${region}`, baseUrl: upstream.url, models: [model, llama, titan, cohere].join(','), type: 33 });
      const keys: Record<Fault, string> = {
        throttled: `AKIDTHROTTLED|s1|${region}`,
        badSecret: `AKIDOK|not-the-secret|${region}`,
        unknownKey: `AKIDNOBODY|s2|${region}`,
        drop: `AKIDDROP|s3|${region}`,
        exception: `AKIDEXC|s4|${region}`,
        corrupt: `AKIDCRC|s5|${region}`,
        malformed: `AKIDMAL|s6|${region}`,
        errorFirst: `AKIDFIRST|s7|${region}`,
        noRegion: 'AKIDOK|secret-ok',
      };
      for (const fault of Object.keys(faults) as Fault[]) {
        channels.set(fault, await createRelayChannel(db(), { key: keys[fault], baseUrl: upstream.url, models: faults[fault], type: 33 }));
      }
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
      upstream.account('AKIDTHROTTLED', 's1', { kind: 'awsError', status: 429, exception: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' });
      upstream.account('AKIDDROP', 's3', { kind: 'dropMidStream', deltas: 3 });
      upstream.account('AKIDEXC', 's4', { kind: 'exceptionMidStream' });
      upstream.account('AKIDCRC', 's5', { kind: 'corruptFrame' });
      upstream.account('AKIDMAL', 's6', { kind: 'malformedEvent' });
      upstream.account('AKIDFIRST', 's7', { kind: 'errorFirst' });
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

    it('signs the request, sends Bedrock its Anthropic body and translates the answer back, billing its usage', async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
        ],
        temperature: 0.3,
        stop: 'END',
      });
      expect(answer.choices[0]?.message).toMatchObject({ role: 'assistant', content: anthropicReply(modelId) });
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      expect(answer.usage).toEqual({ prompt_tokens: anthropicPromptTokens, completion_tokens: anthropicUsage.output_tokens, total_tokens: anthropicPromptTokens + anthropicUsage.output_tokens });

      const request = sent();
      expect(request.path).toBe('/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke');
      expect(request.modelId).toBe(modelId);
      expect(String(request.headers.authorization)).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=AKIDOK/\\d{8}/${region}/bedrock/aws4_request, SignedHeaders=`));
      expect(request.headers['x-api-key']).toBeUndefined();
      expect(request.json).toEqual({
        anthropic_version: 'bedrock-2023-05-31',
        system: 'You are terse.',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            ],
          },
        ],
        max_tokens: 4096,
        temperature: 0.3,
        stop_sequences: ['END'],
      });
      await expectCharged(before, fullQuota);
    });

    it('streams AWS event-stream frames as OpenAI chunks, with the usage chunk when asked, and bills it', async () => {
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Stream please' }], max_tokens: 300, stream: true, stream_options: { include_usage: true } });
      const pieces: string[] = [];
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (choice?.delta.content) pieces.push(choice.delta.content);
        if (choice?.finish_reason) finish = choice.finish_reason;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(pieces).toEqual(anthropicPieces(modelId));
      expect(finish).toBe('stop');
      expect(usage).toEqual({ prompt_tokens: anthropicPromptTokens, completion_tokens: anthropicUsage.output_tokens, total_tokens: anthropicPromptTokens + anthropicUsage.output_tokens });
      expect(sent().path).toBe('/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke-with-response-stream');
      expect(sent().headers.accept).toBe('application/vnd.amazon.eventstream');
      expect(sent().json).toMatchObject({ max_tokens: 300 });
      await expectCharged(before, fullQuota);
    });

    it('translates tool calls both ways, whole and streamed', async () => {
      const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
      const answer = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools });
      const call = answer.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
      expect(JSON.parse(call.function.arguments)).toEqual(anthropicToolInput);
      expect(sent().json.tools).toEqual([{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }]);

      const stream = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather?' }], tools, stream: true });
      let args = '';
      for await (const chunk of stream) for (const piece of chunk.choices[0]?.delta.tool_calls ?? []) args += piece.function?.arguments ?? '';
      expect(JSON.parse(args)).toEqual(anthropicToolInput);
    });

    it('answers AWS errors (throttling, a wrong secret, an unknown key) as OpenAI errors with their status, refunded', async () => {
      for (const [fault, status, type, message] of [
        // the last attempt's 429 gets one-api's message (contract §4.8), the type stays AWS's
        ['throttled', 429, 'throttling', '当前分组上游负载已饱和'],
        ['badSecret', 403, 'invalid_signature', 'signature we calculated does not match'],
        ['unknownKey', 403, 'unrecognized_client', 'security token included in the request is invalid'],
      ] as const) {
        const id = channels.get(fault)!;
        const before = await snapshot(id);
        const error = await sdkError(sdk.chat.completions.create({ model: faults[fault], messages: [{ role: 'user', content: 'Hi' }] }));
        expect(error.status, fault).toBe(status);
        expect(error.message, fault).toContain(message);
        expect((error.error as { type?: string }).type, fault).toBe(type);
        await expectUnchanged(before, id);
      }
    });

    it('refuses a channel key without its three parts before anything is sent, refunded', async () => {
      const id = channels.get('noRegion')!;
      const before = await snapshot(id);
      const error = await sdkError(sdk.chat.completions.create({ model: faults.noRegion, messages: [{ role: 'user', content: 'Hi' }] }));
      expect(error.status).toBe(500);
      expect(error.message).toContain('AK|SK|Region');
      expect(upstream.requests).toHaveLength(0);
      await expectUnchanged(before, id);
    });

    it('refuses what Bedrock cannot take (an image by URL, an embedding model in chat, several texts for Titan) with a 400 naming it, before calling it', async () => {
      const before = await snapshot();
      const image = await sdkError(
        sdk.chat.completions.create({ model, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] }),
      );
      expect(image.status).toBe(400);
      expect(image.message).toContain('data URLs');
      const llamaImage = await sdkError(
        sdk.chat.completions.create({ model: llama, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] }),
      );
      expect(llamaImage.status).toBe(400);
      expect(llamaImage.message).toContain('data URLs');
      const embedInChat = await sdkError(sdk.chat.completions.create({ model: titan, messages: [{ role: 'user', content: 'Hi' }] }));
      expect(embedInChat.status).toBe(400);
      expect(embedInChat.message).toContain('/v1/embeddings');
      const titanMany = await sdkError(sdk.embeddings.create({ model: titan, input: ['one', 'two'] }));
      expect(titanMany.status).toBe(400);
      expect(titanMany.message).toContain('one text per request');
      expect(upstream.requests).toHaveLength(0);
      await expectUnchanged(before, channelId);
    });

    it('sends other chat models (Llama) to Converse and translates the answer back, billing its usage', async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({
        model: llama,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Describe' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
        ],
        max_tokens: 50,
        temperature: 0.2,
        top_p: 0.9,
        stop: ['END'],
      });
      expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: converseReply(llama) }, finish_reason: 'stop' });
      expect(answer.usage).toEqual({ prompt_tokens: converseUsage.inputTokens, completion_tokens: converseUsage.outputTokens, total_tokens: converseUsage.totalTokens });
      const request = sent();
      expect(request.path).toBe('/model/meta.llama3-8b-instruct-v1%3A0/converse');
      expect(request.json).toEqual({
        messages: [{ role: 'user', content: [{ text: 'Describe' }, { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } }] }],
        system: [{ text: 'Be brief.' }],
        inferenceConfig: { maxTokens: 50, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
      });
      await expectCharged(before, converseQuota);
    });

    it('streams ConverseStream events as OpenAI chunks with the usage, and bills it', async () => {
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({ model: llama, messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } });
      const { pieces, usage, finish } = await streamedChat(stream);
      expect(pieces).toEqual(conversePieces(llama));
      expect(finish).toBe('stop');
      expect(usage).toEqual({ prompt_tokens: converseUsage.inputTokens, completion_tokens: converseUsage.outputTokens, total_tokens: converseUsage.totalTokens });
      expect(sent().path).toBe('/model/meta.llama3-8b-instruct-v1%3A0/converse-stream');
      await expectCharged(before, converseQuota);
    });

    it('translates Converse tool use both ways, whole and streamed', async () => {
      const tools = [{ type: 'function' as const, function: { name: 'weather', description: 'The weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
      const messages = [
        { role: 'user' as const, content: 'Weather in Lyon?' },
        { role: 'assistant' as const, content: null, tool_calls: [{ id: 'tooluse_0', type: 'function' as const, function: { name: 'weather', arguments: '{"city":"Nice"}' } }] },
        { role: 'tool' as const, tool_call_id: 'tooluse_0', content: 'sunny' },
        { role: 'user' as const, content: 'And Lyon?' },
      ];
      const whole = await sdk.chat.completions.create({ model: llama, messages, tools, tool_choice: 'required' });
      expect(whole.choices[0]?.finish_reason).toBe('tool_calls');
      const call = whole.choices[0]?.message.tool_calls?.[0];
      expect(call?.type === 'function' ? [call.id, call.function.name, JSON.parse(call.function.arguments)] : null).toEqual(['tooluse_1', 'weather', converseToolInput]);
      expect(sent().json).toMatchObject({
        messages: [
          { role: 'user', content: [{ text: 'Weather in Lyon?' }] },
          { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_0', name: 'weather', input: { city: 'Nice' } } }] },
          { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_0', content: [{ text: 'sunny' }] } }, { text: 'And Lyon?' }] },
        ],
        toolConfig: { tools: [{ toolSpec: { name: 'weather', description: 'The weather', inputSchema: { json: tools[0]!.function.parameters } } }], toolChoice: { any: {} } },
      });
      const stream = await sdk.chat.completions.create({ model: llama, messages, tools, tool_choice: { type: 'function', function: { name: 'weather' } }, stream: true });
      let args = '';
      let name = '';
      let finish: string | null = null;
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta.tool_calls?.[0];
        if (delta?.function?.name) name = delta.function.name;
        args += delta?.function?.arguments ?? '';
        if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
      }
      expect([name, JSON.parse(args), finish]).toEqual(['weather', converseToolInput, 'tool_calls']);
    });

    it('ends a ConverseStream broken by an exception frame, a corrupt frame or a dropped connection with an error, billing what was delivered', async () => {
      const behaviours = { exceptionMidStream: 'The model stream failed.', corruptFrame: 'malformed event stream from AWS Bedrock', dropMidStream: '' } as const;
      try {
        for (const [kind, message] of Object.entries(behaviours)) {
          upstream.account('AKIDOK', 'secret-ok', kind === 'dropMidStream' ? { kind, deltas: 2 } : { kind: kind as 'exceptionMidStream' | 'corruptFrame' });
          const before = await snapshot();
          let text = '';
          let failure: Error | null = null;
          try {
            const stream = await sdk.chat.completions.create({ model: llama, messages: [{ role: 'user', content: 'Hi' }], stream: true });
            for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
          } catch (error) {
            failure = error as Error;
          }
          expect(failure, kind).not.toBeNull();
          if (message !== '') expect(failure?.message).toContain(message);
          expect(text, kind).toBe(conversePieces(llama).slice(0, 2).join(''));
          await ledger.expectPartCharged(before, channelId, kind);
        }
      } finally {
        upstream.account('AKIDOK', 'secret-ok');
      }
    });

    it('embeds with Titan (one text, its token count billed) and Cohere (many texts, counted input billed)', async () => {
      const before = await snapshot();
      // the SDK asks for base64 by default and decodes it: the float32 vector arrives whole
      const one = await sdk.embeddings.create({ model: titan, input: 'hello there', dimensions: 256 });
      expect(one.data).toEqual([{ object: 'embedding', index: 0, embedding: titanVector }]);
      expect(one.usage).toEqual({ prompt_tokens: titanTokens, total_tokens: titanTokens });
      expect(sent()).toMatchObject({ path: '/model/amazon.titan-embed-text-v2%3A0/invoke', json: { inputText: 'hello there', dimensions: 256 } });
      await expectCharged(before, Math.ceil(titanTokens * ratio));
      const many = await sdk.embeddings.create({ model: cohere, input: ['first text', 'second text'] });
      expect(many.data.map((d) => d.embedding)).toEqual([
        [0, 0.5],
        [1, 0.5],
      ]);
      expect(sent()).toMatchObject({ path: '/model/cohere.embed-english-v3/invoke', json: { texts: ['first text', 'second text'], input_type: 'search_document' } });
    });

    it('answers an error event before any content as an ordinary failure, refunded', async () => {
      const id = channels.get('errorFirst')!;
      const before = await snapshot(id);
      const { failure } = await streamText('errorFirst');
      expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(500);
      expect(failure?.message).toContain('Overloaded');
      await expectUnchanged(before, id);
    });

    it('ends a stream broken by an exception frame, a corrupt frame or a dropped connection with an error, billing what was delivered', async () => {
      for (const fault of ['exception', 'corrupt', 'drop'] as const) {
        const id = channels.get(fault)!;
        const before = await snapshot(id);
        const { text, failure } = await streamText(fault);
        expect(failure, fault).not.toBeNull();
        expect(text, `${fault}: ${String(failure)}`).not.toBe('');
        if (fault === 'exception') expect(failure?.message).toContain('The model stream failed.');
        if (fault === 'corrupt') expect(failure?.message).toContain('malformed event stream from AWS Bedrock');
        await eventually(async () => (await consumeLogs(db(), userId)).length === before.logs + 1, `${fault}: the consume log`);
        const after = await snapshot(id);
        const charged = before.user.quota - after.user.quota;
        expect(charged, fault).toBeGreaterThan(0);
        expect(charged, fault).toBeLessThanOrEqual(after.user.quota + charged);
        expect(after.token.remainQuota).toBe(before.token.remainQuota - charged);
        expect(after.channelUsed).toBe(before.channelUsed + charged);
        expect((await consumeLogs(db(), userId)).at(-1)?.quota).toBe(charged);
      }
    });

    it('drops a chunk whose bytes are not JSON and completes the stream', async () => {
      const id = channels.get('malformed')!;
      const before = await snapshot(id);
      const { text, failure } = await streamText('malformed');
      expect(failure).toBeNull();
      expect(text).toBe(anthropicReply(faults.malformed));
      await expectCharged(before, fullQuota, id);
    });

    it('tests a Bedrock channel through the same signing and translation', async () => {
      const root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      const ok = await root.get(`/api/channel/test/${channelId}`);
      expect(ok.body).toMatchObject({ success: true, message: anthropicReply(modelId) });
      expect(sent().modelId).toBe(modelId);
      const refused = await root.get(`/api/channel/test/${channels.get('badSecret')!}`);
      expect(refused.body.success).toBe(false);
      expect(refused.body.message).toContain('http status code: 403, error message: The request signature we calculated does not match');
    });
  });
}
