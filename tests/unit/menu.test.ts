import { describe, expect, it } from 'vitest';
import { isActive, menuItems } from '../../src/views/app/menu';

const paths = (isAdmin: boolean, chatLink: string) => menuItems({ isAdmin, chatLink }).map((i) => i.to);

describe('header menu', () => {
  it('shows a common user their own entries, in the spec order', () => {
    expect(paths(false, '')).toEqual(['/', '/dashboard', '/token', '/topup', '/log', '/setting', '/about']);
  });
  it('adds channel, redemption and user for admins', () => {
    expect(paths(true, '')).toEqual(['/', '/dashboard', '/channel', '/token', '/redemption', '/topup', '/user', '/log', '/setting', '/about']);
  });
  it('adds chat only when a chat link is configured', () => {
    expect(paths(false, 'https://chat.example.com')).toContain('/chat');
    expect(paths(true, '')).not.toContain('/chat');
  });
  it('marks the entry of the current page', () => {
    expect(isActive('/', '/')).toBe(true);
    expect(isActive('/', '/token')).toBe(false);
    expect(isActive('/token', '/token/edit/3')).toBe(true);
    expect(isActive('/token', '/tokens')).toBe(false);
  });
});
