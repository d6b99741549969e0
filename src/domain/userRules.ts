import { roleRoot } from './constants';

/**
 * The rules of the user table (spec §4): which rows an admin may act on from the list.
 */

/** Super admins cannot be promoted, demoted, deleted or disabled from the user table (spec §4). */
export const canManageUser = (role: number): boolean => role < roleRoot;
