import { describe, expect, it } from 'vitest';
import { createActor, createEmptyActor, fromCallback, fromPromise, transition, type AnyActorRef, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import type { OptionEntry } from '../../src/domain/option';
import { fieldOf } from '../../src/domain/optionSections';
import { isValidJson } from '../../src/domain/validation';
import { isMessageKey } from '../../src/i18n';
import { msg, notify } from '../../src/domain/message';
import { priceEditorMachine, selectHasChanges, type SavePriceOptionInput } from '../../src/machines/priceEditor';
import {
  canOpenTab,
  optionSettingsMachine,
  sectionChanges,
  selectCanAddWhitelistEntry,
  selectChangedSections,
  selectConfirmingLeave,
  selectConfirmingToggle,
  selectIsBusy,
  selectIsLoading,
  selectLoadFailed,
  selectPriceEditor,
  selectSavingSection,
  selectTab,
  selectTabs,
  selectToggleLocksOut,
  settingsPathOf,
  tabChanges,
  valuesOf,
  type OptionSettingsInput,
  type SaveOptionInput,
} from '../../src/machines/optionSettings';
import type { User } from '../../src/domain/user';
import { followSession, sessionFactsOf, type SessionChanged } from '../../src/machines/sessionWatch';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as journeyOf } from './support/replay';

type Snap = SnapshotFrom<typeof optionSettingsMachine>;

/** What a fresh server lists (the hidden secrets are absent). */
const entries: OptionEntry[] = [
  { key: 'PasswordLoginEnabled', value: 'true' },
  { key: 'LogConsumeEnabled', value: 'true' },
  { key: 'TopUpLink', value: '' },
  { key: 'QuotaPerUnit', value: '500000' },
  { key: 'ModelRatio', value: '{"gpt-4":15}' },
  { key: 'CompletionRatio', value: '{}' },
  { key: 'GroupRatio', value: '{"default":1}' },
  { key: 'EmailDomainWhitelist', value: 'gmail.com,qq.com' },
  { key: 'ServerAddress', value: '' },
  { key: 'SystemName', value: 'One API' },
  { key: 'UnknownKey', value: 'ignored' },
];

/** The session's report as the watcher sends it at start: a root or a common user, no status yet. */
function roleReport(root: boolean): SessionChanged {
  const user: User = { id: 1, username: root ? 'root' : 'alice', display_name: '', role: root ? 100 : 1, status: 1 };
  return { type: 'session.changed', facts: sessionFactsOf({ user, status: null }), changed: ['user', 'admin', 'root'] };
}

const fixtures: EventFixtures<typeof optionSettingsMachine> = {
  'session.changed': [roleReport(true), roleReport(false)],
  'tab.select': [
    { type: 'tab.select', tab: 'operation' },
    { type: 'tab.select', tab: 'system' },
    { type: 'tab.select', tab: 'personal' },
  ],
  'options.retry': [{ type: 'options.retry' }],
  'field.change': [
    { type: 'field.change', key: 'TopUpLink', value: 'https://pay.example.com' },
    { type: 'field.change', key: 'ModelRatio', value: '{"gpt-4":' },
    { type: 'field.change', key: 'ServerAddress', value: 'https://gw.example.com/' },
    { type: 'field.change', key: 'SMTPToken', value: '' },
    // a switch is never edited as text
    { type: 'field.change', key: 'LogConsumeEnabled', value: 'false' },
  ],
  'section.save': [
    { type: 'section.save', section: 'general' },
    { type: 'section.save', section: 'ratio' },
    { type: 'section.save', section: 'server' },
  ],
  'option.toggle': [
    { type: 'option.toggle', key: 'PasswordLoginEnabled' },
    { type: 'option.toggle', key: 'LogConsumeEnabled' },
    { type: 'option.toggle', key: 'TopUpLink' },
  ],
  'confirm.accept': [{ type: 'confirm.accept' }],
  'confirm.cancel': [{ type: 'confirm.cancel' }],
  'leave.accept': [{ type: 'leave.accept' }],
  'leave.cancel': [{ type: 'leave.cancel' }],
  'whitelist.input': [
    { type: 'whitelist.input', value: ' example.com ' },
    { type: 'whitelist.input', value: 'gmail.com' },
  ],
  'whitelist.add': [{ type: 'whitelist.add' }],
  'whitelist.remove': [{ type: 'whitelist.remove', domain: 'qq.com' }],
  // the price editor's toast, relayed (the walks leave it out: it changes nothing but the emitted events)
  notify: [notify('error', msg('priceEditor.fixFirst'))],
};
const loaded = doneActor('listOptions', entries);
const loadFailed = errorActor('listOptions', httpError('listOptions', 500, 'Internal Server Error'));
const saved = doneActor('saveOption');
const refused = errorActor('saveOption', failure('saveOption', '无效的主题'));
const internal = [loaded, loadFailed, saved, refused];

