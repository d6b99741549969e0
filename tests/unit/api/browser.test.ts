import { describe, expect, it, vi } from 'vitest';
import { createActor, setup, type AnyEventObject } from 'xstate';
import {
  copyText,
  copyTextActor,
  createUnauthorizedSignal,
  openWindow,
  readChannelModels,
  readLocal,
  readStoredFooter,
  readStoredStatus,
  readStoredUser,
  watchSession,
  writeChannelModels,
  writeLocal,
  writeStoredStatus,
  writeStoredUser,
  type StorageLike,
} from '../../../src/api/actors';
import { createApiClient, readNoData } from '../../../src/api/client';
import { downloadBlob } from '../../../src/api/actors/browser/downloads';
import { describeError } from '../../../src/domain/apiError';
import { renderMessage } from '../../../src/i18n';
import type { Status } from '../../../src/domain/status';
import type { User } from '../../../src/domain/user';
import { FakeStorage } from './support/fakeStorage';
import { fixture, recordedFetch } from './support/recordedFetch';

const status = (JSON.parse(fixture('status.json')) as { data: Status }).data;
const user = (JSON.parse(fixture('login.json')) as { data: User }).data;

describe('stored user', () => {
  it('round-trips and clears', () => {
    const storage = new FakeStorage();
    expect(readStoredUser(storage)).toBeNull();
    expect(writeStoredUser(user, storage)).toBe(true);
    expect(readStoredUser(storage)).toEqual(user);
    expect(writeStoredUser(null, storage)).toBe(true);
    expect(storage.getItem('user')).toBeNull();
  });

  it.each([
    ['not JSON', '{oops'],
    ['the wrong shape', '{"id":"1","username":"root"}'],
    ['JSON null', 'null'],
    ['a bare string', '"root"'],
  ])('reads %s as null', (_label, stored) => {
    expect(readStoredUser(new FakeStorage({ user: stored }))).toBeNull();
  });

  it('reads as null when the storage itself throws, and reports refused writes', () => {
    const throwing: StorageLike = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => undefined,
      removeItem: () => undefined,
    };
    expect(readStoredUser(throwing)).toBeNull();
    const full = new FakeStorage();
    full.failWrites = true;
    expect(writeStoredUser(user, full)).toBe(false);
  });

  it('does nothing without a storage (no localStorage in this environment)', () => {
    expect(readStoredUser()).toBeNull();
    expect(writeStoredUser(user)).toBe(false);
    expect(readStoredFooter()).toBe('');
  });
});

describe('stored status', () => {
  it('writes the status and its derived keys as strings, removing empty ones', () => {
    const storage = new FakeStorage({ chat_link: 'https://old.chat', footer_html: '<p>old</p>' });
    expect(writeStoredStatus({ ...status, system_name: 'Gateway', logo: 'https://x/logo.png' }, storage)).toBe(true);

    const stored = storage.snapshot();
    expect(JSON.parse(stored.status ?? '')).toEqual({ ...status, system_name: 'Gateway', logo: 'https://x/logo.png' });
    expect(stored).toMatchObject({
      system_name: 'Gateway',
      logo: 'https://x/logo.png',
      quota_per_unit: '500000',
      display_in_currency: 'true',
    });
    expect(stored).not.toHaveProperty('chat_link');
    expect(stored).not.toHaveProperty('footer_html');
    expect(readStoredStatus(storage)).toEqual({ ...status, system_name: 'Gateway', logo: 'https://x/logo.png' });
    expect(readStoredFooter(storage)).toBe('');
  });

  it('keeps chat_link and footer_html when set', () => {
    const storage = new FakeStorage();
    writeStoredStatus({ ...status, chat_link: 'https://chat.example', footer_html: '<b>hi</b>', display_in_currency: false }, storage);
    expect(storage.getItem('chat_link')).toBe('https://chat.example');
    expect(storage.getItem('display_in_currency')).toBe('false');
    expect(readStoredFooter(storage)).toBe('<b>hi</b>');
  });

  it('reads a malformed status as null', () => {
    expect(readStoredStatus(new FakeStorage({ status: '{"version":1}' }))).toBeNull();
    expect(readStoredStatus(new FakeStorage({ status: 'undefined' }))).toBeNull();
  });
});

