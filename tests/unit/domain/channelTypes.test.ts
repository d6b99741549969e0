import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as ct from '../../../src/domain/channelTypes';
import { paletteOf, type SemanticColor } from '../../../src/domain/constants';
import { renderMessage, type MessageKey } from '../../../src/i18n';

const zh = (key: MessageKey) => renderMessage('zh', { key });
const catalogueFile = '/work/shared/contract/data/channel-types.json';

interface RawType {
  key: number;
  text: string;
  value: number;
  color: SemanticColor;
  serverName: string;
  baseUrl: string;
  description?: string;
  tip?: string;
}

describe('channel type catalogue (contract §3.6)', () => {
  it('lists 51 distinct types 1..51 with key equal to value', () => {
    const values = ct.channelTypes.map((t) => t.value);
    expect(values).toHaveLength(51);
    expect(new Set(values).size).toBe(51);
    expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
    for (const t of ct.channelTypes) expect(t.key).toBe(t.value);
  });
  it('keeps the console picker order, OpenAI first', () => {
    expect(ct.channelTypes.slice(0, 5).map((t) => t.value)).toEqual([1, 50, 14, 33, 3]);
    expect(ct.channelTypes.at(-1)?.value).toBe(13);
  });
  it('spot-checks labels, colours and default base URLs', () => {
    expect(ct.channelTypeByValue(1)).toMatchObject({ text: 'OpenAI', semanticColor: 'green', color: 'green', defaultBaseUrl: 'https://api.openai.com' });
    expect(ct.channelTypeByValue(3)).toMatchObject({ text: 'Azure', semanticColor: 'olive', color: 'teal', defaultBaseUrl: '' });
    expect(ct.channelTypeByValue(8)).toMatchObject({ text: '自定义渠道', semanticColor: 'pink', serverName: 'Custom' });
    expect(ct.channelTypeByValue(5)).toMatchObject({ text: '代理：OpenAI-SB', semanticColor: 'brown', color: 'orange' });
    expect(ct.channelTypeByValue(43)).toMatchObject({ text: 'Proxy', serverName: 'Proxy' });
    expect(ct.channelTypeByValue(42).serverName).toBe('VertextAI');
  });
  it('every colour is the palette of its one-api colour', () => {
    for (const t of ct.channelTypes) expect(t.color, t.text).toBe(paletteOf(t.semanticColor));
  });
  it.runIf(existsSync(catalogueFile))('matches the shared data/channel-types.json entry for entry', () => {
    const raw = JSON.parse(readFileSync(catalogueFile, 'utf8')) as RawType[];
    expect(ct.channelTypes.map((t) => t.value)).toEqual(raw.map((r) => r.value));
    for (const [i, r] of raw.entries()) {
      const t = ct.channelTypes[i]!;
      expect({ key: t.key, text: t.text, color: t.semanticColor, serverName: t.serverName, baseUrl: t.defaultBaseUrl }, r.text).toEqual({
        key: r.key,
        text: r.text,
        color: r.color,
        serverName: r.serverName,
        baseUrl: r.baseUrl,
      });
      expect(t.descriptionKey !== undefined, `${r.value} description`).toBe(r.description !== undefined);
      expect(t.tipKey !== undefined, `${r.value} tip`).toBe(r.tip !== undefined);
      if (r.description !== undefined) expect(zh(t.descriptionKey!)).toBe(r.description);
    }
  });
  it('descriptions and tips are label keys; tip links are data', () => {
    expect(zh(ct.channelTypeByValue(40).descriptionKey!)).toBe('原字节跳动豆包');
    expect(ct.channelTypeByValue(15).tipUrl).toMatch(/^https:\/\/console\.bce\.baidu\.com\//);
    expect(ct.channelTypeByValue(17).tipUrl).toBeUndefined();
    expect(ct.channelTypeByValue(1).tipKey).toBeUndefined();
  });
});

describe('unknown types', () => {
  it('an unknown number gets a gray entry and the unknown type label', () => {
    for (const n of [0, 52, -1, 999]) {
      expect(ct.isKnownChannelType(n)).toBe(false);
      expect(ct.channelTypeByValue(n)).toMatchObject({ key: n, value: n, text: '', color: 'gray' });
      expect(renderMessage('zh', ct.channelTypeLabel(n))).toBe('未知类型');
      expect(renderMessage('en', ct.channelTypeLabel(n))).toBe('Unknown type');
    }
  });
  it('a brand type is labelled by its provider name in every language', () => {
    expect(ct.isKnownChannelType(14)).toBe(true);
    expect(ct.channelTypeLabel(14)).toEqual({ text: 'Anthropic' });
    expect(renderMessage('en', ct.channelTypeLabel(1))).toBe('OpenAI');
  });
  it('a word label is the catalogue text verbatim in zh and translated in en', () => {
    for (const t of ct.channelTypes) expect(renderMessage('zh', ct.channelTypeLabel(t.value))).toBe(t.text);
    expect(renderMessage('en', ct.channelTypeLabel(8))).toBe('Custom channel');
    expect(renderMessage('en', ct.channelTypeLabel(50))).toBe('OpenAI compatible');
    expect(renderMessage('en', ct.channelTypeLabel(23))).toBe('Tencent Hunyuan');
    expect(renderMessage('en', ct.channelTypeLabel(2))).toBe('Proxy: API2D');
    const cjk = /[\u3400-\u9fff\uff00-\uffef]/;
    for (const t of ct.channelTypes) expect(renderMessage('en', ct.channelTypeLabel(t.value))).not.toMatch(cjk);
  });
});

describe('proxy-labelled types (spec §3)', () => {
  it('are exactly 2, 4, 5, 6, 7, 9, 10, 12, 13, 20', () => {
    const proxies = ct.channelTypes.filter((t) => ct.isProxyChannelType(t.value)).map((t) => t.value).sort((a, b) => a - b);
    expect(proxies).toEqual([2, 4, 5, 6, 7, 9, 10, 12, 13, 20]);
    expect(ct.isProxyChannelType(1)).toBe(false);
    expect(ct.isProxyChannelType(21)).toBe(false);
  });
});

describe('balance units (spec §9)', () => {
  it('1, 8 dollars; 4, 12, 36, 44 yuan; 5 yuan/10000; 10, 13 quota; others none', () => {
    expect([1, 8].map(ct.balanceUnitOf)).toEqual(['usd', 'usd']);
    expect([4, 12, 36, 44].map(ct.balanceUnitOf)).toEqual(['cny', 'cny', 'cny', 'cny']);
    expect(ct.balanceUnitOf(5)).toBe('cny10000');
    expect([10, 13].map(ct.balanceUnitOf)).toEqual(['quota', 'quota']);
    expect([2, 3, 20, 43, 0, 99].map(ct.balanceUnitOf)).toEqual([null, null, null, null, null, null]);
  });
});

describe('channel form facts (spec §5)', () => {
  it('key hints per type, verbatim', () => {
    expect(zh(ct.channelKeyHintKey(15))).toBe('按照如下格式输入：APIKey|SecretKey');
    expect(zh(ct.channelKeyHintKey(18))).toBe('按照如下格式输入：APPID|APISecret|APIKey');
    expect(zh(ct.channelKeyHintKey(22))).toBe('按照如下格式输入：APIKey-AppId');
    expect(zh(ct.channelKeyHintKey(23))).toBe('按照如下格式输入：AppId|SecretId|SecretKey');
    expect(ct.channelKeyHintKey(1)).toBe('domain.channelForm.keyHint.generic');
    expect(ct.channelKeyHintKey(99)).toBe('domain.channelForm.keyHint.generic');
    expect(zh('domain.channelForm.keyHint.generic')).toBe('请输入渠道对应的鉴权密钥');
  });
  it('extra fields by type', () => {
    const targets = (n: number) => ct.channelExtraFields(n).map((f) => f.target);
    expect(targets(3)).toEqual(['base_url', 'other']);
    expect(targets(8)).toEqual(['base_url']);
    expect(targets(17)).toEqual(['other', 'base_url']);
    expect(targets(18)).toEqual(['other', 'base_url']);
    expect(targets(21)).toEqual(['other', 'base_url']);
    expect(targets(22)).toEqual(['base_url']);
    expect(targets(33)).toEqual(['config.region', 'config.ak', 'config.sk']);
    expect(targets(34)).toEqual(['config.user_id', 'base_url']);
    expect(targets(37)).toEqual(['config.user_id', 'base_url']);
    expect(targets(42)).toEqual(['config.region', 'config.vertex_ai_project_id', 'config.vertex_ai_adc', 'base_url']);
    expect(targets(1)).toEqual(['base_url']);
    expect(ct.channelExtraFields(42).find((f) => f.target === 'config.vertex_ai_adc')?.multiline).toBe(true);
    expect(zh(ct.channelExtraFields(3)[1]!.labelKey)).toBe('默认 API 版本');
    expect(zh(ct.channelExtraFields(37)[0]!.labelKey)).toBe('Account ID');
    expect([3, 8, 17, 18, 21, 22, 33, 34, 37, 42].every(ct.hasChannelExtraFields)).toBe(true);
    expect(ct.hasChannelExtraFields(40)).toBe(true);
  });
  it('every type but 3, 8, 22 and 33 has the optional proxy base URL; every base URL field has a placeholder', () => {
    for (const t of ct.channelTypes) {
      const proxy = ct.channelExtraFields(t.value).filter((f) => f.labelKey === 'domain.channelForm.field.proxy');
      expect(proxy.length).toBe([3, 8, 22, 33].includes(t.value) ? 0 : 1);
      expect(ct.hasProxyBaseUrl(t.value)).toBe(proxy.length === 1);
      for (const f of ct.channelExtraFields(t.value).filter((x) => x.target === 'base_url')) expect(f.placeholderKey).toBeDefined();
    }
    expect(zh('domain.channelForm.placeholder.proxy')).toBe('可选，填写代理地址，例如 https://api.example.com');
    expect(ct.hasBaseUrlField(33)).toBe(false);
    expect(ct.hasBaseUrlField(1)).toBe(true);
  });
  it('notes for 34 (Bot ID) and 40 (endpoint names)', () => {
    expect(zh(ct.channelFormNoteKey(34)!)).toMatch(/Bot ID/);
    expect(zh(ct.channelFormNoteKey(34)!)).toMatch(/bot-/);
    expect(renderMessage('en', { key: ct.channelFormNoteKey(40)! })).toMatch(/endpoint names/);
    expect(ct.channelFormNoteKey(1)).toBeNull();
  });
  it('type 43 has no models; batch create only on create and not for 33', () => {
    expect(ct.channelTypeHasModels(43)).toBe(false);
    expect(ct.channelTypeHasModels(1)).toBe(true);
    expect(ct.canBatchCreate(false, 1)).toBe(true);
    expect(ct.canBatchCreate(true, 1)).toBe(false);
    expect(ct.canBatchCreate(false, 33)).toBe(false);
  });
});

describe('relay support (what the relay serves, shown in the console)', () => {
  it('sorts every catalogued type into native, compatible, openai or none', () => {
    expect(ct.typesWithRelaySupport('native')).toEqual([14, 15, 18, 23, 24, 33, 34, 38, 42, 46]);
    expect(ct.typesWithRelaySupport('compatible')).toEqual([16, 17, 30, 35, 37]);
    expect(ct.typesWithRelaySupport('none')).toEqual([11, 21, 43]);
    const listed = new Set([...ct.typesWithRelaySupport('native'), ...ct.typesWithRelaySupport('compatible'), ...ct.typesWithRelaySupport('none')]);
    for (const t of ct.channelTypes.filter((c) => !listed.has(c.value))) expect(ct.relaySupportOf(t.value), t.text).toBe('openai');
    expect(ct.relaySupportOf(99)).toBe('openai');
    expect(ct.isRelayableChannelType(46)).toBe(true);
    expect(ct.isRelayableChannelType(11)).toBe(false);
    expect(ct.isRelayableChannelType(42)).toBe(true);
    expect(ct.isRelayableChannelType(14)).toBe(true);
    expect(ct.isRelayableChannelType(1)).toBe(true);
  });
  it('labels each support in both languages; the proxy type says it is a transparent proxy', () => {
    expect(zh(ct.relaySupportKey(14))).toBe('原生适配');
    expect(zh(ct.relaySupportKey(16))).toBe('OpenAI 兼容接口');
    expect(zh(ct.relaySupportKey(1))).toBe('OpenAI 格式');
    // the generic refusal (no catalogued type uses it today; a new one would)
    expect(zh('domain.channelType.relay.none')).toBe('暂不支持转发');
    expect(zh('domain.channelType.relayHint.none')).toMatch(/拒绝/);
    expect(zh(ct.relaySupportKey(43))).toBe('仅限透明代理');
    expect(renderMessage('en', { key: 'domain.channelType.relay.none' })).toBe('Not relayable yet');
    expect(renderMessage('en', { key: ct.relaySupportHintKey(43) })).toMatch(/\/v1\/oneapi\/proxy/);
    // the types that cannot be relayed for a reason of their own say it, in both languages
    expect(renderMessage('en', { key: ct.relaySupportKey(11) })).toBe('Not relayable: PaLM API retired');
    expect(renderMessage('en', { key: ct.relaySupportHintKey(11) })).toMatch(/Google has retired the PaLM API.*Gemini \(24\) or Vertex AI \(42\)/);
    expect(zh(ct.relaySupportHintKey(11))).toMatch(/Google 已停用 PaLM API/);
    expect(renderMessage('en', { key: ct.relaySupportKey(21) })).toBe('Not relayable: API undocumented');
    expect(renderMessage('en', { key: ct.relaySupportHintKey(21) })).toMatch(/publishes no documentation of its library question API/);
    expect(zh(ct.relaySupportKey(21))).toBe('无法转发：接口无公开文档');
    expect(zh(ct.relaySupportHintKey(21))).toMatch(/没有公开其知识库问答接口的文档/);
    for (const t of ct.channelTypes) {
      expect(zh(ct.relaySupportHintKey(t.value)), t.text).not.toMatch(/^domain\./);
      expect(renderMessage('en', { key: ct.relaySupportKey(t.value) }), t.text).not.toMatch(/^domain\./);
    }
  });
});