/* The pure walks never start the watcher: the session is never read there. */
const session = createEmptyActor();
const rootRole: SessionChanged = roleReport(true);
const commonRole: SessionChanged = roleReport(false);
/** Who visits: the page's input and the role the session reports first. */
interface Visitor {
  readonly input: OptionSettingsInput;
  readonly role: SessionChanged;
}
const root: Visitor = { input: { session, tab: 'operation' }, role: rootRole };
const common: Visitor = { input: { session, tab: 'system' }, role: commonRole };
/*
 * The shortest-path search tells states apart by what the page shows (state, tab, pending
 * confirmation, changed sections, problems, stored switches), not by every typed character.
 */
const coarse = (s: Snap): string =>
  JSON.stringify([
    s.value,
    s.context.isRoot,
    s.context.tab,
    s.context.pendingTab,
    s.context.toggleKey,
    s.context.queue.length,
    selectChangedSections(s),
    Object.keys(s.context.problems),
    s.context.baseline['PasswordLoginEnabled'],
    s.context.baseline['LogConsumeEnabled'],
  ]);
/* The reach walk keeps one edit per kind of save (the whitelist editing is pinned below). */
const reachFixtures = (role: SessionChanged): EventFixtures<typeof optionSettingsMachine> => ({
  ...fixtures,
  'session.changed': [role],
  'field.change': [fixtures['field.change'][0]!, fixtures['field.change'][1]!],
  'section.save': [fixtures['section.save'][0]!, fixtures['section.save'][1]!],
  'option.toggle': [fixtures['option.toggle'][0]!, fixtures['option.toggle'][1]!],
  'tab.select': [fixtures['tab.select'][0]!, fixtures['tab.select'][1]!],
  'whitelist.input': [],
  'whitelist.add': [],
  'whitelist.remove': [],
  notify: [],
});
/* The session reports one role (role changes have their own walk and journeys below). */
const rootModel = { fixtures: reachFixtures(rootRole), internal, input: root.input, serializeState: coarse, limit: 20000 };
const commonModel = { fixtures: reachFixtures(commonRole), internal, input: common.input, serializeState: coarse, limit: 20000 };

/*
 * The simple-path walks keep one edit, one save, one switch or one tab change each (every edit
 * makes a new context, so all fixtures together would multiply the paths past any use), and
 * tell states apart as the page shows them.
 */
const walk = (
  input: OptionSettingsInput,
  pick: { roles: SessionChanged[]; change: number[]; save: number[]; toggle: number[]; tab: number[] },
) => ({
  fixtures: {
    ...fixtures,
    'session.changed': pick.roles,
    'field.change': pick.change.map((i) => fixtures['field.change'][i]!),
    'section.save': pick.save.map((i) => fixtures['section.save'][i]!),
    'option.toggle': pick.toggle.map((i) => fixtures['option.toggle'][i]!),
    'tab.select': pick.tab.map((i) => fixtures['tab.select'][i]!),
    'whitelist.input': [],
    'whitelist.add': [],
    'whitelist.remove': [],
    notify: [],
  },
  internal,
  input,
  serializeState: coarse,
});
const walks = [
  ['general edit and leave', walk(root.input, { roles: [rootRole], change: [0], save: [0], toggle: [], tab: [1] })],
  ['ratio edit', walk(root.input, { roles: [rootRole], change: [1], save: [1], toggle: [], tab: [] })],
  ['switches', walk(root.input, { roles: [rootRole], change: [], save: [], toggle: [0, 1], tab: [] })],
  ['common user', walk(common.input, { roles: [commonRole], change: [0], save: [0], toggle: [0], tab: [0] })],
  // told apart by role, state and tab only: every role change in every state the page rests in
  [
    'role changes',
    {
      ...walk(root.input, { roles: [rootRole, commonRole], change: [0], save: [0], toggle: [0], tab: [1] }),
      serializeState: (s: Snap) => JSON.stringify([s.value, s.context.isRoot, s.context.tab]),
    },
  ],
] as const;

