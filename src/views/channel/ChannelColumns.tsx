import type { ChannelRow, ChannelTestRunResult } from '../../domain/channel';
import type { QuotaDisplay } from '../../domain/format';
import { useT } from '../app/i18n';
import type { Column } from '../table/DataTableView';
import {
  ChannelBalanceButton,
  ChannelGroupBadges,
  ChannelName,
  ChannelNumberCell,
  ChannelResponseTime,
  ChannelRowButtons,
  ChannelStatusBadge,
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
  /** The row cannot be acted on now (its action runs, or the table is busy). */
  readonly isBusy: (row: ChannelRow) => boolean;
  /** The table cannot be used now. */
  readonly inert: boolean;
  readonly onAction: OnRowAction;
  readonly onTestModel: (row: ChannelRow, model: string) => void;
}

/** The columns of the channel table, in order; detail mode adds balance, weight and test model. */
export function useChannelColumns({ showDetail, liveResults, quotaDisplay, isBusy, inert, onAction, onTestModel }: ChannelColumnsOptions): Column<ChannelRow>[] {
  const t = useT();
  const detail = (columns: Column<ChannelRow>[]) => (showDetail ? columns : []);
  return [
    { key: 'id', header: t('channels.col.id'), sortable: true, render: (r) => r.id },
    { key: 'name', header: t('channels.col.name'), sortable: true, minW: '8rem', render: (r) => <ChannelName row={r} /> },
    { key: 'group', header: t('channels.col.group'), render: (r) => <ChannelGroupBadges row={r} /> },
    { key: 'type', header: t('channels.col.type'), sortable: true, render: (r) => <ChannelTypeBadge row={r} /> },
    { key: 'status', header: t('channels.col.status'), sortable: true, render: (r) => <ChannelStatusBadge row={r} /> },
    {
      key: 'response_time',
      header: t('channels.col.responseTime'),
      sortable: true,
      render: (r) => <ChannelResponseTime row={r} live={liveResults[r.id]} />,
    },
    ...detail([
      {
        key: 'balance',
        header: t('channels.col.balance'),
        sortable: true,
        render: (r) => <ChannelBalanceButton row={r} quotaDisplay={quotaDisplay} disabled={isBusy(r)} onAction={onAction} />,
      },
    ]),
    {
      key: 'priority',
      header: t('channels.col.priority'),
      sortable: true,
      render: (r) => <ChannelNumberCell row={r} field="priority" disabled={isBusy(r)} onAction={onAction} />,
    },
    ...detail([
      { key: 'weight', header: t('channels.col.weight'), render: (r) => <ChannelNumberCell row={r} field="weight" disabled={isBusy(r)} onAction={onAction} /> },
      {
        key: 'test_model',
        header: t('channels.col.testModel'),
        minW: '10rem',
        render: (r) => <ChannelTestModelSelect row={r} disabled={inert} onChoose={(model) => onTestModel(r, model)} />,
      },
    ]),
    { key: 'actions', header: t('channels.col.actions'), render: (r) => <ChannelRowButtons row={r} disabled={isBusy(r)} onAction={onAction} /> },
  ];
}
