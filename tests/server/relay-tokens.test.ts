import { describe, expect, it } from 'vitest';
import {
  approximateTokens,
  countChatPromptTokens,
  countInputTokens,
  countPromptTokens,
  countTextTokens,
  usesO200k,
} from '../../server/relay/tokenCount';

/** Local token counting (contract §4.13). */

describe('countTextTokens', () => {
  it('counts known strings in both encodings', () => {
    expect(countTextTokens('hello world', 'gpt-3.5-turbo')).toBe(2);
    expect(countTextTokens('hello world', 'gpt-4o')).toBe(2);
    expect(countTextTokens('', 'gpt-4o')).toBe(0);
    // The encodings differ on non-English text: o200k_base is denser.
    const chinese = '今天天气很好，我们去公园散步吧。';
    expect(countTextTokens(chinese, 'gpt-4o')).toBeLessThan(countTextTokens(chinese, 'gpt-4'));
  });

  it('picks o200k_base for the gpt-4o, o-series, gpt-4.1 and gpt-5 families only', () => {
    for (const model of ['gpt-4o', 'gpt-4o-mini', 'chatgpt-4o-latest', 'o1', 'o1-mini', 'o3-mini', 'o4-mini', 'gpt-4.1', 'gpt-5-nano']) {
      expect(usesO200k(model), model).toBe(true);
    }
    for (const model of ['gpt-3.5-turbo', 'gpt-4', 'gpt-4-turbo', 'text-embedding-3-small', 'claude-3-haiku', 'deepseek-chat', '']) {
      expect(usesO200k(model), model).toBe(false);
    }
  });

  it('counts special-token text as plain text instead of throwing', () => {
    expect(countTextTokens('a <|endoftext|> b', 'gpt-3.5-turbo')).toBeGreaterThan(3);
    expect(countTextTokens('<|im_start|>', 'gpt-4o')).toBeGreaterThan(1);
  });

  it('approximates from UTF-8 bytes when asked', () => {
    expect(approximateTokens('hello world')).toBe(4); // 11 bytes × 0.38 = 4.18
    expect(approximateTokens('你好')).toBe(2); // 6 bytes × 0.38 = 2.28
    expect(approximateTokens('')).toBe(0);
    expect(countTextTokens('hello world', 'gpt-4o', { approximate: true })).toBe(4);
  });
});

describe('countChatPromptTokens', () => {
  const messages = [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Hello!', name: 'alice' },
  ];

  it('adds 3 per message, role, content, name + 1, and 3 for the priming', () => {
    const t = (s: string) => countTextTokens(s, 'gpt-3.5-turbo');
    const expected = 3 + t('You are a helpful assistant.') + t('system') + 3 + t('Hello!') + t('user') + 1 + t('alice') + 3;
    expect(countChatPromptTokens(messages, 'gpt-3.5-turbo')).toBe(expected);
    expect(expected).toBe(21);
  });

  it('uses 4 per message and -1 per name for gpt-3.5-turbo-0301', () => {
    expect(countChatPromptTokens(messages, 'gpt-3.5-turbo-0301')).toBe(21 + 2 - 2);
  });

  it('counts text parts and images without fetching them', () => {
    const parts = (detail?: string) => [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hello world' },
          { type: 'image_url', image_url: detail === undefined ? { url: 'https://example.invalid/cat.png' } : { url: 'https://example.invalid/cat.png', detail } },
          { type: 'input_audio', input_audio: { data: '', format: 'wav' } },
        ],
      },
    ];
    const base = 3 + 2 + 1 + 3; // message, 'hello world', 'user', priming
    expect(countChatPromptTokens(parts('low'), 'gpt-4o')).toBe(base + 85);
    expect(countChatPromptTokens(parts('high'), 'gpt-4o')).toBe(base + 765);
    expect(countChatPromptTokens(parts('auto'), 'gpt-4o')).toBe(base + 765);
    expect(countChatPromptTokens(parts(), 'gpt-4o')).toBe(base + 765);
    expect(countChatPromptTokens(parts('weird'), 'gpt-4o')).toBe(base);
    expect(countChatPromptTokens(parts('low'), 'gpt-4o-mini')).toBe(base + 2833);
    expect(countChatPromptTokens(parts('high'), 'gpt-4o-mini')).toBe(base + 2833 + 5667 * 4);
  });

  it('tolerates malformed messages', () => {
    expect(countChatPromptTokens(undefined, 'gpt-4o')).toBe(0);
    expect(countChatPromptTokens('hi', 'gpt-4o')).toBe(0);
    expect(countChatPromptTokens([], 'gpt-4o')).toBe(3);
    expect(countChatPromptTokens([null, { role: 5, content: { x: 1 } }, { content: [null, { type: 'text', text: 7 }] }], 'gpt-4o')).toBe(3 * 3 + 3);
  });

  it('approximates every piece when asked', () => {
    const expected = 3 + approximateTokens('You are a helpful assistant.') + approximateTokens('system') + 3 + approximateTokens('Hello!') + approximateTokens('user') + 1 + approximateTokens('alice') + 3;
    expect(countChatPromptTokens(messages, 'gpt-4o', { approximate: true })).toBe(expected);
  });
});

