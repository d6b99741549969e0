import { useMemo } from 'react';
import type { ChannelRow, ChannelTestRunResult } from '../../domain/channel';
import type { QuotaDisplay } from '../../domain/format';
import { useT } from '../app/i18n';
import { actionsColumn, type ColumnSpec } from '../list/useColumns';
import { useCellLinkNavigation } from '../table/cellParts';
import type { Column } from '../table/DataTableView';
import {
  ChannelBalanceButton,
  ChannelGroupBadges,
  ChannelName,
  ChannelNumberCell,
  ChannelResponseTime,
  ChannelRowButtons,
  ChannelStatusBadge,
  ChannelTagBadges,
  ChannelTestModelSelect,
  ChannelTypeBadge,
  type OnRowAction,
} from './ChannelRowCells';

export interface ChannelColumnsOptions {
  /** Detail mode: balance, weight and test-model columns shown. */
  readonly showDetail: boolean;
  /** Live test results of the current run, by channel id. */
  readonly liveResults: Readonly<Record<number, ChannelTestRunResult>>;
  readonly quotaDisplay: QuotaDisplay;
  /** id -> action running on the row: its actions cannot be used now. */
  readonly busy: Readonly<Record<number, string>>;
  /** The table cannot be used now. */
  readonly inert: boolean;
  readonly onAction: OnRowAction;
  readonly onTestModel: (row: ChannelRow, model: string) => void;
}

/**
 * The columns of the channel table, in order; detail mode adds balance, weight and test model.
 * The same array (and the same cell functions) until one of the options changes, so the table's
 * memoized rows are not rendered again by a change elsewhere on the page; the callbacks must be
 * stable for that.
 */
export function useChannelColumns({ showDetail, liveResults, quotaDisplay, busy, inert, onAction, onTestModel }: ChannelColumnsOptions): readonly Column<ChannelRow>[] {
  const t = useT();
  const nav = useCellLinkNavigation();
  return useMemo(() => {
    const isBusy = (r: ChannelRow) => inert || busy[r.id] !== undefined;
    const specs: readonly (ColumnSpec<ChannelRow> | false)[] = [
      { key: 'id', header: 'channels.col.id', render: (r) => r.id },
      { key: 'name', header: 'channels.col.name', minW: '8rem', card: 'title', render: (r) => <ChannelName row={r} /> },
      { key: 'group', header: 'channels.col.group', sortable: false, render: (r) => <ChannelGroupBadges row={r} /> },
      { key: 'tags', header: 'channels.col.tags', sortable: false, render: (r) => <ChannelTagBadges row={r} /> },
      { key: 'type', header: 'channels.col.type', render: (r) => <ChannelTypeBadge row={r} /> },
      { key: 'status', header: 'channels.col.status', render: (r) => <ChannelStatusBadge row={r} /> },
      { key: 'response_time', header: 'channels.col.responseTime', render: (r) => <ChannelResponseTime row={r} live={liveResults[r.id]} /> },
      showDetail && {
        key: 'balance',
        header: 'channels.col.balance',
        render: (r) => <ChannelBalanceButton row={r} quotaDisplay={quotaDisplay} disabled={isBusy(r)} onAction={onAction} />,
      },
      { key: 'priority', header: 'channels.col.priority', render: (r) => <ChannelNumberCell row={r} field="priority" disabled={isBusy(r)} onAction={onAction} /> },
      showDetail && {
        key: 'weight',
        header: 'channels.col.weight',
        sortable: false,
        render: (r) => <ChannelNumberCell row={r} field="weight" disabled={isBusy(r)} onAction={onAction} />,
      },
      showDetail && {
        key: 'test_model',
        header: 'channels.col.testModel',
        sortable: false,
        minW: '10rem',
        render: (r) => <ChannelTestModelSelect row={r} disabled={inert} onChoose={onTestModel} />,
      },
      actionsColumn((r: ChannelRow) => <ChannelRowButtons row={r} disabled={isBusy(r)} nav={nav} onAction={onAction} />),
    ];
    // as `useColumns` does: headers translated, sortable unless told otherwise
    return specs
      .filter((spec): spec is ColumnSpec<ChannelRow> => spec !== false)
      .map(({ header, sortable = true, ...look }) => ({ ...look, header: t(header), sortable }));
  }, [t, nav, showDetail, liveResults, quotaDisplay, busy, inert, onAction, onTestModel]);
}
