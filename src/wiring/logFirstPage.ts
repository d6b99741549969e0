import { createLogApi } from '../api/logApi';
import { fetchLogPage } from '../api/actors/logRows';
import { parseTableQuery } from '../domain/tableQuery';
import { logQuerySchema } from '../machines/logList';
import { logTableInput, scopeOf } from '../machines/logListPage';
import { firstFetchInput } from '../machines/table';
import type { FirstAddress, WiringRoot } from './root';

/**
 * Opened on /log signed in: the log table's first page, asked for at once (the api client's
 * `prime`), from the same address, for the stored user's scope and with the same call as the
 * table's first load (src/wiring/log.ts), which then takes this answer instead of asking again
 * (a session that turns out otherwise asks for its own scope; the kept answer goes unused).
 * Loaded only by the entry when the console opens on /log.
 */
export const primeFirstPage = ({ client }: WiringRoot, { pathname, search, admin }: FirstAddress): void => {
  if (!/^\/log\/?$/.test(pathname) || admin === null) return;
  const input = firstFetchInput(logTableInput(parseTableQuery(search, logQuerySchema), scopeOf(admin)));
  if (input !== null) client.prime((c) => fetchLogPage(createLogApi(c))(input));
};
