import { describe, expect, it } from 'vitest';
import { activeEntryOf, documentTitleOf, fitNavItems, isActive, menuItems, pageTitleKeyOf } from '../../src/views/app/menu';

const paths = (isAdmin: boolean, chatLink: string, signedIn = true) => menuItems({ signedIn, isAdmin, chatLink }).map((i) => i.to);

describe('header menu', () => {
  it('shows a common user their own entries, in the spec order', () => {
    expect(paths(false, '')).toEqual(['/', '/dashboard', '/token', '/topup', '/log', '/pricing', '/setting', '/about']);
  });
  it('adds channel, redemption and user for admins', () => {
    expect(paths(true, '')).toEqual(['/', '/dashboard', '/channel', '/token', '/redemption', '/topup', '/user', '/log', '/pricing', '/setting', '/about']);
  });
  it('adds chat only when a chat link is configured', () => {
    expect(paths(false, 'https://chat.example.com')).toContain('/chat');
    expect(paths(true, '')).not.toContain('/chat');
  });
  it('shows a visitor only the pages a visitor can open: home, chat when linked, about', () => {
    expect(paths(false, '', false)).toEqual(['/', '/about']);
    expect(paths(false, 'https://chat.example.com', false)).toEqual(['/', '/chat', '/about']);
    // a stale admin flag without a session adds nothing
    expect(paths(true, '', false)).toEqual(['/', '/about']);
  });
  it('marks the entry of the current page', () => {
    expect(isActive('/', '/')).toBe(true);
    expect(isActive('/', '/token')).toBe(false);
    expect(isActive('/token', '/token/edit/3')).toBe(true);
    expect(isActive('/token', '/tokens')).toBe(false);
    expect(isActive('/user', '/user/edit/3')).toBe(true);
    expect(isActive('/user', '/user/add')).toBe(true);
  });
  it('does not mark 用户 on the own-profile and password-reset pages', () => {
    expect(isActive('/user', '/user/edit')).toBe(false);
    expect(isActive('/user', '/user/reset')).toBe(false);
    expect(activeEntryOf('/user/edit')).toBe('/setting');
    expect(activeEntryOf('/user/edit/')).toBe('/setting');
    expect(activeEntryOf('/user/reset')).toBeNull();
    expect(activeEntryOf('/login')).toBeNull();
  });
});

describe('tab title', () => {
  it('names the page and the system', () => {
    expect(pageTitleKeyOf('/token')).toBe('shell.nav.token');
    expect(pageTitleKeyOf('/token/edit/4')).toBe('shell.nav.token');
    expect(pageTitleKeyOf('/login')).toBe('shell.account.login');
    expect(pageTitleKeyOf('/')).toBeNull();
    expect(pageTitleKeyOf('/user/edit')).toBeNull();
    // a common user on an admin URL: the 403 page names itself
    expect(pageTitleKeyOf('/channel', 'forbidden')).toBe('shell.forbidden.title');
    expect(pageTitleKeyOf('/channel', 'allow')).toBe('shell.nav.channel');
    expect(documentTitleOf('令牌', 'My Gateway')).toBe('令牌 - My Gateway');
    expect(documentTitleOf(null, 'My Gateway')).toBe('My Gateway');
  });
});

describe('fitting the menu on one row', () => {
  it('keeps every entry when they all fit, without a More button', () => {
    expect(fitNavItems([50, 50, 50], 150, 60)).toBe(3);
  });
  it('moves what does not fit beside the More button into it', () => {
    expect(fitNavItems([50, 50, 50], 149, 60)).toBe(1);
    expect(fitNavItems([50, 50, 50, 50], 180, 60)).toBe(2);
  });
  it('keeps none when not even one fits beside More', () => {
    expect(fitNavItems([50, 50], 70, 60)).toBe(0);
    expect(fitNavItems([], 0, 60)).toBe(0);
  });
});
