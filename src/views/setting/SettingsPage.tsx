import { useSelector } from '@xstate/react';
import { useSearchParams } from 'react-router-dom';
import { isSettingsTab, type SectionId } from '../../domain/optionSections';
import {
  optionSettingsMachine,
  selectCanAddWhitelistEntry,
  selectChangedSections,
  selectConfirmingLeave,
  selectConfirmingToggle,
  selectDrafts,
  selectIsBusy,
  selectIsLoading,
  selectLoadFailed,
  selectProblems,
  selectSavingSection,
  selectTab,
  selectTabs,
  selectToggleLocksOut,
  selectWhitelistEntry,
} from '../../machines/optionSettings';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { LogCleanPanel } from './LogCleanPanel';
import { PersonalSettings } from './PersonalSettings';
import { PriceEditor } from './PriceEditor';
import { SettingsPageView } from './SettingsPageView';
import { UpdateCheck } from './UpdateCheck';

/** The `?tab=` of the address: the tab the page opens on (the machine refuses root-only tabs for others). */
export const settingsTabParam = 'tab';

/**
 * Route page for /setting (optionSettings machine): the tab comes from `?tab=` once, then the
 * machine keeps it and rewrites the address on every change. The machine watches the session
 * for the user's role (the tabs follow it while the page lives). The ratio section is the
 * price editor (the page machine's child: its edits outlive the tab).
 */
export function SettingsPage() {
  const session = SessionContext.useActorRef();
  const [params] = useSearchParams();
  const asked = params.get(settingsTabParam) ?? '';
  const actorRef = useMachineActor(optionSettingsMachine, { session, tab: isSettingsTab(asked) ? asked : 'personal' });
  const tabs = useSelector(actorRef, selectTabs);
  const tab = useSelector(actorRef, selectTab);
  const loading = useSelector(actorRef, selectIsLoading);
  const loadFailed = useSelector(actorRef, selectLoadFailed);
  const busy = useSelector(actorRef, selectIsBusy);
  const values = useSelector(actorRef, selectDrafts);
  const problems = useSelector(actorRef, selectProblems);
  const savingSection = useSelector(actorRef, selectSavingSection);
  const changed = useSelector(actorRef, selectChangedSections);
  const whitelistEntry = useSelector(actorRef, selectWhitelistEntry);
  const canAddWhitelistEntry = useSelector(actorRef, selectCanAddWhitelistEntry);
  const confirmingToggle = useSelector(actorRef, selectConfirmingToggle);
  const confirmingLeave = useSelector(actorRef, selectConfirmingLeave);
  const toggleLocksOut = useSelector(actorRef, selectToggleLocksOut);
  return (
    <SettingsPageView
      tabs={tabs}
      tab={tab}
      loading={loading}
      loadFailed={loadFailed}
      busy={busy}
      values={values}
      problems={problems}
      savingSection={savingSection}
      changedSections={changed === '' ? [] : (changed.split(',') as SectionId[])}
      whitelistEntry={whitelistEntry}
      canAddWhitelistEntry={canAddWhitelistEntry}
      confirmingToggle={confirmingToggle}
      toggleLocksOut={toggleLocksOut}
      confirmingLeave={confirmingLeave}
      personal={<PersonalSettings />}
      logClean={<LogCleanPanel />}
      priceEditor={<PriceEditor page={actorRef} />}
      updateCheck={<UpdateCheck />}
      onTabSelect={(next) => actorRef.send({ type: 'tab.select', tab: next })}
      onRetry={() => actorRef.send({ type: 'options.retry' })}
      onChange={(key, value) => actorRef.send({ type: 'field.change', key, value })}
      onToggle={(key) => actorRef.send({ type: 'option.toggle', key })}
      onSave={(section) => actorRef.send({ type: 'section.save', section })}
      onWhitelistInput={(value) => actorRef.send({ type: 'whitelist.input', value })}
      onWhitelistAdd={() => actorRef.send({ type: 'whitelist.add' })}
      onWhitelistRemove={(domain) => actorRef.send({ type: 'whitelist.remove', domain })}
      onConfirmToggle={() => actorRef.send({ type: 'confirm.accept' })}
      onCancelToggle={() => actorRef.send({ type: 'confirm.cancel' })}
      onLeave={() => actorRef.send({ type: 'leave.accept' })}
      onStay={() => actorRef.send({ type: 'leave.cancel' })}
    />
  );
}
