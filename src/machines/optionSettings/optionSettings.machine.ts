import { assign, emit, enqueueActions, fromPromise, setup, stopChild } from 'xstate';
import { describeError } from '../../domain/apiError';
import { msg, navigate, notify, reloadStatus, type Message, type NavigateEvent, type NotifyEvent, type StatusReloadEvent } from '../../domain/message';
import { optionValueProblem } from '../../domain/numberRules';
import type { OptionEntry } from '../../domain/option';
import {
  affectsStatus,
  editableValueOf,
  fieldOf,
  isOptionTab,
  keysOfTab,
  optionFields,
  savedKeysOf,
  sectionOf,
  sectionOfKey,
  whitelistEntries,
  whitelistValue,
  type SectionId,
  type SettingsTab,
} from '../../domain/optionSections';
import {
  addWhitelistDomain,
  changedOptions,
  normaliseServerAddress,
  toggledOptionValue,
  toggleNeedsConfirmation,
  validateRatioJson,
  type RatioKey,
} from '../../domain/validation';
import { relayEmitted } from '../pageRelay';
import { priceEditorMachine } from '../priceEditor';
import { followSession, type SessionChanged, type SessionRef } from '../sessionWatch';

export interface OptionSettingsInput {
  /**
   * The app's session actor: its user's role reaches the page as `session.changed` (followSession), now
   * and whenever it changes. Root sees the option tabs; everyone else only the personal tab (spec §6).
   */
  readonly session: SessionRef;
  /** The tab asked for (the page's `?tab=`); a root-only tab is refused for others. */
  readonly tab: SettingsTab;
}

/** One PUT /api/option/. */
export interface SaveOptionInput {
  readonly key: string;
  readonly value: string;
}

export type OptionValues = Readonly<Record<string, string>>;

export interface OptionSettingsContext {
  /** The session watched for the role (followSession). */
  readonly session: SessionRef;
  /** The role as last reported (false until the first `session.changed`). */
  readonly isRoot: boolean;
  readonly tab: SettingsTab;
  /** The tab asked for while the current one has unsaved changes (confirmingLeave). */
  readonly pendingTab: SettingsTab | null;
  /** The values as the server has them (every key of the page; missing ones as ''). */
  readonly baseline: OptionValues;
  /** The values as edited (booleans always equal the baseline: they save at once). */
  readonly drafts: OptionValues;
  /** The values still to send, in order (saving), and the section they belong to. */
  readonly queue: readonly (readonly [string, string])[];
  readonly savingSection: SectionId | null;
  /** The keys this save has stored so far. */
  readonly savedKeys: readonly string[];
  /** The switch waiting for confirmation (confirmingToggle). */
  readonly toggleKey: string | null;
  /** The rule each field broke at the last save (shown at the field until it changes). */
  readonly problems: Readonly<Record<string, Message>>;
  /** The whitelist entry being typed. */
  readonly whitelistEntry: string;
  /**
   * The ratio section's price editor runs (child `priceEditor`, started when root first opens the
   * operation tab): its unsaved edits outlive the tab panel for as long as the page lives.
   */
  readonly priceEditorOpen: boolean;
}

export type OptionSettingsEvent =
  | SessionChanged
  /** A toast of the price editor (relayed: it leaves the page as the page's own). */
  | NotifyEvent
  | { readonly type: 'tab.select'; readonly tab: SettingsTab }
  | { readonly type: 'options.retry' }
  | { readonly type: 'field.change'; readonly key: string; readonly value: string }
  | { readonly type: 'section.save'; readonly section: SectionId }
  | { readonly type: 'option.toggle'; readonly key: string }
  | { readonly type: 'confirm.accept' }
  | { readonly type: 'confirm.cancel' }
  | { readonly type: 'leave.accept' }
  | { readonly type: 'leave.cancel' }
  | { readonly type: 'whitelist.input'; readonly value: string }
  | { readonly type: 'whitelist.add' }
  | { readonly type: 'whitelist.remove'; readonly domain: string };

export type OptionSettingsEmitted = NotifyEvent | NavigateEvent | StatusReloadEvent;

const ratioKeys: readonly RatioKey[] = ['ModelRatio', 'CompletionRatio', 'GroupRatio'];
const whitelistKey = 'EmailDomainWhitelist';

/** The address of a tab (the personal tab is the page itself). */
export const settingsPathOf = (tab: SettingsTab): string => (tab === 'personal' ? '/setting' : `/setting?tab=${tab}`);

/** The tab a person may open: root any, others only the personal tab. */
export const canOpenTab = (isRoot: boolean, tab: SettingsTab): boolean => isRoot || !isOptionTab(tab);

