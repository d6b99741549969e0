import { describe, expect, it } from 'vitest';
import { transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import type { User } from '../../src/domain/user';
import { isMessageKey, renderMessage } from '../../src/i18n';
import {
  createPayloadOf,
  parseQuota,
  quotaProblemOf,
  selectCanSubmit,
  selectForm,
  selectIsBusy,
  selectIsLoading,
  selectIsSaving,
  selectLoadFailed,
  selectQuotaProblem,
  updatePayloadOf,
  userFormMachine,
  userFormOf,
  userFormErrors,
  selectFieldErrors,
  type SaveUserInput,
  type UserFormField,
} from '../../src/machines/userForm';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as walk, follows } from './support/replay';

type Snap = SnapshotFrom<typeof userFormMachine>;

const alice: User = {
  id: 7,
  username: 'alice',
  display_name: 'Alice',
  role: 1,
  status: 1,
  group: 'default',
  quota: 100,
  github_id: 'alice-gh',
  wechat_id: '',
  email: 'alice@example.com',
};

const fixtures: EventFixtures<typeof userFormMachine> = {
  'field.change': [
    { type: 'field.change', field: 'username', value: 'bob' },
    { type: 'field.change', field: 'password', value: 'bob-pass-1' },
    { type: 'field.change', field: 'password', value: 'short' },
    { type: 'field.change', field: 'quota', value: '12x' },
    { type: 'field.change', field: 'quota', value: '-1' },
    { type: 'field.change', field: 'quota', value: '250' },
  ],
  'form.submit': [{ type: 'form.submit' }],
  'form.retry': [{ type: 'form.retry' }],
  'form.cancel': [{ type: 'form.cancel' }],
};
const loaded = doneActor('loadUser', alice);
const loadFailed = errorActor('loadUser', failure('loadUser', '无权获取同级或更高等级用户的信息'));
const groupsLoaded = doneActor('loadGroups', ['default', 'vip', 'svip']);
const groupsFailed = errorActor('loadGroups', httpError('loadGroups', 500, 'Internal Server Error'));
const saved = doneActor('saveUser');
const refused = errorActor('saveUser', failure('saveUser', '用户名已存在'));
const internal = [loaded, loadFailed, groupsLoaded, groupsFailed, saved, refused];

const createModel = { fixtures, internal, input: { id: null } };
const editModel = { fixtures, internal, input: { id: 7 } };
/*
 * The simple-path walks type only what matters to each mode (every field change makes a new
 * context, so all four in both modes would multiply the paths past any use).
 */
const createWalk = {
  ...createModel,
  fixtures: { ...fixtures, 'field.change': fixtures['field.change'].filter((e) => e.field !== 'quota') },
};
const editWalk = {
  ...editModel,
  fixtures: { ...fixtures, 'field.change': fixtures['field.change'].filter((e) => e.field === 'quota') },
};

const realShortest = (model: typeof createModel | typeof editModel) => shortestPaths(userFormMachine, model).filter(isRealistic);

function journey(id: number | null, events: readonly AnyEventObject[]): Snap {
  return walk(userFormMachine, { id }, events);
}
const change = (field: UserFormField, value: string) => ({ type: 'field.change', field, value });
const submit = { type: 'form.submit' };

