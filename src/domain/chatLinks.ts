/**
 * What the token list copies and opens (contract §5.5): the raw key with its `sk-` prefix, or a
 * link that configures a third-party chat client with the key and this gateway's address.
 * Pure: the caller supplies the server address (the status's, else the page origin) and the
 * configured chat link.
 */

/** The prefix clients show and copy before a token key (spec §3). */
export const tokenKeyPrefix = 'sk-';

/** The copy dropdown's formats; every one but `raw` is also a chat client the "chat" dropdown opens. */
export const copyFormats = ['raw', 'next', 'ama', 'opencat', 'lobechat'] as const;
export type CopyFormat = (typeof copyFormats)[number];

/** The chat clients (all formats but the raw key). */
export const chatClients = ['next', 'ama', 'opencat', 'lobechat'] as const satisfies readonly CopyFormat[];
export type ChatClient = (typeof chatClients)[number];

/** NextChat's public instance, used when no ChatLink is configured. */
export const defaultNextChatLink = 'https://app.nextchat.dev';
/** LobeChat's public instance, used when no ChatLink is configured (never `null/…`). */
export const defaultLobeChatLink = 'https://chat-preview.lobehub.com';

export interface ChatLinkInput {
  /** The token key as the server sends it (without `sk-`). */
  readonly key: string;
  /** Where clients reach this gateway (status.server_address, else the page origin). */
  readonly serverAddress: string;
  /** The configured ChatLink option ('' when unset). */
  readonly chatLink: string;
}

/** The key as clients use it: `sk-<key>`. */
export const fullKey = (key: string): string => `${tokenKeyPrefix}${key}`;

/** The status's server address, else the page origin (contract §5.5); no trailing slash. */
export const resolveServerAddress = (statusAddress: string | null | undefined, origin: string): string => {
  const chosen = statusAddress !== undefined && statusAddress !== null && statusAddress.trim() !== '' ? statusAddress.trim() : origin;
  return chosen.replace(/\/+$/, '');
};

const base = (chatLink: string, fallback: string): string => (chatLink.trim() === '' ? fallback : chatLink.trim()).replace(/\/+$/, '');

/**
 * The text a copy format puts on the clipboard. The JSON of the NextChat and LobeChat links is
 * not URL-encoded and carries the raw server address; AMA and OpenCat take it encoded.
 */
export function copyText(format: CopyFormat, { key, serverAddress, chatLink }: ChatLinkInput): string {
  const sk = fullKey(key);
  const enc = encodeURIComponent(serverAddress);
  switch (format) {
    case 'raw':
      return sk;
    case 'next':
      return `${base(chatLink, defaultNextChatLink)}/#/?settings=${JSON.stringify({ key: sk, url: serverAddress })}`;
    case 'ama':
      return `ama://set-api-key?server=${enc}&key=${sk}`;
    case 'opencat':
      return `opencat://team/join?domain=${enc}&token=${sk}`;
    case 'lobechat':
      return `${base(chatLink, defaultLobeChatLink)}/?settings=${JSON.stringify({
        keyVaults: { openai: { apiKey: sk, baseURL: `${serverAddress}/v1` } },
      })}`;
  }
}

/** The link a chat client opens with (the main "chat" button opens `next`). */
export const chatUrl = (client: ChatClient, input: ChatLinkInput): string => copyText(client, input);

/** Whether a string names a copy format. */
export const isCopyFormat = (value: string): value is CopyFormat => (copyFormats as readonly string[]).includes(value);
