import type { Redemption } from '../../domain/redemption';
import type { BulkRun, TableContext } from '../../machines/table';
import type { TableState } from '../table/useTable';
import { phoneViewport, tableContextOf, tableStateOf } from '../table/table.fixtures';

/** Redemption codes as the list shows them (stories of the redemption pages). */
export const redemptionRows: readonly Redemption[] = [
  {
    id: 12,
    name: 'spring-promo',
    key: '0f3c9a7e1b2d4c5f8a9b0c1d2e3f4a5b',
    status: 1,
    quota: 100000,
    created_time: 1_763_900_000,
    redeemed_time: 0,
  },
  {
    id: 11,
    name: 'spring-promo',
    key: '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b',
    status: 3,
    quota: 100000,
    created_time: 1_763_900_000,
    redeemed_time: 1_763_950_000,
  },
  {
    id: 10,
    name: 'partner-batch',
    key: 'aa11bb22cc33dd44ee55ff6677889900',
    status: 2,
    quota: 2_500_000,
    created_time: 1_763_800_000,
    redeemed_time: 0,
  },
];

export const bulkRun = (over: Partial<BulkRun> = {}): BulkRun => ({
  action: 'disable',
  value: '',
  ids: [12, 10],
  done: 0,
  succeeded: [],
  failures: [],
  cancelled: false,
  ...over,
});

/** A table context for seeded snapshots: the rows loaded and shown, nothing selected. */
export const tableContext = (over: Partial<TableContext<Redemption>> = {}): TableContext<Redemption> => tableContextOf(redemptionRows, over);

/** What useTableState reads, for view stories. */
export const tableState = (over: Partial<TableState<Redemption>> = {}): TableState<Redemption> => tableStateOf(redemptionRows, over);

export { phoneViewport };
