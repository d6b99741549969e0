import { describe, expect, it } from 'vitest';
import type { Channel } from '../../../src/domain/channel';
import * as f from '../../../src/domain/channelForm';
import { renderMessage } from '../../../src/i18n';

const said = (v: ReturnType<typeof f.validateChannelForm>, lang: 'zh' | 'en' = 'zh') =>
  v.ok ? null : v.message === null ? null : renderMessage(lang, v.message);

const form: f.ChannelForm = { ...f.emptyChannelForm, name: 'main', key: 'sk-1', models: ['gpt-4o'] };
const typeModels = { '1': ['gpt-4o', 'gpt-4o-mini'], '14': ['claude-3-haiku'], '34': [], '43': null };

describe('formOfChannel', () => {
  const stored: Channel = {
    id: 7,
    type: 33,
    name: 'aws',
    status: 1,
    key: '',
    models: 'claude-3-haiku, claude-3-haiku,,claude-3-opus',
    group: 'default,vip',
    base_url: null,
    other: null,
    model_mapping: '{"a":"b"}',
    system_prompt: null,
    config: '{"region":"us-east-1","ak":"AK","sk":"SK","extra":1,"user_id":5}',
  };
  it('splits lists, reads config parts and leaves the hidden key empty', () => {
    expect(f.formOfChannel(stored)).toEqual({
      ...f.emptyChannelForm,
      type: 33,
      name: 'aws',
      model_mapping: '{"a":"b"}',
      models: ['claude-3-haiku', 'claude-3-opus'],
      groups: ['default', 'vip'],
      config: { ...f.emptyChannelConfig, region: 'us-east-1', ak: 'AK', sk: 'SK' },
    });
  });
  it('tolerates absent or broken config and empty lists', () => {
    const bare: Channel = { id: 1, type: 1, name: 'x', status: 1, models: '', group: '' };
    expect(f.formOfChannel(bare)).toEqual({ ...f.emptyChannelForm, name: 'x', groups: [] });
    expect(f.parseChannelConfig('{')).toEqual(f.emptyChannelConfig);
    expect(f.parseChannelConfig('[1]')).toEqual(f.emptyChannelConfig);
    expect(f.parseChannelConfig(null)).toEqual(f.emptyChannelConfig);
  });
});

describe('formOfChannel: weight and base URL, formOfClone', () => {
  const stored: Channel = { id: 3, type: 1, name: 'main', status: 1, models: 'gpt-4o', group: 'default', base_url: 'https://p.example.com', weight: 7 };
  it('loads the weight and the base URL', () => {
    expect(f.formOfChannel(stored)).toMatchObject({ base_url: 'https://p.example.com', weight: '7' });
    expect(f.formOfChannel({ ...stored, weight: null }).weight).toBe('0');
  });
  it('a clone keeps the settings, suffixes the name and leaves the key empty', () => {
    expect(f.formOfClone({ ...stored, key: 'ignored' }, ' (copy)')).toEqual({ ...f.formOfChannel(stored), name: 'main (copy)', key: '' });
  });
});

describe('checkChannelForm: the field each rule points at', () => {
  const field = (v: f.ChannelForm, isEdit = false) => f.checkChannelForm(v, isEdit)?.field ?? null;
  it('name, then key, then the first empty key part', () => {
    expect(field(form)).toBeNull();
    expect(field({ ...form, name: '', key: '' })).toBe('name');
    expect(field({ ...form, key: ' ' })).toBe('key');
    expect(field({ ...form, type: 33, key: '', config: { ...f.emptyChannelConfig, region: 'r' } })).toBe('config.ak');
    expect(field({ ...form, type: 42, key: '', config: { ...f.emptyChannelConfig } })).toBe('config.region');
  });
  it('a filled base URL must be an http(s) address (types with a base URL field)', () => {
    expect(field({ ...form, base_url: 'https://p.example.com/v1' })).toBeNull();
    expect(field({ ...form, base_url: 'http://localhost:8080' })).toBeNull();
    expect(field({ ...form, base_url: '' })).toBeNull();
    expect(field({ ...form, base_url: 'p.example.com' })).toBe('base_url');
    expect(field({ ...form, base_url: 'ftp://p.example.com' })).toBe('base_url');
    expect(field({ ...form, base_url: 'https://' })).toBe('base_url');
    expect(field({ ...form, type: 33, key: '', config: { ...f.emptyChannelConfig, region: 'r', ak: 'a', sk: 's' }, base_url: 'x' })).toBeNull();
    expect(renderMessage('en', f.checkChannelForm({ ...form, base_url: 'x' }, false)!.message)).toMatch(/base URL/);
  });
  it('models, model mapping, then the weight (a whole number ≥ 0, blank is 0)', () => {
    expect(field({ ...form, models: [] })).toBe('models');
    expect(field({ ...form, model_mapping: '{' })).toBe('model_mapping');
    expect(field({ ...form, weight: '-1' })).toBe('weight');
    expect(field({ ...form, weight: '1.5' })).toBe('weight');
    expect(field({ ...form, weight: 'x' })).toBe('weight');
    expect(field({ ...form, weight: '' })).toBeNull();
    expect(field({ ...form, weight: '10' }, true)).toBeNull();
    expect(renderMessage('zh', f.checkChannelForm({ ...form, weight: '-1' }, true)!.message)).toContain('权重');
    expect(renderMessage('en', f.checkChannelForm({ ...form, weight: '-1' }, true)!.message)).toContain('Weight');
  });
});

