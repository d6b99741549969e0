import { describe, expect, it } from 'vitest';
import { assign, createActor, createMachine, fromPromise, initialTransition, waitFor, type AnyEventObject, type SnapshotFrom } from 'xstate';
import type { NavigateEvent, NotifyEvent } from '../../src/domain/message';
import type { User } from '../../src/domain/user';
import { personalSettingsMachine, selfDeleteMachine, wechatBindMachine, type BindWeChatInput, type CopyTextInput } from '../../src/machines/personalSettings';
import { personalSettingsChildren, personalSettingsPageMachine } from '../../src/machines/personalSettingsPage';
import { sessionFactsOf, type SessionChanged } from '../../src/machines/sessionWatch';
import { shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { expectRoutingOnPaths, type Routed } from './support/routing';

/*
 * The personal settings tab's page machine: invokes the tab, the deletion dialog, the WeChat and
 * e-mail bindings and the OAuth launch, and routes their facts: a binding reloads the account, a
 * deleted account asks the session to sign out, toasts leave the page. One state; every explored
 * step is checked for its routing, and real actors with stub children replay the journeys.
 */

const machine = personalSettingsPageMachine;
type Snap = SnapshotFrom<typeof machine>;

/** A session stand-in that counts the sign-outs it is asked for. */
const sessionLogic = createMachine({
  types: {} as {
    context: { signOuts: number; status: { turnstile_check: boolean } | null };
    events: { type: 'logout.request' } | { type: 'status.loaded'; turnstile: boolean };
  },
  context: { signOuts: 0, status: null },
  on: {
    'logout.request': { actions: assign({ signOuts: ({ context }) => context.signOuts + 1 }) },
    'status.loaded': { actions: assign({ status: ({ event }) => ({ turnstile_check: event.turnstile }) }) },
  },
});
const fakeSession = () => createActor(sessionLogic).start();
const session = fakeSession();
const input = { session, origin: 'https://console.example.com', username: 'alice', turnstileEnabled: false };

const fixtures: EventFixtures<typeof machine> = {
  'account.bound': [{ type: 'account.bound' }],
  'account.deleted': [{ type: 'account.deleted' }],
  notify: [{ type: 'notify', level: 'success', message: { key: 'common.success' } }],
  navigate: [{ type: 'navigate', to: '/login' }],
  'session.changed': [
    { type: 'session.changed', facts: { ...sessionFactsOf({ user: null, status: null }), turnstileEnabled: true }, changed: ['turnstileEnabled'] },
    { type: 'session.changed', facts: sessionFactsOf({ user: null, status: null }), changed: ['turnstileEnabled'] },
  ],
};


function expectedRouting(s: Snap, event: AnyEventObject): Routed[] {
  if (event.type === 'session.changed') {
    const enabled = (event as SessionChanged).facts.turnstileEnabled;
    // only a change reaches the e-mail binding
    return enabled === s.context.turnstileEnabled ? [] : [{ kind: 'send', to: s.children.emailBind, event: { type: 'turnstile.change', enabled } }];
  }
  if (event.type === 'account.bound') return [{ kind: 'send', to: s.children.personalSettings, event: { type: 'account.reload' } }];
  if (event.type === 'account.deleted') return [{ kind: 'send', to: session, event: { type: 'logout.request' } }];
  if (event.type === 'notify' || event.type === 'navigate') return [{ kind: 'emit', event }];
  return [];
}

function check(s: Snap, where: string): void {
  expect(s.matches('active'), where).toBe(true);
  expect(Object.keys(s.children).sort(), where).toEqual([...personalSettingsChildren, 'relayEmitted', 'followSession'].sort());
  expect(s.context.session, where).toBe(session);
}

describe('personalSettingsPage model', () => {
  it('reaches every state', () => {
    expect(unreachedStates(machine, shortestPaths(machine, { fixtures, input }))).toEqual([]);
  });

  it('starts its five children with what the page was given, then the relay', () => {
    const [s, actions] = initialTransition(machine, input);
    check(s, 'initial');
    const spawned = actions.filter((a) => a.type === 'xstate.spawnChild').map((a) => (a.params as { id: string }).id);
    expect(spawned).toEqual([...personalSettingsChildren, 'relayEmitted', 'followSession']);
    expect(s.children.selfDelete!.getSnapshot().context.username).toBe('alice');
    expect(s.children.emailBind!.getSnapshot().context.turnstileEnabled).toBe(false);
  });

  it('keeps its rules and routes every fact on every step of its paths', () => {
    const paths = simplePaths(machine, { fixtures, input, serializeState: (s) => JSON.stringify([s.value, s.context.turnstileEnabled]) });
    expect(paths.length).toBeGreaterThan(0);
    expectRoutingOnPaths(machine, input, paths, {
      check,
      expected: expectedRouting,
      // the page's Turnstile flag is the last status reported
      alsoCheck: (next, event, where) => {
        if (event.type === 'session.changed') expect(next.context.turnstileEnabled, where).toBe(event.facts.turnstileEnabled);
      },
    });
  });
});

// ---- real actors: the page with stub children ----

const alice = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1, email: '', github_id: '', wechat_id: '', lark_id: '' } as unknown as User;

