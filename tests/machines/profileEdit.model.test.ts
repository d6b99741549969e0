import { describe, expect, it } from 'vitest';
import { assign, createActor, createMachine, fromCallback, initialTransition, transition, type AnyEventObject, type EventObject, type SnapshotFrom } from 'xstate';
import type { AwaitSessionInput } from '../../src/machines/sessionWatch';
import { failure, httpError } from '../../src/domain/apiError';
import type { User } from '../../src/domain/user';
import { isMessageKey, renderMessage } from '../../src/i18n';
import {
  profileEditMachine,
  profileProblem,
  savePayload,
  selectBindings,
  selectCanSubmit,
  selectFieldErrors,
  selectForm,
  selectIsBusy,
  selectIsLoading,
  selectIsSaving,
  selectLoadFailed,
  type SaveSelfInput,
} from '../../src/machines/profileEdit';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as walk, follows } from './support/replay';

type Snap = SnapshotFrom<typeof profileEditMachine>;

const alice: User = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1, github_id: 'alice-gh', email: 'alice@example.com' };
const renamed: User = { ...alice, username: 'alice2', display_name: 'Alice Two' };

/** A session stand-in that records the accounts it is handed. */
const sessionLogic = createMachine({
  types: {} as { context: { user: User | null; updates: User[] }; events: { type: 'session.userUpdated'; user: User } },
  context: { user: alice, updates: [] },
  on: {
    'session.userUpdated': { actions: assign({ user: ({ event }) => event.user, updates: ({ context, event }) => [...context.updates, event.user] }) },
  },
});
const session = createActor(sessionLogic).start();
const input = { session };

const fixtures: EventFixtures<typeof profileEditMachine> = {
  'field.change': [
    { type: 'field.change', field: 'username', value: '' },
    { type: 'field.change', field: 'password', value: 'new-password-1' },
    { type: 'field.change', field: 'password', value: 'short' },
  ],
  'profile.submit': [{ type: 'profile.submit' }],
  'profile.retry': [{ type: 'profile.retry' }],
  'profile.cancel': [{ type: 'profile.cancel' }],
  'session.restored': [{ type: 'session.restored' }],
  'session.lost': [{ type: 'session.lost' }],
};
const loaded = doneActor('loadSelf', alice);
const loadFailed = errorActor('loadSelf', httpError('loadSelf', 500, 'Internal Server Error'));
const saved = doneActor('saveSelf');
const refused = errorActor('saveSelf', failure('saveSelf', '用户名已被占用，请换一个'));
/** The server forgot the session: the save answers 401. */
const expiredSave = errorActor('saveSelf', httpError('saveSelf', 401, 'Unauthorized'));
const internal = [loaded, loadFailed, saved, refused, expiredSave];
/** The session's answers to a waiting form are played as events (the real `awaitSession` is covered in its own suite). */
const idleAwait = fromCallback<EventObject, AwaitSessionInput>(() => undefined);
const restored = { type: 'session.restored' };
const lost = { type: 'session.lost' };
const model = { fixtures, internal, input };

const realShortest = () => shortestPaths(profileEditMachine, model).filter(isRealistic);

function journey(events: readonly AnyEventObject[]): Snap {
  return walk(profileEditMachine, input, events);
}
const change = (field: 'username' | 'display_name' | 'password', value: string) => ({ type: 'field.change', field, value });
const submit = { type: 'profile.submit' };

