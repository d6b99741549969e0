import type { MessageKey, MessageKeySuffix } from './message';
import { paletteOf, type Palette, type SemanticColor } from './constants';
import { msg, type Message } from './message';

/**
 * The channel type catalogue (contract §3.6, data/channel-types.json) and the per-type facts of
 * spec §3, §5 "Channel form" and §9 "Balance display". Provider names (`text`) are data and are
 * shown as they are; every other visible word is a label key.
 */

/** How a type's balance is shown (spec §9). */
export type BalanceUnit = 'usd' | 'cny' | 'cny10000' | 'quota';

/** One catalogue entry. `key` and `value` are both the type number (as in one-api). */
export interface ChannelType {
  readonly key: number;
  readonly value: number;
  /** The provider label as one-api shows it (data, not translated). */
  readonly text: string;
  /** Chakra palette (see constants.ts for the mapping). */
  readonly color: Palette;
  /** one-api's own Semantic UI colour. */
  readonly semanticColor: SemanticColor;
  /** The server-side constant name. */
  readonly serverName: string;
  /** Default upstream base URL ('' when the channel must supply one or there is none). */
  readonly defaultBaseUrl: string;
  /** Short description shown under the type in the picker. */
  readonly descriptionKey?: MessageKey;
  /** A hint shown in the form when the type is chosen. */
  readonly tipKey?: MessageKey;
  /** The page the tip refers to (where to get the credentials). */
  readonly tipUrl?: string;
}

interface Extras {
  readonly descriptionKey?: MessageKey;
  readonly tipKey?: MessageKey;
  readonly tipUrl?: string;
}

const entry = (
  value: number,
  text: string,
  semanticColor: SemanticColor,
  serverName: string,
  defaultBaseUrl: string,
  extras: Extras = {},
): ChannelType => ({
  key: value,
  value,
  text,
  color: paletteOf(semanticColor),
  semanticColor,
  serverName,
  defaultBaseUrl,
  ...extras,
});

type Numbered<Prefix extends string> = MessageKeySuffix<Prefix> extends `${infer N extends number}` ? N : never;
const description = (n: Numbered<'domain.channelType.description.'>) => ({ descriptionKey: `domain.channelType.description.${n}` as const });
const tip = (n: Numbered<'domain.channelType.tip.'>, tipUrl?: string) =>
  tipUrl === undefined ? { tipKey: `domain.channelType.tip.${n}` as const } : { tipKey: `domain.channelType.tip.${n}` as const, tipUrl };