const realShortest = (model: typeof rootModel) => shortestPaths(optionSettingsMachine, model).filter(isRealistic);

/** The snapshot after the session's first report of the visitor's role, then `events`. */
function journey(who: Visitor, events: readonly AnyEventObject[]): Snap {
  return journeyOf(optionSettingsMachine, who.input, [who.role, ...events]);
}
const change = (key: string, value: string) => ({ type: 'field.change', key, value });
const save = (section: string) => ({ type: 'section.save', section });
const toggle = (key: string) => ({ type: 'option.toggle', key });
const select = (tab: string) => ({ type: 'tab.select', tab });

describe('optionSettings model', () => {
  it('reaches every state (root and common user together)', () => {
    const paths = [...realShortest(rootModel), ...realShortest(commonModel)];
    // the three deciding states are eventless: no snapshot rests there
    expect(unreachedStates(optionSettingsMachine, paths).sort()).toEqual(['checkingLeave', 'checkingToggle', 'choosing']);
  });

  it.each(walks)('keeps its invariants on every simple path (%s)', (_, model) => {
    const paths = simplePaths(optionSettingsMachine, model).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        const c = s.context;
        const children = Object.keys(s.children).sort();
        // the role watcher runs for as long as the page lives
        const own = s.matches('saving') ? ['followSession', 'saveOption'] : s.matches('loading') ? ['followSession', 'listOptions'] : ['followSession'];
        // the price editor (and its relay) runs from root's first visit of the operation tab on, while root
        expect(children).toEqual([...own, ...(c.priceEditorOpen ? ['priceEditor', 'relayPriceEditor'] : [])].sort());
        if (c.priceEditorOpen) expect(c.isRoot).toBe(true);
        if (c.isRoot && c.tab === 'operation') expect(c.priceEditorOpen).toBe(true);
        expect(selectPriceEditor(s) !== undefined).toBe(c.priceEditorOpen);
        expect(selectTabs(s)).toEqual(c.isRoot ? ['personal', 'operation', 'system', 'other'] : ['personal']);
        if (s.matches('awaitingRole')) {
          // the asked tab waits for the role
          expect(c.isRoot).toBe(false);
          continue;
        }
        // once the role is known, the tab is always one the person may open; others never load options
        expect(canOpenTab(c.isRoot, selectTab(s))).toBe(true);
        if (!c.isRoot) {
          expect(s.value).toBe('personalOnly');
          expect(selectTab(s)).toBe('personal');
        }
        expect(selectIsLoading(s)).toBe(s.matches('loading'));
        expect(selectLoadFailed(s)).toBe(s.matches('failed'));
        expect(selectIsBusy(s)).toBe(s.matches('loading') || s.matches('saving'));
        // switches save at once: their draft is always the stored value
        for (const key of Object.keys(c.drafts)) if (fieldOf(key)?.kind === 'boolean') expect(c.drafts[key]).toBe(c.baseline[key]);
        // a save sends something that differs from what is stored, and a valid ratio
        if (s.matches('saving')) {
          expect(c.queue.length).toBeGreaterThan(0);
          expect(selectSavingSection(s)).not.toBeNull();
          for (const [key, value] of c.queue) expect(value).not.toBe(c.baseline[key]);
          if (c.savingSection === 'ratio') for (const k of ['ModelRatio', 'CompletionRatio', 'GroupRatio']) expect(isValidJson(c.drafts[k] ?? '')).toBe(true);
        } else {
          expect(c.queue).toEqual([]);
          expect(selectSavingSection(s)).toBeNull();
        }
        // confirmations
        expect(selectConfirmingToggle(s) !== null).toBe(s.matches('confirmingToggle'));
        if (s.matches('confirmingToggle')) {
          expect(c.toggleKey).toBe('PasswordLoginEnabled');
          expect(c.baseline['PasswordLoginEnabled']).toBe('true');
        }
        expect(selectConfirmingLeave(s) !== null).toBe(s.matches('confirmingLeave'));
        if (s.matches('confirmingLeave')) expect(tabChanges(c, c.tab).length).toBeGreaterThan(0);
        // a field problem is a ratio whose draft does not parse
        for (const key of Object.keys(c.problems)) {
          expect(['ModelRatio', 'CompletionRatio', 'GroupRatio']).toContain(key);
          expect(isValidJson(c.drafts[key] ?? '')).toBe(false);
        }
        // the changed sections are exactly those with something to send
        expect(selectChangedSections(s)).toBe(
          (['general', 'ratio', 'server'] as const).filter((id) => sectionChanges(c, id).length > 0).join(','),
        );
      }
    }
  });

  describe('pinned journeys', () => {
    it('loads the options, missing keys as empty, unknown keys dropped', () => {
      const s = journey(root, [loaded]);
      expect(s.value).toBe('ready');
      expect(s.context.baseline['SMTPToken']).toBe('');
      expect(s.context.baseline['UnknownKey']).toBeUndefined();
      expect(s.context.drafts).toEqual(s.context.baseline);
    });
    it('a common user stays on the personal tab, even when asking for another', () => {
      const s = journey(common, [select('operation')]);
      expect(s.value).toBe('personalOnly');
      expect(selectTab(s)).toBe('personal');
    });
    it('waits for the role; the asked tab is kept for root, refused for others', () => {
      const [first] = [journeyOf(optionSettingsMachine, root.input, [])];
      expect(first.value).toBe('awaitingRole');
      expect(journey(root, []).value).toBe('loading');
      expect(selectTab(journey(root, []))).toBe('operation');
      expect(selectTab(journey(common, []))).toBe('personal');
    });
    it('becoming root loads the options and offers the option tabs', () => {
      const s = journey(common, [rootRole, loaded]);
      expect(s.value).toBe('ready');
      expect(selectTabs(s)).toEqual(['personal', 'operation', 'system', 'other']);
      expect(selectTab(s)).toBe('personal');
    });
    it('losing root leaves an option tab and drops a running save or confirmation', () => {
      const saving = journey(root, [loaded, change('TopUpLink', 'x'), save('general'), commonRole]);
      expect(saving.value).toBe('personalOnly');
      expect(selectTab(saving)).toBe('personal');
      expect(saving.context.queue).toEqual([]);
      expect(saving.context.savingSection).toBeNull();
      const confirming = journey(root, [loaded, toggle('PasswordLoginEnabled'), commonRole]);
      expect(confirming.value).toBe('personalOnly');
      expect(confirming.context.toggleKey).toBeNull();
      const leaving = journey(root, [loaded, change('TopUpLink', 'x'), select('system'), commonRole]);
      expect(leaving.context.pendingTab).toBeNull();
      // the same role again changes nothing
      const same = journey(root, [loaded, select('system'), rootRole]);
      expect(same.value).toBe('ready');
      expect(selectTab(same)).toBe('system');
    });
    it('saving a section sends its changed values one by one; each becomes the baseline', () => {
      let s = journey(root, [loaded, change('TopUpLink', 'https://pay.example.com'), change('QuotaPerUnit', '1000'), save('general')]);
      expect(s.value).toBe('saving');
      expect(s.context.queue).toEqual([
        ['TopUpLink', 'https://pay.example.com'],
        ['QuotaPerUnit', '1000'],
      ]);
      [s] = transition(optionSettingsMachine, s, saved as never);
      expect(s.value).toBe('saving');
      expect(s.context.baseline['TopUpLink']).toBe('https://pay.example.com');
      [s] = transition(optionSettingsMachine, s, saved as never);
      expect(s.value).toBe('ready');
      expect(selectChangedSections(s)).toBe('');
    });
    it('a refused key stops the save; the keys already stored stay stored', () => {
      const s = journey(root, [loaded, change('TopUpLink', 'x'), change('QuotaPerUnit', '1000'), save('general'), saved, refused]);
      expect(s.value).toBe('ready');
      expect(s.context.baseline['TopUpLink']).toBe('x');
      expect(s.context.baseline['QuotaPerUnit']).toBe('500000');
      expect(selectChangedSections(s)).toBe('general');
    });
    it('invalid ratio JSON is refused at its field and nothing is sent', () => {
      const s = journey(root, [loaded, change('ModelRatio', '{"gpt-4":'), save('ratio')]);
      expect(s.value).toBe('ready');
      expect(s.context.problems).toEqual({ ModelRatio: { key: 'validation.ratio.model' } });
      // typing again clears it
      expect(transition(optionSettingsMachine, s, change('ModelRatio', '{}') as never)[0].context.problems).toEqual({});
    });
    it('the server address is sent normalised; an empty secret is not re-sent', () => {
      const s = journey(root, [loaded, change('ServerAddress', ' https://gw.example.com/ '), save('server')]);
      expect(s.context.queue).toEqual([['ServerAddress', 'https://gw.example.com']]);
      const t = journey(root, [loaded, change('SMTPToken', 'x'), change('SMTPToken', ''), save('smtp')]);
      expect(t.value).toBe('ready');
    });
    it('turning PasswordLoginEnabled off asks; cancel keeps it on, accept saves false; turning it on does not ask', () => {
      expect(journey(root, [loaded, toggle('PasswordLoginEnabled')]).value).toBe('confirmingToggle');
      const kept = journey(root, [loaded, toggle('PasswordLoginEnabled'), { type: 'confirm.cancel' }]);
      expect(kept.value).toBe('ready');
      expect(kept.context.baseline['PasswordLoginEnabled']).toBe('true');
      const off = journey(root, [loaded, toggle('PasswordLoginEnabled'), { type: 'confirm.accept' }]);
      expect(off.context.queue).toEqual([['PasswordLoginEnabled', 'false']]);
      const stored = transition(optionSettingsMachine, off, saved as never)[0];
      expect(stored.context.baseline['PasswordLoginEnabled']).toBe('false');
      const on = transition(optionSettingsMachine, stored, toggle('PasswordLoginEnabled') as never)[0];
      expect(on.value).toBe('saving');
      expect(on.context.queue).toEqual([['PasswordLoginEnabled', 'true']]);
    });
    it('the confirmation warns of a lockout exactly when no other sign-in method is stored; cancel, then a new click asks again', () => {
      const asked = journey(root, [loaded, toggle('PasswordLoginEnabled')]);
      expect(selectToggleLocksOut(asked)).toBe(true);
      const cancelled = transition(optionSettingsMachine, asked, { type: 'confirm.cancel' })[0];
      expect(selectToggleLocksOut(cancelled)).toBe(false);
      const again = transition(optionSettingsMachine, cancelled, toggle('PasswordLoginEnabled') as never)[0];
      expect(again.value).toBe('confirmingToggle');
      expect(selectConfirmingToggle(again)).toBe('PasswordLoginEnabled');
      const withWeChat = doneActor('listOptions', [...entries, { key: 'WeChatAuthEnabled', value: 'true' }]);
      expect(selectToggleLocksOut(journey(root, [withWeChat, toggle('PasswordLoginEnabled')]))).toBe(false);
      const withLark = doneActor('listOptions', [...entries, { key: 'LarkClientId', value: 'lark-app' }]);
      expect(selectToggleLocksOut(journey(root, [withLark, toggle('PasswordLoginEnabled')]))).toBe(false);
    });
    it('JSON options load pretty-printed (two spaces); saving one sends the edited, valid JSON', () => {
      const s = journey(root, [loaded]);
      expect(s.context.drafts['ModelRatio']).toBe('{\n  "gpt-4": 15\n}');
      expect(s.context.baseline['GroupRatio']).toBe('{\n  "default": 1\n}');
      expect(s.context.drafts['CompletionRatio']).toBe('{}');
      expect(selectChangedSections(s)).toBe('');
      const edited = '{\n  "gpt-4": 30\n}';
      const saving = journey(root, [loaded, change('ModelRatio', edited), save('ratio')]);
      expect(saving.context.queue).toEqual([['ModelRatio', edited]]);
    });
    it('other switches save at once', () => {
      const s = journey(root, [loaded, toggle('LogConsumeEnabled')]);
      expect(s.value).toBe('saving');
      expect(s.context.queue).toEqual([['LogConsumeEnabled', 'false']]);
    });
    it('leaving a tab with unsaved changes asks; stay keeps them, leave discards them', () => {
      const dirty = journey(root, [loaded, change('TopUpLink', 'x'), select('system')]);
      expect(dirty.value).toBe('confirmingLeave');
      const stayed = transition(optionSettingsMachine, dirty, { type: 'leave.cancel' })[0];
      expect(selectTab(stayed)).toBe('operation');
      expect(stayed.context.drafts['TopUpLink']).toBe('x');
      const left = transition(optionSettingsMachine, dirty, { type: 'leave.accept' })[0];
      expect(selectTab(left)).toBe('system');
      expect(left.context.drafts['TopUpLink']).toBe('');
      // a clean tab changes at once
      expect(selectTab(journey(root, [loaded, select('system')]))).toBe('system');
    });
    it('whitelist: trimmed, non-empty, not present; remove drops one', () => {
      let s = journey(root, [loaded, select('system'), { type: 'whitelist.input', value: ' example.com ' }]);
      expect(selectCanAddWhitelistEntry(s)).toBe(true);
      [s] = transition(optionSettingsMachine, s, { type: 'whitelist.add' });
      expect(s.context.drafts['EmailDomainWhitelist']).toBe('gmail.com,qq.com,example.com');
      expect(s.context.whitelistEntry).toBe('');
      [s] = transition(optionSettingsMachine, s, { type: 'whitelist.input', value: 'gmail.com' });
      expect(selectCanAddWhitelistEntry(s)).toBe(false);
      [s] = transition(optionSettingsMachine, s, { type: 'whitelist.remove', domain: 'qq.com' });
      expect(s.context.drafts['EmailDomainWhitelist']).toBe('gmail.com,example.com');
      expect(selectChangedSections(s)).toBe('emailDomain');
    });
    it('the price editor starts when root opens the operation tab, outlives tab changes, and stops when root is lost', () => {
      const onSystem: Visitor = { input: { session, tab: 'system' }, role: rootRole };
      expect(journey(onSystem, [loaded]).context.priceEditorOpen).toBe(false);
      const opened = journey(onSystem, [loaded, select('operation')]);
      expect(opened.context.priceEditorOpen).toBe(true);
      const editor = selectPriceEditor(opened);
      expect(editor).toBeDefined();
      // other tabs and back: the same child (its edits with it)
      const back = journey(onSystem, [loaded, select('operation'), select('system'), select('personal'), select('operation')]);
      expect(back.context.tab).toBe('operation');
      expect(Object.keys(back.children).filter((id) => id === 'priceEditor')).toEqual(['priceEditor']);
      // opened while the options load, or at once from ?tab=operation
      expect(journey(onSystem, [select('operation')]).context.priceEditorOpen).toBe(true);
      expect(journey(root, []).context.priceEditorOpen).toBe(true);
      // a common user never gets one
      expect(journey(common, [select('operation')]).context.priceEditorOpen).toBe(false);
      const lost = journey(onSystem, [loaded, select('operation'), commonRole]);
      expect(lost.context.priceEditorOpen).toBe(false);
      expect(selectPriceEditor(lost)).toBeUndefined();
    });
    it('a failed load can be retried; tabs still change meanwhile', () => {
      const s = journey(root, [loadFailed, select('other')]);
      expect(s.value).toBe('failed');
      expect(selectTab(s)).toBe('other');
      expect(journey(root, [loadFailed, { type: 'options.retry' }, loaded]).value).toBe('ready');
    });
    it('valuesOf keeps every section key', () => {
      expect(Object.keys(valuesOf([]))).toContain('EmailDomainWhitelist');
      expect(settingsPathOf('personal')).toBe('/setting');
      expect(settingsPathOf('system')).toBe('/setting?tab=system');
    });
  });

  describe('replay on a real actor with stub actors', () => {
    // the role arrives as the path's own `session.changed` events: the watcher stub stays silent
    /** The price editor child: its options never arrive (its own model test covers it). */
    const quietEditor = priceEditorMachine.provide({
      actors: {
        listOptions: fromPromise<OptionEntry[]>(() => new Promise<OptionEntry[]>(() => undefined)),
        saveOption: fromPromise<void, SavePriceOptionInput>(() => new Promise<void>(() => undefined)),
      },
    });
    const silentWatch = optionSettingsMachine.provide({ actors: { followSession: fromCallback(() => undefined), priceEditor: quietEditor } });
    async function replayPath(input: OptionSettingsInput, events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      const listOptions = controlled<OptionEntry[], unknown>();
      const saveOption = controlled<void, SaveOptionInput>();
      const stubs = { listOptions, saveOption };
      return { ...(await replayOn({ machine: silentWatch, input, stubs }, events, check)), ...stubs };
    }
    /** A visit: the session first reports the visitor's role, then `events`. */
    const replay = (who: Visitor, events: readonly AnyEventObject[]) => replayPath(who.input, [who.role, ...events]);

    const replayable = realShortest(rootModel)
      .filter((p) => p.steps.length > 1)
      .map((p) => [describePath(p), p] as const);

    it.each(replayable)('%s', async (_, p) => {
      await replayPath(
        root.input,
        p.steps.map((s) => s.event),
        (i, s) => {
          // the search kept one snapshot per coarse state: compare what the page shows
          expect(s.value).toEqual(p.steps[i]!.state.value);
          expect(coarse(s)).toBe(coarse(p.steps[i]!.state));
        },
      );
    });

    it('sends only the changed keys, in order, says 操作成功完成！ and reloads the status', async () => {
      const { emitted, saveOption } = await replay(root, [
        loaded,
        change('TopUpLink', 'https://pay.example.com'),
        change('RetryTimes', '2'),
        save('general'),
        saved,
        saved,
      ]);
      expect(saveOption.calls).toEqual([
        { key: 'TopUpLink', value: 'https://pay.example.com' },
        { key: 'RetryTimes', value: '2' },
      ]);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'common.success' } }, { type: 'status.reload' }]);
    });
    it('an option the status does not show saves without a status reload', async () => {
      const { emitted } = await replay(root, [loaded, change('RetryTimes', '3'), save('general'), saved]);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'common.success' } }]);
    });
    it("a refusal says the server's message; a stored status key still reloads the status", async () => {
      const { emitted, saveOption } = await replay(root, [loaded, change('TopUpLink', 'x'), change('RetryTimes', '2'), save('general'), saved, refused]);
      expect(saveOption.calls).toHaveLength(2);
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { text: '无效的主题' } }, { type: 'status.reload' }]);
    });
    it('invalid ratio JSON says 模型倍率不是合法的 JSON 字符串 and sends nothing', async () => {
      const { emitted, saveOption } = await replay(root, [loaded, change('ModelRatio', 'nope'), save('ratio')]);
      expect(saveOption.calls).toEqual([]);
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { key: 'validation.ratio.model' } }]);
    });
    it('an out-of-range number (RetryTimes -3, ChannelDisableThreshold 0) is refused by name and sends nothing', async () => {
      const retry = await replay(root, [loaded, change('RetryTimes', '-3'), save('general')]);
      expect(retry.saveOption.calls).toEqual([]);
      expect(retry.emitted).toEqual([
        { type: 'notify', level: 'error', message: { key: 'number.range', params: { min: 0, max: 10, field: 'settings.option.RetryTimes' } } },
      ]);
      const threshold = await replay(root, [loaded, change('ChannelDisableThreshold', '0'), save('monitor')]);
      expect(threshold.saveOption.calls).toEqual([]);
      expect(threshold.emitted).toEqual([
        {
          type: 'notify',
          level: 'error',
          message: { key: 'number.positiveRange', params: { min: 0, max: 86_400, field: 'settings.option.ChannelDisableThreshold' } },
        },
      ]);
    });
    it('a tab change rewrites the address (?tab=)', async () => {
      const { emitted } = await replay(root, [loaded, select('system'), select('personal')]);
      expect(emitted).toEqual([
        { type: 'navigate', to: '/setting?tab=system', replace: true },
        { type: 'navigate', to: '/setting', replace: true },
      ]);
    });
    it('PasswordLoginEnabled off: confirmed, sent as false', async () => {
      const { saveOption } = await replay(root, [loaded, toggle('PasswordLoginEnabled'), { type: 'confirm.accept' }, saved]);
      expect(saveOption.calls).toEqual([{ key: 'PasswordLoginEnabled', value: 'false' }]);
    });
    it('losing root on an option tab rewrites the address to the personal tab', async () => {
      const { emitted } = await replay(root, [loaded, commonRole]);
      expect(emitted).toEqual([{ type: 'navigate', to: '/setting', replace: true }]);
      const personal = await replay(root, [loaded, select('personal'), commonRole]);
      expect(personal.emitted).toEqual([{ type: 'navigate', to: '/setting', replace: true }]);
    });
    it('unsaved price edits survive a trip to other tabs; the editor loads once; its toasts leave the page', async () => {
      const editorLoads = { count: 0 };
      const editor = priceEditorMachine.provide({
        actors: {
          listOptions: fromPromise<OptionEntry[]>(() => {
            editorLoads.count += 1;
            return Promise.resolve(entries);
          }),
          saveOption: fromPromise<void, SavePriceOptionInput>(() => new Promise<void>(() => undefined)),
        },
      });
      const page = createActor(
        optionSettingsMachine.provide({
          actors: { followSession: fromCallback(() => undefined), listOptions: fromPromise(() => Promise.resolve(entries)), priceEditor: editor },
        }),
        { input: { session, tab: 'system' } },
      );
      const emitted: AnyEventObject[] = [];
      page.on('*', (e) => void emitted.push(e));
      page.start();
      page.send(rootRole);
      await new Promise((r) => setTimeout(r, 0));
      page.send({ type: 'tab.select', tab: 'operation' });
      await new Promise((r) => setTimeout(r, 0));
      const child = selectPriceEditor(page.getSnapshot())!;
      const row = child.getSnapshot().context.models.find((m) => m.name === 'gpt-4')!;
      child.send({ type: 'price.change', id: row.id, field: 'input', value: '99' });
      expect(selectHasChanges(child.getSnapshot())).toBe(true);
      page.send({ type: 'tab.select', tab: 'system' });
      page.send({ type: 'tab.select', tab: 'personal' });
      page.send({ type: 'tab.select', tab: 'operation' });
      expect(selectPriceEditor(page.getSnapshot())).toBe(child);
      expect(selectHasChanges(child.getSnapshot())).toBe(true);
      expect(child.getSnapshot().context.models.find((m) => m.id === row.id)?.input).toBe('99');
      expect(editorLoads.count).toBe(1);
      // a refused save of the editor toasts through the page
      child.send({ type: 'price.change', id: row.id, field: 'input', value: '-1' });
      child.send({ type: 'prices.save' });
      expect(emitted.filter((e) => e.type === 'notify')).toHaveLength(1);
      page.stop();
    });
    it('a common user never lists the options', async () => {
      const { listOptions } = await replay(common, [select('operation')]);
      expect(listOptions.calls).toEqual([]);
    });
    it('every key it emits is in the catalogue', async () => {
      const runs = await Promise.all([
        replay(root, [loadFailed]),
        replay(root, [loaded, change('GroupRatio', 'x'), save('ratio')]),
        replay(root, [loaded, change('CompletionRatio', 'x'), save('ratio')]),
        replay(root, [loaded, toggle('LogConsumeEnabled'), saved]),
      ]);
      for (const { emitted } of runs)
        for (const e of emitted) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });
});

