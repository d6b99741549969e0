import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, type EventObject } from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import type { LoginAnswer, } from '../../src/domain/twoFactor';
import type { LoginPayload, User } from '../../src/domain/user';
import { sessionMachine } from '../../src/machines/session';
import { msg, type Message, type NavigateEvent, type NotifyEvent } from '../../src/domain/message';
import { createFormMachine, isEditOf, notProvided, type FormContext, type SubmitVerdict } from '../../src/machines/form';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { journey, pathOf, replay, replayPath } from './support/replay';

/*
 * The form machine factory on its own, through a small "note" form: a record (loadNote), one
 * tolerant list (loadTags), one own editing event with a guard (star.add, at most two), a silent
 * rule (an empty title), a said rule (a title over 5 characters), and a save whose answer keeps
 * an edit open but ends a create. Built twice: loading on create or not.
 */

interface Note {
  readonly id: number;
  readonly title: string;
}
interface NoteForm {
  readonly title: string;
  readonly stars: number;
}
interface NoteContext extends FormContext<NoteForm, Message> {
  readonly tags: readonly string[];
}
type NoteEvent =
  | { readonly type: 'field.change'; readonly field: 'title'; readonly value: string }
  | { readonly type: 'star.add' }
  | { readonly type: 'form.submit' }
  | { readonly type: 'form.retry' }
  | { readonly type: 'form.cancel' };
interface SaveNoteInput {
  readonly id: number | null;
  readonly title: string;
  readonly stars: number;
}

const emptyNote: NoteForm = { title: '', stars: 0 };
const tooLong = msg('dashboard.range.tooLong');
const actors = {
  loadNote: notProvided<Note, { readonly id: number }>('loadNote'),
  loadTags: notProvided<readonly string[]>('loadTags'),
  saveNote: notProvided<void, SaveNoteInput>('saveNote'),
};

const checkNote = (c: NoteContext): SubmitVerdict<Message> => {
  if (c.form.title === '') return { ok: false, notice: null };
  if (c.form.title.length > 5) return { ok: false, problem: tooLong, notice: { level: 'warning', message: tooLong } };
  return { ok: true };
};

const noteForm = (loadOnCreate: boolean) =>
  createFormMachine<NoteContext, NoteEvent, { readonly id: number | null }, Note, typeof actors, NotifyEvent | NavigateEvent>({
    id: 'noteForm',
    context: (input) => ({ id: input.id, form: emptyNote, problem: null, tags: [] }),
    emptyForm: emptyNote,
    record: { region: 'note', src: 'loadNote', fill: (c, note) => ({ form: { ...c.form, title: note.title } }) },
    lists: [{ region: 'tags', src: 'loadTags', take: (_, tags) => ({ tags: tags as readonly string[] }), unavailable: 'channelForm.groupsUnavailable' }],
    loadOnCreate,
    afterLoad: (c) => (c.form.stars === 0 && c.tags.length > 0 ? { form: { ...c.form, stars: 1 } } : {}),
    setField: (c, e) => ({ form: { ...c.form, [e.field]: e.value }, problem: null }),
    edits: { 'star.add': (c) => (c.form.stars < 2 ? { form: { ...c.form, stars: c.form.stars + 1 } } : null) },
    check: checkNote,
    save: {
      src: 'saveNote',
      input: (c): SaveNoteInput => ({ id: c.id, title: c.form.title, stars: c.form.stars }),
      done: (c) =>
        isEditOf(c)
          ? { assign: { form: { ...c.form, stars: 0 } }, notice: msg('channelForm.updated'), navigate: null, next: 'editing' }
          : { notice: msg('channelForm.created'), navigate: '/notes', next: 'done' },
    },
    cancelTo: (c) => (isEditOf(c) ? '/notes/' + String(c.id) : '/notes'),
    doneState: 'saved',
    actors,
  });

const eager = noteForm(true);
const lazy = noteForm(false);

