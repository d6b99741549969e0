import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import cl100kRanks from 'gpt-tokenizer/bpeRanks/cl100k_base';
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { describe, expect, it } from 'vitest';
import { countBounded, maxTokenBytes } from '../../server/relay/tokenCore.mjs';
import {
  CompletionCounter,
  approximateTokens,
  countPlan,
  countPlanSync,
  planBounds,
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

describe('bounded counting (hostile prompts)', () => {
  const library = (text: string, o200k: boolean): number => (o200k ? countO200k(text, plain) : countCl100k(text, plain));
  const plain = { disallowedSpecial: new Set<string>() };
  /** Text of words, numbers, punctuation, Chinese, newlines and runs of spaces, as people write it. */
  function ordinaryText(seed: number, length: number): string {
    let x = seed;
    const random = (n: number): number => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x % n;
    };
    const words = ['the', 'gateway', 'Relays', "it's", 'don’t', 'tokens', '令牌', '网关统计', 'ÉCOLE', 'naïve', 'x', 'HTTPServer', 'fooBar'];
    const glue = [' ', ' ', ' ', ', ', '. ', '\n', '\n\n', '  ', ' (', ') ', '/', '-', '：', '，', '   \n', '\t'];
    let text = '';
    while (text.length < length) text += (words[random(words.length)] ?? '') + (random(5) === 0 ? String(random(100000)) : '') + (glue[random(glue.length)] ?? '');
    return text;
  }

  it('one token stands for at most 128 UTF-8 bytes in both vocabularies (the lower bound relies on it)', () => {
    for (const ranks of [cl100kRanks, o200kRanks]) {
      let longest = 0;
      ranks.forEach((value) => {
        longest = Math.max(longest, typeof value === 'string' ? Buffer.byteLength(value) : value.length);
      });
      expect(longest).toBe(maxTokenBytes);
    }
  });

  it('ordinary text is counted exactly as the library counts it', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const text = ordinaryText(seed, 3000 + seed * 500);
      expect(countBounded(text, false)).toBe(library(text, false));
      expect(countBounded(text, true)).toBe(library(text, true));
    }
  });

  it('a run of one letter costs linear time and counts as the library does', () => {
    for (const n of [1000, 10_000]) expect(countTextTokens('a'.repeat(n), 'gpt-4')).toBe(library('a'.repeat(n), false));
    const started = performance.now();
    expect(countTextTokens('a'.repeat(1_000_000), 'gpt-3.5-turbo')).toBe(125_000);
    countTextTokens('a'.repeat(1_000_000), 'gpt-4o');
    countTextTokens(' '.repeat(200_000) + '='.repeat(200_000) + '中'.repeat(200_000), 'gpt-4o');
    // the library alone took seconds for 100,000 letters; a linear count of these takes tens of ms
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('the bounds hold: ceil(bytes / 128) <= tokens <= bytes', () => {
    for (const text of [ordinaryText(7, 20_000), 'a'.repeat(50_000), ' '.repeat(40_000), '😀'.repeat(5000)]) {
      const plan = { fixed: 3, texts: [text, 'user'] };
      const { lower, upper } = planBounds(plan, 'gpt-4');
      const exact = countPlanSync(plan, 'gpt-4');
      expect(lower).toBeLessThanOrEqual(exact);
      expect(exact).toBeLessThanOrEqual(upper);
    }
  });

  it('a large text is counted on a counting thread, with the same result', async () => {
    const text = ordinaryText(3, 200_000);
    const plan = { fixed: 5, texts: [text, 'assistant'] };
    expect(await countPlan(plan, 'gpt-4o')).toBe(countPlanSync(plan, 'gpt-4o'));
    expect(await countPlan(plan, 'gpt-4')).toBe(countPlanSync(plan, 'gpt-4'));
  });

  it('a streamed completion counted chunk by chunk equals the count of the whole text', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const text = ordinaryText(seed * 31, 30_000);
      for (const model of ['gpt-3.5-turbo', 'gpt-4o']) {
        const counter = new CompletionCounter(model);
        let at = 0;
        let step = 1;
        while (at < text.length) {
          counter.add(text.slice(at, at + step));
          at += step;
          step = (step * 7 + seed) % 23 + 1;
        }
        expect(await counter.total()).toBe(countTextTokens(text, model));
      }
    }
  });

  it('a streamed run of one letter (no place to cut) is counted in parts, close to the library', async () => {
    const counter = new CompletionCounter('gpt-4');
    for (let i = 0; i < 10_000; i++) counter.add('a'.repeat(10));
    expect(await counter.total()).toBe(12_500);
    const approximate = new CompletionCounter('gpt-4', { approximate: true });
    approximate.add('hello ');
    approximate.add('world');
    expect(await approximate.total()).toBe(approximateTokens('hello world'));
  });
});
