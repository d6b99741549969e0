import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { channelPayloadOf, emptyChannelForm } from '../../src/domain/channelForm';
import { vertexClaudeId, vertexCredentialOf, vertexUrl } from '../../server/relay/vertex';
import {
  closedPort,
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
import { anthropicPieces, anthropicPromptTokens, anthropicReply, anthropicToolInput, anthropicUsage } from './support/anthropicUpstream';
import { geminiCompletionTokens, geminiPieces, geminiReply, geminiToolArgs, geminiUsage } from './support/geminiUpstream';
import { startVertexUpstream, vertexScope, vertexTokenCount, vertexVector, type VertexUpstream } from './support/vertexUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Google Vertex AI channels (type 42) through the relay, driven by the official openai SDK against
 * a real server and a loopback fake of Google's token endpoint and Vertex AI: the channel's
 * service-account key exchanged for an access token (the JWT assertion's signature and claims
 * checked by the fake), that token cached and shared; Gemini models (whole, streamed, tools),
 * Claude models (rawPredict / streamRawPredict with Anthropic's body) and text embeddings
 * (predict), each billed exactly; Google errors, a refused or unreachable token endpoint and a
 * broken credential answered as errors and refunded, with nothing sent to the model; stream
 * faults; and the channel test.
 */

const gemini = 'gemini-2.0-flash';
const claude = 'claude-3-5-haiku-20241022';
const claudeId = 'claude-3-5-haiku@20241022';
const embedModel = 'text-embedding-005';
const ratio = 0.5;
const completionRatio = 4;
const region = 'europe-west4';
const project = 'relay-test-project';
/** Models served by the main channel whose answers the fake spoils. */
const faultModels = { quota: 'gemini-vertex-429', drop: 'gemini-vertex-drop', malformed: 'gemini-vertex-malformed', claudeDrop: 'claude-vertex-drop-20250101', claudeMissing: 'claude-vertex-missing-20250101' } as const;
/** Models each served by one channel with its own credential. */
const solo = {
  cached: 'gemini-cached',
  shortLived: 'gemini-short-lived',
  wrongKey: 'gemini-wrong-key',
  tokenDown: 'gemini-token-down',
  badJson: 'gemini-bad-json',
  otherProject: 'gemini-other-project',
  user: 'gemini-user-credentials',
} as const;
type Solo = keyof typeof solo;
const quotaOf = (prompt: number, completion: number): number => Math.ceil((prompt + completion * completionRatio) * ratio);
const geminiQuota = quotaOf(geminiUsage.promptTokenCount, geminiCompletionTokens);
const claudeQuota = quotaOf(anthropicPromptTokens, anthropicUsage.output_tokens);

/** A fresh RSA key pair, the private half as the PEM (PKCS#8) a service-account key file holds. */
function rsaKey(): { privatePem: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
}

/** A service-account key file's JSON, pretty-printed as downloaded. */
const serviceAccountJson = (email: string, keyId: string, privatePem: string, tokenUri: string, projectId = project): string =>
  JSON.stringify({ type: 'service_account', project_id: projectId, private_key_id: keyId, private_key: privatePem, client_email: email, client_id: '1234567890', token_uri: tokenUri }, null, 2);

describe('Vertex AI URLs, model ids and channel credentials', () => {
  it('builds the regional, global and base-URL endpoints of each publisher and method', () => {
    expect(vertexUrl('', 'us-central1', 'p1', 'chat', 'gemini-2.5-pro', false)).toBe(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/p1/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent',
    );
    expect(vertexUrl('', 'global', 'p1', 'chat', 'gemini-2.5-pro', true)).toBe(
      'https://aiplatform.googleapis.com/v1/projects/p1/locations/global/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    expect(vertexUrl('', 'us-east5', 'p1', 'chat', 'claude-3-7-sonnet-20250219', true)).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/p1/locations/us-east5/publishers/anthropic/models/claude-3-7-sonnet@20250219:streamRawPredict',
    );
    expect(vertexUrl('https://proxy.example', 'us-east5', 'p1', 'chat', 'claude-opus-4@20250514', false)).toBe(
      'https://proxy.example/v1/projects/p1/locations/us-east5/publishers/anthropic/models/claude-opus-4@20250514:rawPredict',
    );
    expect(vertexUrl('', 'us-central1', 'p1', 'embeddings', 'text-embedding-005', false)).toBe(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/p1/locations/us-central1/publishers/google/models/text-embedding-005:predict',
    );
    expect(vertexUrl('', 'us-central1', 'p1', 'images', 'imagen-3.0', false)).toBeNull();
    expect(vertexUrl('', 'us-central1', 'p1', 'embeddings', claude, false)).toBeNull();
  });

  it("maps Anthropic's dated model names to Vertex AI's ids", () => {
    expect(vertexClaudeId('claude-3-5-sonnet-20241022')).toBe('claude-3-5-sonnet-v2@20241022');
    expect(vertexClaudeId('claude-sonnet-4-20250514')).toBe('claude-sonnet-4@20250514');
    expect(vertexClaudeId('claude-3-haiku@20240307')).toBe('claude-3-haiku@20240307');
  });

  it('reads the key the console stores, the config fallback, and names what is wrong', () => {
    const adc = serviceAccountJson('sa@p.iam.gserviceaccount.com', 'kid', '-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----\n', 'https://oauth2.googleapis.com/token');
    const stored = channelPayloadOf({ ...emptyChannelForm, type: 42, config: { ...emptyChannelForm.config, region: 'us-central1', vertex_ai_project_id: 'p1', vertex_ai_adc: adc } });
    const fromKey = vertexCredentialOf(stored.key ?? null, JSON.parse(stored.config ?? '{}') as Record<string, unknown>);
    expect(fromKey).toMatchObject({ region: 'us-central1', project: 'p1', credentials: { kind: 'service_account', clientEmail: 'sa@p.iam.gserviceaccount.com', privateKeyId: 'kid' } });
    const fromConfig = vertexCredentialOf('', { region: 'global', vertex_ai_adc: adc });
    expect(fromConfig).toMatchObject({ region: 'global', project, credentials: { tokenUri: 'https://oauth2.googleapis.com/token' } });
    expect(vertexCredentialOf('', null)).toContain('Region|ProjectId|credentials JSON');
    expect(vertexCredentialOf('us-central1|p1|{"client_email":"a@b"}', null)).toBe('Vertex AI credentials (service account) lack private_key');
    expect(vertexCredentialOf('Central|p1|{}', null)).toContain('is not a region');
    expect(vertexCredentialOf('us-central1|p1|{"type":"external_account"}', null)).toContain('not supported');
  });
});

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay to Vertex AI — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: VertexUpstream;
    let userId: number;
    let token: RelayToken;
    let channelId: number;
    const channels = new Map<Solo, number>();
    let sdk: OpenAI;
    /** Emails are unique per suite: the gateway caches tokens per credential, across suites. */
    const email = (name: string) => `${name}-${target.label.replace(/\W/g, '').toLowerCase()}@${project}.iam.gserviceaccount.com`;

    beforeAll(async () => {
      upstream = await startVertexUpstream();
      const key = rsaKey();
      const otherKey = rsaKey();
      const all = [gemini, claude, embedModel, ...Object.values(faultModels), ...Object.values(solo)];
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, ...Object.fromEntries(all.map((m) => [m, ratio])) }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, ...Object.fromEntries(all.map((m) => [m, m === embedModel ? 1 : completionRatio])) }),
      });
      userId = await createRelayUser(db(), { username: 'vertexuser', quota: 500_000 });
      token = await createRelayToken(db(), { userId, name: 'vertex-token', remainQuota: 400_000 });

      const account = (name: string, extra: { lifetimeSeconds?: number; publicKey?: KeyObject; project?: string } = {}) =>
        upstream.account({ email: email(name), keyId: `kid-${name}`, publicKey: extra.publicKey ?? key.publicKey, project: extra.project ?? project, lifetimeSeconds: extra.lifetimeSeconds });
      for (const name of ['main', 'cached', 'other-project']) account(name);
      account('short-lived', { lifetimeSeconds: 30 });
      // its key file holds another private key than the one Google knows
      account('wrong-key', { publicKey: otherKey.publicKey });
      upstream.user('client-id.apps.googleusercontent.com', 'client-secret', 'refresh-1', project);

      // the main channel as the console saves it: key Region|ProjectId|credentials (compacted), config parts
      const form = { ...emptyChannelForm, type: 42, base_url: upstream.url, config: { ...emptyChannelForm.config, region, vertex_ai_project_id: project, vertex_ai_adc: serviceAccountJson(email('main'), 'kid-main', key.privatePem, upstream.tokenUrl) } };
      const payload = channelPayloadOf(form);
      const mainModels = [gemini, claude, embedModel, ...Object.values(faultModels)].join(',');
      channelId = await createRelayChannel(db(), { key: payload.key ?? '', config: payload.config ?? '', baseUrl: upstream.url, models: mainModels, type: 42 });

      const saKey = (name: string, pem = key.privatePem, tokenUri = upstream.tokenUrl, keyProject = project) =>
        `${region}|${keyProject}|${JSON.stringify(JSON.parse(serviceAccountJson(email(name), `kid-${name}`, pem, tokenUri)))}`;
      const keys: Record<Solo, string> = {
        cached: saKey('cached'),
        shortLived: saKey('short-lived'),
        wrongKey: saKey('wrong-key'),
        tokenDown: saKey('main', key.privatePem, `http://127.0.0.1:${await closedPort()}/token`),
        badJson: `${region}|${project}|{"type": "service_account", "private_key": "-----BEGIN`,
        otherProject: saKey('other-project', key.privatePem, upstream.tokenUrl, 'someone-elses-project'),
        user: `${region}|${project}|${JSON.stringify({ type: 'authorized_user', client_id: 'client-id.apps.googleusercontent.com', client_secret: 'client-secret', refresh_token: 'refresh-1', token_uri: upstream.tokenUrl })}`,
      };
      for (const name of Object.keys(solo) as Solo[]) channels.set(name, await createRelayChannel(db(), { key: keys[name], baseUrl: upstream.url, models: solo[name], type: 42 }));
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
      upstream.behave(faultModels.quota, { kind: 'status', status: 429, grpcStatus: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute_per_project_per_base_model.' });
      upstream.behave(faultModels.drop, { kind: 'dropMidStream', chunks: 2 });
      upstream.behave(faultModels.malformed, { kind: 'malformedEvent' });
      upstream.behave('claude-vertex-drop@20250101', { kind: 'anthropic', behaviour: { kind: 'dropMidStream', deltas: 3 } });
      upstream.behave('claude-vertex-missing@20250101', { kind: 'status', status: 404, grpcStatus: 'NOT_FOUND', message: 'Publisher Model `claude-vertex-missing@20250101` was not found or your project does not have access to it.' });
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const snapshot = (id = channelId) => ledger.snapshot(id);
    const expectCharged = (before: QuotaSnapshot, quota: number, id = channelId): Promise<void> => ledger.expectCharged(before, quota, id);
    const { expectUnchanged } = ledger;
    const sent = () => upstream.requests.at(-1)!;
    const tokenFetches = (name: string) => upstream.tokenRequests.filter((r) => r.subject === email(name));
    const hi = (model: string) => sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] });
    const streamText = async (model: string): Promise<{ text: string; failure: Error | null }> => {
      let text = '';
      try {
        const stream = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], stream: true });
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        return { text, failure: null };
      } catch (error) {
        return { text, failure: error as Error };
      }
    };

    it("exchanges the service-account key for an access token and sends Gemini's body to generateContent with it, billing the usage", async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({
        model: gemini,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Describe' }, { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } }] },
        ],
        temperature: 0.2,
        max_tokens: 256,
      });
      expect(answer.choices[0]?.message.content).toBe(geminiReply(gemini));
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      expect(answer.usage).toEqual({ prompt_tokens: geminiUsage.promptTokenCount, completion_tokens: geminiCompletionTokens, total_tokens: geminiUsage.promptTokenCount + geminiCompletionTokens });
      expect(sent().path).toBe(`/v1/projects/${project}/locations/${region}/publishers/google/models/${gemini}:generateContent`);
      expect(sent().json).toEqual({
        contents: [{ role: 'user', parts: [{ text: 'Describe' }, { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } }] }],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        generationConfig: { temperature: 0.2, maxOutputTokens: 256 },
      });
      // the token it carried was issued for the JWT-bearer assertion of the channel's key (checked by the fake)
      const [grant] = tokenFetches('main');
      expect(sent().headers.authorization).toBe(`Bearer ${grant?.issued}`);
      expect(grant?.header).toMatchObject({ alg: 'RS256', kid: 'kid-main' });
      expect(grant?.claims).toMatchObject({ iss: email('main'), aud: upstream.tokenUrl, scope: vertexScope });
      expect(sent().headers['x-goog-api-key']).toBeUndefined();
      await expectCharged(before, geminiQuota);
    });

    it('streams Gemini through streamGenerateContent?alt=sse as OpenAI chunks and bills the final usage', async () => {
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({ model: gemini, messages: [{ role: 'user', content: 'Stream' }], stream: true, stream_options: { include_usage: true } });
      const pieces: string[] = [];
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      expect(pieces).toEqual(geminiPieces(gemini));
      expect(finish).toBe('stop');
      expect(usage).toEqual({ prompt_tokens: geminiUsage.promptTokenCount, completion_tokens: geminiCompletionTokens, total_tokens: geminiUsage.promptTokenCount + geminiCompletionTokens });
      expect(sent().path).toBe(`/v1/projects/${project}/locations/${region}/publishers/google/models/${gemini}:streamGenerateContent?alt=sse`);
      await expectCharged(before, geminiQuota);
    });

    it('translates Gemini tool calls', async () => {
      const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
      const answer = await sdk.chat.completions.create({ model: gemini, messages: [{ role: 'user', content: 'Weather in Berlin?' }], tools, tool_choice: 'required' });
      const call = answer.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
      expect(JSON.parse(call.function.arguments)).toEqual(geminiToolArgs);
      expect(sent().json.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    });

    it("sends Claude models Anthropic's body through rawPredict and streamRawPredict, billing the usage", async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({ model: claude, messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Hello' }], temperature: 0.3, stop: 'END' });
      expect(answer.choices[0]?.message.content).toBe(anthropicReply(claudeId));
      expect(answer.usage).toEqual({ prompt_tokens: anthropicPromptTokens, completion_tokens: anthropicUsage.output_tokens, total_tokens: anthropicPromptTokens + anthropicUsage.output_tokens });
      expect(sent().path).toBe(`/v1/projects/${project}/locations/${region}/publishers/anthropic/models/${claudeId}:rawPredict`);
      expect(sent().json).toEqual({
        anthropic_version: 'vertex-2023-10-16',
        system: 'You are terse.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
        max_tokens: 4096,
        temperature: 0.3,
        stop_sequences: ['END'],
      });
      await expectCharged(before, claudeQuota);

      const beforeStream = await snapshot();
      const stream = await sdk.chat.completions.create({ model: claude, messages: [{ role: 'user', content: 'Stream please' }], stream: true, stream_options: { include_usage: true } });
      const pieces: string[] = [];
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
        usage = chunk.usage ?? usage;
      }
      expect(pieces).toEqual(anthropicPieces(claudeId));
      expect(usage?.completion_tokens).toBe(anthropicUsage.output_tokens);
      expect(sent().path).toBe(`/v1/projects/${project}/locations/${region}/publishers/anthropic/models/${claudeId}:streamRawPredict`);
      expect(sent().json).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true });
      await expectCharged(beforeStream, claudeQuota);

      const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
      const called = await sdk.chat.completions.create({ model: claude, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools });
      const call = called.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(JSON.parse(call.function.arguments)).toEqual(anthropicToolInput);
    });

    it('embeds through predict and bills the token counts Vertex AI reports', async () => {
      const before = await snapshot();
      const input = ['first text to embed', 'second one'];
      const answer = await sdk.embeddings.create({ model: embedModel, input, dimensions: 3, encoding_format: 'float' });
      expect(answer.data.map((d) => d.embedding)).toEqual([vertexVector, vertexVector]);
      const counted = input.reduce((sum, text) => sum + vertexTokenCount(text), 0);
      expect(answer.usage).toEqual({ prompt_tokens: counted, total_tokens: counted });
      expect(sent().path).toBe(`/v1/projects/${project}/locations/${region}/publishers/google/models/${embedModel}:predict`);
      expect(sent().json).toEqual({ instances: input.map((content) => ({ content })), parameters: { outputDimensionality: 3 } });
      await expectCharged(before, Math.ceil(counted * ratio));
    });

    it('fetches one token for many requests, concurrent or not, and a new one when it is about to expire', async () => {
      const answers = await Promise.all(Array.from({ length: 6 }, () => hi(solo.cached)));
      for (const answer of answers) expect(answer.choices[0]?.message.content).toBe(geminiReply(solo.cached));
      await hi(solo.cached);
      await hi(solo.cached);
      const fetches = tokenFetches('cached');
      expect(fetches).toHaveLength(1);
      const bearers = new Set(upstream.requests.filter((r) => r.model === solo.cached).map((r) => r.headers.authorization));
      expect([...bearers]).toEqual([`Bearer ${fetches[0]?.issued}`]);

      // a token that expires within the minute is not used again
      await hi(solo.shortLived);
      await hi(solo.shortLived);
      expect(tokenFetches('short-lived')).toHaveLength(2);
    });

    it('serves user credentials (authorized_user) through the refresh-token grant', async () => {
      const answer = await hi(solo.user);
      expect(answer.choices[0]?.message.content).toBe(geminiReply(solo.user));
      const grant = upstream.tokenRequests.find((r) => r.grantType === 'refresh_token');
      expect(sent().headers.authorization).toBe(`Bearer ${grant?.issued}`);
    });

    it('refuses a request whose token cannot be had (refused assertion, token endpoint down, broken key) before calling the model, refunded, and does not remember the failure', async () => {
      for (const [name, message] of [
        ['wrongKey', `Vertex AI access token request to ${upstream.tokenUrl} failed with status 400: invalid_grant: Invalid JWT Signature.`],
        ['tokenDown', 'Vertex AI access token request to http://127.0.0.1:'],
        ['badJson', 'Vertex AI credentials are not valid JSON'],
      ] as const) {
        const id = channels.get(name)!;
        const before = await snapshot(id);
        const error = await sdkError(hi(solo[name]));
        expect(error.status, name).toBe(500);
        expect(error.message, name).toContain(message);
        await expectUnchanged(before, id);
      }
      expect(upstream.requests).toHaveLength(0);
      expect(upstream.tokenRequests.filter((r) => r.issued !== null)).toHaveLength(0);
      // the refused token is asked for again on the next request
      await sdkError(hi(solo.wrongKey));
      expect(tokenFetches('wrong-key')).toHaveLength(2);
    });

    it("answers Google's errors as OpenAI errors with their status, refunded", async () => {
      for (const [model, id, status, type, message] of [
        [solo.otherProject, channels.get('otherProject')!, 403, 'PERMISSION_DENIED', "Permission 'aiplatform.endpoints.predict' denied"],
        // the last attempt's 429 gets one-api's message (contract §4.8), the type stays Google's
        [faultModels.quota, channelId, 429, 'RESOURCE_EXHAUSTED', '当前分组上游负载已饱和'],
        // Google's errors keep Google's shape on the Claude route too
        [faultModels.claudeMissing, channelId, 404, 'NOT_FOUND', 'Publisher Model `claude-vertex-missing@20250101` was not found'],
      ] as const) {
        const before = await snapshot(id);
        const error = await sdkError(hi(model));
        expect(error.status, model).toBe(status);
        expect(error.message, model).toContain(message);
        expect((error.error as { type?: string }).type, model).toBe(type);
        await expectUnchanged(before, id);
      }
    });

    it('ends a dropped stream (Gemini, Claude) with an error billing what was delivered; drops a malformed event', async () => {
      for (const model of [faultModels.drop, faultModels.claudeDrop]) {
        const before = await snapshot();
        const { text, failure } = await streamText(model);
        expect(failure, model).not.toBeNull();
        expect(text, model).not.toBe('');
        await eventually(async () => (await consumeLogs(db(), userId)).length === before.logs + 1, `${model}: the consume log`);
        const after = await snapshot();
        const charged = before.user.quota - after.user.quota;
        expect(charged, model).toBeGreaterThan(0);
        expect(after.channelUsed).toBe(before.channelUsed + charged);
        expect((await consumeLogs(db(), userId)).at(-1)?.quota).toBe(charged);
      }
      const before = await snapshot();
      const { text, failure } = await streamText(faultModels.malformed);
      expect(failure).toBeNull();
      expect(text).toBe(geminiReply(faultModels.malformed));
      await expectCharged(before, geminiQuota);
    });

    it('tests a Vertex AI channel through the same token and translation', async () => {
      const root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      expect((await root.get(`/api/channel/test/${channelId}?model=${gemini}`)).body).toMatchObject({ success: true, message: geminiReply(gemini) });
      expect(sent().path).toContain(`/publishers/google/models/${gemini}:generateContent`);
      expect((await root.get(`/api/channel/test/${channelId}?model=${claude}`)).body).toMatchObject({ success: true, message: anthropicReply(claudeId) });
      expect(sent().path).toContain(`/publishers/anthropic/models/${claudeId}:rawPredict`);
      const denied = await root.get(`/api/channel/test/${channels.get('otherProject')!}`);
      expect(denied.body.success).toBe(false);
      expect(denied.body.message).toContain("http status code: 403, error message: Permission 'aiplatform.endpoints.predict' denied");
      const refused = await root.get(`/api/channel/test/${channels.get('wrongKey')!}`);
      expect(refused.body.success).toBe(false);
      expect(refused.body.message).toContain('invalid_grant: Invalid JWT Signature.');
    });
  });
}
