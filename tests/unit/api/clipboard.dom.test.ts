// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyText, openWindow, readStoredUser, writeStoredUser } from '../../../src/api/actors';

// The textarea fallback and the real localStorage default need a DOM.
describe('copyText fallback (DOM)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('falls back to a hidden textarea and execCommand when the clipboard API refuses', async () => {
    let copied = '';
    const execCommand = vi.fn((command: string) => {
      const area = document.querySelector('textarea');
      copied = area !== null && document.activeElement === area ? area.value : '';
      return command === 'copy';
    });
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    const writeText = vi.fn(() => Promise.reject(new Error('denied')));

    await copyText('sk-secret', { navigator: { clipboard: { writeText } }, document });

    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(copied).toBe('sk-secret');
    expect(document.querySelector('textarea')).toBeNull();
  });

  it('rejects when execCommand reports failure, and cleans up', async () => {
    Object.defineProperty(document, 'execCommand', { value: () => false, configurable: true });
    await expect(copyText('x', { document })).rejects.toMatchObject({ _tag: 'Refused', refusal: { key: 'error.clipboard' } });
    expect(document.querySelector('textarea')).toBeNull();
  });

  it('uses the window defaults', async () => {
    Object.defineProperty(document, 'execCommand', { value: () => true, configurable: true });
    await expect(copyText('x')).resolves.toBeUndefined();
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    openWindow('https://example.com/chat');
    expect(open).toHaveBeenCalledWith('https://example.com/chat', '_blank', 'noopener,noreferrer');
  });

  it('uses localStorage by default', () => {
    writeStoredUser({ id: 3, username: 'bob', display_name: 'Bob', role: 1, status: 1 });
    expect(localStorage.getItem('user')).toBe('{"id":3,"username":"bob","display_name":"Bob","role":1,"status":1}');
    expect(readStoredUser()).toEqual({ id: 3, username: 'bob', display_name: 'Bob', role: 1, status: 1 });
    writeStoredUser(null);
    expect(localStorage.getItem('user')).toBeNull();
  });
});
