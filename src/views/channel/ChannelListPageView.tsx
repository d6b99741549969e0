import type { FocusEvent, FormEvent, KeyboardEvent, ReactNode } from 'react';
import {
  Alert,
  Badge,
  Button,
  CloseButton,
  Dialog,
  Field,
  Flex,
  Heading,
  HStack,
  Input,
  NativeSelect,
  Portal,
  Spinner,
  Stack,
  Switch,
  Text,
  Wrap,
} from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import type { ChannelTestRunResult } from '../../domain/channel';
import { channelTypeByValue, channelTypeLabel } from '../../domain/channelTypes';
import { channelStatusEnabled, channelStatusOf } from '../../domain/constants';
import { formatBalance, formatTimestamp, groupColor, groupNames, responseTimeBand, type QuotaDisplay } from '../../domain/format';
import type { MessageKey } from '../../i18n';
import {
  channelBulkActions,
  channelModelNames,
  channelRowActions,
  isDangerousChannelAction,
  parseInlineNumber,
  testModelOf,
  type BulkValuePrompt,
  type ChannelBulkValueAction,
  type ChannelListActionsEvent,
  type ChannelRow,
} from '../../machines/channelList';
import type { BulkRun, TableEvent } from '../../machines/table';
import { Hint } from '../app/Hint';
import { useRenderMessage, useT } from '../app/i18n';
import { BulkDialogsView } from '../table/BulkDialogsView';
import { ConfirmDialogView } from '../table/ConfirmDialogView';
import { DataTableView, type Column } from '../table/DataTableView';
import { PagerView } from '../table/PagerView';
import { SelectionBarView } from '../table/SelectionBarView';
import { TableSearchView } from '../table/TableSearchView';
import type { TableState } from '../table/useTable';

export type ChannelTableEvent = TableEvent<ChannelRow>;

export interface ChannelListPageViewProps {
  /** Everything the table actor says (useTableState). */
  readonly table: TableState<ChannelRow>;
  /** id -> name of every loaded channel (bulk report). */
  readonly names: Readonly<Record<number, string>>;
  readonly groupOptions: readonly string[];
  readonly typeOptions: readonly number[];
  readonly showDetail: boolean;
  readonly noticeShown: boolean;
  readonly confirmingDeleteDisabled: boolean;
  readonly deletingDisabled: boolean;
  readonly bulkValue: BulkValuePrompt | null;
  readonly loadingGroups: boolean;
  readonly groups: readonly string[];
  /** Live test results of the current run, by channel id. */
  readonly liveResults: Readonly<Record<number, ChannelTestRunResult>>;
  /** "Test all" / "test disabled" can start a run. */
  readonly canStartTest: boolean;
  /** How quota-like balances (types 10, 13) are shown. */
  readonly quotaDisplay: QuotaDisplay;
  /** The live test panel (progress, cancel, retry), above the table. */
  readonly testPanel?: ReactNode;
  readonly onTable: (event: ChannelTableEvent) => void;
  readonly onActions: (event: ChannelListActionsEvent) => void;
  readonly onTestStart: (scope: 'all' | 'disabled') => void;
}

const valueActions: readonly ChannelBulkValueAction[] = ['priority', 'addModel', 'removeModel', 'setGroup'];

/** An inline number (priority, weight): Enter or leaving the box saves; empty is ignored. */
function InlineNumber({
  label,
  value,
  field,
  disabled,
  onSave,
}: {
  readonly label: string;
  readonly value: number;
  readonly field: 'priority' | 'weight';
  readonly disabled: boolean;
  readonly onSave: (value: string) => void;
}) {
  const commit = (input: HTMLInputElement) => {
    const n = parseInlineNumber(input.value, field);
    if (n === null || n === value) return;
    onSave(String(n));
  };
  return (
    <Input
      // a saved value (or a reload) resets the box
      key={value}
      type="number"
      size="xs"
      w="20"
      defaultValue={value}
      min={field === 'weight' ? 0 : undefined}
      aria-label={label}
      disabled={disabled}
      onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
        if (e.key === 'Enter') e.currentTarget.blur();
      }}
      onBlur={(e: FocusEvent<HTMLInputElement>) => commit(e.currentTarget)}
    />
  );
}

/**
 * The channel list (/channel, spec §2 "Channel list"): toolbar (search, add, test all, test
 * disabled, delete disabled, refresh, detail mode), the notice, filters, the live test panel, the
 * table with inline priority/weight and test model, the pager, the selection bar with bulk
 * actions, and the dialogs (row delete, delete disabled, bulk value, bulk steps).
 */
