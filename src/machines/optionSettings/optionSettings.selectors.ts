import type { SnapshotFrom } from 'xstate';
import { passwordOffLocksOut } from '../../domain/loginMethods';
import type { Message } from '../../domain/message';
import { optionSections, settingsTabs, type SectionId, type SettingsTab } from '../../domain/optionSections';
import { sectionChanges, tabChanges, type OptionValues, type optionSettingsMachine } from './optionSettings.machine';

type Snapshot = SnapshotFrom<typeof optionSettingsMachine>;

/** The ratio section's price editor (the page's child), or undefined before root first opens the operation tab. */
export const selectPriceEditor = (s: Snapshot) => s.children.priceEditor;

const personalOnly: readonly SettingsTab[] = ['personal'];

/** The tab shown. */
export const selectTab = (s: Snapshot): SettingsTab => s.context.tab;
/** The tabs offered: all four for root, the personal tab alone otherwise (spec §6). */
export const selectTabs = (s: Snapshot): readonly SettingsTab[] => (s.context.isRoot ? settingsTabs : personalOnly);
/** The options are loading: a progress line instead of the option tabs. */
export const selectIsLoading = (s: Snapshot): boolean => s.hasTag('loading');
/** The options could not be loaded: the retry button. */
export const selectLoadFailed = (s: Snapshot): boolean => s.matches('failed');
/** A call runs: inputs, switches and buttons are disabled. */
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy');
/** The values as edited (every key a section shows). */
export const selectDrafts = (s: Snapshot): OptionValues => s.context.drafts;
/** The rule each field broke at the last save. */
export const selectProblems = (s: Snapshot): Readonly<Record<string, Message>> => s.context.problems;
/** The section whose save (or switch) is running: its button spins. */
export const selectSavingSection = (s: Snapshot): SectionId | null => (s.matches('saving') ? s.context.savingSection : null);
/** The switch whose change waits for confirmation (PasswordLoginEnabled off). */
export const selectConfirmingToggle = (s: Snapshot): string | null => (s.matches('confirmingToggle') ? s.context.toggleKey : null);
/**
 * The switch waiting for confirmation is PasswordLoginEnabled and no other sign-in method is
 * enabled in the stored options: turning it off would lock everyone out (the dialog says so).
 */
export const selectToggleLocksOut = (s: Snapshot): boolean =>
  selectConfirmingToggle(s) === 'PasswordLoginEnabled' && passwordOffLocksOut(s.context.baseline);
/** The tab asked for while the current one has unsaved changes. */
export const selectConfirmingLeave = (s: Snapshot): SettingsTab | null => (s.matches('confirmingLeave') ? s.context.pendingTab : null);
/** The whitelist entry being typed. */
export const selectWhitelistEntry = (s: Snapshot): string => s.context.whitelistEntry;
/** The whitelist entry can be added (trimmed, non-empty, not present). */
export const selectCanAddWhitelistEntry = (s: Snapshot): boolean => s.can({ type: 'whitelist.add' });
/** The sections with unsaved changes, in page order, as one comparable string ("general,ratio"). */
export const selectChangedSections = (s: Snapshot): string =>
  optionSections
    .filter((section) => sectionChanges(s.context, section.id).length > 0)
    .map((section) => section.id)
    .join(',');
/** The shown tab has unsaved changes. */
export const selectTabHasChanges = (s: Snapshot): boolean => tabChanges(s.context, s.context.tab).length > 0;