describe('userForm model', () => {
  it('reaches every state (create and edit together)', () => {
    const paths = [...realShortest(createModel), ...realShortest(editModel)];
    // `starting` only decides between loading and editing (eventless): no snapshot rests there,
    // nor in the user region's `choosing` (edit always fetches)
    // the 401 recovery (awaitingSession, resaving, left) is the generic form machine's: with a session
    // and its sign-in dialog it is walked in form.model.test.ts
    expect(unreachedStates(userFormMachine, paths)).toEqual(['starting', 'loading.user.choosing', 'awaitingSession', 'resaving', 'left']);
  });

  it.each([
    ['create', createWalk],
    ['edit', editWalk],
  ] as const)('keeps its invariants on every simple path (%s)', (mode, model) => {
    const paths = simplePaths(userFormMachine, model).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        const children = Object.keys(s.children).sort();
        if (s.matches('saving')) expect(children).toEqual(['saveUser']);
        else if (s.matches('loading')) expect(['loadGroups', 'loadUser']).toEqual(expect.arrayContaining(children));
        else expect(children).toEqual([]);
        // create never loads; edit never finishes (it stays on the page after a save)
        if (mode === 'create') expect(s.matches('loading') || s.matches('loadFailed')).toBe(false);
        if (mode === 'edit') expect(s.status).toBe('active');
        expect(selectIsLoading(s)).toBe(s.matches('loading'));
        expect(selectLoadFailed(s)).toBe(s.matches('loadFailed'));
        expect(selectIsSaving(s)).toBe(s.matches('saving'));
        expect(selectIsBusy(s)).toBe(s.matches('loading') || s.matches('saving') || s.status === 'done');
        // the button sends only while editing; a create needs both username and password (spec §5)
        const form = selectForm(s);
        const complete = mode === 'edit' || (form.username !== '' && form.password !== '');
        expect(selectCanSubmit(s)).toBe(s.matches('editing') && complete);
        // a quota problem belongs to the edit form, and only to a quota the rules refuse
        if (selectQuotaProblem(s) !== null) {
          expect(mode).toBe('edit');
          expect(quotaProblemOf(form.quota)).not.toBeNull();
        }
        // a save never starts with an unparsable or out-of-range quota
        if (mode === 'edit' && s.matches('saving')) expect(quotaProblemOf(form.quota)).toBeNull();
        // nor with a field breaking its length rule
        if (s.matches('saving')) expect(userFormErrors(form, mode === 'edit')).toEqual({});
      }
    }
  });

  describe('pinned journeys', () => {
    it('create: username and password, submit, saved → done', () => {
      const s = journey(null, [change('username', 'bob'), change('password', 'bob-pass-1'), submit, saved]);
      expect(s.value).toBe('created');
      expect(s.status).toBe('done');
    });
    it('create: an empty username or password does nothing', () => {
      expect(journey(null, [change('password', 'bob-pass-1'), submit]).value).toBe('editing');
      expect(journey(null, [change('username', 'bob'), submit]).value).toBe('editing');
    });
    it('edit: loads the user and the groups into the form', () => {
      const s = journey(7, [loaded, groupsLoaded]);
      expect(s.value).toBe('editing');
      expect(selectForm(s)).toEqual(userFormOf(alice));
      expect(s.context.groupOptions).toEqual(['default', 'vip', 'svip']);
    });
    it('edit: a negative quota is refused at its field, naming it and the range, and not sent', () => {
      const s = journey(7, [loaded, groupsLoaded, change('quota', '-1'), submit]);
      expect(s.matches('editing')).toBe(true);
      expect(selectQuotaProblem(s)).toEqual({ key: 'number.range', params: { min: 0, max: 1_000_000_000_000_000, field: 'number.field.quota' } });
    });

    it('edit: a quota that is not an integer is refused at its field and not sent', () => {
      const s = journey(7, [loaded, groupsLoaded, change('quota', '12x'), submit]);
      expect(s.value).toBe('editing');
      expect(selectQuotaProblem(s)).toEqual({ key: 'users.form.quotaInvalid' });
      // typing again clears the message
      expect(selectQuotaProblem(transition(userFormMachine, s, change('quota', '12') as never)[0])).toBeNull();
    });
    it('edit: a saved form stays, the password emptied', () => {
      const s = journey(7, [loaded, groupsLoaded, change('password', 'new-pass-12'), submit, saved]);
      expect(s.value).toBe('editing');
      expect(selectForm(s).password).toBe('');
    });
    it('edit: a failed load can be retried; failed groups still open the form', () => {
      expect(journey(7, [loadFailed]).value).toBe('loadFailed');
      expect(journey(7, [loadFailed, { type: 'form.retry' }, loaded, groupsLoaded]).value).toBe('editing');
      expect(journey(7, [groupsFailed, loaded]).value).toBe('editing');
    });
    it('a field breaking its length rule is not sent, in create and edit', () => {
      expect(journey(null, [change('username', 'u'.repeat(13)), change('password', 'bob-pass-1'), submit]).value).toBe('editing');
      expect(journey(null, [change('username', 'bob'), change('password', 'short'), submit]).value).toBe('editing');
      expect(journey(null, [change('username', 'bob'), change('password', 'p'.repeat(21)), submit]).value).toBe('editing');
      expect(journey(7, [loaded, groupsLoaded, change('display_name', 'd'.repeat(21)), submit]).value).toBe('editing');
      expect(journey(7, [loaded, groupsLoaded, change('group', 'g'.repeat(33)), submit]).value).toBe('editing');
      expect(journey(7, [loaded, groupsLoaded, change('password', 'short'), submit]).value).toBe('editing');
      // at the limits it is sent
      expect(journey(null, [change('username', 'u'.repeat(12)), change('password', 'p'.repeat(20)), submit]).value).toBe('saving');
    });
    it('a refused save keeps what was typed', () => {
      const s = journey(null, [change('username', 'bob'), change('password', 'bob-pass-1'), submit, refused]);
      expect(s.value).toBe('editing');
      expect(selectForm(s).username).toBe('bob');
    });
  });

  it('payloads: create omits an empty display name; edit sends quota as an integer and the password only when typed', () => {
    const form = userFormOf(alice);
    expect(createPayloadOf({ ...form, password: 'p' })).toEqual({ username: 'alice', display_name: 'Alice', password: 'p' });
    expect(createPayloadOf({ ...form, display_name: '', password: 'p' })).toEqual({ username: 'alice', password: 'p' });
    expect(updatePayloadOf(7, { ...form, quota: ' 250 ' })).toEqual({
      id: 7,
      username: 'alice',
      display_name: 'Alice',
      group: 'default',
      quota: 250,
    });
    expect(updatePayloadOf(7, { ...form, password: 'new-pass-12' })).toMatchObject({ password: 'new-pass-12' });
    expect(updatePayloadOf(7, { ...form, quota: '1.5' })).toBeNull();
    expect(parseQuota('-20')).toBe(-20);
    expect(parseQuota('')).toBeNull();
    expect(parseQuota('99999999999999999999')).toBeNull();
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(id: number | null, events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      const loadUser = controlled<User, { id: number }>();
      const loadGroups = controlled<readonly string[], unknown>();
      const saveUser = controlled<void, SaveUserInput>();
      const stubs = { loadUser, loadGroups, saveUser };
      return { ...(await replayOn({ machine: userFormMachine, input: { id }, stubs }, events, check)), ...stubs };
    }

    const replayable = (model: typeof createModel | typeof editModel) =>
      realShortest(model)
        .filter((p) => p.steps.length > 1)
        .map((p) => [describePath(p), p] as const);

    it.each([...replayable(createModel).map(([n, p]) => [`create: ${n}`, null, p] as const), ...replayable(editModel).map(([n, p]) => [`edit: ${n}`, 7, p] as const)])(
      '%s',
      async (_, id, p) => {
        await replay(
          id,
          p.steps.map((s) => s.event),
          follows(p),
        );
      },
    );

    it('create: posts username and password, says 用户账户创建成功！ and goes to /user', async () => {
      const { emitted, saveUser } = await replay(null, [change('username', 'bob'), change('password', 'bob-pass-1'), submit, saved]);
      expect(saveUser.calls).toEqual([{ kind: 'create', payload: { username: 'bob', password: 'bob-pass-1' } }]);
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'users.created' } },
        { type: 'navigate', to: '/user', replace: false },
      ]);
    });
    it('a broken length rule is said at its field, naming it and the rule: no toast, nothing sent', async () => {
      const said = async (id: number | null, events: readonly AnyEventObject[]) => {
        const { emitted, saveUser } = await replay(id, events);
        expect(saveUser.calls).toEqual([]);
        expect(emitted).toEqual([]);
        const s = journey(id, events);
        return Object.fromEntries(Object.entries(selectFieldErrors(s)).map(([f, m]) => [f, renderMessage('zh', m)]));
      };
      expect(await said(null, [change('username', 'u'.repeat(13)), change('password', 'bob-pass-1'), submit])).toEqual({ username: '用户名长度不能超过 12 个字符' });
      expect(await said(null, [change('username', 'bob'), change('password', 'short'), submit])).toEqual({ password: '密码长度必须在 8 到 20 个字符之间' });
      expect(
        await said(null, [change('username', 'u'.repeat(13)), change('display_name', 'd'.repeat(21)), change('password', 'p'.repeat(21)), submit]),
      ).toEqual({
        username: '用户名长度不能超过 12 个字符',
        display_name: '显示名称长度不能超过 20 个字符',
        password: '密码长度必须在 8 到 20 个字符之间',
      });
      expect(await said(7, [loaded, groupsLoaded, change('group', 'g'.repeat(33)), submit])).toEqual({ group: '分组名称长度不能超过 32 个字符' });
      // edit: the password is optional, but a typed one must be 8–20
      expect(await said(7, [loaded, groupsLoaded, change('password', 'short'), submit])).toEqual({ password: '密码长度必须在 8 到 20 个字符之间' });
      // typing into one field takes only its message away
      const s = journey(null, [change('username', 'u'.repeat(13)), change('display_name', 'd'.repeat(21)), change('password', 'bob-pass-1'), submit, change('username', 'bob')]);
      expect(Object.keys(selectFieldErrors(s))).toEqual(['display_name']);
    });
    it('create: an empty password sends nothing and says nothing', async () => {
      const { emitted, saveUser } = await replay(null, [change('username', 'bob'), submit]);
      expect(saveUser.calls).toEqual([]);
      expect(emitted).toEqual([]);
    });
    it('edit: loads user 7, saves group and quota, says 用户信息更新成功！', async () => {
      const { emitted, loadUser, saveUser } = await replay(7, [
        loaded,
        groupsLoaded,
        change('group', 'vip'),
        change('quota', '250'),
        submit,
        saved,
      ]);
      expect(loadUser.calls).toEqual([{ id: 7 }]);
      expect(saveUser.calls).toEqual([
        { kind: 'update', payload: { id: 7, username: 'alice', display_name: 'Alice', group: 'vip', quota: 250 } },
      ]);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'account.profile.saved' } }]);
    });
    it('edit: an invalid quota is said, not sent', async () => {
      const { emitted, saveUser } = await replay(7, [loaded, groupsLoaded, change('quota', 'lots'), submit]);
      expect(saveUser.calls).toEqual([]);
      // said at the field only (no duplicate toast)
      expect(emitted).toEqual([]);
      expect(selectQuotaProblem(journey(7, [loaded, groupsLoaded, change('quota', 'lots'), submit]))).toEqual({ key: 'users.form.quotaInvalid' });
    });
    it("cancel: edit goes to /setting (spec §2), create to /user; a refusal shows the server's message", async () => {
      expect((await replay(7, [loaded, groupsLoaded, { type: 'form.cancel' }])).emitted).toEqual([{ type: 'navigate', to: '/setting', replace: false }]);
      expect((await replay(null, [{ type: 'form.cancel' }])).emitted).toEqual([{ type: 'navigate', to: '/user', replace: false }]);
      const { emitted } = await replay(null, [change('username', 'bob'), change('password', 'bob-pass-1'), submit, refused]);
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { text: '用户名已存在' } }]);
    });
    it('every key it emits is in the catalogue', async () => {
      const runs = await Promise.all([
        replay(7, [groupsFailed, loaded, change('quota', 'x'), submit, change('quota', '1'), submit, saved]),
        replay(null, [change('username', 'bob'), change('password', 'bob-pass-1'), submit, saved]),
        replay(7, [loadFailed]),
      ]);
      for (const { emitted } of runs)
        for (const e of emitted) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });
});
