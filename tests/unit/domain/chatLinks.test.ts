import { describe, expect, it } from 'vitest';
import {
  chatClients,
  chatUrl,
  copyFormats,
  copyText,
  defaultLobeChatLink,
  defaultNextChatLink,
  fullKey,
  isCopyFormat,
  resolveServerAddress,
} from '../../../src/domain/chatLinks';

const key = 'Ab3dEfGh1JkLmNoP0A1B2C3D4E5F6A7B8C9D0E1F2A3B4C5D';
const serverAddress = 'https://gw.example.com';
const input = { key, serverAddress, chatLink: '' };

describe('token copy formats and chat links (contract §5.5)', () => {
  it('the raw format is the key with its sk- prefix', () => {
    expect(fullKey(key)).toBe(`sk-${key}`);
    expect(copyText('raw', input)).toBe(`sk-${key}`);
  });

  it('NextChat: the configured chat link, the JSON unencoded with the raw server address', () => {
    expect(copyText('next', { ...input, chatLink: 'https://chat.example.com' })).toBe(
      `https://chat.example.com/#/?settings={"key":"sk-${key}","url":"https://gw.example.com"}`,
    );
  });

  it('NextChat falls back to the public instance without a chat link', () => {
    expect(copyText('next', input)).toBe(`${defaultNextChatLink}/#/?settings={"key":"sk-${key}","url":"https://gw.example.com"}`);
    expect(defaultNextChatLink).toBe('https://app.nextchat.dev');
  });

  it('AMA and OpenCat take the encoded server address', () => {
    expect(copyText('ama', input)).toBe(`ama://set-api-key?server=https%3A%2F%2Fgw.example.com&key=sk-${key}`);
    expect(copyText('opencat', input)).toBe(`opencat://team/join?domain=https%3A%2F%2Fgw.example.com&token=sk-${key}`);
  });

  it('LobeChat: the key vault JSON with the /v1 base URL; never "null" without a chat link', () => {
    expect(copyText('lobechat', { ...input, chatLink: 'https://lobe.example.com/' })).toBe(
      `https://lobe.example.com/?settings={"keyVaults":{"openai":{"apiKey":"sk-${key}","baseURL":"https://gw.example.com/v1"}}}`,
    );
    const fallback = copyText('lobechat', input);
    expect(fallback.startsWith(`${defaultLobeChatLink}/?settings=`)).toBe(true);
    expect(fallback).not.toContain('null');
  });

  it('the chat clients are every format but raw; chat URLs equal the copy links', () => {
    expect(copyFormats).toEqual(['raw', 'next', 'ama', 'opencat', 'lobechat']);
    expect(chatClients).toEqual(['next', 'ama', 'opencat', 'lobechat']);
    for (const c of chatClients) expect(chatUrl(c, input)).toBe(copyText(c, input));
    expect(isCopyFormat('next')).toBe(true);
    expect(isCopyFormat('nextchat')).toBe(false);
  });

  it('the server address is the status one, else the page origin, without a trailing slash', () => {
    expect(resolveServerAddress('https://api.example.com/', 'http://localhost:3000')).toBe('https://api.example.com');
    expect(resolveServerAddress('', 'http://localhost:3000')).toBe('http://localhost:3000');
    expect(resolveServerAddress('  ', 'http://localhost:3000')).toBe('http://localhost:3000');
    expect(resolveServerAddress(null, 'http://localhost:3000')).toBe('http://localhost:3000');
    expect(resolveServerAddress(undefined, 'http://localhost:3000/')).toBe('http://localhost:3000');
  });
});