/**
 * The page's values from the option list: every key a section shows, '' when the server has none;
 * JSON options pretty-printed (two spaces) for the text areas.
 */
export function valuesOf(entries: readonly OptionEntry[]): OptionValues {
  const values: Record<string, string> = Object.fromEntries(optionFields.map((f) => [f.key, '']));
  for (const { key, value } of entries) if (key in values) values[key] = editableValueOf(key, value);
  return values;
}

/** A key's draft as it would be sent (the server address normalised). */
const sendable = (key: string, value: string): string => (key === 'ServerAddress' ? normaliseServerAddress(value) : value);

const pick = (values: OptionValues, keys: readonly string[]): Record<string, string> =>
  Object.fromEntries(keys.map((k) => [k, sendable(k, values[k] ?? '')]));

/** What saving a section sends: its changed values, in field order (empty secrets left out). */
export const sectionChanges = (context: Pick<OptionSettingsContext, 'baseline' | 'drafts'>, id: SectionId) => {
  const keys = savedKeysOf(sectionOf(id));
  return changedOptions(pick(context.baseline, keys), pick(context.drafts, keys));
};

/** The unsaved values of a tab (what leaving it would discard). */
export const tabChanges = (context: Pick<OptionSettingsContext, 'baseline' | 'drafts'>, tab: SettingsTab) => {
  const keys = keysOfTab(tab);
  return changedOptions(pick(context.baseline, keys), pick(context.drafts, keys));
};

/**
 * The rules the section's drafts break, by key: a ratio table must be valid JSON (spec §5), an
 * object of non-negative numbers; a changed numeric option must be in its range (numberRules).
 */
export function ratioProblems(context: Pick<OptionSettingsContext, 'drafts' | 'baseline'>, id: SectionId): Readonly<Record<string, Message>> {
  const problems: Record<string, Message> = {};
  if (id === 'ratio') {
    for (const key of ratioKeys) {
      const verdict = validateRatioJson(key, context.drafts[key] ?? '');
      if (!verdict.ok && verdict.message !== null) problems[key] = verdict.message;
    }
  }
  for (const [key, value] of sectionChanges(context, id)) {
    if (problems[key] !== undefined) continue;
    const problem = optionValueProblem(key, value);
    if (problem !== null) problems[key] = problem;
  }
  return problems;
}

const isBoolean = (key: string): boolean => fieldOf(key)?.kind === 'boolean';
const emptyContext = (input: OptionSettingsInput): OptionSettingsContext => ({
  session: input.session,
  isRoot: false,
  tab: input.tab,
  pendingTab: null,
  baseline: {},
  drafts: {},
  queue: [],
  savingSection: null,
  savedKeys: [],
  toggleKey: null,
  problems: {},
  whitelistEntry: '',
  priceEditorOpen: false,
});

/**
 * The settings page (/setting, spec §2 "Settings", §4, §5, §6). Everyone has the personal tab;
 * root also the operation, system and other tabs, whose options load once (GET /api/option/,
 * root only; a failure offers a retry). Fields edit drafts; a section's save button sends only
 * that section's changed values, one PUT per key in order (empty secrets are not re-sent, the
 * server address is normalised, the ratio JSON is checked first and nothing is sent when it is
 * invalid); each saved value becomes the new baseline, so a failure part-way keeps the keys
 * already stored and says the server's message. Switches flip and save at once as 'true' /
 * 'false'; turning PasswordLoginEnabled off asks first. Leaving a tab with unsaved changes asks
 * first (leave.accept discards them). Saving an option the status reflects emits
 * `status.reload`; a tab change emits `navigate` to the tab's address (`?tab=`).
 *
 * The role comes from the session as `session.changed` (followSession, for as long as the page lives):
 * the page waits for the first report, then root loads the options. Becoming root loads them;
 * losing root drops any save or confirmation and leaves an option tab for the personal one.
 *
 * The ratio section is the price editor (its own machine), a child of the page: started the first
 * time root opens the operation tab, it keeps its unsaved edits while other tabs show (the page
 * does not warn before it is left: neither for the other sections); losing root stops it. Its
 * toasts leave the page as the page's own.
 */