function startPage() {
  const loads: number[] = [];
  let bound = false;
  const page = createActor(
    machine.provide({
      actors: {
        personalSettings: personalSettingsMachine.provide({
          actors: {
            loadSelf: fromPromise<User>(() => {
              loads.push(loads.length);
              return Promise.resolve(bound ? ({ ...alice, wechat_id: 'wx-alice' }) : alice);
            }),
            generateAccessToken: fromPromise<string>(() => Promise.resolve('t'.repeat(32))),
            fetchAffCode: fromPromise<string>(() => Promise.resolve('Ab3x')),
            copyText: fromPromise<void, CopyTextInput>(() => Promise.resolve()),
          },
        }),
        selfDelete: selfDeleteMachine.provide({ actors: { deleteSelf: fromPromise<void>(() => Promise.resolve()) } }),
        wechatBind: wechatBindMachine.provide({
          actors: {
            bindWeChat: fromPromise<void, BindWeChatInput>(() => {
              bound = true;
              return Promise.resolve();
            }),
          },
        }),
      },
    }),
    { input: { ...input, session: liveSession } },
  );
  const emitted: (NotifyEvent | NavigateEvent)[] = [];
  page.on('*', (e) => emitted.push(e));
  page.start();
  return { page, children: page.getSnapshot().children, loads, emitted };
}
let liveSession = fakeSession();

describe('personalSettingsPage journeys (real actors, stub children)', () => {
  it('a WeChat binding reloads the account: the tab shows the new binding', async () => {
    liveSession = fakeSession();
    const { page, children, loads, emitted } = startPage();
    const settings = children.personalSettings!;
    await waitFor(settings, (s) => s.context.user !== null);
    expect(loads).toHaveLength(1);
    children.wechatBind!.send({ type: 'wechat.open' });
    children.wechatBind!.send({ type: 'wechat.submit', code: '123456' });
    await waitFor(settings, (s) => s.context.user?.wechat_id === 'wx-alice');
    expect(loads).toHaveLength(2);
    expect(emitted.some((e) => e.type === 'notify' && e.level === 'success')).toBe(true);
    page.stop();
  });

  it('a deleted account asks the session to sign out, once', async () => {
    liveSession = fakeSession();
    const { page, children } = startPage();
    const deletion = children.selfDelete!;
    deletion.send({ type: 'delete.open' });
    deletion.send({ type: 'confirmation.change', value: 'alice' });
    deletion.send({ type: 'delete.confirm' });
    await waitFor(liveSession, (s) => s.context.signOuts === 1);
    await new Promise((r) => setTimeout(r, 10));
    expect(liveSession.getSnapshot().context.signOuts).toBe(1);
    page.stop();
  });

  it('the status reloads with Turnstile on, then off: the e-mail binding follows (no stale value from the mount)', async () => {
    liveSession = fakeSession();
    const { page, children } = startPage();
    const email = children.emailBind!;
    expect(email.getSnapshot().context.turnstileEnabled).toBe(false);
    liveSession.send({ type: 'status.loaded', turnstile: true });
    await waitFor(email, (s) => s.context.turnstileEnabled);
    expect(page.getSnapshot().context.turnstileEnabled).toBe(true);
    // with Turnstile on, a code without a bot-check result is refused with the wait message
    email.send({ type: 'email.open' });
    email.send({ type: 'field.change', field: 'email', value: 'alice@example.com' });
    email.send({ type: 'code.send', turnstileToken: '' });
    expect(email.getSnapshot().context.sender.phase).toBe('ready');
    liveSession.send({ type: 'status.loaded', turnstile: false });
    await waitFor(email, (s) => !s.context.turnstileEnabled);
    page.stop();
  });

  it('a wrong confirmation deletes nothing and never signs out', async () => {
    liveSession = fakeSession();
    const { page, children, emitted } = startPage();
    const deletion = children.selfDelete!;
    deletion.send({ type: 'delete.open' });
    deletion.send({ type: 'confirmation.change', value: 'mallory' });
    deletion.send({ type: 'delete.confirm' });
    await new Promise((r) => setTimeout(r, 10));
    expect(liveSession.getSnapshot().context.signOuts).toBe(0);
    expect(emitted.some((e) => e.type === 'notify' && e.level === 'error')).toBe(true);
    page.stop();
  });
});
