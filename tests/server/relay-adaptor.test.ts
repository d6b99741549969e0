import { describe, expect, it } from 'vitest';
import { channelTypeByValue, channelTypes, relaySupportOf, typesWithRelaySupport } from '../../src/domain/channelTypes';
import { channelBaseUrl, compatiblePathTypes, isCompatibilityType, isRelayableType, nativeWireOf, nativeWireTypes, sentHeaders, sentUrl, unsupportedTypeMessage, upstreamTarget, type AdaptorChannel } from '../../server/relay/adaptor';
import type { RelayMode } from '../../server/relay/types';

/** The adaptors' URL and header rules (contract §3.6), checked type by type and mode by mode. */

const modes: readonly RelayMode[] = ['chat', 'completions', 'embeddings', 'moderations', 'images', 'edits', 'speech', 'transcriptions', 'translations', 'image_edits'];
const tasks: Readonly<Record<RelayMode, string>> = {
  chat: 'chat/completions',
  completions: 'completions',
  embeddings: 'embeddings',
  moderations: 'moderations',
  images: 'images/generations',
  edits: 'edits',
  speech: 'audio/speech',
  transcriptions: 'audio/transcriptions',
  translations: 'audio/translations',
  image_edits: 'images/edits',
};

/** Types with a native adaptor in one-api that the relay does not serve yet. */
const nativeTypes = [11, 21, 43];
/** Types served through a native wire (server/relay/wire.ts). */
const wireTypes = [14, 15, 18, 23, 24, 33, 34, 38, 42, 46];
/** The catalogued OAI types whose URL is `<base>/v1/<task>` with a Bearer key. */
const plainTypes = [1, 2, 4, 5, 6, 7, 8, 9, 10, 12, 13, 19, 22, 25, 26, 28, 29, 31, 32, 36, 39, 44, 45, 48];

const channel = (type: number, extra: Partial<AdaptorChannel> = {}): AdaptorChannel => ({
  type,
  key: 'sk-test',
  base_url: null,
  other: null,
  config: null,
  ...extra,
});

const bearer = { Authorization: 'Bearer sk-test' };

