import { describe, expect, it } from 'vitest';
import { imageOptions, imageSizeRatio, mappedModel, upstreamBody, validateTextRequest, type UpstreamBodyInput } from '../../server/relay/request';

/** Request validation, model mapping and upstream bodies (contract §4.4 steps 1–4 and 8, §4.5). */

const textError = (message: string) => ({ status: 400, error: { message, type: 'one_api_error', param: '', code: 'invalid_text_request' } });
const imageError = (message: string, code: string) => ({ status: 400, error: { message, type: 'one_api_error', param: '', code } });

const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };

describe('validateTextRequest', () => {
  it('accepts valid requests of every text mode', () => {
    expect(validateTextRequest('chat', chat)).toBeNull();
    expect(validateTextRequest('chat', { ...chat, max_tokens: 0 })).toBeNull();
    expect(validateTextRequest('chat', { ...chat, max_tokens: 1_073_741_823 })).toBeNull();
    expect(validateTextRequest('chat', { ...chat, max_tokens: null })).toBeNull();
    expect(validateTextRequest('completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'x' })).toBeNull();
    expect(validateTextRequest('completions', { model: 'gpt-3.5-turbo-instruct', prompt: ['a', 'b'] })).toBeNull();
    expect(validateTextRequest('embeddings', { model: 'text-embedding-3-small', input: 'x' })).toBeNull();
    expect(validateTextRequest('embeddings', { model: 'text-embedding-3-small' })).toEqual(textError('field input is required'));
    expect(validateTextRequest('moderations', { input: 'x' })).toBeNull();
  });

  it('answers one-api messages with code invalid_text_request', () => {
    for (const bad of [-1, 1_073_741_824, 1.5, '100', true]) {
      expect(validateTextRequest('chat', { ...chat, max_tokens: bad }), String(bad)).toEqual(textError('max_tokens is invalid'));
    }
    expect(validateTextRequest('chat', { messages: chat.messages })).toEqual(textError('model is required'));
    expect(validateTextRequest('chat', { model: '', messages: chat.messages })).toEqual(textError('model is required'));
    expect(validateTextRequest('embeddings', { input: 'x' })).toEqual(textError('model is required'));
    for (const messages of [undefined, null, [], 'hi', {}]) {
      expect(validateTextRequest('chat', { model: 'gpt-4o', messages }), JSON.stringify(messages)).toEqual(textError('field messages is required'));
    }
    for (const prompt of [undefined, null, '', []]) {
      expect(validateTextRequest('completions', { model: 'm', prompt }), JSON.stringify(prompt)).toEqual(textError('field prompt is required'));
    }
    for (const input of [undefined, null, '', []]) {
      expect(validateTextRequest('moderations', { input }), JSON.stringify(input)).toEqual(textError('field input is required'));
    }
  });

  it('checks max_tokens before the model, and the model before the fields', () => {
    expect(validateTextRequest('chat', { max_tokens: -5 })).toEqual(textError('max_tokens is invalid'));
    expect(validateTextRequest('chat', {})).toEqual(textError('model is required'));
  });

  it('takes the resolved model when given (embeddings path model)', () => {
    expect(validateTextRequest('embeddings', { input: 'x' }, 'text-embedding-ada-002')).toBeNull();
    expect(validateTextRequest('chat', { messages: chat.messages }, '')).toEqual(textError('model is required'));
  });

  it('validates image requests as §4.5 says', () => {
    expect(validateTextRequest('images', { prompt: 'a cat' })).toBeNull();
    expect(validateTextRequest('images', { model: 'dall-e-3', prompt: 'a cat', size: '1792x1024', n: 1 })).toBeNull();
    expect(validateTextRequest('images', { model: 'dall-e-2', prompt: 'a cat', size: '256x256', n: 10 })).toBeNull();
    expect(validateTextRequest('images', { prompt: '' })).toEqual(imageError('prompt is required', 'prompt_missing'));
    expect(validateTextRequest('images', { model: 'dall-e-3' })).toEqual(imageError('prompt is required', 'prompt_missing'));
    expect(validateTextRequest('images', { model: 'dall-e-3', prompt: 'x', size: '256x256' })).toEqual(
      imageError('size not supported for this image model', 'size_not_supported'),
    );
    expect(validateTextRequest('images', { model: 'dall-e-2', prompt: 'x', size: '1792x1024' })).toEqual(
      imageError('size not supported for this image model', 'size_not_supported'),
    );
    expect(validateTextRequest('images', { model: 'dall-e-2', prompt: 'x'.repeat(1001) })).toEqual(imageError('prompt is too long', 'prompt_too_long'));
    expect(validateTextRequest('images', { model: 'dall-e-2', prompt: '猫'.repeat(334) })).toEqual(imageError('prompt is too long', 'prompt_too_long'));
    expect(validateTextRequest('images', { model: 'dall-e-3', prompt: 'x'.repeat(4000) })).toBeNull();
    expect(validateTextRequest('images', { model: 'dall-e-3', prompt: 'x', n: 2 })).toEqual(imageError('invalid value of n', 'n_not_within_range'));
    expect(validateTextRequest('images', { model: 'dall-e-2', prompt: 'x', n: 11 })).toEqual(imageError('invalid value of n', 'n_not_within_range'));
    expect(validateTextRequest('images', { model: 'dall-e-2', prompt: 'x', n: 1.5 })).toEqual(imageError('invalid value of n', 'n_not_within_range'));
    expect(validateTextRequest('images', { model: 'dall-e-2', prompt: 'x', n: 0 })).toBeNull();
  });

  it('lets unknown image models use any size, prompt length and n >= 1', () => {
    expect(validateTextRequest('images', { model: 'flux-schnell', prompt: 'x'.repeat(5000), size: '640x480', n: 8 })).toBeNull();
    expect(validateTextRequest('images', { model: 'flux-schnell', prompt: 'x', n: -1 })).toEqual(imageError('invalid value of n', 'n_not_within_range'));
  });

  it('validates images against the given (mapped) model', () => {
    expect(validateTextRequest('images', { model: 'my-dalle', prompt: 'x', n: 3 }, 'dall-e-3')).toEqual(imageError('invalid value of n', 'n_not_within_range'));
  });
});

describe('image cost', () => {
  it('applies the size multipliers and the dall-e-3 hd factors', () => {
    expect(imageSizeRatio('dall-e-2', '256x256', '')).toBe(1);
    expect(imageSizeRatio('dall-e-2', '512x512', '')).toBe(1.125);
    expect(imageSizeRatio('dall-e-2', '1024x1024', 'hd')).toBe(1.25);
    expect(imageSizeRatio('dall-e-3', '1024x1024', 'standard')).toBe(1);
    expect(imageSizeRatio('dall-e-3', '1792x1024', '')).toBe(2);
    expect(imageSizeRatio('dall-e-3', '1024x1024', 'hd')).toBe(2);
    expect(imageSizeRatio('dall-e-3', '1024x1792', 'hd')).toBe(3);
    expect(imageSizeRatio('dall-e-3', '', 'hd')).toBe(2);
    expect(imageSizeRatio('flux-schnell', '640x480', 'hd')).toBe(1);
  });

  it('reads n, size and quality with one-api defaults', () => {
    expect(imageOptions({})).toEqual({ n: 1, size: '1024x1024', quality: '' });
    expect(imageOptions({ n: 0, size: '' })).toEqual({ n: 1, size: '1024x1024', quality: '' });
    expect(imageOptions({ n: 3, size: '512x512', quality: 'hd' })).toEqual({ n: 3, size: '512x512', quality: 'hd' });
    expect(imageOptions({ n: 'two' }).n).toBeNaN();
  });
});

describe('mappedModel', () => {
  it('maps a model with a non-empty entry and leaves others alone', () => {
    const mapping = '{"gpt-3.5-turbo":"gpt-4o-mini","gpt-4":""}';
    expect(mappedModel(mapping, 'gpt-3.5-turbo')).toBe('gpt-4o-mini');
    expect(mappedModel(mapping, 'gpt-4')).toBe('gpt-4');
    expect(mappedModel(mapping, 'gpt-4o')).toBe('gpt-4o');
    expect(mappedModel(mapping, 'toString')).toBe('toString');
  });

  it('ignores an empty, unparsable or non-string mapping', () => {
    for (const mapping of [null, '', '{', '[]', '"x"', '{"gpt-4":1}', '{"gpt-4":"a","x":{"y":1}}']) {
      expect(mappedModel(mapping, 'gpt-4'), String(mapping)).toBe('gpt-4');
    }
    expect(mappedModel('{"gpt-4":null,"gpt-3.5-turbo":"m"}', 'gpt-3.5-turbo')).toBe('m');
  });
});

describe('upstreamBody', () => {
  const input = (raw: string, extra: Partial<UpstreamBodyInput> = {}): UpstreamBodyInput => {
    const json = JSON.parse(raw) as Record<string, unknown>;
    const model = typeof json.model === 'string' ? json.model : '';
    return { raw, json, mode: 'chat', channelType: 1, mappedModel: model, requestedModel: model, systemPrompt: null, enforceIncludeUsage: false, ...extra };
  };
  const parsed = (body: string): Record<string, unknown> => JSON.parse(body) as Record<string, unknown>;

  it('forwards the body byte-for-byte when nothing changes', () => {
    const raw = '{ "model" : "gpt-4o",\n  "messages":[{"role":"user","content":"hi"}], "seed": 12345678901234567890, "x_custom": [1,2] }';
    expect(upstreamBody(input(raw))).toEqual({ body: raw, systemPromptReset: false, usageChunkHidden: false });
    expect(upstreamBody(input(raw, { systemPrompt: '' }))).toEqual({ body: raw, systemPromptReset: false, usageChunkHidden: false });
    for (const type of [3, 8, 20, 50]) expect(upstreamBody(input(raw, { channelType: type })).body).toBe(raw);
    const embeddings = '{"model":"text-embedding-3-small","input":"x"}';
    expect(upstreamBody(input(embeddings, { mode: 'embeddings', systemPrompt: 'be brief' }))).toEqual({ body: embeddings, systemPromptReset: false, usageChunkHidden: false });
    const streamingWithUsage = '{"model":"gpt-4o","stream":true,"stream_options":{"include_usage":true},"messages":[]}';
    expect(upstreamBody(input(streamingWithUsage)).body).toBe(streamingWithUsage);
    const moderation = '{"input":"x"}';
    expect(upstreamBody(input(moderation, { mode: 'moderations', mappedModel: 'text-moderation-stable', requestedModel: 'text-moderation-stable' })).body).toBe(moderation);
  });

  it('re-serialises Baichuan requests and under ENFORCE_INCLUDE_USAGE, keeping every field', () => {
    const raw = '{ "model": "Baichuan2", "messages": [], "x_custom": true }';
    expect(upstreamBody(input(raw, { channelType: 26 })).body).toBe('{"model":"Baichuan2","messages":[],"x_custom":true}');
    expect(upstreamBody(input(raw, { enforceIncludeUsage: true })).body).toBe('{"model":"Baichuan2","messages":[],"x_custom":true}');
  });

  it('writes the mapped model', () => {
    const raw = '{"model":"gpt-3.5-turbo","temperature":0.2,"messages":[{"role":"user","content":"hi"}]}';
    const out = upstreamBody(input(raw, { mappedModel: 'gpt-4o-mini' }));
    expect(out.systemPromptReset).toBe(false);
    expect(out.body).toBe('{"model":"gpt-4o-mini","temperature":0.2,"messages":[{"role":"user","content":"hi"}]}');
  });

  it('writes the path model of an embeddings request without one', () => {
    const raw = '{"input":"x"}';
    const out = upstreamBody(input(raw, { mode: 'embeddings', mappedModel: 'text-embedding-ada-002', requestedModel: 'text-embedding-ada-002' }));
    expect(parsed(out.body)).toEqual({ input: 'x', model: 'text-embedding-ada-002' });
  });

  it('replaces the content of a leading system message', () => {
    const raw = '{"model":"gpt-4o","messages":[{"role":"system","content":"old","name":"s"},{"role":"user","content":"hi"}]}';
    const out = upstreamBody(input(raw, { systemPrompt: 'You are terse.' }));
    expect(out.systemPromptReset).toBe(true);
    expect(parsed(out.body).messages).toEqual([
      { role: 'system', content: 'You are terse.', name: 's' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('inserts a system message before the others', () => {
    const raw = '{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}';
    const out = upstreamBody(input(raw, { systemPrompt: 'You are terse.' }));
    expect(out.systemPromptReset).toBe(true);
    expect(parsed(out.body)).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'hi' },
      ],
    });
  });

  it('leaves requests without messages alone', () => {
    const raw = '{"model":"gpt-4o","messages":[]}';
    expect(upstreamBody(input(raw, { systemPrompt: 'x' }))).toEqual({ body: raw, systemPromptReset: false, usageChunkHidden: false });
  });

  it('forces stream_options.include_usage on streaming chat and completions', () => {
    const chatRaw = '{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"hi"}]}';
    expect(parsed(upstreamBody(input(chatRaw)).body)).toEqual({ ...parsed(chatRaw), stream_options: { include_usage: true } });
    const keep = '{"model":"gpt-4o","stream":true,"stream_options":{"include_usage":false,"other":1},"messages":[]}';
    expect(parsed(upstreamBody(input(keep)).body).stream_options).toEqual({ include_usage: true, other: 1 });
    const nullOptions = '{"model":"m","stream":true,"stream_options":null,"prompt":"x"}';
    expect(parsed(upstreamBody(input(nullOptions, { mode: 'completions' })).body).stream_options).toEqual({ include_usage: true });
  });

  it('hides the usage chunk from the client only where one-api would not have asked for it', () => {
    const chatRaw = '{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"hi"}]}';
    // one-api forwards this body unchanged: the client never saw a usage chunk
    expect(upstreamBody(input(chatRaw)).usageChunkHidden).toBe(true);
    // one-api re-serialises these and forces include_usage itself: the client sees the chunk
    expect(upstreamBody(input(chatRaw, { mappedModel: 'gpt-4o-mini' })).usageChunkHidden).toBe(false);
    expect(upstreamBody(input(chatRaw, { systemPrompt: 'sys' })).usageChunkHidden).toBe(false);
    expect(upstreamBody(input(chatRaw, { channelType: 26 })).usageChunkHidden).toBe(false);
    expect(upstreamBody(input(chatRaw, { enforceIncludeUsage: true })).usageChunkHidden).toBe(false);
    // the client asked for it
    const asked = '{"model":"gpt-4o","stream":true,"stream_options":{"include_usage":true},"messages":[]}';
    expect(upstreamBody(input(asked)).usageChunkHidden).toBe(false);
    expect(upstreamBody(input('{"model":"gpt-4o","messages":[]}')).usageChunkHidden).toBe(false);
  });

  it('does not add stream_options to non-streaming or other-mode requests', () => {
    for (const raw of ['{"model":"gpt-4o","stream":false,"messages":[]}', '{"model":"gpt-4o","messages":[]}']) {
      expect(upstreamBody(input(raw, { mappedModel: 'x' })).body).not.toContain('stream_options');
    }
    const embeddings = '{"model":"e","stream":true,"input":"x"}';
    expect(upstreamBody(input(embeddings, { mode: 'embeddings' })).body).toBe(embeddings);
  });

  it('combines mapping, system prompt and include_usage', () => {
    const raw = '{"model":"a","stream":true,"messages":[{"role":"user","content":"hi"}]}';
    const out = upstreamBody(input(raw, { mappedModel: 'b', systemPrompt: 'sys' }));
    expect(out.systemPromptReset).toBe(true);
    expect(parsed(out.body)).toEqual({
      model: 'b',
      stream: true,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
      ],
      stream_options: { include_usage: true },
    });
  });
});
