import { describe, expect, it } from 'vitest';
import {
  localResults,
  matchScore,
  moveIndex,
  noEntities,
  pagesFor,
  paletteResults,
  searchKeyword,
} from '../../../src/domain/commandPalette';
import { isMessageKey } from '../../../src/i18n';
import { menuItems } from '../../../src/views/app/menu';

const ids = (items: readonly { id: string }[]) => items.map((i) => i.id);

describe('command palette matching', () => {
  it('ranks whole, prefix, word prefix, substring, then in-order characters', () => {
    expect(matchScore('tokens', 'tokens')).toBe(100);
    expect(matchScore('tok', 'tokens')).toBe(80);
    expect(matchScore('tok', 'new token')).toBe(60);
    expect(matchScore('ken', 'tokens')).toBe(40);
    expect(matchScore('tkn', 'tokens')).toBe(10);
    expect(matchScore('xyz', 'tokens')).toBe(0);
    expect(matchScore('  TOK ', 'Tokens')).toBe(80);
  });

  it('finds pages by English and Chinese keywords', () => {
    expect(ids(localResults('令牌', false))[0]).toBe('page:/token');
    expect(ids(localResults('tokens', false))[0]).toBe('page:/token');
    expect(ids(localResults('日志', false))).toContain('page:/log');
    expect(ids(localResults('logs', false))).toContain('page:/log');
    expect(ids(localResults('充值', false))[0]).toBe('page:/topup');
  });

  it('finds actions by aliases in both languages', () => {
    expect(ids(localResults('new token', false))[0]).toBe('action:newToken');
    expect(ids(localResults('新建令牌', false))[0]).toBe('action:newToken');
    expect(ids(localResults('dark', false))).toEqual(['action:theme']);
    expect(ids(localResults('退出', false))).toEqual(['action:signOut']);
    expect(ids(localResults('language', false))).toContain('action:lang');
  });

  it('never offers admin pages or actions to a common user', () => {
    const common = ids(localResults('', false));
    for (const admin of ['page:/channel', 'page:/user', 'page:/redemption', 'action:testChannels']) expect(common).not.toContain(admin);
    expect(ids(localResults('渠道', false))).toEqual([]);
    expect(ids(localResults('渠道', true))).toEqual(['page:/channel', 'action:testChannels']);
    expect(pagesFor(true).length).toBeGreaterThan(pagesFor(false).length);
    expect(pagesFor(false)).not.toContain('/channel');
  });

  it('offers every page of the menu the viewer has (chat is a link out, not a page)', () => {
    for (const isAdmin of [false, true]) {
      const menu = menuItems({ signedIn: true, isAdmin, chatLink: '' }).map((i) => i.to);
      for (const to of menu) expect(pagesFor(isAdmin), `${to} (admin: ${isAdmin})`).toContain(to);
    }
    expect(ids(localResults('pricing', false))[0]).toBe('page:/pricing');
    expect(ids(localResults('价格', false))[0]).toBe('page:/pricing');
  });

  it('lists everything for an empty query, pages first', () => {
    const all = localResults('', true);
    expect(all.length).toBe(17);
    expect(all[0]!.group).toBe('pages');
    expect(all.at(-1)!.group).toBe('actions');
  });

  it('every label is a catalogue key', () => {
    for (const item of localResults('', true)) expect('key' in item.label && isMessageKey(item.label.key), item.id).toBe(true);
  });

  it('links entities to their edit pages, in group order, channels and users for admins only', () => {
    const entities = { channels: [{ id: 3, name: 'openai-main' }], tokens: [{ id: 5, name: 'ci token' }], users: [{ id: 7, name: 'alice' }] };
    const admin = paletteResults('zzzz', true, entities);
    expect(admin.map((i) => [i.group, i.run])).toEqual([
      ['channels', { kind: 'navigate', to: '/channel/edit/3' }],
      ['tokens', { kind: 'navigate', to: '/token/edit/5' }],
      ['users', { kind: 'navigate', to: '/user/edit/7' }],
    ]);
    expect(admin[0]!.label).toEqual({ text: 'openai-main' });
    expect(admin[0]!.detail).toBe('#3');
    expect(ids(paletteResults('zzzz', false, entities))).toEqual(['tokens:5']);
    expect(paletteResults('zzzz', true, noEntities)).toEqual([]);
  });

  it('caps each kind of entity', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ id: i, name: `c${i}` }));
    expect(paletteResults('zzzz', true, { ...noEntities, channels: many }).length).toBe(8);
  });

  it('trims the keyword and wraps the selection', () => {
    expect(searchKeyword('  gpt ')).toBe('gpt');
    expect(moveIndex(0, -1, 3)).toBe(2);
    expect(moveIndex(2, 1, 3)).toBe(0);
    expect(moveIndex(1, 1, 3)).toBe(2);
    expect(moveIndex(0, 1, 0)).toBe(0);
  });
});