/** Every selectable type, in the console's picker order. */
export const channelTypes: readonly ChannelType[] = [
  entry(1, 'OpenAI', 'green', 'OpenAI', 'https://api.openai.com'),
  entry(50, 'OpenAI 兼容', 'olive', 'OpenAICompatible', '', description(50)),
  entry(14, 'Anthropic', 'black', 'Anthropic', 'https://api.anthropic.com'),
  entry(33, 'AWS', 'black', 'AwsClaude', ''),
  entry(3, 'Azure', 'olive', 'Azure', ''),
  entry(11, 'PaLM2', 'orange', 'PaLM', 'https://generativelanguage.googleapis.com'),
  entry(24, 'Gemini', 'orange', 'Gemini', 'https://generativelanguage.googleapis.com'),
  entry(51, 'Gemini (OpenAI)', 'orange', 'GeminiOpenAICompatible', 'https://generativelanguage.googleapis.com/v1beta/openai/', description(51)),
  entry(28, 'Mistral AI', 'orange', 'Mistral', 'https://api.mistral.ai'),
  entry(41, 'Novita', 'purple', 'Novita', 'https://api.novita.ai/v3/openai'),
  entry(40, '字节火山引擎', 'blue', 'Doubao', 'https://ark.cn-beijing.volces.com', description(40)),
  entry(15, '百度文心千帆', 'blue', 'Baidu', 'https://aip.baidubce.com',
    tip(15, 'https://console.bce.baidu.com/qianfan/ais/console/applicationConsole/application/v1')),
  entry(47, '百度文心千帆 V2', 'blue', 'BaiduV2', 'https://qianfan.baidubce.com',
    tip(47, 'https://console.bce.baidu.com/iam/#/iam/apikey/list')),
  entry(17, '阿里通义千问', 'orange', 'Ali', 'https://dashscope.aliyuncs.com', tip(17)),
  entry(49, '阿里云百炼', 'orange', 'AliBailian', 'https://dashscope.aliyuncs.com'),
  entry(18, '讯飞星火认知', 'blue', 'Xunfei', '', tip(18)),
  entry(48, '讯飞星火认知 V2', 'blue', 'XunfeiV2', 'https://spark-api-open.xf-yun.com',
    tip(48, 'https://console.xfyun.cn/services/cbm')),
  entry(16, '智谱 ChatGLM', 'violet', 'Zhipu', 'https://open.bigmodel.cn'),
  entry(19, '360 智脑', 'blue', 'AI360', 'https://ai.360.cn'),
  entry(25, 'Moonshot AI', 'black', 'Moonshot', 'https://api.moonshot.cn'),
  entry(23, '腾讯混元', 'teal', 'Tencent', 'https://hunyuan.tencentcloudapi.com'),
  entry(26, '百川大模型', 'orange', 'Baichuan', 'https://api.baichuan-ai.com'),
  entry(27, 'MiniMax', 'red', 'Minimax', 'https://api.minimax.chat'),
  entry(29, 'Groq', 'orange', 'Groq', 'https://api.groq.com/openai'),
  entry(30, 'Ollama', 'black', 'Ollama', 'http://localhost:11434'),
  entry(31, '零一万物', 'green', 'LingYiWanWu', 'https://api.lingyiwanwu.com'),
  entry(32, '阶跃星辰', 'blue', 'StepFun', 'https://api.stepfun.com'),
  entry(34, 'Coze', 'blue', 'Coze', 'https://api.coze.com'),
  entry(35, 'Cohere', 'blue', 'Cohere', 'https://api.cohere.ai'),
  entry(36, 'DeepSeek', 'black', 'DeepSeek', 'https://api.deepseek.com'),
  entry(37, 'Cloudflare', 'orange', 'Cloudflare', 'https://api.cloudflare.com'),
  entry(38, 'DeepL', 'black', 'DeepL', 'https://api-free.deepl.com'),
  entry(39, 'together.ai', 'blue', 'TogetherAI', 'https://api.together.xyz'),
  entry(42, 'VertexAI', 'blue', 'VertextAI', ''),
  entry(43, 'Proxy', 'blue', 'Proxy', ''),
  entry(44, 'SiliconFlow', 'blue', 'SiliconFlow', 'https://api.siliconflow.cn'),
  entry(45, 'xAI', 'blue', 'XAI', 'https://api.x.ai'),
  entry(46, 'Replicate', 'blue', 'Replicate', 'https://api.replicate.com/v1/models/'),
  entry(8, '自定义渠道', 'pink', 'Custom', '', { ...description(8), ...tip(8) }),
  entry(22, '知识库：FastGPT', 'blue', 'FastGPT', 'https://fastgpt.run/api/openapi'),
  entry(21, '知识库：AI Proxy', 'purple', 'AIProxyLibrary', 'https://api.aiproxy.io'),
  entry(20, 'OpenRouter', 'black', 'OpenRouter', 'https://openrouter.ai/api'),
  entry(2, '代理：API2D', 'blue', 'API2D', 'https://oa.api2d.net'),
  entry(5, '代理：OpenAI-SB', 'brown', 'OpenAISB', 'https://api.openai-sb.com'),
  entry(7, '代理：OhMyGPT', 'purple', 'OhMyGPT', 'https://api.ohmygpt.com'),
  entry(10, '代理：AI Proxy', 'purple', 'AIProxy', 'https://api.aiproxy.io'),
  entry(4, '代理：CloseAI', 'teal', 'CloseAI', 'https://api.closeai-proxy.xyz'),
  entry(6, '代理：OpenAI Max', 'violet', 'OpenAIMax', 'https://api.openaimax.com'),
  entry(9, '代理：AI.LS', 'yellow', 'Ails', 'https://api.caipacity.com'),
  entry(12, '代理：API2GPT', 'blue', 'API2GPT', 'https://api.api2gpt.com'),
  entry(13, '代理：AIGC2D', 'purple', 'AIGC2D', 'https://api.aigc2d.com'),
];

/** Label key for a type number that is not in the catalogue. */
export const unknownChannelTypeKey = 'domain.channelType.unknown';

const byValue: ReadonlyMap<number, ChannelType> = new Map(channelTypes.map((t) => [t.value, t]));

/** Whether the number is a catalogued type. */
export const isKnownChannelType = (value: number): boolean => byValue.has(value);

/** The catalogue entry; an unknown number gets a gray entry with empty text (use `channelTypeLabel`). */
export const channelTypeByValue = (value: number): ChannelType =>
  byValue.get(value) ?? {
    key: value,
    value,
    text: '',
    color: 'gray',
    semanticColor: 'grey',
    serverName: 'Unknown',
    defaultBaseUrl: '',
  };

/**
 * The types whose label is words rather than a brand (Chinese in one-api): shown through the
 * label key `domain.channelType.name.<n>` (zh verbatim, en translated); the others are brand
 * names shown as they are.
 */