describe('followSession: the session reports the role, now and on every change', () => {
  const user = (role: number): User => ({ id: 1, username: 'u', display_name: '', role, status: 1 });
  /** A stand-in session actor: its snapshot's user, and its subscribers. */
  function fakeSession(first: User | null) {
    let snapshot = { context: { user: first } };
    const listeners = new Set<() => void>();
    const ref = {
      getSnapshot: () => snapshot,
      subscribe: (fn: () => void) => {
        listeners.add(fn);
        return { unsubscribe: () => void listeners.delete(fn) };
      },
    };
    const setUser = (u: User | null) => {
      snapshot = { context: { user: u } };
      for (const fn of listeners) fn();
    };
    return { ref: ref as unknown as AnyActorRef, setUser, listeners };
  }

  it('reports at once, then only changes of the role; stops listening when stopped', () => {
    const session = fakeSession(user(100));
    const seen: boolean[] = [];
    const actor = createActor(
      optionSettingsMachine.provide({ actors: { listOptions: fromCallback(() => undefined) as never } }),
      { input: { session: session.ref, tab: 'system' } },
    );
    actor.subscribe((s) => void seen.push(s.context.isRoot));
    actor.start();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(selectTab(actor.getSnapshot())).toBe('system');
    // a new record of the same root (another fact changed, not the role): the load goes on
    const loading = actor.getSnapshot();
    session.setUser(user(100));
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().children['listOptions']).toBe(loading.children['listOptions']);
    session.setUser(user(1));
    expect(actor.getSnapshot().value).toBe('personalOnly');
    expect(selectTab(actor.getSnapshot())).toBe('personal');
    session.setUser(null);
    expect(actor.getSnapshot().value).toBe('personalOnly');
    actor.stop();
    expect(session.listeners.size).toBe(0);
  });

  it('is the shared session watcher of the page machines', () => {
    expect(optionSettingsMachine.implementations.actors['followSession']).toBe(followSession);
  });
});