describe('relayable types', () => {
  it('refuses exactly the native types without a wire and relays every other catalogued type', () => {
    for (const type of channelTypes.map((t) => t.value)) {
      expect(isRelayableType(type), `type ${type}`).toBe(!nativeTypes.includes(type));
    }
    expect(isRelayableType(0)).toBe(true);
    expect(isRelayableType(99)).toBe(true);
    const covered = new Set([...plainTypes, ...wireTypes, 3, 16, 17, 20, 27, 30, 35, 37, 40, 41, 47, 49, 50, 51]);
    expect(channelTypes.map((t) => t.value).filter((t) => isRelayableType(t) && !covered.has(t))).toEqual([]);
  });

  it("serves exactly what the domain's relay support says (the console shows the same table)", () => {
    const sorted = (types: readonly number[]) => [...types].sort((a, b) => a - b);
    expect(sorted(nativeWireTypes())).toEqual(typesWithRelaySupport('native'));
    expect(sorted(compatiblePathTypes())).toEqual(typesWithRelaySupport('compatible'));
    expect(typesWithRelaySupport('none')).toEqual(nativeTypes);
    for (const type of [...channelTypes.map((t) => t.value), 0, 99]) {
      const support = relaySupportOf(type);
      expect(nativeWireOf(type) !== undefined, `type ${type} wire`).toBe(support === 'native');
      expect(isCompatibilityType(type), `type ${type} compatible`).toBe(support === 'compatible');
      expect(isRelayableType(type), `type ${type} relayable`).toBe(support !== 'none');
      expect(upstreamTarget(channel(type, { config: '{"user_id":"acct"}' }), 'chat', 'm') === null, `type ${type} target`).toBe(support === 'none');
    }
  });

  it('names the type in the unsupported message', () => {
    expect(unsupportedTypeMessage(14)).toBe('channel type 14 (Anthropic) is not supported yet');
    expect(unsupportedTypeMessage(24)).toBe('channel type 24 (Gemini) is not supported yet');
    expect(unsupportedTypeMessage(77)).toBe('channel type 77 is not supported yet');
  });

  it('sends Anthropic chat to <base>/v1/messages with x-api-key and anthropic-version, and nothing else', () => {
    expect(upstreamTarget(channel(14), 'chat', 'claude-3-5-haiku')).toEqual({
      url: 'https://api.anthropic.com/v1/messages',
      headers: { 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01' },
    });
    expect(upstreamTarget(channel(14, { base_url: 'http://127.0.0.1:9/' }), 'chat', 'm')?.url).toBe('http://127.0.0.1:9/v1/messages');
    for (const mode of modes.filter((m) => m !== 'chat')) expect(upstreamTarget(channel(14), mode, 'm'), mode).toBeNull();
  });

  it('sends Gemini chat and embeddings to its model methods with x-goog-api-key, in the configured API version', () => {
    expect(upstreamTarget(channel(24), 'chat', 'gemini-2.0-flash')).toEqual({
      url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent',
      headers: { 'x-goog-api-key': 'sk-test' },
    });
    expect(upstreamTarget(channel(24), 'chat', 'gemini-2.0-flash', true)?.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
    );
    expect(upstreamTarget(channel(24, { config: '{"api_version":"v1"}' }), 'embeddings', 'text-embedding-004')?.url).toBe(
      'https://generativelanguage.googleapis.com/v1/models/text-embedding-004:batchEmbedContents',
    );
    for (const mode of ['completions', 'moderations', 'images'] as const) expect(upstreamTarget(channel(24), mode, 'm'), mode).toBeNull();
  });

  it('sends Baidu Qianfan requests to the model\'s wenxinworkshop endpoint, chat and embeddings, refusing a malformed key before anything is sent', async () => {
    const prefix = 'https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop';
    const baidu = channel(15, { key: 'sk-test' });
    expect(upstreamTarget(baidu, 'chat', 'ERNIE-4.0-8K')?.url).toBe(`${prefix}/chat/completions_pro`);
    expect(upstreamTarget(baidu, 'chat', 'ERNIE-3.5-8K', true)?.url).toBe(`${prefix}/chat/completions`);
    expect(upstreamTarget(baidu, 'chat', 'ernie-speed-8k')?.url).toBe(`${prefix}/chat/ernie_speed`);
    expect(upstreamTarget(baidu, 'chat', 'my-custom-service')?.url).toBe(`${prefix}/chat/my-custom-service`);
    expect(upstreamTarget(baidu, 'embeddings', 'bge-large-zh')?.url).toBe(`${prefix}/embeddings/bge_large_zh`);
    expect(upstreamTarget(baidu, 'embeddings', 'Embedding-V1')?.url).toBe(`${prefix}/embeddings/embedding-v1`);
    for (const mode of ['completions', 'moderations', 'images'] as const) expect(upstreamTarget(baidu, mode, 'm'), mode).toBeNull();
    await expect(sentUrl(upstreamTarget(baidu, 'chat', 'ERNIE-4.0-8K')!)).rejects.toThrow('APIKey|SecretKey');
  });

  it('sends AWS Bedrock requests to the region\'s runtime endpoint (or the base URL), signed: Claude and embeddings to InvokeModel, other chat models to Converse', async () => {
    const aws = channel(33, { key: 'AKID|secret|ap-northeast-1' });
    const whole = upstreamTarget(aws, 'chat', 'claude-3-5-sonnet-20240620');
    expect(whole?.url).toBe('https://bedrock-runtime.ap-northeast-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke');
    expect(whole?.headers).toEqual({ Accept: 'application/json' });
    expect(upstreamTarget(aws, 'chat', 'us.anthropic.claude-sonnet-4-20250514-v1:0', true)?.url).toBe(
      'https://bedrock-runtime.ap-northeast-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke-with-response-stream',
    );
    expect(upstreamTarget(channel(33, { key: 'AKID|secret|us-east-1', base_url: 'http://127.0.0.1:9/' }), 'chat', 'claude-2.1')?.url).toBe('http://127.0.0.1:9/model/anthropic.claude-v2%3A1/invoke');
    // the config's parts when the key is not AK|SK|Region (channels saved by older consoles)
    const fromConfig = upstreamTarget(channel(33, { key: '', config: '{"ak":"AKID","sk":"secret","region":"us-west-2"}' }), 'chat', 'claude-2.1');
    expect(fromConfig?.url).toContain('bedrock-runtime.us-west-2.amazonaws.com');
    const headers = await sentHeaders(whole!, { 'Content-Type': 'application/json' }, '{}');
    expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/ap-northeast-1\/bedrock\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
    expect(headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    await expect(sentHeaders(upstreamTarget(channel(33, { key: 'AKID|secret' }), 'chat', 'claude-2.1')!, {}, '{}')).rejects.toThrow('AK|SK|Region');
    expect(upstreamTarget(aws, 'chat', 'meta.llama3-8b-instruct-v1:0')?.url).toBe('https://bedrock-runtime.ap-northeast-1.amazonaws.com/model/meta.llama3-8b-instruct-v1%3A0/converse');
    expect(upstreamTarget(aws, 'chat', 'mistral.mistral-large-2402-v1:0', true)?.url).toBe('https://bedrock-runtime.ap-northeast-1.amazonaws.com/model/mistral.mistral-large-2402-v1%3A0/converse-stream');
    expect(upstreamTarget(aws, 'embeddings', 'amazon.titan-embed-text-v2:0')?.url).toBe('https://bedrock-runtime.ap-northeast-1.amazonaws.com/model/amazon.titan-embed-text-v2%3A0/invoke');
    for (const mode of modes.filter((m) => m !== 'chat' && m !== 'embeddings')) expect(upstreamTarget(aws, mode, 'm'), mode).toBeNull();
  });

  it("sends Vertex AI requests to the region's publisher model methods (or the base URL), with an access token when sent", async () => {
    const vertex = channel(42, { key: 'us-central1|p1|{"client_email":"sa@p1.iam.gserviceaccount.com","private_key":"not a key"}' });
    const gemini = upstreamTarget(vertex, 'chat', 'gemini-2.0-flash');
    expect(gemini?.url).toBe('https://us-central1-aiplatform.googleapis.com/v1/projects/p1/locations/us-central1/publishers/google/models/gemini-2.0-flash:generateContent');
    expect(gemini?.headers).toEqual({});
    expect(upstreamTarget(vertex, 'chat', 'claude-3-5-haiku-20241022', true)?.url).toBe(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/p1/locations/us-central1/publishers/anthropic/models/claude-3-5-haiku@20241022:streamRawPredict',
    );
    expect(upstreamTarget(channel(42, { key: vertex.key, base_url: 'http://127.0.0.1:9/' }), 'embeddings', 'text-embedding-005')?.url).toBe(
      'http://127.0.0.1:9/v1/projects/p1/locations/us-central1/publishers/google/models/text-embedding-005:predict',
    );
    // a credential that cannot be used is refused when the request is signed, before it is sent
    await expect(sentHeaders(gemini!, {}, '{}')).rejects.toThrow('private_key is not a PEM PKCS#8 RSA key');
    await expect(sentHeaders(upstreamTarget(channel(42), 'chat', 'gemini-2.0-flash')!, {}, '{}')).rejects.toThrow('Region|ProjectId|credentials JSON');
    for (const mode of ['completions', 'moderations', 'images'] as const) expect(upstreamTarget(vertex, mode, 'm'), mode).toBeNull();
  });

  it('sends Zhipu, Ali, Ollama, Cohere and Cloudflare to their documented OpenAI-compatible APIs', () => {
    const compatible: readonly [number, RelayMode, string | null][] = [
      [16, 'chat', 'https://open.bigmodel.cn/api/paas/v4/chat/completions'],
      [16, 'embeddings', 'https://open.bigmodel.cn/api/paas/v4/embeddings'],
      [16, 'images', null],
      [17, 'chat', 'https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions'],
      [17, 'embeddings', 'https://dashscope.aliyuncs.com/compatible-mode/v1/embeddings'],
      [17, 'moderations', null],
      [30, 'chat', 'http://localhost:11434/v1/chat/completions'],
      [30, 'completions', 'http://localhost:11434/v1/completions'],
      [30, 'embeddings', 'http://localhost:11434/v1/embeddings'],
      [30, 'images', null],
      [35, 'chat', 'https://api.cohere.ai/compatibility/v1/chat/completions'],
      [35, 'embeddings', 'https://api.cohere.ai/compatibility/v1/embeddings'],
      [35, 'completions', null],
    ];
    for (const [type, mode, url] of compatible) {
      const target = upstreamTarget(channel(type), mode, 'm');
      expect(target?.url ?? null, `type ${type} ${mode}`).toBe(url);
      if (target !== null) expect(target.headers).toEqual(bearer);
    }
    const cloudflare = channel(37, { config: '{"user_id":"acc123"}' });
    expect(upstreamTarget(cloudflare, 'chat', '@cf/meta/llama-3.1-8b-instruct')?.url).toBe('https://api.cloudflare.com/client/v4/accounts/acc123/ai/v1/chat/completions');
    expect(upstreamTarget(cloudflare, 'embeddings', '@cf/baai/bge-base-en-v1.5')?.url).toBe('https://api.cloudflare.com/client/v4/accounts/acc123/ai/v1/embeddings');
    // without the account id there is no URL to send to
    expect(upstreamTarget(channel(37), 'chat', 'm')).toBeNull();
  });

  it('has no target for a native type', () => {
    for (const type of nativeTypes) {
      for (const mode of modes) expect(upstreamTarget(channel(type), mode, 'm'), `type ${type} ${mode}`).toBeNull();
    }
  });
});

describe('upstream URLs and headers', () => {
  it('uses <base>/v1/<task> and a Bearer key for the plain OpenAI-compatible types', () => {
    for (const type of plainTypes) {
      const base = type === 8 ? 'https://custom.example' : channelTypeByValue(type).defaultBaseUrl;
      expect(base, `type ${type}`).not.toBe('');
      const c = type === 8 ? channel(type, { base_url: base }) : channel(type);
      for (const mode of modes) {
        expect(upstreamTarget(c, mode, 'gpt-4o'), `type ${type} ${mode}`).toEqual({ url: `${base}/v1/${tasks[mode]}`, headers: bearer });
      }
    }
  });

  it('prefers the channel base URL and trims its trailing slashes', () => {
    const c = channel(1, { base_url: 'http://127.0.0.1:9000//' });
    expect(channelBaseUrl(c)).toBe('http://127.0.0.1:9000');
    expect(upstreamTarget(c, 'chat', 'gpt-4o')?.url).toBe('http://127.0.0.1:9000/v1/chat/completions');
    expect(upstreamTarget(channel(22), 'chat', 'x')?.url).toBe('https://fastgpt.run/api/openapi/v1/chat/completions');
    expect(upstreamTarget(channel(29), 'embeddings', 'x')?.url).toBe('https://api.groq.com/openai/v1/embeddings');
  });

  it('builds Azure deployment URLs with api-version and the api-key header', () => {
    const base = 'https://res.openai.azure.com/';
    const viaConfig = channel(3, { base_url: base, config: '{"api_version":"2024-06-01"}', other: '2023-05-15' });
    for (const mode of modes) {
      expect(upstreamTarget(viaConfig, mode, 'gpt-3.5-turbo'), mode).toEqual({
        url: `https://res.openai.azure.com/openai/deployments/gpt-35-turbo/${tasks[mode]}?api-version=2024-06-01`,
        headers: { 'api-key': 'sk-test' },
      });
    }
    const viaOther = channel(3, { base_url: base, config: '{"api_version":""}', other: '2023-05-15' });
    expect(upstreamTarget(viaOther, 'chat', 'gpt-4.1-mini')?.url).toBe(
      'https://res.openai.azure.com/openai/deployments/gpt-41-mini/chat/completions?api-version=2023-05-15',
    );
    const brokenConfig = channel(3, { base_url: base, config: 'not json', other: 'v1' });
    expect(upstreamTarget(brokenConfig, 'embeddings', 'ada')?.url).toBe('https://res.openai.azure.com/openai/deployments/ada/embeddings?api-version=v1');
  });

  it('drops the prefix for a Cloudflare AI Gateway base (types 1 and 3 only)', () => {
    const gateway = 'https://gateway.ai.cloudflare.com/v1/acct/gw/openai';
    expect(upstreamTarget(channel(1, { base_url: gateway }), 'chat', 'gpt-4o')?.url).toBe(`${gateway}/chat/completions`);
    expect(upstreamTarget(channel(1, { base_url: gateway }), 'images', 'dall-e-3')?.url).toBe(`${gateway}/images/generations`);
    const azureGateway = 'https://gateway.ai.cloudflare.com/v1/acct/gw/azure-openai/res';
    expect(upstreamTarget(channel(3, { base_url: azureGateway, other: '2024-06-01' }), 'chat', 'gpt-4o')).toEqual({
      url: `${azureGateway}/gpt-4o/chat/completions?api-version=2024-06-01`,
      headers: { 'api-key': 'sk-test' },
    });
    // Another type keeps /v1 behind a gateway base.
    expect(upstreamTarget(channel(8, { base_url: gateway }), 'chat', 'gpt-4o')?.url).toBe(`${gateway}/v1/chat/completions`);
  });

  it('adds the OpenRouter attribution headers', () => {
    for (const mode of modes) {
      expect(upstreamTarget(channel(20), mode, 'openai/gpt-4o'), mode).toEqual({
        url: `https://openrouter.ai/api/v1/${tasks[mode]}`,
        headers: { ...bearer, 'HTTP-Referer': 'https://github.com/songquanpeng/one-api', 'X-Title': 'One API' },
      });
    }
  });

  it('serves chat only for MiniMax, Novita and Baidu V2', () => {
    const chatUrls: [number, string][] = [
      [27, 'https://api.minimax.chat/v1/text/chatcompletion_v2'],
      [41, 'https://api.novita.ai/v3/openai/chat/completions'],
      [47, 'https://qianfan.baidubce.com/v2/chat/completions'],
    ];
    for (const [type, url] of chatUrls) {
      expect(upstreamTarget(channel(type), 'chat', 'm'), `type ${type}`).toEqual({ url, headers: bearer });
      for (const mode of modes.filter((m) => m !== 'chat')) expect(upstreamTarget(channel(type), mode, 'm'), `type ${type} ${mode}`).toBeNull();
    }
  });

  it('serves chat and embeddings for Doubao and Bailian', () => {
    expect(upstreamTarget(channel(40), 'chat', 'm')?.url).toBe('https://ark.cn-beijing.volces.com/api/v3/chat/completions');
    expect(upstreamTarget(channel(40), 'embeddings', 'm')?.url).toBe('https://ark.cn-beijing.volces.com/api/v3/embeddings');
    expect(upstreamTarget(channel(49), 'chat', 'm')?.url).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions');
    expect(upstreamTarget(channel(49), 'embeddings', 'm')?.url).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1/embeddings');
    for (const type of [40, 49]) {
      for (const mode of ['completions', 'moderations', 'images'] as const) expect(upstreamTarget(channel(type), mode, 'm'), `type ${type} ${mode}`).toBeNull();
    }
  });

  it('appends the path without /v1 to an SDK-style base for types 50 and 51', () => {
    for (const mode of modes) {
      expect(upstreamTarget(channel(50, { base_url: 'http://127.0.0.1:8000/v1/' }), mode, 'm'), mode).toEqual({
        url: `http://127.0.0.1:8000/v1/${tasks[mode]}`,
        headers: bearer,
      });
      expect(upstreamTarget(channel(51), mode, 'gemini-2.0-flash')?.url, mode).toBe(`https://generativelanguage.googleapis.com/v1beta/openai/${tasks[mode]}`);
    }
  });

  it('sends an empty Bearer key when the channel has none', () => {
    expect(upstreamTarget(channel(1, { key: null }), 'chat', 'gpt-4o')?.headers).toEqual({ Authorization: 'Bearer ' });
  });
});