describe('setChannelField', () => {
  it('sets columns and config parts', () => {
    expect(f.setChannelField(form, 'name', 'n').name).toBe('n');
    expect(f.setChannelField(form, 'config.region', 'eu').config.region).toBe('eu');
    expect(f.setChannelField(form, 'customModel', 'a b').customModel).toBe('a b');
    expect(f.setChannelField(form, 'weight', '5').weight).toBe('5');
  });
});

describe('validateChannelForm (spec §5)', () => {
  it('on create, name and key are required', () => {
    expect(f.validateChannelForm(form, false)).toEqual({ ok: true });
    expect(said(f.validateChannelForm({ ...form, name: ' ' }, false))).toBe('请填写渠道名称和渠道密钥！');
    expect(said(f.validateChannelForm({ ...form, key: '' }, false), 'en')).toBe('Please fill in the channel name and channel key!');
    expect(f.validateChannelForm({ ...form, key: '' }, true)).toEqual({ ok: true });
  });
  it('at least one model except type 43', () => {
    expect(said(f.validateChannelForm({ ...form, models: [] }, false), 'en')).toBe('Please select at least one model!');
    expect(f.validateChannelForm({ ...form, type: 43, models: [] }, false)).toEqual({ ok: true });
  });
  it('model_mapping must be JSON when filled', () => {
    expect(said(f.validateChannelForm({ ...form, model_mapping: '{x' }, true), 'en')).toBe('Model mapping must be valid JSON format!');
  });
  it('type 33 and 42 parts stand in for the key', () => {
    const aws = { ...form, type: 33, key: '', config: { ...f.emptyChannelConfig, ak: 'A', sk: 'S', region: 'R' } };
    expect(f.validateChannelForm(aws, false)).toEqual({ ok: true });
    expect(said(f.validateChannelForm({ ...aws, config: { ...aws.config, sk: '' } }, false))).toBe('请填写渠道名称和渠道密钥！');
  });
});

describe('models', () => {
  it('adds custom names split on commas, spaces and newlines, without duplicates or empties', () => {
    expect(f.addCustomModels(['a'], ' b, a，c\n\nd  b ,')).toEqual(['a', 'b', 'c', 'd']);
    expect(f.addCustomModels(['a'], '   ')).toEqual(['a']);
    expect(f.parseModelNames('x,,y')).toEqual(['x', 'y']);
  });
  it('adds and removes one model', () => {
    expect(f.addModel(['a'], 'b')).toEqual(['a', 'b']);
    expect(f.addModel(['a'], 'a')).toEqual(['a']);
    expect(f.removeModel(['a', 'b'], 'a')).toEqual(['b']);
  });
  it('fills related, fills all, clears', () => {
    expect(f.fillRelated(['x', 'gpt-4o'], typeModels, 1)).toEqual(['x', 'gpt-4o', 'gpt-4o-mini']);
    expect(f.fillRelated(['x'], typeModels, 43)).toEqual(['x']);
    expect(f.fillRelated(['x'], typeModels, 99)).toEqual(['x']);
    expect(f.fillAll(['x'], ['a', 'b', 'a', 'x', ''])).toEqual(['x', 'a', 'b']);
    expect(f.catalogueModelNames(['a', 'a', 'b'])).toEqual(['a', 'b']);
    expect(f.clearModels()).toEqual([]);
  });
  it('a type change fills the defaults only when no model is chosen', () => {
    expect(f.changeType({ ...form, models: [] }, 14, typeModels, false).models).toEqual(['claude-3-haiku']);
    expect(f.changeType(form, 14, typeModels, false)).toEqual({ ...form, type: 14 });
    expect(f.changeType({ ...form, models: [] }, 43, typeModels, false).models).toEqual([]);
  });
  it('a change to type 33 ends batch mode', () => {
    expect(f.changeType({ ...form, batch: true }, 33, typeModels, false).batch).toBe(false);
    expect(f.changeType({ ...form, batch: true }, 14, typeModels, false).batch).toBe(true);
  });
});

