import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { EventSplitter } from '../../server/relay/eventSplitter';

/** The stream's events (data, and the raw text when passed on as it came) and the count of events without data, fed in `pieces`. */
function split(pieces: readonly string[]): { readonly data: string[]; readonly raw: (string | null)[]; readonly other: number } {
  const data: string[] = [];
  const raw: (string | null)[] = [];
  let other = 0;
  const splitter = new EventSplitter({
    onData: (d, r) => {
      data.push(d);
      raw.push(r);
    },
    onOther: () => {
      other += 1;
    },
  });
  for (const piece of pieces) splitter.feed(piece);
  return { data, raw, other };
}

/** What eventsource-parser makes of the whole text: the reference. */
function reference(text: string): string[] {
  const data: string[] = [];
  const parser = createParser({ onEvent: (event) => data.push(event.data) });
  parser.feed(text);
  return data;
}

/** `text` cut at `cuts` (sorted offsets). */
const cutAt = (text: string, cuts: readonly number[]): string[] => [0, ...cuts].map((from, i) => text.slice(from, cuts[i] ?? text.length));

const chunk = (content: string): string => `{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}}}]}`;

describe('EventSplitter', () => {
  const streams: Record<string, string> = {
    openai: `data: ${chunk('Hel')}\n\ndata: ${chunk('lo\n\nworld')}\n\ndata: {"choices":[],"usage":{"prompt_tokens":1}}\n\ndata: [DONE]\n\n`,
    'no space, comments, fields': `: keep-alive\n\ndata:${chunk('a')}\n\nevent: message\nid: 7\ndata: ${chunk('b')}\n\n: ping\nretry: 10\n\ndata: [DONE]\n\n`,
    'several data lines': `data: {"choices":\ndata: [{"delta":{}}]}\n\ndata\n\ndata:\ndata: x\n\n\n\ndata: [DONE]\n\n`,
    crlf: `data: ${chunk('a')}\r\n\r\ndata: ${chunk('b')}\r\n\r\ndata: [DONE]\r\n\r\n`,
    'cr after lf events': `data: ${chunk('a')}\n\ndata: ${chunk('b')}\r\rdata: [DONE]\r\r`,
    unicode: `data: ${chunk('你好，世界 🌍')}\n\ndata: [DONE]\n\n`,
  };

  for (const [name, text] of Object.entries(streams)) {
    it(`reads "${name}" as eventsource-parser does, cut anywhere`, () => {
      const expected = reference(text);
      expect(split([text]).data).toEqual(expected);
      for (let i = 1; i < text.length; i++) expect(split(cutAt(text, [i])).data).toEqual(expected);
      for (let i = 1; i < text.length - 1; i++) expect(split(cutAt(text, [i, i + 1])).data).toEqual(expected);
      expect(split([...text]).data).toEqual(expected);
    });
  }

  it('hands out each ordinary event as its exact text, to be passed on as it came', () => {
    const text = streams.openai ?? '';
    const { raw } = split(cutAt(text, [5, 40, 41, 200]));
    expect(raw.join('')).toBe(text);
  });

  it('rebuilds the events it read by field (no raw text) and counts those without data', () => {
    const { raw, other } = split([streams['no space, comments, fields'] ?? '']);
    expect(raw).toEqual([null, null, 'data: [DONE]\n\n']);
    expect(other).toBe(2);
  });

  it('drops an event the stream never finishes', () => {
    expect(split([`data: ${chunk('a')}\n\ndata: ${chunk('b')}\n`]).data).toEqual([chunk('a')]);
  });
});