const translatedNames: ReadonlySet<number> = new Set([50, 40, 15, 47, 17, 49, 18, 48, 16, 19, 23, 26, 31, 32, 8, 22, 21, 2, 5, 7, 10, 4, 6, 9, 12, 13]);

/** What to show for a type: its label key (words), the provider name (brands), or the 'unknown type' key. */
export const channelTypeLabel = (value: number): Message => {
  const found = byValue.get(value);
  if (found === undefined) return msg(unknownChannelTypeKey);
  return translatedNames.has(value) ? msg(`domain.channelType.name.${value}` as MessageKey) : { text: found.text };
};

/** Types spec §3 calls proxies (the '代理：' entries plus OpenRouter). */
export const proxyChannelTypes: ReadonlySet<number> = new Set([2, 4, 5, 6, 7, 9, 10, 12, 13, 20]);
/** Whether a type is one of the proxy-labelled types. */
export const isProxyChannelType = (value: number): boolean => proxyChannelTypes.has(value);

// ---------------------------------------------------------------------------------------------
// Relay support (shared with server/relay/adaptor.ts, which serves exactly what this says)

/**
 * How the gateway relays a type's requests: `native` through its own translating wire (the
 * provider's own API), `compatible` through the provider's documented OpenAI-compatible API,
 * `openai` as OpenAI's wire (the upstream speaks it), `none` not at all (the relay and the channel
 * test refuse the channel).
 */
export type RelaySupport = 'native' | 'compatible' | 'openai' | 'none';

const relaySupports: ReadonlyMap<number, RelaySupport> = new Map<number, RelaySupport>([
  [14, 'native'],
  [24, 'native'],
  [33, 'native'],
  [16, 'compatible'],
  [17, 'compatible'],
  [30, 'compatible'],
  [35, 'compatible'],
  [37, 'compatible'],
  [11, 'none'],
  [15, 'native'],
  [18, 'native'],
  [21, 'none'],
  [23, 'native'],
  [34, 'native'],
  [38, 'native'],
  [42, 'native'],
  [43, 'none'],
  [46, 'native'],
]);

/** How channels of a type are relayed; a type not listed (or unknown) speaks OpenAI's wire. */
export const relaySupportOf = (value: number): RelaySupport => relaySupports.get(value) ?? 'openai';

/** Whether channels of a type can be relayed at all (the relay answers 501 for the others). */
export const isRelayableChannelType = (value: number): boolean => relaySupportOf(value) !== 'none';

/** The types of one relay support, in number order. */
export const typesWithRelaySupport = (support: RelaySupport): readonly number[] =>
  [...relaySupports].filter(([, s]) => s === support).map(([value]) => value).sort((a, b) => a - b);

/** Type 43 (Proxy) forwards only through the transparent /v1/oneapi/proxy route, never /v1/chat/completions. */
const proxyOnlyType = 43;

/**
 * The `none` types whose refusal has a reason of its own, shown instead of the generic one: 11
 * PaLM2 (Google retired the PaLM API: there is no upstream left) and 21 AI Proxy library (AI
 * Proxy publishes no documentation of its knowledge-base question API to translate to).
 */
const noRelayReasons: ReadonlySet<number> = new Set([11, 21]);
const hasNoRelayReason = (value: number): boolean => relaySupportOf(value) === 'none' && noRelayReasons.has(value);

/** The label key of a type's relay support (type 43 gets its own: it is the transparent proxy; 11 and 21 say why they are not relayed). */
export const relaySupportKey = (value: number): MessageKey => {
  if (value === proxyOnlyType) return 'domain.channelType.relay.proxy';
  if (hasNoRelayReason(value)) return `domain.channelType.relay.none.${value}` as MessageKey;
  return `domain.channelType.relay.${relaySupportOf(value)}`;
};

/** The longer explanation shown in the form under the chosen type (and as the list's hint). */
export const relaySupportHintKey = (value: number): MessageKey => {
  if (value === proxyOnlyType) return 'domain.channelType.relayHint.proxy';
  if (hasNoRelayReason(value)) return `domain.channelType.relayHint.none.${value}` as MessageKey;
  return `domain.channelType.relayHint.${relaySupportOf(value)}`;
};

const balanceUnits: ReadonlyMap<number, BalanceUnit> = new Map<number, BalanceUnit>([
  [1, 'usd'],
  [8, 'usd'],
  [4, 'cny'],
  [12, 'cny'],
  [36, 'cny'],
  [44, 'cny'],
  [5, 'cny10000'],
  [10, 'quota'],
  [13, 'quota'],
]);

