import { describe, expect, it } from 'vitest';
import * as E from 'fp-ts/Either';
import {
  ChatCompletion,
  chatRequestFor,
  fallbackTestModel,
  pickTestModel,
  RelayErrorBody,
  RelayModelList,
  replyPreview,
  restrictedModels,
} from '../../../src/domain/relay';

/* The relay codecs the console decodes with, and the token test's pure rules. */

const listed = [{ id: 'gpt-4o-mini' }, { id: 'gpt-3.5-turbo' }];
const answer = (content: string | null): ChatCompletion => ({ model: 'm', choices: [{ message: { role: 'assistant', content } }] });

describe('relay codecs', () => {
  it('read OpenAI shapes and ignore fields the console does not use', () => {
    expect(E.isRight(RelayModelList.decode({ object: 'list', data: [{ id: 'a', object: 'model', created: 1, owned_by: 'custom', permission: null }] }))).toBe(true);
    expect(E.isRight(ChatCompletion.decode({ id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [], usage: null }))).toBe(true);
    expect(E.isRight(ChatCompletion.decode({ model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [] }, finish_reason: null }] }))).toBe(true);
    expect(E.isRight(RelayErrorBody.decode({ error: { message: 'm', type: 'one_api_error' } }))).toBe(true);
  });

  it('refuse what is not', () => {
    expect(E.isLeft(RelayModelList.decode({ data: [{ name: 'a' }] }))).toBe(true);
    expect(E.isLeft(ChatCompletion.decode({ model: 'm', choices: [{ text: 'legacy' }] }))).toBe(true);
    expect(E.isLeft(RelayErrorBody.decode({ error: 'm' }))).toBe(true);
  });
});

describe('token test rules', () => {
  it('a restricted token tests its first allowed model; otherwise the first listed; otherwise the fallback', () => {
    expect(pickTestModel(' claude-3-haiku , gpt-4o-mini', listed)).toBe('claude-3-haiku');
    expect(pickTestModel('', listed)).toBe('gpt-4o-mini');
    expect(pickTestModel(null, listed)).toBe('gpt-4o-mini');
    expect(pickTestModel(undefined, [])).toBe(fallbackTestModel);
    expect(pickTestModel(' , ', [])).toBe(fallbackTestModel);
    expect(restrictedModels('a,,b ,')).toEqual(['a', 'b']);
  });

  it('asks for one short non-streaming answer', () => {
    expect(chatRequestFor('gpt-4o-mini')).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }], max_tokens: 8, stream: false });
  });

  it('shows the reply folded onto one line and cut to 60 characters', () => {
    expect(replyPreview(answer('  pong\n\n  again '))).toBe('pong again');
    expect(replyPreview(answer(null))).toBe('');
    expect(replyPreview({ model: 'm', choices: [] })).toBe('');
    const long = replyPreview(answer('x'.repeat(100)));
    expect(long).toHaveLength(60);
    expect(long.endsWith('…')).toBe(true);
    // characters, not UTF-16 units: a CJK or emoji reply is never split inside a character
    expect(Array.from(replyPreview(answer('😀'.repeat(70))))).toHaveLength(60);
    expect(replyPreview(answer('好'.repeat(60)))).toBe('好'.repeat(60));
  });
});