describe('countPromptTokens', () => {
  it('counts chat messages, completion prompts and moderation inputs; 0 otherwise', () => {
    expect(countPromptTokens('chat', { messages: [{ role: 'user', content: 'hello world' }] }, 'gpt-4o')).toBe(3 + 2 + 1 + 3);
    expect(countPromptTokens('completions', { prompt: 'hello world' }, 'gpt-3.5-turbo-instruct')).toBe(2);
    expect(countPromptTokens('completions', { prompt: ['hello', ' world'] }, 'gpt-3.5-turbo-instruct')).toBe(2);
    expect(countPromptTokens('moderations', { input: 'hello world' }, 'text-moderation-latest')).toBe(2);
    expect(countPromptTokens('moderations', { input: ['hello', ' world'] }, 'text-moderation-latest')).toBe(2);
    expect(countPromptTokens('embeddings', { input: 'hello world' }, 'text-embedding-3-small')).toBe(0);
    expect(countPromptTokens('images', { prompt: 'hello world' }, 'dall-e-3')).toBe(0);
  });

  it('counts pre-tokenised prompts by length', () => {
    expect(countInputTokens([1, 2, 3], 'm')).toBe(3);
    expect(countInputTokens([[1, 2], [3]], 'm')).toBe(3);
    expect(countInputTokens([1, 'a'], 'm')).toBe(0);
    expect(countInputTokens({ text: 'x' }, 'm')).toBe(0);
  });
});

describe('speed', () => {
  it('counts a 2,000-token prompt well under a millisecond on average', () => {
    const paragraph =
      'The gateway relays requests to upstream providers and bills them by the token. Each prompt is counted locally before the request is sent, ' +
      'so the count must be cheap compared with the network round trip. 网关在发送请求之前在本地统计提示词的令牌数。 ';
    let text = '';
    while (countTextTokens(text, 'gpt-3.5-turbo') < 2000) text += paragraph;
    const messages = [{ role: 'user', content: text }];
    for (const model of ['gpt-3.5-turbo', 'gpt-4o']) {
      for (let i = 0; i < 20; i++) countChatPromptTokens([{ role: 'user', content: `${text}${i}` }], model);
      const runs = 200;
      const started = performance.now();
      for (let i = 0; i < runs; i++) countChatPromptTokens([{ role: 'user', content: `${i}${text}` }], model);
      const average = (performance.now() - started) / runs;
      console.log(`[relay-tokens] ${model}: ${countChatPromptTokens(messages, model)} tokens counted in ${average.toFixed(3)} ms on average`);
      expect(average).toBeLessThan(20);
    }
  });
});