describe('channel models and plain keys', () => {
  it('round-trips the channel models', () => {
    const storage = new FakeStorage();
    const models = { '1': ['gpt-4o'], '43': null };
    expect(writeChannelModels(models, storage)).toBe(true);
    expect(readChannelModels(storage)).toEqual(models);
    expect(readChannelModels(new FakeStorage({ channel_models: '[1]' }))).toBeNull();
  });

  it('reads and writes show_detail, aff, notice and prompt-* as strings', () => {
    const storage = new FakeStorage();
    expect(readLocal('aff', storage)).toBeNull();
    writeLocal('aff', 'Xk3p', storage);
    writeLocal('show_detail', 'true', storage);
    writeLocal('prompt-chat', 'true', storage);
    writeLocal('notice', '## hi', storage);
    expect(readLocal('aff', storage)).toBe('Xk3p');
    expect(readLocal('prompt-chat', storage)).toBe('true');
    expect(writeLocal('aff', null, storage)).toBe(true);
    expect(storage.snapshot()).toEqual({ show_detail: 'true', 'prompt-chat': 'true', notice: '## hi' });
  });
});

describe('browser refusals are said in the user\'s language', () => {
  it('a download without a page refuses with a catalogue message', () => {
    let thrown: unknown;
    try {
      downloadBlob('keys.txt', new Blob(['k']), {});
    } catch (e) {
      thrown = e;
    }
    const { message } = describeError(thrown);
    expect(renderMessage('zh', message)).toBe('此处无法下载文件');
    expect(renderMessage('en', message)).toBe('Files cannot be downloaded here');
  });

  it('a refused copy is translated, never fixed English', async () => {
    const thrown = await copyText('x', {}).catch((e: unknown) => e);
    expect(renderMessage('zh', describeError(thrown).message)).toBe('无法复制到剪贴板，请手动复制');
    expect(renderMessage('en', describeError(thrown).message)).toMatch(/^Cannot copy/);
  });
});

describe('copyText', () => {
  it('uses the async clipboard when it works', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    await copyText('sk-abc', { navigator: { clipboard: { writeText } } });
    expect(writeText).toHaveBeenCalledWith('sk-abc');
  });

  it('rejects when there is neither a clipboard nor a document', async () => {
    const writeText = vi.fn(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    await expect(copyText('sk-abc', { navigator: { clipboard: { writeText } } })).rejects.toMatchObject({ _tag: 'Refused', refusal: { key: 'error.clipboard' } });
    await expect(copyText('sk-abc', {})).rejects.toMatchObject({ _tag: 'Refused', refusal: { key: 'error.clipboard' } });
  });

  it('is available as promise actor logic', async () => {
    const actor = createActor(copyTextActor, { input: { text: 'x' } });
    const done = new Promise<string>((resolve) => {
      actor.subscribe({ complete: () => resolve('done'), error: () => resolve('error') });
    });
    actor.start();
    // No clipboard and no document in node: the actor rejects.
    expect(await done).toBe('error');
  });
});

describe('openWindow', () => {
  it('opens a new tab without opener access', () => {
    const open = vi.fn(() => null);
    openWindow('https://github.com/login/oauth/authorize?client_id=x', { open });
    expect(open).toHaveBeenCalledWith('https://github.com/login/oauth/authorize?client_id=x', '_blank', 'noopener,noreferrer');
  });

  it('does nothing where there is no window', () => {
    expect(() => {
      openWindow('https://example.com', {});
    }).not.toThrow();
  });
});

