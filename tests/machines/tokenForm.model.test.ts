import { describe, expect, it } from 'vitest';
import { transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import type { Token } from '../../src/domain/token';
import { checkTokenForm, emptyTokenForm, tokenFormOf, tokenPayloadOf, type TokenTextField } from '../../src/domain/tokenForm';
import { isMessageKey, renderMessage } from '../../src/i18n';
import {
  selectAvailableModels,
  selectCanSubmit,
  selectForm,
  selectIsBusy,
  selectIsLoading,
  selectIsSaving,
  selectLoadFailed,
  selectModelFilter,
  selectProblem,
  tokenFormMachine,
  type SaveTokenInput,
} from '../../src/machines/tokenForm';
import { controlled } from './support/stubs';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { replay as replayOn, journey as walk, follows } from './support/replay';

type Snap = SnapshotFrom<typeof tokenFormMachine>;

const now = 1_700_000_000;
const stored: Token = {
  id: 9,
  name: 'ci',
  key: 'k3y',
  status: 1,
  created_time: now - 3600,
  expired_time: -1,
  remain_quota: 1000,
  unlimited_quota: false,
  used_quota: 20,
  models: 'gpt-4o',
  subnet: '',
};

const fixtures: EventFixtures<typeof tokenFormMachine> = {
  'field.change': [
    { type: 'field.change', field: 'name', value: 'ci' },
    { type: 'field.change', field: 'expiry', value: 'soon' },
    { type: 'field.change', field: 'subnet', value: '10.0.0.0/8, nope' },
    { type: 'field.change', field: 'remainQuota', value: '12x' },
  ],
  'models.toggle': [{ type: 'models.toggle', model: 'gpt-4o-mini' }],
  'models.clear': [{ type: 'models.clear' }],
  'models.filter': [{ type: 'models.filter', text: 'mini' }],
  'expiry.quick': [
    { type: 'expiry.quick', preset: 'day', now },
    { type: 'expiry.quick', preset: 'never', now },
  ],
  'unlimited.toggle': [{ type: 'unlimited.toggle' }],
  'form.submit': [{ type: 'form.submit' }],
  'form.retry': [{ type: 'form.retry' }],
  'form.cancel': [{ type: 'form.cancel' }],
};
const tokenLoaded = doneActor('loadToken', stored);
const tokenFailed = errorActor('loadToken', failure('loadToken', 'record not found'));
const modelsLoaded = doneActor('loadAvailableModels', ['gpt-4o', 'gpt-4o-mini', 'gpt-4o']);
const modelsFailed = errorActor('loadAvailableModels', httpError('loadAvailableModels', 500, 'Internal Server Error'));
const saved = doneActor('saveToken');
const refused = errorActor('saveToken', failure('saveToken', '参数错误：令牌名称过长'));
const internal = [tokenLoaded, tokenFailed, modelsLoaded, modelsFailed, saved, refused];

const none = <T,>(): readonly T[] => [];
/*
 * Every change makes a new context, so the shortest-path models type only a name and a bad IP
 * restriction (enough to reach every state and both submit outcomes); the pinned journeys and
 * the replays below cover the other events.
 */
const reachFixtures: EventFixtures<typeof tokenFormMachine> = {
  ...fixtures,
  'field.change': fixtures['field.change'].filter((e) => e.field === 'name' || e.field === 'subnet'),
  'models.toggle': none(),
  'models.clear': none(),
  'models.filter': none(),
  'expiry.quick': none(),
  'unlimited.toggle': none(),
};
const createModel = { fixtures: reachFixtures, internal, input: { id: null, offsetMinutes: 0 } };
const editModel = { fixtures: reachFixtures, internal, input: { id: 9, offsetMinutes: 0 } };
/*
 * The simple-path walks type only a few values per mode (every change makes a new context, so
 * every fixture in both modes would multiply the paths past any use).
 */
const createWalk = {
  ...createModel,
  fixtures: { ...reachFixtures, 'form.retry': none<{ readonly type: 'form.retry' }>() },
};
const editWalk = {
  ...editModel,
  fixtures: {
    ...reachFixtures,
    'field.change': fixtures['field.change'].filter((e) => e.field === 'remainQuota'),
    'unlimited.toggle': fixtures['unlimited.toggle'],
  },
};

type Model = typeof createModel | typeof editModel;
const realShortest = (model: Model) => shortestPaths(tokenFormMachine, model).filter(isRealistic);

function journey(id: number | null, events: readonly AnyEventObject[]): Snap {
  return walk(tokenFormMachine, { id, offsetMinutes: 0 }, events);
}
const change = (field: TokenTextField, value: string) => ({ type: 'field.change', field, value });
const submit = { type: 'form.submit' };
const quick = (preset: string) => ({ type: 'expiry.quick', preset, now });
const toggle = (model: string) => ({ type: 'models.toggle', model });

describe('tokenForm model', () => {
  it('reaches every state (create and edit together)', () => {
    const paths = [...realShortest(createModel), ...realShortest(editModel)];
    // the token region's `choosing` only decides between fetching and done (eventless)
    // (and the form machine's `starting`, which decides between loading and editing)
    // the 401 recovery (awaitingSession, resaving, left) is the generic form machine's: with a session
    // and its sign-in dialog it is walked in form.model.test.ts
    expect(unreachedStates(tokenFormMachine, paths)).toEqual(['starting', 'loading.token.choosing', 'awaitingSession', 'resaving', 'left']);
  });

  it.each([
    ['create', createWalk],
    ['edit', editWalk],
  ] as const)('keeps its invariants on every simple path (%s)', (mode, model) => {
    const paths = simplePaths(tokenFormMachine, model).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        const children = Object.keys(s.children).sort();
        if (s.matches('saving')) expect(children).toEqual(['saveToken']);
        else if (s.matches('loading')) expect(['loadAvailableModels', 'loadToken']).toEqual(expect.arrayContaining(children));
        else expect(children).toEqual([]);
        // create never loads a token
        if (mode === 'create') {
          expect(s.matches('loadFailed')).toBe(false);
          expect(children).not.toContain('loadToken');
        }
        expect(selectIsLoading(s)).toBe(s.matches('loading'));
        expect(selectLoadFailed(s)).toBe(s.matches('loadFailed'));
        expect(selectIsSaving(s)).toBe(s.matches('saving'));
        expect(selectIsBusy(s)).toBe(s.matches('loading') || s.matches('saving') || s.status === 'done');
        expect(selectCanSubmit(s)).toBe(s.matches('editing'));
        if (s.status === 'done') expect(s.value).toBe('saved');
        // a shown problem is exactly the rule the form still breaks
        const form = selectForm(s);
        const problem = selectProblem(s);
        if (problem !== null) expect(checkTokenForm(form, mode === 'edit', 0)).toEqual(problem);
        // a save never starts with a broken rule
        if (s.matches('saving')) expect(tokenPayloadOf(form, mode === 'edit', 0)).not.toBeNull();
        expect(new Set(selectAvailableModels(s)).size).toBe(selectAvailableModels(s).length);
      }
    }
  });

  describe('pinned journeys', () => {
    it('create: the defaults, a name, a model and one day; saved → done', () => {
      const s = journey(null, [modelsLoaded, change('name', 'ci'), toggle('gpt-4o'), quick('day'), submit]);
      expect(s.value).toBe('saving');
      expect(tokenPayloadOf(selectForm(s), false, 0)).toEqual({
        name: 'ci',
        remain_quota: 500000,
        expired_time: now + 86400,
        unlimited_quota: false,
        models: 'gpt-4o',
        subnet: '',
      });
      const done = transition(tokenFormMachine, s, saved as never)[0];
      expect(done.value).toBe('saved');
      expect(done.status).toBe('done');
    });
    it('create: no name is refused at its field and not sent', () => {
      const s = journey(null, [modelsLoaded, submit]);
      expect(s.value).toBe('editing');
      expect(selectProblem(s)).toEqual({ field: 'name', message: { key: 'validation.token.nameRequired' } });
      expect(selectProblem(transition(tokenFormMachine, s, change('name', 'x') as never)[0])).toBeNull();
    });
    it('an invalid IP restriction names the bad entry', () => {
      const s = journey(null, [modelsLoaded, change('name', 'ci'), change('subnet', '10.0.0.0/8, nope'), submit]);
      expect(s.value).toBe('editing');
      expect(selectProblem(s)).toEqual({ field: 'subnet', message: { key: 'tokenForm.subnetInvalid', params: { entry: 'nope' } } });
    });
    it("a bad expiry says 'expiry time format error!'; a quick button clears it", () => {
      const s = journey(null, [modelsLoaded, change('name', 'ci'), change('expiry', 'soon'), submit]);
      expect(selectProblem(s)?.message).toEqual({ key: 'validation.token.expiryInvalid' });
      const fixed = transition(tokenFormMachine, s, quick('never') as never)[0];
      expect(selectProblem(fixed)).toBeNull();
      expect(selectForm(fixed).expiry).toBe('');
    });
    it('a remaining quota of -5 is refused before sending, naming the field and the range', () => {
      const s = journey(null, [modelsLoaded, change('name', 'ci'), change('remainQuota', '-5'), submit]);
      expect(selectProblem(s)).toEqual({ field: 'remainQuota', message: { key: 'number.range', params: { min: 0, max: 1_000_000_000_000_000, field: 'number.field.remainQuota' } } });
      expect(s.matches('saving')).toBe(false);
    });
    it('edit: a token that went negative through use is not saved with that quota; unlimited lets it through', () => {
      const negative = doneActor('loadToken', { ...stored, remain_quota: -1, unlimited_quota: false });
      const s = journey(9, [modelsLoaded, negative, submit]);
      expect(s.matches('editing')).toBe(true);
      expect(selectProblem(s)).toEqual({ field: 'remainQuota', message: { key: 'number.range', params: { min: 0, max: 1_000_000_000_000_000, field: 'number.field.remainQuota' } } });
      expect(renderMessage('zh', selectProblem(s)!.message)).toBe('额度 必须在 0 到 1000000000000000 之间');
      expect(renderMessage('en', selectProblem(s)!.message)).toBe('Quota must be between 0 and 1000000000000000');
      expect(journey(9, [modelsLoaded, negative, { type: 'unlimited.toggle' }, submit]).matches('saving')).toBe(true);
    });
    it('unlimited frees a bad quota', () => {
      const s = journey(null, [modelsLoaded, change('name', 'ci'), change('remainQuota', '12x'), submit]);
      expect(selectProblem(s)?.field).toBe('remainQuota');
      const freed = transition(tokenFormMachine, s, { type: 'unlimited.toggle' })[0];
      expect(selectProblem(freed)).toBeNull();
      expect(transition(tokenFormMachine, freed, submit as never)[0].value).toBe('saving');
    });
    it('edit: loads the token and the models; the filter narrows, clear empties', () => {
      const s = journey(9, [modelsLoaded, tokenLoaded]);
      expect(s.value).toBe('editing');
      expect(selectForm(s)).toEqual(tokenFormOf(stored, 0));
      expect(selectAvailableModels(s)).toEqual(['gpt-4o', 'gpt-4o-mini']);
      const filtered = transition(tokenFormMachine, s, { type: 'models.filter', text: 'mini' })[0];
      expect(selectModelFilter(filtered)).toBe('mini');
      expect(selectForm(transition(tokenFormMachine, s, { type: 'models.clear' })[0]).models).toEqual([]);
    });
    it('edit: a failed load can be retried; failed models still open the form', () => {
      expect(journey(9, [tokenFailed]).value).toBe('loadFailed');
      expect(journey(9, [tokenFailed, { type: 'form.retry' }, tokenLoaded, modelsLoaded]).value).toBe('editing');
      const s = journey(9, [modelsFailed, tokenLoaded]);
      expect(s.value).toBe('editing');
      expect(selectAvailableModels(s)).toEqual([]);
    });
    it('a refused save keeps what was typed', () => {
      const s = journey(null, [modelsLoaded, change('name', 'ci'), submit, refused]);
      expect(s.value).toBe('editing');
      expect(selectForm(s).name).toBe('ci');
    });
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(id: number | null, events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      const loadToken = controlled<Token, { id: number }>();
      const loadAvailableModels = controlled<readonly string[], unknown>();
      const saveToken = controlled<void, SaveTokenInput>();
      const stubs = { loadToken, loadAvailableModels, saveToken };
      return { ...(await replayOn({ machine: tokenFormMachine, input: { id, offsetMinutes: 0 }, stubs }, events, check)), ...stubs };
    }

    const replayable = (model: Model) =>
      realShortest(model)
        .filter((p) => p.steps.length > 1)
        .map((p) => [describePath(p), p] as const);

    it.each([
      ...replayable(createModel).map(([n, p]) => [`create: ${n}`, null, p] as const),
      ...replayable(editModel).map(([n, p]) => [`edit: ${n}`, 9, p] as const),
    ])('%s', async (_, id, p) => {
      await replay(
        id,
        p.steps.map((s) => s.event),
        follows(p),
      );
    });

    it('create: posts the payload, says 令牌创建成功… and goes to /token', async () => {
      const { emitted, saveToken, loadToken } = await replay(null, [modelsLoaded, change('name', 'ci'), toggle('gpt-4o-mini'), quick('hour'), submit, saved]);
      expect(loadToken.calls).toEqual([]);
      expect(saveToken.calls).toEqual([
        {
          id: null,
          payload: { name: 'ci', remain_quota: 500000, expired_time: now + 3600, unlimited_quota: false, models: 'gpt-4o-mini', subnet: '' },
        },
      ]);
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'tokenForm.created' } },
        { type: 'navigate', to: '/token', replace: false },
      ]);
    });
    it('edit: loads token 9, puts every field back with the id, says 令牌更新成功！ and goes to /token', async () => {
      const { emitted, loadToken, saveToken } = await replay(9, [
        tokenLoaded,
        modelsLoaded,
        change('name', 'renamed'),
        change('subnet', '192.168.1.1'),
        { type: 'unlimited.toggle' },
        submit,
        saved,
      ]);
      expect(loadToken.calls).toEqual([{ id: 9 }]);
      expect(saveToken.calls).toEqual([
        {
          id: 9,
          payload: { name: 'renamed', remain_quota: 1000, expired_time: -1, unlimited_quota: true, models: 'gpt-4o', subnet: '192.168.1.1/32' },
        },
      ]);
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'tokenForm.updated' } },
        { type: 'navigate', to: '/token', replace: false },
      ]);
    });
    it('a broken rule is said, not sent; a refusal shows the server message; cancel goes to /token', async () => {
      const bad = await replay(null, [modelsLoaded, change('name', 'ci'), change('subnet', 'nope'), submit]);
      expect(bad.saveToken.calls).toEqual([]);
      // said once, under its field: no toast repeats it
      expect(bad.emitted).toEqual([]);
      expect(bad.snapshot.context.problem).toEqual({ field: 'subnet', message: { key: 'tokenForm.subnetInvalid', params: { entry: 'nope' } } });
      const refusedRun = await replay(null, [modelsLoaded, change('name', 'ci'), submit, refused]);
      expect(refusedRun.emitted).toEqual([{ type: 'notify', level: 'error', message: { text: '参数错误：令牌名称过长' } }]);
      expect((await replay(9, [{ type: 'form.cancel' }])).emitted).toEqual([{ type: 'navigate', to: '/token', replace: false }]);
    });
    it('every key it emits is in the catalogue', async () => {
      const runs = await Promise.all([
        replay(9, [modelsFailed, tokenLoaded, change('expiry', 'x'), submit, change('expiry', ''), submit, saved]),
        replay(null, [modelsLoaded, submit, change('name', 'ci'), change('remainQuota', 'q'), submit]),
        replay(9, [tokenFailed]),
      ]);
      for (const { emitted } of runs)
        for (const e of emitted) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
      expect(runs[0].emitted.map((e) => e.type)).toEqual(['notify', 'notify', 'navigate']);
    });
  });

  it('starts empty with the create defaults', () => {
    expect(selectForm(journey(null, []))).toEqual(emptyTokenForm);
  });
});