export function ChannelListPageView({
  table,
  names,
  groupOptions,
  typeOptions,
  showDetail,
  noticeShown,
  confirmingDeleteDisabled,
  deletingDisabled,
  bulkValue,
  loadingGroups,
  groups,
  liveResults,
  canStartTest,
  quotaDisplay,
  testPanel,
  onTable,
  onActions,
  onTestStart,
}: ChannelListPageViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const inert = !table.idle;
  const nameOf = (id: number) => t('channels.row.name', { id, name: names[id] ?? '' }).trim();

  const rowAction = (row: ChannelRow, action: string, value?: string, confirm?: boolean) =>
    onTable({ type: 'row.action', id: row.id, action, ...(value === undefined ? {} : { value }), ...(confirm ? { confirm } : {}) });

  const columns: Column<ChannelRow>[] = [
    { key: 'id', header: t('channels.col.id'), sortable: true, render: (r) => r.id },
    {
      key: 'name',
      header: t('channels.col.name'),
      sortable: true,
      minW: '8rem',
      render: (r) => (
        <Text as="span" fontWeight="medium">
          {r.name}
        </Text>
      ),
    },
    {
      key: 'group',
      header: t('channels.col.group'),
      render: (r) => (
        <Wrap gap={1}>
          {groupNames(r.group).map((g) => (
            <Badge key={g} colorPalette={groupColor(g)} variant="subtle">
              {g}
            </Badge>
          ))}
        </Wrap>
      ),
    },
    {
      key: 'type',
      header: t('channels.col.type'),
      sortable: true,
      render: (r) => (
        <Badge colorPalette={channelTypeByValue(r.type).color} variant="subtle" whiteSpace="nowrap">
          {render(channelTypeLabel(r.type))}
        </Badge>
      ),
    },
    {
      key: 'status',
      header: t('channels.col.status'),
      sortable: true,
      render: (r) => {
        const s = channelStatusOf(r.status);
        const badge = (
          <Badge colorPalette={s.color} variant="surface" whiteSpace="nowrap" tabIndex={s.tooltipKey ? 0 : undefined}>
            {t(s.labelKey as MessageKey)}
          </Badge>
        );
        return s.tooltipKey ? <Hint text={t(s.tooltipKey as MessageKey)}>{badge}</Hint> : badge;
      },
    },
    {
      key: 'response_time',
      header: t('channels.col.responseTime'),
      sortable: true,
      render: (r) => {
        const rt = responseTimeBand(r.response_time ?? 0);
        const tested = (r.test_time ?? 0) > 0;
        const live = liveResults[r.id];
        return (
          <HStack gap={1} whiteSpace="nowrap">
            <Hint
              text={tested ? t('channels.responseTime.testedAt', { time: formatTimestamp(r.test_time ?? 0) }) : t('channels.responseTime.never')}
            >
              <Badge colorPalette={rt.color} variant="subtle" tabIndex={0}>
                {render(rt.label)}
              </Badge>
            </Hint>
            {live && (
              <Hint text={t(live.success ? 'channels.live.pass' : 'channels.live.fail', { message: live.message })}>
                <Badge
                  colorPalette={live.success ? 'green' : 'red'}
                  variant="surface"
                  tabIndex={0}
                  role="img"
                  aria-label={t(live.success ? 'channels.live.pass' : 'channels.live.fail', { message: live.message })}
                  data-live-result={live.success ? 'pass' : 'fail'}
                >
                  {live.success ? '✓' : '✗'}
                </Badge>
              </Hint>
            )}
          </HStack>
        );
      },
    },
    ...(showDetail
      ? [
          {
            key: 'balance',
            header: t('channels.col.balance'),
            sortable: true,
            render: (r: ChannelRow) => {
              const b = formatBalance(r.type, r.balance ?? 0, quotaDisplay);
              const updated = (r.balance_updated_time ?? 0) > 0;
              return (
                <Hint
                  text={
                    updated
                      ? t('channels.balance.updatedAt', { time: formatTimestamp(r.balance_updated_time ?? 0) })
                      : t('channels.balance.never')
                  }
                >
                  <Button
                    size="xs"
                    variant="ghost"
                    aria-label={t('channels.balance.label', { name: r.name, balance: b.kind === 'amount' ? b.text : t('domain.balance.unsupported') })}
                    disabled={table.busy[r.id] !== undefined || inert}
                    onClick={() => rowAction(r, channelRowActions.balance)}
                  >
                    {b.kind === 'amount' ? b.text : t('domain.balance.unsupported')}
                  </Button>
                </Hint>
              );
            },
          } satisfies Column<ChannelRow>,
        ]
      : []),
    {
      key: 'priority',
      header: t('channels.col.priority'),
      sortable: true,
      render: (r) => (
        <InlineNumber
          label={t('channels.priority.label', { name: r.name })}
          value={r.priority ?? 0}
          field="priority"
          disabled={table.busy[r.id] !== undefined || inert}
          onSave={(v) => rowAction(r, channelRowActions.priority, v)}
        />
      ),
    },
    ...(showDetail
      ? [
          {
            key: 'weight',
            header: t('channels.col.weight'),
            render: (r: ChannelRow) => (
              <InlineNumber
                label={t('channels.weight.label', { name: r.name })}
                value={r.weight ?? 0}
                field="weight"
                disabled={table.busy[r.id] !== undefined || inert}
                onSave={(v) => rowAction(r, channelRowActions.weight, v)}
              />
            ),
          } satisfies Column<ChannelRow>,
          {
            key: 'test_model',
            header: t('channels.col.testModel'),
            minW: '10rem',
            render: (r: ChannelRow) => {
              const models = channelModelNames(r.models);
              return (
                <NativeSelect.Root size="xs" disabled={models.length === 0 || inert}>
                  <NativeSelect.Field
                    aria-label={t('channels.testModel.label', { name: r.name })}
                    value={testModelOf(r)}
                    onChange={(e) => onTable({ type: 'row.patch', id: r.id, patch: { test_model: e.currentTarget.value } })}
                  >
                    {models.length === 0 && <option value="">{t('channels.testModel.none')}</option>}
                    {models.map((m) => (
                      <option key={m} value={m}>
                        {m}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              );
            },
          } satisfies Column<ChannelRow>,
        ]
      : []),
    {
      key: 'actions',
      header: t('channels.col.actions'),
      render: (r) => {
        const busy = table.busy[r.id] !== undefined || inert;
        const enabled = r.status === channelStatusEnabled;
        return (
          <HStack gap={1} whiteSpace="nowrap">
            <Button
              size="xs"
              variant="outline"
              colorPalette="blue"
              aria-label={t('channels.row.testLabel', { name: r.name })}
              disabled={busy}
              onClick={() => rowAction(r, channelRowActions.test, testModelOf(r))}
            >
              {t('channels.row.test')}
            </Button>
            <Button
              size="xs"
              variant="outline"
              colorPalette={enabled ? 'orange' : 'green'}
              aria-label={t(enabled ? 'channels.row.disableLabel' : 'channels.row.enableLabel', { name: r.name })}
              disabled={busy}
              onClick={() => rowAction(r, channelRowActions.toggle)}
            >
              {t(enabled ? 'channels.row.disable' : 'channels.row.enable')}
            </Button>
            <Button size="xs" variant="outline" asChild>
              <RouterLink to={`/channel/edit/${r.id}`} aria-label={t('channels.row.editLabel', { name: r.name })}>
                {t('channels.row.edit')}
              </RouterLink>
            </Button>
            <Button
              size="xs"
              variant="outline"
              colorPalette="red"
              aria-label={t('channels.row.deleteLabel', { name: r.name })}
              disabled={busy}
              onClick={() => rowAction(r, channelRowActions.remove, undefined, true)}
            >
              {t('channels.row.delete')}
            </Button>
          </HStack>
        );
      },
    },
  ];

  const pendingRow = table.pending;
  const bulkLabel = (run: BulkRun) =>
    run.value !== '' && (valueActions as readonly string[]).includes(run.action)
      ? t(`channels.bulk.label.${run.action}` as MessageKey, { value: run.value })
      : t(`channels.bulk.${run.action}` as MessageKey);

  const filterSelect = (key: 'status' | 'type' | 'group', label: string, options: readonly { value: string; label: string }[]) => {
    const current = table.filters[key] ?? '';
    const all = current === '' || options.some((o) => o.value === current) ? options : [...options, { value: current, label: current }];
    return (
      <NativeSelect.Root size="sm" width={{ base: 'full', sm: '12rem' }} disabled={inert}>
        <NativeSelect.Field aria-label={label} value={current} onChange={(e) => onTable({ type: 'filter.change', key, value: e.currentTarget.value })}>
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
  };

  const submitValue = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onActions({ type: 'bulkValue.submit' });
  };

  return (
    <Stack gap={4} minW={0}>
      <Heading as="h1" size="lg">
        {t('channels.title')}
      </Heading>

      {noticeShown && (
        <Alert.Root status="info" alignItems="start">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Description>{t('channels.notice')}</Alert.Description>
          </Alert.Content>
          <CloseButton size="sm" aria-label={t('channels.notice.dismiss')} onClick={() => onActions({ type: 'notice.dismiss' })} />
        </Alert.Root>
      )}

      <Flex role="toolbar" aria-label={t('channels.toolbar')} gap={2} wrap="wrap" align="center">
        <TableSearchView
          draft={table.draft}
          keyword={table.keyword}
          label={t('channels.search')}
          disabled={inert && !table.loadFailed}
          onDraft={(text) => onTable({ type: 'search.input', text })}
          onSubmit={() => onTable({ type: 'search.submit' })}
          onClear={() => onTable({ type: 'search.clear' })}
        />
        <Wrap gap={2} align="center">
          <Button size="sm" colorPalette="blue" asChild>
            <RouterLink to="/channel/add">{t('channels.add')}</RouterLink>
          </Button>
          <Button size="sm" variant="outline" disabled={!canStartTest} onClick={() => onTestStart('all')}>
            {t('channels.testAll')}
          </Button>
          <Button size="sm" variant="outline" disabled={!canStartTest} onClick={() => onTestStart('disabled')}>
            {t('channels.testDisabled')}
          </Button>
          <Button
            size="sm"
            variant="outline"
            colorPalette="red"
            loading={deletingDisabled}
            disabled={confirmingDeleteDisabled}
            onClick={() => onActions({ type: 'deleteDisabled.request' })}
          >
            {t('channels.deleteDisabled')}
          </Button>
          <Button size="sm" variant="outline" disabled={inert} onClick={() => onTable({ type: 'rows.reload' })}>
            {t('channels.refresh')}
          </Button>
          <Switch.Root size="sm" checked={showDetail} onCheckedChange={() => onActions({ type: 'detail.toggle' })}>
            <Switch.HiddenInput />
            <Switch.Control />
            <Switch.Label>{t('channels.detail')}</Switch.Label>
          </Switch.Root>
        </Wrap>
      </Flex>

      <Flex role="group" aria-label={t('channels.filters')} gap={2} wrap="wrap">
        {filterSelect(
          'status',
          t('channels.col.status'),
          (['1', '2', '3'] as const).map((v) => ({ value: v, label: t(`channels.filter.status.${v}`) })),
        )}
        {filterSelect(
          'type',
          t('channels.col.type'),
          typeOptions.map((n) => ({ value: String(n), label: render(channelTypeLabel(n)) })),
        )}
        {filterSelect(
          'group',
          t('channels.col.group'),
          groupOptions.map((g) => ({ value: g, label: g })),
        )}
      </Flex>

      {testPanel}

      <SelectionBarView
        selectedCount={table.selectedCount}
        shownCount={table.shownCount}
        complete={table.complete}
        disabled={inert}
        onSelectAllMatching={() => onTable({ type: 'selection.allMatching' })}
        onClear={() => onTable({ type: 'selection.clear' })}
      >
        <Button size="xs" variant="outline" colorPalette="green" disabled={inert} onClick={() => onTable({ type: 'bulk.request', action: channelBulkActions.enable })}>
          {t('channels.bulk.enable')}
        </Button>
        <Button size="xs" variant="outline" colorPalette="orange" disabled={inert} onClick={() => onTable({ type: 'bulk.request', action: channelBulkActions.disable })}>
          {t('channels.bulk.disable')}
        </Button>
        <Button size="xs" variant="outline" colorPalette="red" disabled={inert} onClick={() => onTable({ type: 'bulk.request', action: channelBulkActions.remove })}>
          {t('channels.bulk.delete')}
        </Button>
        {valueActions.map((a) => (
          <Button key={a} size="xs" variant="outline" disabled={inert} onClick={() => onActions({ type: 'bulkValue.open', action: a })}>
            {t(`channels.bulk.${a}`)}
          </Button>
        ))}
      </SelectionBarView>

      <DataTableView
        caption={t('channels.title')}
        columns={columns}
        rows={table.rows}
        sort={table.sort}
        onSort={(key) => onTable({ type: 'sort.toggle', key })}
        selection={{
          selected: table.selected,
          pageSelected: table.pageSelected,
          onToggleRow: (id) => onTable({ type: 'row.select', id }),
          onTogglePage: () => onTable({ type: 'selection.page' }),
          rowLabel: (r) => t('table.select.row', { name: r.name }),
        }}
        busy={table.busy}
        firstLoad={table.firstLoad}
        loadFailed={table.loadFailed}
        onRetry={() => onTable({ type: 'load.retry' })}
        emptyText={table.keyword !== '' ? t('table.emptySearch') : t('table.empty')}
        disabled={inert}
      />

      {!table.loadFailed && (
        <PagerView
          page={table.page}
          pageCount={table.pageCount}
          complete={table.complete}
          loadedCount={table.loadedCount}
          shownCount={table.shownCount}
          size={table.size}
          loading={table.loading}
          disabled={inert}
          onPage={(page) => onTable({ type: 'page.go', page })}
          onSize={(size) => onTable({ type: 'page.size', size })}
        />
      )}

      <ConfirmDialogView
        open={pendingRow !== null}
        body={pendingRow ? t('channels.row.deleteConfirm', { id: pendingRow.id, name: names[pendingRow.id] ?? '' }) : ''}
        danger
        onConfirm={() => onTable({ type: 'confirm.accept' })}
        onCancel={() => onTable({ type: 'confirm.cancel' })}
      />

      <ConfirmDialogView
        open={confirmingDeleteDisabled || deletingDisabled}
        title={t('channels.deleteDisabled.title')}
        body={t('channels.deleteDisabled.confirm')}
        danger
        busy={deletingDisabled}
        onConfirm={() => onActions({ type: 'deleteDisabled.accept' })}
        onCancel={() => onActions({ type: 'deleteDisabled.cancel' })}
      />

      <Dialog.Root
        open={bulkValue !== null}
        onOpenChange={(d) => !d.open && onActions({ type: 'bulkValue.cancel' })}
        placement="center"
        size={{ base: 'xs', sm: 'sm' }}
      >
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              {bulkValue && (
                <form onSubmit={submitValue} noValidate>
                  <Dialog.Header>
                    <Dialog.Title>{t(`channels.bulk.${bulkValue.action}`)}</Dialog.Title>
                  </Dialog.Header>
                  <Dialog.Body>
                    {loadingGroups ? (
                      <HStack role="status" gap={2}>
                        <Spinner size="sm" />
                        <Text>{t('channels.bulk.value.loadingGroups')}</Text>
                      </HStack>
                    ) : (
                      <Field.Root invalid={bulkValue.problem !== null}>
                        <Field.Label>{t(`channels.bulk.value.field.${bulkValue.action}`)}</Field.Label>
                        {bulkValue.action === 'setGroup' && groups.length > 0 ? (
                          <NativeSelect.Root>
                            <NativeSelect.Field
                              value={bulkValue.value}
                              onChange={(e) => onActions({ type: 'bulkValue.input', value: e.currentTarget.value })}
                            >
                              <option value="">{t('channels.bulk.value.pickGroup')}</option>
                              {groups.map((g) => (
                                <option key={g} value={g}>
                                  {g}
                                </option>
                              ))}
                            </NativeSelect.Field>
                            <NativeSelect.Indicator />
                          </NativeSelect.Root>
                        ) : (
                          <Input
                            type={bulkValue.action === 'priority' ? 'number' : 'text'}
                            value={bulkValue.value}
                            autoFocus
                            onChange={(e) => onActions({ type: 'bulkValue.input', value: e.currentTarget.value })}
                          />
                        )}
                        {bulkValue.problem && <Field.ErrorText color="red.fg">{render(bulkValue.problem)}</Field.ErrorText>}
                      </Field.Root>
                    )}
                  </Dialog.Body>
                  <Dialog.Footer>
                    <Button variant="outline" onClick={() => onActions({ type: 'bulkValue.cancel' })}>
                      {t('table.confirm.cancel')}
                    </Button>
                    <Button type="submit" colorPalette="blue" disabled={loadingGroups}>
                      {t('channels.bulk.value.next')}
                    </Button>
                  </Dialog.Footer>
                </form>
              )}
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('table.confirm.cancel')} />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>

      <BulkDialogsView
        toConfirm={table.bulkToConfirm}
        running={table.bulkRunning}
        report={table.bulkReport}
        actionLabel={bulkLabel}
        rowLabel={nameOf}
        isDanger={isDangerousChannelAction}
        onConfirm={() => onTable({ type: 'confirm.accept' })}
        onCancel={() => onTable({ type: 'confirm.cancel' })}
        onStop={() => onTable({ type: 'bulk.cancel' })}
        onRetry={() => onTable({ type: 'bulk.retry' })}
        onDismiss={() => onTable({ type: 'report.dismiss' })}
      />
    </Stack>
  );
}