export const optionSettingsMachine = setup({
  types: {
    context: {} as OptionSettingsContext,
    events: {} as OptionSettingsEvent,
    emitted: {} as OptionSettingsEmitted,
    input: {} as OptionSettingsInput,
    tags: {} as 'busy' | 'loading',
    children: {} as {
      listOptions: 'listOptions';
      saveOption: 'saveOption';
      followSession: 'followSession';
      priceEditor: 'priceEditor';
      relayPriceEditor: 'relayEmitted';
    },
  },
  actors: {
    listOptions: fromPromise<OptionEntry[]>(() => {
      throw new Error('listOptions not provided');
    }),
    saveOption: fromPromise<void, SaveOptionInput>(() => {
      throw new Error('saveOption not provided');
    }),
    followSession,
    priceEditor: priceEditorMachine,
    relayEmitted,
  },
  guards: {
    isRoot: ({ context }) => context.isRoot,
    becomesRoot: ({ context }, params: { isRoot: boolean }) => params.isRoot && !context.isRoot,
    losesRoot: ({ context }, params: { isRoot: boolean }) => !params.isRoot && context.isRoot,
    canOpenTab: ({ context }, params: { tab: SettingsTab }) => canOpenTab(context.isRoot, params.tab) && params.tab !== context.tab,
    hasUnsavedTab: ({ context }) => tabChanges(context, context.tab).length > 0,
    hasRatioProblems: ({ context }, params: { section: SectionId }) => Object.keys(ratioProblems(context, params.section)).length > 0,
    hasSectionChanges: ({ context }, params: { section: SectionId }) => sectionChanges(context, params.section).length > 0,
    isBooleanOption: (_, params: { key: string }) => isBoolean(params.key),
    needsConfirmation: ({ context }, params: { key: string }) => toggleNeedsConfirmation(params.key, context.baseline[params.key] ?? ''),
    isEditable: (_, params: { key: string }) => fieldOf(params.key) !== undefined && !isBoolean(params.key),
    hasMoreQueued: ({ context }) => context.queue.length > 1,
    canAddWhitelistEntry: ({ context }) => addWhitelistDomain(whitelistEntries(context.drafts[whitelistKey] ?? ''), context.whitelistEntry).ok,
  },
  actions: {
    setRole: assign({ isRoot: (_, params: { isRoot: boolean }) => params.isRoot }),
    /** Not root: the personal tab (an asked-for option tab is refused at once, silently). */
    keepPersonalTab: assign({ tab: 'personal' as SettingsTab }),
    /** The role no longer allows the shown tab: the personal tab, and the address follows. */
    leaveHiddenTab: enqueueActions(({ context, enqueue }) => {
      if (canOpenTab(context.isRoot, context.tab)) return;
      enqueue.assign({ tab: 'personal' });
      enqueue.emit(navigate(settingsPathOf('personal'), true));
    }),
    selectTab: assign({ tab: (_, params: { tab: SettingsTab }) => params.tab, pendingTab: null }),
    announceTab: emit(({ context }) => navigate(settingsPathOf(context.tab), true)),
    /** Root on the operation tab: the price editor starts, once (then it lives with the page). */
    openPriceEditor: enqueueActions(({ context, enqueue }) => {
      if (!context.isRoot || context.tab !== 'operation' || context.priceEditorOpen) return;
      enqueue.spawnChild('priceEditor', { id: 'priceEditor', systemId: 'priceEditor' });
      enqueue.spawnChild('relayEmitted', { id: 'relayPriceEditor', input: { systemIds: ['priceEditor'] } });
      enqueue.assign({ priceEditorOpen: true });
    }),
    /** Root lost: the price editor (and its edits) go. */
    closePriceEditor: enqueueActions(({ context, enqueue }) => {
      if (!context.priceEditorOpen) return;
      enqueue(stopChild('relayPriceEditor'));
      enqueue(stopChild('priceEditor'));
      enqueue.assign({ priceEditorOpen: false });
    }),
    relayNotify: emit((_, params: NotifyEvent) => params),
    holdTab: assign({ pendingTab: (_, params: { tab: SettingsTab }) => params.tab }),
    dropPendingTab: assign({ pendingTab: null }),
    discardTabDrafts: assign(({ context }) => {
      const keys = keysOfTab(context.tab);
      const drafts = { ...context.drafts };
      const problems = { ...context.problems };
      for (const k of keys) {
        drafts[k] = context.baseline[k] ?? '';
        delete problems[k];
      }
      return { drafts, problems, whitelistEntry: context.tab === 'system' ? '' : context.whitelistEntry };
    }),
    takeOptions: assign((_, params: { entries: readonly OptionEntry[] }) => {
      const values = valuesOf(params.entries);
      return { baseline: values, drafts: values, problems: {} };
    }),
    setDraft: assign(({ context }, params: { key: string; value: string }) => {
      const problems = { ...context.problems };
      delete problems[params.key];
      return { drafts: { ...context.drafts, [params.key]: params.value }, problems };
    }),
    markRatioProblems: assign({ problems: ({ context }, params: { section: SectionId }) => ({ ...context.problems, ...ratioProblems(context, params.section) }) }),
    notifyRatioProblem: emit(({ context }, params: { section: SectionId }) => {
      const first = Object.values(ratioProblems(context, params.section))[0] ?? msg('validation.ratio.model');
      return notify('error', first);
    }),
    queueSection: assign(({ context }, params: { section: SectionId }) => ({
      queue: sectionChanges(context, params.section),
      savingSection: params.section,
      savedKeys: [],
    })),
    queueToggle: assign(({ context }, params: { key: string }) => ({
      queue: [[params.key, toggledOptionValue(context.baseline[params.key] ?? '')] as const],
      savingSection: sectionOfKey(params.key)?.id ?? null,
      savedKeys: [],
      toggleKey: null,
    })),
    holdToggle: assign({ toggleKey: (_, params: { key: string }) => params.key }),
    dropToggle: assign({ toggleKey: null }),
    /** The first queued value is stored: it becomes the baseline (and the draft) of its key. */
    commitFirst: assign(({ context }) => {
      const [first, ...rest] = context.queue;
      if (first === undefined) return {};
      const [key, value] = first;
      return {
        baseline: { ...context.baseline, [key]: value },
        drafts: { ...context.drafts, [key]: value },
        queue: rest,
        savedKeys: [...context.savedKeys, key],
      };
    }),
    endSave: assign({ queue: [], savingSection: null, savedKeys: [] }),
    notifySaved: emit(() => notify('success', msg('common.success'))),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
    reloadStatusIfNeeded: enqueueActions(({ context, enqueue }) => {
      if (affectsStatus(context.savedKeys)) enqueue.emit(reloadStatus());
    }),
    setWhitelistEntry: assign({ whitelistEntry: (_, params: { value: string }) => params.value }),
    addWhitelistEntry: assign(({ context }) => {
      const result = addWhitelistDomain(whitelistEntries(context.drafts[whitelistKey] ?? ''), context.whitelistEntry);
      if (!result.ok) return {};
      return { drafts: { ...context.drafts, [whitelistKey]: whitelistValue(result.list) }, whitelistEntry: '' };
    }),
    removeWhitelistEntry: assign({
      drafts: ({ context }, params: { domain: string }) => ({
        ...context.drafts,
        [whitelistKey]: whitelistValue(whitelistEntries(context.drafts[whitelistKey] ?? '').filter((d) => d !== params.domain)),
      }),
    }),
  },
}).createMachine({
  id: 'optionSettings',
  context: ({ input }) => emptyContext(input),
  invoke: { id: 'followSession', src: 'followSession', input: ({ context }) => ({ session: context.session }) },
  on: {
    'session.changed': [
      {
        guard: { type: 'becomesRoot', params: ({ event }) => ({ isRoot: event.facts.root }) },
        target: '.loading',
        actions: { type: 'setRole', params: ({ event }) => ({ isRoot: event.facts.root }) },
      },
      {
        guard: { type: 'losesRoot', params: ({ event }) => ({ isRoot: event.facts.root }) },
        target: '.personalOnly',
        actions: [
          { type: 'setRole', params: ({ event }) => ({ isRoot: event.facts.root }) },
          'endSave',
          'dropPendingTab',
          'dropToggle',
          'leaveHiddenTab',
          'closePriceEditor',
        ],
      },
    ],
    notify: { actions: { type: 'relayNotify', params: ({ event }) => event } },
  },
  initial: 'awaitingRole',
  states: {
    /** The session has not reported the role yet (it does as the page starts). */
    awaitingRole: {
      on: {
        'session.changed': { target: 'choosing', actions: { type: 'setRole', params: ({ event }) => ({ isRoot: event.facts.root }) } },
      },
    },
    /** Root loads the options; everyone else has only the personal tab. Never rests here. */
    choosing: {
      always: [{ guard: 'isRoot', target: 'loading' }, { target: 'personalOnly', actions: 'keepPersonalTab' }],
    },
    /** Not root: the personal tab alone (root-only tabs are refused). */
    personalOnly: {},
    loading: {
      tags: ['busy', 'loading'],
      entry: 'openPriceEditor',
      on: {
        'tab.select': {
          guard: { type: 'canOpenTab', params: ({ event }) => ({ tab: event.tab }) },
          actions: [{ type: 'selectTab', params: ({ event }) => ({ tab: event.tab }) }, 'announceTab', 'openPriceEditor'],
        },
      },
      invoke: {
        id: 'listOptions',
        src: 'listOptions',
        input: undefined,
        onDone: { target: 'ready', actions: { type: 'takeOptions', params: ({ event }) => ({ entries: event.output }) } },
        onError: { target: 'failed', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: {
        'options.retry': 'loading',
        'tab.select': {
          guard: { type: 'canOpenTab', params: ({ event }) => ({ tab: event.tab }) },
          actions: [{ type: 'selectTab', params: ({ event }) => ({ tab: event.tab }) }, 'announceTab', 'openPriceEditor'],
        },
      },
    },
    ready: {
      on: {
        'tab.select': {
          guard: { type: 'canOpenTab', params: ({ event }) => ({ tab: event.tab }) },
          target: 'checkingLeave',
          actions: { type: 'holdTab', params: ({ event }) => ({ tab: event.tab }) },
        },
        'field.change': {
          guard: { type: 'isEditable', params: ({ event }) => ({ key: event.key }) },
          actions: { type: 'setDraft', params: ({ event }) => ({ key: event.key, value: event.value }) },
        },
        'section.save': [
          {
            guard: { type: 'hasRatioProblems', params: ({ event }) => ({ section: event.section }) },
            actions: [
              { type: 'markRatioProblems', params: ({ event }) => ({ section: event.section }) },
              { type: 'notifyRatioProblem', params: ({ event }) => ({ section: event.section }) },
            ],
          },
          {
            guard: { type: 'hasSectionChanges', params: ({ event }) => ({ section: event.section }) },
            target: 'saving',
            actions: { type: 'queueSection', params: ({ event }) => ({ section: event.section }) },
          },
        ],
        'option.toggle': {
          guard: { type: 'isBooleanOption', params: ({ event }) => ({ key: event.key }) },
          target: 'checkingToggle',
          actions: { type: 'holdToggle', params: ({ event }) => ({ key: event.key }) },
        },
        'whitelist.input': { actions: { type: 'setWhitelistEntry', params: ({ event }) => ({ value: event.value }) } },
        'whitelist.add': { guard: 'canAddWhitelistEntry', actions: 'addWhitelistEntry' },
        'whitelist.remove': { actions: { type: 'removeWhitelistEntry', params: ({ event }) => ({ domain: event.domain }) } },
      },
    },
    /** Decides whether leaving the tab needs a confirmation. Never rests here. */
    checkingLeave: {
      always: [
        { guard: 'hasUnsavedTab', target: 'confirmingLeave' },
        {
          target: 'ready',
          actions: [{ type: 'selectTab', params: ({ context }) => ({ tab: context.pendingTab ?? context.tab }) }, 'announceTab', 'openPriceEditor'],
        },
      ],
    },
    /** The tab has unsaved changes: leave (discarding them) or stay. */
    confirmingLeave: {
      on: {
        'leave.accept': {
          target: 'ready',
          actions: ['discardTabDrafts', { type: 'selectTab', params: ({ context }) => ({ tab: context.pendingTab ?? context.tab }) }, 'announceTab', 'openPriceEditor'],
        },
        'leave.cancel': { target: 'ready', actions: 'dropPendingTab' },
      },
    },
    /** Decides whether the switch needs a confirmation. Never rests here. */
    checkingToggle: {
      always: [
        { guard: { type: 'needsConfirmation', params: ({ context }) => ({ key: context.toggleKey ?? '' }) }, target: 'confirmingToggle' },
        { target: 'saving', actions: { type: 'queueToggle', params: ({ context }) => ({ key: context.toggleKey ?? '' }) } },
      ],
    },
    /** Turning PasswordLoginEnabled off: accept saves 'false', cancel keeps it on. */
    confirmingToggle: {
      on: {
        'confirm.accept': {
          target: 'saving',
          actions: { type: 'queueToggle', params: ({ context }) => ({ key: context.toggleKey ?? '' }) },
        },
        'confirm.cancel': { target: 'ready', actions: 'dropToggle' },
      },
    },
    /** One PUT per queued key, in order; each stored value becomes the baseline. */
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveOption',
        src: 'saveOption',
        input: ({ context }): SaveOptionInput => {
          const [key, value] = context.queue[0] ?? ['', ''];
          return { key, value };
        },
        onDone: [
          { guard: 'hasMoreQueued', target: 'saving', reenter: true, actions: 'commitFirst' },
          { target: 'ready', actions: ['commitFirst', 'notifySaved', 'reloadStatusIfNeeded', 'endSave'] },
        ],
        onError: {
          target: 'ready',
          actions: [{ type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) }, 'reloadStatusIfNeeded', 'endSave'],
        },
      },
    },
  },
});
