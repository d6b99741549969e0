/**
 * The real `loadTurnstile` behind the turnstile machine (src/api/actors/turnstile.ts), on a
 * fake document: it injects the provider's script once, resolves when `turnstile` is there,
 * and rejects (removing the tag, so a retry injects it again) on error, on a script without
 * the API, and on timeout.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { isTurnstileReady, loadTurnstileScript, turnstileScriptUrl, type TurnstileEnv } from '../../src/api/actors/turnstile';
import { turnstileMachine } from '../../src/machines/turnstile';

class FakeScript extends EventTarget {
  src = '';
  async = false;
  removed = false;
  remove() {
    this.removed = true;
    fakeHead.children = fakeHead.children.filter((c) => c !== this);
  }
}
const fakeHead = { children: [] as FakeScript[], appendChild: (s: FakeScript) => fakeHead.children.push(s) };

function fakeEnv() {
  fakeHead.children = [];
  const host: { turnstile?: unknown } = {};
  const created: FakeScript[] = [];
  const env: TurnstileEnv = {
    document: {
      createElement: (() => {
        const s = new FakeScript();
        created.push(s);
        return s;
      }) as never,
      querySelector: ((selector: string) => {
        expect(selector).toBe(`script[src^="${turnstileScriptUrl}"]`);
        return fakeHead.children.find((c) => c.src.startsWith(turnstileScriptUrl)) ?? null;
      }),
      head: fakeHead as never,
    },
    host,
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => {
      clearTimeout(h);
    },
  };
  const publish = () => {
    host.turnstile = { render: () => 'widget-1', remove: () => undefined };
  };
  return { env, host, created, publish };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('loadTurnstile (the real loader)', () => {
  it('injects the provider script once (explicit rendering) and resolves when turnstile is ready', async () => {
    const { env, created, publish, host } = fakeEnv();
    const first = loadTurnstileScript(env);
    const second = loadTurnstileScript(env);
    expect(second).toBe(first);
    expect(created).toHaveLength(1);
    expect(fakeHead.children).toHaveLength(1);
    expect(created[0]!.src).toBe('https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit');
    expect(created[0]!.async).toBe(true);
    publish();
    created[0]!.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBeUndefined();
    expect(isTurnstileReady(host)).toBe(true);
    // once ready, nothing more is injected
    await loadTurnstileScript(env);
    expect(created).toHaveLength(1);
  });

  it('a script that fails is removed, and the next load injects it again', async () => {
    const { env, created, publish } = fakeEnv();
    const first = loadTurnstileScript(env);
    created[0]!.dispatchEvent(new Event('error'));
    await expect(first).rejects.toMatchObject({ _tag: 'Refused', refusal: { key: 'error.turnstileLoad' } });
    expect(created[0]!.removed).toBe(true);
    const retry = loadTurnstileScript(env);
    expect(created).toHaveLength(2);
    publish();
    created[1]!.dispatchEvent(new Event('load'));
    await expect(retry).resolves.toBeUndefined();
  });

  it('a script that loads without the API is a failure', async () => {
    const { env, created } = fakeEnv();
    const p = loadTurnstileScript(env);
    created[0]!.dispatchEvent(new Event('load'));
    await expect(p).rejects.toMatchObject({ _tag: 'Refused', refusal: { key: 'error.turnstileApi' } });
  });

  it('gives up after the timeout', async () => {
    vi.useFakeTimers();
    const { env, created } = fakeEnv();
    const p = loadTurnstileScript(env, 15_000);
    const settled = vi.fn();
    p.catch(settled);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(p).rejects.toMatchObject({ _tag: 'Refused', refusal: { key: 'error.turnstileTimeout' } });
    expect(created[0]!.removed).toBe(true);
  });

  it('waits for a script tag already on the page instead of adding another', async () => {
    const { env, created, publish } = fakeEnv();
    const existing = new FakeScript();
    existing.src = `${turnstileScriptUrl}?render=explicit`;
    fakeHead.children.push(existing);
    const p = loadTurnstileScript(env);
    expect(created).toHaveLength(0);
    publish();
    existing.dispatchEvent(new Event('load'));
    await expect(p).resolves.toBeUndefined();
  });

  it('drives the turnstile machine to ready or failed', async () => {
    const ok = fakeEnv();
    const actor = createActor(
      turnstileMachine.provide({ actors: { loadTurnstile: fromPromise(() => loadTurnstileScript(ok.env)) } }),
    ).start();
    actor.send({ type: 'widget.mounted' });
    ok.publish();
    ok.created[0]!.dispatchEvent(new Event('load'));
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    const bad = fakeEnv();
    const failing = createActor(
      turnstileMachine.provide({ actors: { loadTurnstile: fromPromise(() => loadTurnstileScript(bad.env)) } }),
    ).start();
    failing.send({ type: 'widget.mounted' });
    bad.created[0]!.dispatchEvent(new Event('error'));
    await vi.waitFor(() => expect(failing.getSnapshot().value).toBe('failed'));
  });
});