const fixtures: EventFixtures<typeof eager> = {
  'field.change': [
    { type: 'field.change', field: 'title', value: 'hi' },
    { type: 'field.change', field: 'title', value: 'far too long' },
  ],
  'star.add': [{ type: 'star.add' }],
  'form.submit': [{ type: 'form.submit' }],
  'form.retry': [{ type: 'form.retry' }],
  'form.cancel': [{ type: 'form.cancel' }],
};
const loaded = doneActor('loadNote', { id: 3, title: 'old' } satisfies Note);
const loadFailed = errorActor('loadNote', failure('loadNote', 'no such note'));
const tagsLoaded = doneActor('loadTags', ['a', 'b']);
const tagsFailed = errorActor('loadTags', new Error('offline'));
const saved = doneActor('saveNote');
const refused = errorActor('saveNote', failure('saveNote', 'title taken'));
const internal = [loaded, loadFailed, tagsLoaded, tagsFailed, saved, refused];
/** The server forgot the session: the save answers 401. */
const expiredSave = errorActor('saveNote', httpError('saveNote', 401, 'Unauthorized'));
const restored = { type: 'session.restored' };
const lost = { type: 'session.lost' };
/** A stand-in session (its answers are played as events here; the real one is used below). */
const standIn = createActor(createMachine({})).start();
const inputs = [{ id: null }, { id: 3 }] as const;
const machines = [
  ['loads on create', eager],
  ['opens create at once', lazy],
] as const;

const change = (value: string) => ({ type: 'field.change', field: 'title', value }) as const;
const submit = { type: 'form.submit' } as const;
const star = { type: 'star.add' } as const;

