import type { ReactNode } from 'react';
import { Alert, Box, Button, Flex, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { Tabs } from '../app/laterComponents';
import type { Message } from '../../domain/message';
import { sectionsOfTab, type OptionTab, type SectionId, type SettingsTab } from '../../domain/optionSections';
import { ConfirmDialogView } from '../table/ConfirmDialogView';
import { useT } from '../app/i18n';
import { OptionSectionView } from './OptionSectionView';

export interface SettingsPageViewProps {
  /** The tabs offered (root: all four; others: personal only). */
  readonly tabs: readonly SettingsTab[];
  readonly tab: SettingsTab;
  readonly loading: boolean;
  readonly loadFailed: boolean;
  /** A call runs: inputs, switches and buttons are disabled. */
  readonly busy: boolean;
  /** The option values as edited. */
  readonly values: Readonly<Record<string, string>>;
  readonly problems: Readonly<Record<string, Message>>;
  readonly savingSection: SectionId | null;
  /** The sections with unsaved changes. */
  readonly changedSections: readonly SectionId[];
  readonly whitelistEntry: string;
  readonly canAddWhitelistEntry: boolean;
  /** The switch waiting for confirmation (PasswordLoginEnabled off), or null. */
  readonly confirmingToggle: string | null;
  /** Turning the confirmed switch off leaves no way to sign in (no other login method enabled). */
  readonly toggleLocksOut?: boolean;
  /** The tab asked for while the current one has unsaved changes, or null. */
  readonly confirmingLeave: SettingsTab | null;
  /** The personal tab's content. */
  readonly personal?: ReactNode;
  /** The clear-history-logs panel at the top of the operation tab. */
  readonly logClean?: ReactNode;
  /** The check-for-updates button of the other tab. */
  readonly updateCheck?: ReactNode;
  /** The ratio section: the price editor (its own machine). */
  readonly priceEditor: ReactNode;
  readonly onTabSelect: (tab: SettingsTab) => void;
  readonly onRetry: () => void;
  readonly onChange: (key: string, value: string) => void;
  readonly onToggle: (key: string) => void;
  readonly onSave: (section: SectionId) => void;
  readonly onWhitelistInput: (value: string) => void;
  readonly onWhitelistAdd: () => void;
  readonly onWhitelistRemove: (domain: string) => void;
  readonly onConfirmToggle: () => void;
  readonly onCancelToggle: () => void;
  readonly onLeave: () => void;
  readonly onStay: () => void;
}

/**
 * The settings page (spec §2 "Settings"): tabs for personal, operation, system and other
 * settings (the last three for root only). The option tabs are their sections, each with its
 * own save button; the operation tab starts with the log clean-up, the ratio section is
 * the price editor, the other tab ends with the update check.
 */
export function SettingsPageView(props: SettingsPageViewProps) {
  const { tabs, tab, loading, loadFailed, confirmingToggle, confirmingLeave } = props;
  // The switches that ask first: PasswordLoginEnabled off, TwoFactorRequiredForAdmins on (its own wording).
  const twoFactorToggle = confirmingToggle === 'TwoFactorRequiredForAdmins';
  const t = useT();
  const optionTab = (id: OptionTab) => {
    if (loading)
      return (
        <Flex align="center" gap={3} role="status" aria-live="polite" py={4}>
          <Spinner size="sm" />
          <Text>{t('settings.loading')}</Text>
        </Flex>
      );
    if (loadFailed)
      return (
        <Stack gap={4} py={2}>
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>{t('settings.loadFailed')}</Alert.Title>
          </Alert.Root>
          <Box>
            <Button variant="outline" onClick={props.onRetry}>
              {t('settings.retry')}
            </Button>
          </Box>
        </Stack>
      );
    return (
      <Stack gap={4}>
        {id === 'operation' && props.logClean}
        {sectionsOfTab(id).map((section) =>
          section.id === 'ratio' ? (
            <Box key={section.id} minW={0}>
              {props.priceEditor}
            </Box>
          ) : (
          <OptionSectionView
            key={section.id}
            section={section}
            values={props.values}
            problems={props.problems}
            busy={props.busy}
            saving={props.savingSection === section.id}
            changed={props.changedSections.includes(section.id)}
            whitelistEntry={props.whitelistEntry}
            canAddWhitelistEntry={props.canAddWhitelistEntry}
            onChange={props.onChange}
            onToggle={props.onToggle}
            onSave={() => props.onSave(section.id)}
            onWhitelistInput={props.onWhitelistInput}
            onWhitelistAdd={props.onWhitelistAdd}
            onWhitelistRemove={props.onWhitelistRemove}
          />
          ),
        )}
        {id === 'other' && props.updateCheck}
      </Stack>
    );
  };

  return (
    <Box maxW="6xl" mx="auto" px={{ base: 3, md: 6 }} py={{ base: 4, md: 8 }}>
      <Heading as="h1" size="xl" mb={4}>
        {t('settings.title')}
      </Heading>
      <Tabs.Root
        value={tab}
        onValueChange={(d) => props.onTabSelect(d.value as SettingsTab)}
        lazyMount
        unmountOnExit
        variant="line"
        size="sm"
      >
        <Tabs.List aria-label={t('settings.tabs')} overflowX="auto" overflowY="hidden">
          {tabs.map((id) => (
            <Tabs.Trigger key={id} value={id} flexShrink={0}>
              {t(`settings.tab.${id}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {tabs.map((id) => (
          <Tabs.Content key={id} value={id} pt={4}>
            {id === 'personal' ? props.personal : optionTab(id)}
          </Tabs.Content>
        ))}
      </Tabs.Root>
      <ConfirmDialogView
        open={confirmingToggle !== null}
        title={t(twoFactorToggle ? 'settings.confirmToggle.twoFactor.title' : 'settings.confirmToggle.title')}
        body={t(twoFactorToggle ? 'settings.confirmToggle.twoFactor.body' : 'settings.confirmToggle.body')}
        warning={props.toggleLocksOut === true ? t('settings.confirmToggle.lockout') : null}
        confirmLabel={t(twoFactorToggle ? 'settings.confirmToggle.twoFactor.accept' : 'settings.confirmToggle.accept')}
        danger
        onConfirm={props.onConfirmToggle}
        onCancel={props.onCancelToggle}
      />
      <ConfirmDialogView
        open={confirmingLeave !== null}
        title={t('settings.confirmLeave.title')}
        body={t('settings.confirmLeave.body')}
        confirmLabel={t('settings.confirmLeave.accept')}
        danger
        onConfirm={props.onLeave}
        onCancel={props.onStay}
      />
    </Box>
  );
}
