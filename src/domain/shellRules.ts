import { defaultQuotaPerUnit } from './ratioPrices';
import type { QuotaDisplay } from './format';
import type { Status } from './status';

/**
 * Rules the console's shell applies to every route (spec §2, §9): how quotas are shown, and
 * the `:id` of an edit route. Pure: no I/O.
 */

/** Before a status is known: raw quota, at one-api's default QuotaPerUnit. */
export const defaultQuotaDisplay: QuotaDisplay = { displayInCurrency: false, quotaPerUnit: defaultQuotaPerUnit };

/** How quotas are shown under a server status: in currency or raw, at its quota_per_unit. */
export const quotaDisplayOf = (status: Pick<Status, 'display_in_currency' | 'quota_per_unit'> | null): QuotaDisplay =>
  status === null ? defaultQuotaDisplay : { displayInCurrency: status.display_in_currency, quotaPerUnit: status.quota_per_unit };

/** The `:id` of an edit route: null on an add route (no id), 0 (never found) when it is not a number. */
export const routeIdOf = (id: string | undefined): number | null => (id === undefined ? null : /^\d{1,9}$/.test(id) ? Number(id) : 0);