describe('unauthorized signal and watchSession', () => {
  const storageEvent = (init: { key: string | null; newValue: string | null; storageArea: unknown }): Event =>
    Object.assign(new Event('storage'), init);

  const startWatcher = (deps: Parameters<typeof watchSession>[0]) => {
    const received: AnyEventObject[] = [];
    const parent = setup({ actors: { watchSession: watchSession(deps) } }).createMachine({
      invoke: { id: 'watchSession', src: 'watchSession' },
      on: {
        '*': {
          actions: ({ event }) => {
            received.push(event);
          },
        },
      },
    });
    const actor = createActor(parent).start();
    return { received, actor };
  };

  it('the signal notifies every subscriber until it unsubscribes, and survives a failing one', () => {
    const signal = createUnauthorizedSignal();
    const a = vi.fn();
    const failing = vi.fn(() => {
      throw new Error('x');
    });
    const unsubscribe = signal.subscribe(a);
    signal.subscribe(failing);
    signal.notify();
    expect(a).toHaveBeenCalledTimes(1);
    unsubscribe();
    signal.notify();
    expect(a).toHaveBeenCalledTimes(1);
    expect(failing).toHaveBeenCalledTimes(2);
  });

  it('sends session.expired once per 401 the API client reports', async () => {
    const signal = createUnauthorizedSignal();
    const { received, actor } = startWatcher({ unauthorized: signal, target: new EventTarget(), storageArea: new FakeStorage() });
    const recorded = recordedFetch({ 'GET /api/user/self': { fixture: 'unauthorized.json', status: 401 } });
    const client = createApiClient({ fetch: recorded.fetch, onUnauthorized: signal.notify });

    await client.request({ method: 'GET', path: '/api/user/self', read: readNoData })();

    expect(received).toEqual([{ type: 'session.expired' }]);
    actor.stop();
    signal.notify();
    expect(received).toHaveLength(1);
  });

  it('sends session.storageChanged with the decoded user when another tab changes it', () => {
    const target = new EventTarget();
    const area = new FakeStorage();
    const { received, actor } = startWatcher({ unauthorized: createUnauthorizedSignal(), target, storageArea: area });

    target.dispatchEvent(storageEvent({ key: 'user', newValue: JSON.stringify(user), storageArea: area }));
    target.dispatchEvent(storageEvent({ key: 'user', newValue: null, storageArea: area }));
    target.dispatchEvent(storageEvent({ key: 'user', newValue: '{broken', storageArea: area }));
    target.dispatchEvent(storageEvent({ key: null, newValue: null, storageArea: area }));
    target.dispatchEvent(storageEvent({ key: 'status', newValue: '{}', storageArea: area }));
    target.dispatchEvent(storageEvent({ key: 'user', newValue: JSON.stringify(user), storageArea: new FakeStorage() }));

    expect(received).toEqual([
      { type: 'session.storageChanged', user },
      { type: 'session.storageChanged', user: null },
      { type: 'session.storageChanged', user: null },
      { type: 'session.storageChanged', user: null },
    ]);
    actor.stop();
    target.dispatchEvent(storageEvent({ key: 'user', newValue: null, storageArea: area }));
    expect(received).toHaveLength(4);
  });

  it('persists the user and status commands the session sends it', () => {
    const area = new FakeStorage();
    const { actor } = startWatcher({ unauthorized: createUnauthorizedSignal(), target: new EventTarget(), storageArea: area });
    const watcher = actor.getSnapshot().children.watchSession;
    watcher?.send({ type: 'user.save', user } as AnyEventObject);
    expect(readStoredUser(area)).toEqual(user);
    watcher?.send({ type: 'user.save', user: null } as AnyEventObject);
    expect(area.getItem('user')).toBeNull();
    watcher?.send({ type: 'status.save', status } as AnyEventObject);
    expect(readStoredStatus(area)).toEqual(status);
    expect(area.getItem('system_name')).toBe(status.system_name === '' ? null : status.system_name);
    actor.stop();
  });

  it('starts without a window (no storage events outside a browser)', () => {
    const signal = createUnauthorizedSignal();
    const { received, actor } = startWatcher({ unauthorized: signal });
    signal.notify();
    expect(received).toEqual([{ type: 'session.expired' }]);
    actor.stop();
  });
});