/** How a type's balance is displayed, or null when balances are not supported (spec §9). */
export const balanceUnitOf = (value: number): BalanceUnit | null => balanceUnits.get(value) ?? null;

// ---------------------------------------------------------------------------------------------
// Channel form facts (spec §5 "Channel form", §2 "Channel form")

/** The placeholder (hint) key of the key field for a type. */
export const channelKeyHintKey = (value: number): MessageKey => {
  switch (value) {
    case 15:
      return 'domain.channelForm.keyHint.15';
    case 18:
      return 'domain.channelForm.keyHint.18';
    case 22:
      return 'domain.channelForm.keyHint.22';
    case 23:
      return 'domain.channelForm.keyHint.23';
    default:
      return 'domain.channelForm.keyHint.generic';
  }
};

/** A form value a type-specific field edits: a channel column or a `config` member. */
export type ChannelFieldTarget =
  | 'base_url'
  | 'other'
  | 'config.region'
  | 'config.ak'
  | 'config.sk'
  | 'config.user_id'
  | 'config.vertex_ai_project_id'
  | 'config.vertex_ai_adc';

/** One extra form field: which value it edits and its label key. */
export interface ChannelExtraField {
  readonly target: ChannelFieldTarget;
  readonly labelKey: MessageKey;
  /** The input's placeholder (every base URL field has one). */
  readonly placeholderKey?: MessageKey;
  /** true for the multi-line credentials JSON. */
  readonly multiline?: boolean;
}

const field = (target: ChannelFieldTarget, name: MessageKeySuffix<'domain.channelForm.field.'>, multiline = false): ChannelExtraField =>
  multiline ? { target, labelKey: `domain.channelForm.field.${name}`, multiline } : { target, labelKey: `domain.channelForm.field.${name}` };

/** A base URL field: its label and its placeholder share the name. */
const urlField = (name: 'endpoint' | 'baseUrl' | 'privateDeployment' | 'proxy'): ChannelExtraField => ({
  target: 'base_url',
  labelKey: `domain.channelForm.field.${name}`,
  placeholderKey: `domain.channelForm.placeholder.${name}`,
});

/**
 * The types without the optional proxy base URL: 3 (Azure: its endpoint field), 8 (custom: its
 * required base URL), 22 (knowledge base: its private deployment address) and 33 (AWS: none).
 */
const noProxyField: ReadonlySet<number> = new Set([3, 8, 22, 33]);

/** Whether a type shows the optional proxy base URL field ("代理"). */
export const hasProxyBaseUrl = (value: number): boolean => !noProxyField.has(value);

const extraFields: ReadonlyMap<number, readonly ChannelExtraField[]> = new Map([
  [3, [urlField('endpoint'), field('other', 'apiVersion')]],
  [8, [urlField('baseUrl')]],
  [17, [field('other', 'plugin')]],
  [18, [field('other', 'modelVersion')]],
  [21, [field('other', 'knowledgeBaseId')]],
  [22, [urlField('privateDeployment')]],
  [33, [field('config.region', 'region'), field('config.ak', 'ak'), field('config.sk', 'sk')]],
  [34, [field('config.user_id', 'userId')]],
  [37, [field('config.user_id', 'accountId')]],
  [
    42,
    [
      field('config.region', 'region'),
      field('config.vertex_ai_project_id', 'projectId'),
      field('config.vertex_ai_adc', 'credentials', true),
    ],
  ],
]);

/** The type-specific fields of spec §2 "Channel form" (empty for the other types). */
export const channelExtraFields = (value: number): readonly ChannelExtraField[] => {
  const own = extraFields.get(value) ?? [];
  return hasProxyBaseUrl(value) ? [...own, urlField('proxy')] : own;
};

/** Whether the type has any type-specific field (the proxy base URL counts). */
export const hasChannelExtraFields = (value: number): boolean => channelExtraFields(value).length > 0;

/** Whether the form shows a field bound to base_url for the type (all but 33). */
export const hasBaseUrlField = (value: number): boolean => channelExtraFields(value).some((f) => f.target === 'base_url');

const notes: ReadonlyMap<number, MessageKey> = new Map<number, MessageKey>([
  [34, 'domain.channelForm.note.34'],
  [40, 'domain.channelForm.note.40'],
]);

/** A note shown in the form for the type (34: model name is the Bot ID; 40: endpoint names). */
export const channelFormNoteKey = (value: number): MessageKey | null => notes.get(value) ?? null;

/** Type 43 (Proxy) has no model fields; every other type needs at least one model. */
export const channelTypeHasModels = (value: number): boolean => value !== 43;

/** Batch creation (one key per line) exists only when creating and not for type 33. */
export const canBatchCreate = (isEdit: boolean, value: number): boolean => !isEdit && value !== 33;
