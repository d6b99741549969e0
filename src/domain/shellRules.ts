import { defaultQuotaPerUnit, roleAdmin } from './constants';
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

/** Who may open a console route: anyone, a signed-in user, or an admin (role >= 10). */
export type RouteAudience = 'public' | 'user' | 'admin';

const adminAreas = ['/channel', '/redemption', '/user'] as const;
/** Routes under an admin area that belong to the viewer themself (own profile, password reset link). */
const ownRoutes: Readonly<Record<string, RouteAudience>> = { '/user/edit': 'user', '/user/reset': 'public' };

const inArea = (area: string, pathname: string): boolean => pathname === area || pathname.startsWith(`${area}/`);

/** The audience of an admin area's route (channels, redemption codes, users); other routes say 'user' or less at their guard. */
export const routeAudienceOf = (pathname: string): RouteAudience => {
  const own = ownRoutes[pathname.replace(/\/+$/, '') || '/'];
  if (own !== undefined) return own;
  return adminAreas.some((area) => inArea(area, pathname)) ? 'admin' : 'user';
};

/** What the session knows of the viewer when a guarded route is drawn. */
export interface ViewerAccess {
  /** The signed-in viewer's role, null when signed out. */
  readonly role: number | null;
  /** A login is in flight (the role is about to be replaced) or a restored admin's enrolment is checked: nothing is decided yet. */
  readonly pending: boolean;
}

/**
 * The guard's decision for a route (spec §2): 'pending' while a login is in flight (the page's
 * loading state, never the page or a refusal); 'login' when signed out; 'forbidden' (403) when
 * the route is an admin's and the viewer's role is below 10; else 'allow'.
 */
export type RouteAccess = 'pending' | 'login' | 'forbidden' | 'allow';

export const routeAccessOf = (audience: RouteAudience, viewer: ViewerAccess): RouteAccess => {
  if (audience === 'public') return 'allow';
  if (viewer.pending) return 'pending';
  if (viewer.role === null) return 'login';
  return audience === 'admin' && viewer.role < roleAdmin ? 'forbidden' : 'allow';
};
