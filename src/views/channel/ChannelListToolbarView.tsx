import { Alert, Button, CloseButton, Flex } from '@chakra-ui/react';
import { Switch } from '../app/laterComponents';
import { channelStatusFilterKey, channelStatusValues, type ChannelTagCount } from '../../domain/channel';
import { channelTypeLabel } from '../../domain/channelTypes';
import { useRenderMessage, useT } from '../app/i18n';
import { ListSelect, type SelectOption } from '../list/useColumns';

/** The channel list's notice, toolbar controls and filters (spec §2 "Channel list"). */

export function ChannelNotice({ onDismiss }: { readonly onDismiss: () => void }) {
  const t = useT();
  return (
    <Alert.Root status="info" alignItems="start">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Description>{t('channels.notice')}</Alert.Description>
      </Alert.Content>
      <CloseButton size="sm" aria-label={t('channels.notice.dismiss')} onClick={onDismiss} />
    </Alert.Root>
  );
}

export interface ChannelToolbarControlsProps {
  /** "Test all" / "test disabled" can start a run. */
  readonly canStartTest: boolean;
  readonly confirmingDeleteDisabled: boolean;
  readonly deletingDisabled: boolean;
  readonly showDetail: boolean;
  readonly onTestStart: (scope: 'all' | 'disabled') => void;
  readonly onDeleteDisabled: () => void;
  readonly onToggleDetail: () => void;
  /** Opens "edit by tag". */
  readonly onEditByTag: () => void;
}

/** The channel list's own toolbar controls (the layout adds search, add and refresh): test all, test disabled, delete disabled, edit by tag, detail mode. */
export function ChannelToolbarControls(p: ChannelToolbarControlsProps) {
  const t = useT();
  return (
    <>
      <Button variant="outline" disabled={!p.canStartTest} onClick={() => p.onTestStart('all')}>
        {t('channels.testAll')}
      </Button>
      <Button variant="outline" disabled={!p.canStartTest} onClick={() => p.onTestStart('disabled')}>
        {t('channels.testDisabled')}
      </Button>
      <Button variant="outline" colorPalette="red" loading={p.deletingDisabled} disabled={p.confirmingDeleteDisabled} onClick={p.onDeleteDisabled}>
        {t('channels.deleteDisabled')}
      </Button>
      <Button variant="outline" onClick={p.onEditByTag}>
        {t('channels.tagEdit.open')}
      </Button>
      <Switch.Root size="sm" checked={p.showDetail} onCheckedChange={p.onToggleDetail}>
        <Switch.HiddenInput />
        <Switch.Control />
        <Switch.Label>{t('channels.detail')}</Switch.Label>
      </Switch.Root>
    </>
  );
}

/** The filters of the channel list, by query key. */
export type ChannelFilterKey = 'status' | 'type' | 'group' | 'tags';

export interface ChannelListFiltersProps {
  /** The current filter values by key ('' or absent: all). */
  readonly filters: Readonly<Partial<Record<string, string>>>;
  /** The type numbers and group names of the loaded channels. */
  readonly typeOptions: readonly number[];
  readonly groupOptions: readonly string[];
  /** Every tag in use with its channel count. */
  readonly tagOptions: readonly ChannelTagCount[];
  readonly disabled: boolean;
  readonly onFilter: (key: ChannelFilterKey, value: string) => void;
}

/** Status, type, group and tag filters; a value from the URL that is not among the options stays shown. */
export function ChannelListFilters({ filters, typeOptions, groupOptions, tagOptions, disabled, onFilter }: ChannelListFiltersProps) {
  const t = useT();
  const render = useRenderMessage();
  const select = (key: ChannelFilterKey, label: string, options: readonly SelectOption[]) => {
    const current = filters[key] ?? '';
    const all = current === '' || options.some((o) => o.value === current) ? options : [...options, { value: current, label: current }];
    return (
      <ListSelect
        label={label}
        value={current}
        options={all}
        allLabel={`${label}: ${t('table.filter.all')}`}
        disabled={disabled}
        onChange={(value) => onFilter(key, value)}
      />
    );
  };
  return (
    <Flex role="group" aria-label={t('channels.filters')} gap={2} wrap="wrap">
      {select(
        'status',
        t('channels.col.status'),
        channelStatusValues.map((v) => ({ value: String(v), label: t(channelStatusFilterKey(v)) })),
      )}
      {select(
        'type',
        t('channels.col.type'),
        typeOptions.map((n) => ({ value: String(n), label: render(channelTypeLabel(n)) })),
      )}
      {select(
        'group',
        t('channels.col.group'),
        groupOptions.map((g) => ({ value: g, label: g })),
      )}
      {select(
        'tags',
        t('channels.col.tags'),
        tagOptions.map((o) => ({ value: o.tag, label: t('channels.filter.tags.option', { tag: o.tag, count: o.count }) })),
      )}
    </Flex>
  );
}
