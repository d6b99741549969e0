import { createChannelApi } from '../api/channelApi';
import { fetchChannelPage } from '../api/actors/channelRows';
import { parseTableQuery } from '../domain/tableQuery';
import { channelTableSchema } from '../machines/channelList';
import { firstFetchInput } from '../machines/table';
import type { FirstAddress, WiringRoot } from './root';

/**
 * Opened on /channel as an admin: the channel table's first page, asked for at once (the api
 * client's `prime`), from the same address and with the same call as the table's first load
 * (src/wiring/channel.ts), which then takes this answer instead of asking again. A module of its
 * own, loaded only by the entry when the console opens on /channel: the channel area's other
 * pages do not load the table's code for it.
 */
export const primeFirstPage = ({ client }: WiringRoot, { pathname, search, admin }: FirstAddress): void => {
  if (!/^\/channel\/?$/.test(pathname) || admin !== true) return;
  const input = firstFetchInput({ query: parseTableQuery(search, channelTableSchema) });
  if (input !== null) client.prime((c) => fetchChannelPage(createChannelApi(c))(input));
};