describe('form machine factory model', () => {
  it.each(machines)('reaches every state (%s; create and edit together)', (_, machine) => {
    const paths = inputs.flatMap((input) => shortestPaths(machine, { fixtures, internal, input }).filter(isRealistic));
    // the eventless choices never rest: `starting` (load or edit) and the record region's `choosing`
    expect(unreachedStates(machine, paths)).toEqual(['starting', 'loading.note.choosing', 'awaitingSession', 'resaving', 'left']);
    // with a session, a 401 save waits for it
    const withSession = shortestPaths(machine, { fixtures, internal: [...internal, expiredSave, restored, lost], input: { id: null, session: standIn } }).filter(
      isRealistic,
    );
    expect(unreachedStates(machine, [...paths, ...withSession])).toEqual(['starting', 'loading.note.choosing']);
    for (const p of withSession)
      for (const st of snapshotsOf(p)) {
        const waiting = st.matches('awaitingSession') || st.matches('resaving');
        if (st.matches('awaitingSession')) expect(Object.keys(st.children)).toEqual(['awaitSession']);
        if (st.matches('resaving')) expect(Object.keys(st.children)).toEqual(['saveNote']);
        expect(st.hasTag('busy')).toBe(st.matches('loading') || st.matches('saving') || waiting);
      }
  });

  it.each(machines)('keeps its invariants on every simple path (%s)', (_, machine) => {
    for (const input of inputs) {
      const paths = simplePaths(machine, { fixtures, internal, input, limit: 20000 }).filter(isRealistic);
      expect(paths.length).toBeGreaterThan(0);
      for (const p of paths) {
        for (const s of snapshotsOf(p)) {
          const children = Object.keys(s.children).sort();
          if (s.matches({ loading: { note: 'fetching' } })) expect(children).toContain('loadNote');
          if (s.matches({ loading: { tags: 'fetching' } })) expect(children).toContain('loadTags');
          if (s.matches('saving')) expect(children).toEqual(['saveNote']);
          if (!s.matches('loading') && !s.matches('saving')) expect(children).toEqual([]);
          // the record loads only for an edit; create loads only when the form says so
          if (input.id === null) expect(s.matches({ loading: { note: 'fetching' } }) || s.matches('loadFailed')).toBe(false);
          if (input.id === null && machine === lazy) expect(s.matches('loading')).toBe(false);
          expect(s.hasTag('busy')).toBe(s.matches('loading') || s.matches('saving'));
          expect(s.hasTag('loading')).toBe(s.matches('loading'));
          // a save starts only from a passing form; a stored problem is always the form's
          if (s.matches('saving')) expect(checkNote(s.context).ok).toBe(true);
          if (s.context.problem !== null) expect(checkNote(s.context)).toMatchObject({ ok: false, problem: s.context.problem });
          // the own event's guard holds
          expect(s.context.form.stars).toBeLessThanOrEqual(2);
          // only a create ends
          if (s.status === 'done') expect(input.id).toBeNull();
        }
      }
    }
  });

  describe('pinned journeys', () => {
    it('create without loading opens the empty form at once; with loading it waits for the lists', () => {
      expect(journey(lazy, { id: null }, []).value).toBe('editing');
      expect(journey(eager, { id: null }, []).value).toEqual({ loading: { note: 'done', tags: 'fetching' } });
      expect(journey(eager, { id: null }, [tagsLoaded]).context).toMatchObject({ tags: ['a', 'b'], form: { stars: 1 } });
    });
    it('edit loads the record and the lists side by side; the record failing stops it, the list failing does not', () => {
      const s = journey(lazy, { id: 3 }, [tagsFailed, loaded]);
      expect(s.value).toBe('editing');
      expect(s.context.form).toEqual({ title: 'old', stars: 0 });
      expect(journey(lazy, { id: 3 }, [loadFailed]).value).toBe('loadFailed');
      expect(journey(lazy, { id: 3 }, [loadFailed, { type: 'form.retry' }]).value).toEqual({ loading: { note: 'fetching', tags: 'fetching' } });
    });
    it('a silent rule refuses without a word, and the submit does not answer', () => {
      const s = journey(lazy, { id: null }, [submit]);
      expect(s.value).toBe('editing');
      expect(s.can(submit)).toBe(false);
      expect(s.can(change('x'))).toBe(true);
    });
    it('a said rule stores the problem; a change clears it', () => {
      const s = journey(lazy, { id: null }, [change('far too long'), submit]);
      expect(s.value).toBe('editing');
      expect(s.context.problem).toEqual(tooLong);
      expect(s.can(submit)).toBe(true);
      expect(journey(lazy, { id: null }, [change('far too long'), submit, change('ok')]).context.problem).toBeNull();
    });
    it("an own event's guard refuses it", () => {
      const s = journey(lazy, { id: null }, [star, star]);
      expect(s.context.form.stars).toBe(2);
      expect(s.can(star)).toBe(false);
      expect(journey(lazy, { id: null }, [star, star, star]).context.form.stars).toBe(2);
    });
    it('a saved edit stays open with what the save assigned; a saved create ends', () => {
      const edit = journey(lazy, { id: 3 }, [loaded, tagsLoaded, star, submit, saved]);
      expect(edit.value).toBe('editing');
      expect(edit.context.form.stars).toBe(0);
      const create = journey(lazy, { id: null }, [change('hi'), submit, saved]);
      expect(create.value).toBe('saved');
      expect(create.status).toBe('done');
      expect(journey(lazy, { id: null }, [change('hi'), submit, refused]).value).toBe('editing');
    });
  });

  describe('a save answered 401', () => {
    const withSession = { id: null, session: standIn };
    it('without a session it is an ordinary failure', () => {
      expect(journey(lazy, { id: null }, [change('hi'), submit, expiredSave]).value).toBe('editing');
    });
    it('waits for the session; restored sends the same payload once more (a second 401 is ordinary); lost leaves', () => {
      expect(journey(lazy, withSession, [change('hi'), submit, expiredSave]).value).toBe('awaitingSession');
      expect(journey(lazy, withSession, [change('hi'), submit, expiredSave, restored]).value).toBe('resaving');
      expect(journey(lazy, withSession, [change('hi'), submit, expiredSave, restored, saved]).value).toBe('saved');
      expect(journey(lazy, withSession, [change('hi'), submit, expiredSave, restored, expiredSave]).value).toBe('editing');
      const left = journey(lazy, withSession, [change('hi'), submit, expiredSave, lost]);
      expect(left.value).toBe('left');
      expect(left.status).toBe('done');
      // an ordinary refusal is still ordinary with a session
      expect(journey(lazy, withSession, [change('hi'), submit, refused]).value).toBe('editing');
    });

    it('with the real session and awaitSession: the dialog opens, the same user signs in, the note is saved exactly twice-sent once-created', async () => {
      vi.useFakeTimers();
      try {
        const alice: User = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1 };
        const logIn = controlled<LoginAnswer, LoginPayload>();
        const session = createActor(
          sessionMachine.provide({
            actors: {
              watchSession: fromCallback<EventObject>(() => undefined),
              loadStatus: controlled<never, unknown>().logic,
              logIn: logIn.logic,
              logOut: controlled<void, unknown>().logic,
              verifySecondFactor: controlled<User, unknown>().logic,
            } as never,
          }),
          { input: { user: alice, status: null, buildVersion: 'v0.1.0' } },
        ).start();
        const save = controlled<void, SaveNoteInput>();
        const form = createActor(lazy.provide({ actors: { saveNote: save.logic } }), { input: { id: null, session } }).start();
        form.send(change('hi'));
        form.send(submit);
        session.send({ type: 'session.expired' });
        save.reject(httpError('saveNote', 401, 'Unauthorized'));
        await vi.advanceTimersByTimeAsync(0);
        expect(form.getSnapshot().value).toBe('awaitingSession');
        expect(session.getSnapshot().matches({ auth: 'reauthenticating' })).toBe(true);
        // the grace passes: the dialog stays open
        await vi.advanceTimersByTimeAsync(1000);
        expect(session.getSnapshot().matches({ auth: 'reauthenticating' })).toBe(true);
        session.send({ type: 'reauth.submit', password: 'secret123' });
        logIn.resolve(alice);
        await vi.advanceTimersByTimeAsync(0);
        expect(session.getSnapshot().matches({ auth: 'signedIn' })).toBe(true);
        expect(form.getSnapshot().value).toBe('resaving');
        save.resolve(undefined);
        await vi.advanceTimersByTimeAsync(0);
        expect(form.getSnapshot().value).toBe('saved');
        expect(save.calls).toEqual([
          { id: null, title: 'hi', stars: 0 },
          { id: null, title: 'hi', stars: 0 },
        ]);
        // cancel instead: the form leaves without saving again
        const save2 = controlled<void, SaveNoteInput>();
        const form2 = createActor(lazy.provide({ actors: { saveNote: save2.logic } }), { input: { id: null, session } }).start();
        form2.send(change('hi'));
        form2.send(submit);
        session.send({ type: 'session.expired' });
        save2.reject(httpError('saveNote', 401, 'Unauthorized'));
        await vi.advanceTimersByTimeAsync(0);
        session.send({ type: 'reauth.cancel' });
        await vi.advanceTimersByTimeAsync(0);
        expect(form2.getSnapshot().value).toBe('left');
        expect(save2.calls).toHaveLength(1);
        form.stop();
        form2.stop();
        session.stop();
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('replay on a real actor', () => {
    const stubs = () => ({
      loadNote: controlled<Note, { readonly id: number }>(),
      loadTags: controlled<readonly string[], undefined>(),
      saveNote: controlled<void, SaveNoteInput>(),
    });
    const cases = machines.flatMap(([name, machine]) =>
      inputs.flatMap((input) =>
        shortestPaths(machine, { fixtures, internal, input })
          .filter(isRealistic)
          .map((p) => [`${name}, id ${String(input.id)}: ${describePath(p)}`, machine, input, p] as const),
      ),
    );
    it.each(cases)('%s', async (_, machine, input, p) => {
      await replayPath({ machine, input, stubs: stubs() }, p);
    });

    it('says what it refuses, fails and saves, and goes where it is told', async () => {
      const s = stubs();
      const run = await replay({ machine: lazy, input: { id: 3 }, stubs: s }, [
        tagsFailed,
        loaded,
        change('far too long'),
        submit,
        change('new'),
        star,
        submit,
        refused,
        submit,
        saved,
        { type: 'form.cancel' },
      ]);
      expect(s.loadNote.calls).toEqual([{ id: 3 }]);
      expect(s.loadTags.calls).toEqual([undefined]);
      expect(s.saveNote.calls).toEqual([
        { id: 3, title: 'new', stars: 1 },
        { id: 3, title: 'new', stars: 1 },
      ]);
      expect(run.emitted).toEqual([
        { type: 'notify', level: 'warning', message: { key: 'channelForm.groupsUnavailable' } },
        { type: 'notify', level: 'warning', message: tooLong },
        { type: 'notify', level: 'error', message: { text: 'title taken' } },
        { type: 'notify', level: 'success', message: { key: 'channelForm.updated' } },
        { type: 'navigate', to: '/notes/3', replace: false },
      ]);
      expect(run.snapshot.value).toBe('editing');
    });

    it('a created record is said and navigated to, in that order', async () => {
      const p = pathOf(eager, { id: null }, [tagsLoaded, change('hi'), submit, saved]);
      const run = await replayPath({ machine: eager, input: { id: null }, stubs: stubs() }, p);
      expect(run.emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'channelForm.created' } },
        { type: 'navigate', to: '/notes', replace: false },
      ]);
      expect(run.snapshot.status).toBe('done');
    });
  });
});