describe('channelPayloadOf', () => {
  it('joins lists, strips the trailing slash and sends config as JSON text', () => {
    expect(
      f.channelPayloadOf({
        ...form,
        base_url: 'https://up.example.com//',
        groups: ['default', 'vip'],
        models: ['a', 'b'],
        system_prompt: 'be brief',
        config: { ...f.emptyChannelConfig, user_id: 'u1' },
      }),
    ).toEqual({
      type: 1,
      name: 'main',
      key: 'sk-1',
      base_url: 'https://up.example.com',
      other: '',
      models: 'a,b',
      group: 'default,vip',
      model_mapping: '',
      system_prompt: 'be brief',
      config: '{"user_id":"u1"}',
      weight: 0,
      tags: [],
    });
  });
  it('sends the weight as a whole number and a base URL trimmed (empty clears it)', () => {
    expect(f.channelPayloadOf({ ...form, weight: '12' }).weight).toBe(12);
    expect(f.channelPayloadOf({ ...form, weight: '' }).weight).toBe(0);
    expect(f.channelPayloadOf({ ...form, base_url: ' https://p.example.com/ ' }).base_url).toBe('https://p.example.com');
    expect(f.channelPayloadOf({ ...form, base_url: '' }).base_url).toBe('');
  });
  it('type 3 API version defaults to 2024-03-01-preview', () => {
    expect(f.channelPayloadOf({ ...form, type: 3 }).other).toBe('2024-03-01-preview');
    expect(f.channelPayloadOf({ ...form, type: 3, other: '2024-06-01' }).other).toBe('2024-06-01');
    expect(f.channelPayloadOf(form).other).toBe('');
  });
  it('type 33 key is ak|sk|region', () => {
    const aws = { ...form, type: 33, key: '', config: { ...f.emptyChannelConfig, ak: 'AK', sk: 'SK', region: 'us-east-1' } };
    const p = f.channelPayloadOf(aws);
    expect(p.key).toBe('AK|SK|us-east-1');
    expect(JSON.parse(p.config!)).toEqual({ ak: 'AK', sk: 'SK', region: 'us-east-1' });
  });
  it('type 42 key is region|project|credentials, the JSON on one line', () => {
    const adc = '{\n  "type": "service_account",\n  "private_key": "-----BEGIN-----\\nabc\\n"\n}';
    const vertex = {
      ...form,
      type: 42,
      key: '',
      config: { ...f.emptyChannelConfig, region: 'us-central1', vertex_ai_project_id: 'p1', vertex_ai_adc: adc },
    };
    const p = f.channelPayloadOf(vertex);
    expect(p.key).toBe('us-central1|p1|{"type":"service_account","private_key":"-----BEGIN-----\\nabc\\n"}');
    expect(p.key).not.toContain('\n');
    expect(f.compactCredentials('not\njson')).toBe('not json');
  });
  it('batch keys: one per line, trimmed, blank lines dropped', () => {
    expect(f.channelPayloadOf({ ...form, batch: true, key: ' k1 \r\n\n k2\n' }).key).toBe('k1\nk2');
    expect(f.channelPayloadOf({ ...form, key: '  k1 ' }).key).toBe('k1');
    expect(f.batchKeys('\n\n')).toEqual([]);
  });
  it('an empty config is an empty object', () => {
    expect(f.configText(f.emptyChannelConfig)).toBe('{}');
  });
});