describe('profileEdit model', () => {
  it('reaches every state', () => {
    expect(unreachedStates(profileEditMachine, realShortest())).toEqual([]);
  });

  it('keeps its invariants on every simple path', () => {
    const paths = simplePaths(profileEditMachine, model).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        const children = Object.keys(s.children);
        // one call at a time, and only in its state
        expect(children.length).toBeLessThanOrEqual(1);
        if (s.matches('loading') || s.matches('refreshing')) expect(children).toEqual(['loadSelf']);
        if (s.matches('saving') || s.matches('resaving')) expect(children).toEqual(['saveSelf']);
        if (s.matches('awaitingSession')) expect(children).toEqual(['awaitSession']);
        const waiting = s.matches('awaitingSession') || s.matches('resaving');
        expect(selectIsBusy(s)).toBe(s.matches('loading') || s.matches('saving') || s.matches('refreshing') || waiting);
        expect(selectIsLoading(s)).toBe(s.matches('loading'));
        expect(selectIsSaving(s)).toBe(s.matches('saving') || s.matches('refreshing') || waiting);
        expect(selectLoadFailed(s)).toBe(s.matches('loadFailed'));
        // the button answers while editing (a broken rule is said at its field)
        expect(selectCanSubmit(s)).toBe(s.matches('editing'));
        // a request in flight never carries field errors
        if (s.matches('saving')) expect(selectFieldErrors(s)).toEqual({});
        // a typed password never outlives a save
        if (s.matches('refreshing')) expect(selectForm(s).password).toBe('');
        // nothing breaking a length rule is ever sent
        if (s.matches('saving')) expect(profileProblem(selectForm(s))).toBeNull();
        expect(s.status).toBe(s.matches('left') ? 'done' : 'active');
      }
    }
  });

  describe('pinned journeys', () => {
    it('load, rename, save: the form shows the account as saved, password emptied', () => {
      const s = journey([loaded, change('username', 'alice2'), change('password', 'new-password-1'), submit, saved, doneActor('loadSelf', renamed)]);
      expect(s.value).toBe('editing');
      expect(selectForm(s)).toEqual({ username: 'alice2', display_name: 'Alice Two', password: '' });
    });
    it('only the reloaded account after a save is handed to the session', () => {
      const events = [loaded, change('username', 'alice2'), submit, saved, doneActor('loadSelf', renamed), submit, saved, errorActor('loadSelf', new Error('offline'))];
      let [s] = initialTransition(profileEditMachine, input);
      const sent: { to: unknown; event: unknown }[] = [];
      for (const e of events) {
        const [next, actions] = transition(profileEditMachine, s, e as never);
        for (const a of actions) if ((a.type as string) === 'xstate.sendTo') sent.push({ to: (a.params as { to: unknown }).to, event: (a.params as { event: unknown }).event });
        s = next;
      }
      expect(sent).toEqual([{ to: session, event: { type: 'session.userUpdated', user: renamed } }]);
    });
    it('an empty username is not sent: the field says it is required', () => {
      const s = journey([loaded, change('username', '  '), submit]);
      expect(s.value).toBe('editing');
      expect(selectFieldErrors(s)).toEqual({ username: { key: 'rules.username.required' } });
      // typing into it takes the message away
      expect(selectFieldErrors(journey([loaded, change('username', '  '), submit, change('username', 'bob')]))).toEqual({});
    });
    it('a refused save keeps what was typed', () => {
      const s = journey([loaded, change('username', 'taken-name'), submit, refused]);
      expect(s.value).toBe('editing');
      expect(selectForm(s).username).toBe('taken-name');
    });
    it('a field breaking its length rule is not sent, and the form keeps it', () => {
      for (const [field, value] of [['username', 'u'.repeat(13)], ['display_name', 'd'.repeat(21)], ['password', 'short'], ['password', 'p'.repeat(21)]] as const) {
        const s = journey([loaded, change(field, value), submit]);
        expect(s.value, `${field}=${value}`).toBe('editing');
        expect(selectForm(s)[field]).toBe(value);
        // the button still answers (with the message at the field)
        expect(selectCanSubmit(s)).toBe(true);
        expect(Object.keys(selectFieldErrors(s))).toEqual([field]);
      }
      // at the limits it is sent
      expect(journey([loaded, change('username', 'u'.repeat(12)), change('password', 'p'.repeat(8)), submit]).value).toBe('saving');
    });
    it('a 401 save waits for the session; restored sends the same payload once more, lost leaves unsaved', () => {
      const waiting = journey([loaded, change('display_name', 'Al'), submit, expiredSave]);
      expect(waiting.value).toBe('awaitingSession');
      expect(selectForm(waiting).display_name).toBe('Al');
      expect(journey([loaded, change('display_name', 'Al'), submit, expiredSave, restored]).value).toBe('resaving');
      expect(journey([loaded, submit, expiredSave, restored, saved]).value).toBe('refreshing');
      // a second 401 is an ordinary failure: back to the form
      expect(journey([loaded, submit, expiredSave, restored, expiredSave]).value).toBe('editing');
      const left = journey([loaded, submit, expiredSave, lost]);
      expect(left.value).toBe('left');
      expect(left.status).toBe('done');
    });
    it('a failed load can be retried', () => {
      expect(journey([loadFailed]).value).toBe('loadFailed');
      expect(journey([loadFailed, { type: 'profile.retry' }, loaded]).value).toBe('editing');
    });
    it('a failed reload after a save keeps the saved form', () => {
      const s = journey([loaded, change('display_name', 'Al'), submit, saved, errorActor('loadSelf', new Error('offline'))]);
      expect(s.value).toBe('editing');
      expect(selectForm(s).display_name).toBe('Al');
    });
  });

  it('sends the password only when one was typed', () => {
    expect(savePayload({ username: 'a', display_name: 'b', password: '' })).toEqual({ username: 'a', display_name: 'b' });
    expect(savePayload({ username: 'a', display_name: 'b', password: 'p' })).toEqual({ username: 'a', display_name: 'b', password: 'p' });
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      const load = controlled<User, unknown>();
      const save = controlled<void, SaveSelfInput>();
      const live = createActor(sessionLogic).start();
      const machine = profileEditMachine.provide({ actors: { awaitSession: idleAwait } });
      const run = await replayOn({ machine, input: { session: live }, stubs: { loadSelf: load, saveSelf: save } }, events, check);
      return { ...run, load, save, updates: live.getSnapshot().context.updates };
    }

    it.each(realShortest().filter((p) => p.steps.length > 1).map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      await replay(
        p.steps.map((s) => s.event),
        (i, s) => follows(p)(i, { value: s.value, context: { ...s.context, session } } as unknown as Snap),
      );
    });

    it('saves the form, says so, reloads and hands the saved account on', async () => {
      const { emitted, save, load, updates } = await replay([
        loaded,
        change('username', 'alice2'),
        change('display_name', 'Alice Two'),
        change('password', 'new-password-1'),
        submit,
        saved,
        doneActor('loadSelf', renamed),
      ]);
      expect(save.calls).toEqual([{ username: 'alice2', display_name: 'Alice Two', password: 'new-password-1' }]);
      expect(load.calls).toHaveLength(2);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'account.profile.saved' } }]);
      expect(updates).toEqual([renamed]);
    });
    it("a refusal shows the server's message; a failed load the catalogue one", async () => {
      expect((await replay([loaded, submit, refused])).emitted).toEqual([
        { type: 'notify', level: 'error', message: { text: (refused.error as { message: string }).message } },
      ]);
      const { emitted } = await replay([loadFailed]);
      expect(emitted).toHaveLength(1);
      expect(emitted[0]).toMatchObject({ type: 'notify', level: 'error' });
    });
    it('a broken length rule says which field and which rule at the field (no toast), and sends nothing', async () => {
      const say = async (field: 'username' | 'display_name' | 'password', value: string) => {
        const { emitted, save } = await replay([loaded, change(field, value), submit]);
        expect(save.calls).toEqual([]);
        expect(emitted).toEqual([]);
        const m = selectFieldErrors(journey([loaded, change(field, value), submit]))[field]!;
        return [renderMessage('zh', m), renderMessage('en', m)];
      };
      expect(await say('username', 'u'.repeat(13))).toEqual(['用户名长度不能超过 12 个字符', 'username must be at most 12 characters']);
      expect(await say('display_name', '名'.repeat(21))).toEqual(['显示名称长度不能超过 20 个字符', 'display name must be at most 20 characters']);
      expect(await say('password', 'short')).toEqual(['密码长度必须在 8 到 20 个字符之间', 'password must be 8 to 20 characters']);
    });
    it('shows the bindings read-only, and Cancel leads to the personal settings from any state', async () => {
      expect(selectBindings(journey([loaded]))).toEqual({ github_id: 'alice-gh', wechat_id: '', email: 'alice@example.com' });
      for (const events of [[], [loaded], [loadFailed], [loaded, submit]]) {
        const { emitted, save } = await replay([...events, { type: 'profile.cancel' }]);
        expect(emitted.filter((e) => e.type === 'navigate')).toEqual([{ type: 'navigate', to: '/setting', replace: false }]);
        if (events.length < 2) expect(save.calls).toEqual([]);
      }
    });
    it('after a 401 the same payload is sent once more when the session is back, and nothing is said in between', async () => {
      const { emitted, save } = await replay([loaded, change('display_name', 'Al'), submit, expiredSave, restored, saved, doneActor('loadSelf', alice)]);
      expect(save.calls).toEqual([
        { username: 'alice', display_name: 'Al' },
        { username: 'alice', display_name: 'Al' },
      ]);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'account.profile.saved' } }]);
      const gone = await replay([loaded, submit, expiredSave, lost]);
      expect(gone.save.calls).toHaveLength(1);
      expect(gone.emitted).toEqual([]);
    });
    it('every key it emits is in the catalogue', async () => {
      const { emitted } = await replay([loaded, submit, saved, doneActor('loadSelf', alice), change('password', 'short'), submit]);
      for (const e of emitted) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });
});
