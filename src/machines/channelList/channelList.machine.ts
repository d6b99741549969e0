import type { ChannelRow } from '../../domain/channel';
import { pageSizeOptions, type TableQuerySchema } from '../../domain/tableQuery';
import { createTableMachine } from '../table';

/**
 * The channel list (/channel, spec §2 "Channel list"): one instance of the table machine. A row
 * is a channel as the server lists it plus the client-only `test_model` the row's dropdown
 * chose (kept on the row with `row.patch`). The list's rules (actions, statuses, test models,
 * inline numbers) are in src/domain/channel.
 */
export const channelTableMachine = createTableMachine<ChannelRow>({ id: 'channelTable' });

/** What the address bar may say for /channel: header sorts, the four filters (tags: one tag), page sizes. */
export const channelTableSchema: TableQuerySchema = {
  sortKeys: ['id', 'name', 'type', 'status', 'response_time', 'balance', 'priority'],
  orders: [],
  filterKeys: ['status', 'type', 'group', 'tags'],
  sizes: pageSizeOptions,
};
