import { Alert, Button, CloseButton, Flex, NativeSelect, Switch, Wrap } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { channelStatusFilterKey, channelStatusValues } from '../../domain/channel';
import { channelTypeLabel } from '../../domain/channelTypes';
import { useRenderMessage, useT } from '../app/i18n';
import { TableSearchView } from '../table/TableSearchView';

/** The channel list's notice, toolbar and filters (spec §2 "Channel list"). */

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

export interface ChannelListToolbarProps {
  readonly draft: string;
  readonly keyword: string;
  readonly searchDisabled: boolean;
  /** The table cannot be used now (refresh waits). */
  readonly inert: boolean;
  /** "Test all" / "test disabled" can start a run. */
  readonly canStartTest: boolean;
  readonly confirmingDeleteDisabled: boolean;
  readonly deletingDisabled: boolean;
  readonly showDetail: boolean;
  readonly onDraft: (text: string) => void;
  readonly onSearch: () => void;
  readonly onClearSearch: () => void;
  readonly onTestStart: (scope: 'all' | 'disabled') => void;
  readonly onDeleteDisabled: () => void;
  readonly onRefresh: () => void;
  readonly onToggleDetail: () => void;
}

/** Search, add, test all, test disabled, delete disabled, refresh, detail mode. */
export function ChannelListToolbar(p: ChannelListToolbarProps) {
  const t = useT();
  return (
    <Flex role="toolbar" aria-label={t('channels.toolbar')} gap={2} wrap="wrap" align="center">
      <TableSearchView
        draft={p.draft}
        keyword={p.keyword}
        label={t('channels.search')}
        disabled={p.searchDisabled}
        onDraft={p.onDraft}
        onSubmit={p.onSearch}
        onClear={p.onClearSearch}
      />
      <Wrap gap={2} align="center">
        <Button size="sm" colorPalette="blue" asChild>
          <RouterLink to="/channel/add">{t('channels.add')}</RouterLink>
        </Button>
        <Button size="sm" variant="outline" disabled={!p.canStartTest} onClick={() => p.onTestStart('all')}>
          {t('channels.testAll')}
        </Button>
        <Button size="sm" variant="outline" disabled={!p.canStartTest} onClick={() => p.onTestStart('disabled')}>
          {t('channels.testDisabled')}
        </Button>
        <Button
          size="sm"
          variant="outline"
          colorPalette="red"
          loading={p.deletingDisabled}
          disabled={p.confirmingDeleteDisabled}
          onClick={p.onDeleteDisabled}
        >
          {t('channels.deleteDisabled')}
        </Button>
        <Button size="sm" variant="outline" disabled={p.inert} onClick={p.onRefresh}>
          {t('channels.refresh')}
        </Button>
        <Switch.Root size="sm" checked={p.showDetail} onCheckedChange={p.onToggleDetail}>
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label>{t('channels.detail')}</Switch.Label>
        </Switch.Root>
      </Wrap>
    </Flex>
  );
}

/** The filters of the channel list, by query key. */
export type ChannelFilterKey = 'status' | 'type' | 'group';

interface FilterOption {
  readonly value: string;
  readonly label: string;
}

/** One filter: "<label>: all" and the options; a value from the URL not among them stays shown. */
function FilterSelect({
  label,
  current,
  options,
  disabled,
  onChange,
}: {
  readonly label: string;
  readonly current: string;
  readonly options: readonly FilterOption[];
  readonly disabled: boolean;
  readonly onChange: (value: string) => void;
}) {
  const t = useT();
  const all = current === '' || options.some((o) => o.value === current) ? options : [...options, { value: current, label: current }];
  return (
    <NativeSelect.Root size="sm" width={{ base: 'full', sm: '12rem' }} disabled={disabled}>
      <NativeSelect.Field aria-label={label} value={current} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">
          {label}: {t('table.filter.all')}
        </option>
        {all.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

export interface ChannelListFiltersProps {
  /** The current filter values by key ('' or absent: all). */
  readonly filters: Readonly<Partial<Record<string, string>>>;
  /** The type numbers and group names of the loaded channels. */
  readonly typeOptions: readonly number[];
  readonly groupOptions: readonly string[];
  readonly disabled: boolean;
  readonly onFilter: (key: ChannelFilterKey, value: string) => void;
}

/** Status, type and group filters. */
export function ChannelListFilters({ filters, typeOptions, groupOptions, disabled, onFilter }: ChannelListFiltersProps) {
  const t = useT();
  const render = useRenderMessage();
  const select = (key: ChannelFilterKey, label: string, options: readonly FilterOption[]) => (
    <FilterSelect label={label} current={filters[key] ?? ''} options={options} disabled={disabled} onChange={(value) => onFilter(key, value)} />
  );
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
    </Flex>
  );
}
