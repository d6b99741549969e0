/**
 * The inviter code of the registration page (spec §2 "Register", contract §2.1): an invite link
 * (`/register?aff=CODE`) names the inviter; the code is remembered so a later registration
 * without the link still credits the inviter. Pure: the composition root reads and writes storage.
 */

/** The query key of an invite link. */
export const inviteCodeParam = 'aff';

/** The inviter code of an address's query string ('' without one). */
export const inviteCodeOf = (search: string): string => new URLSearchParams(search).get(inviteCodeParam)?.trim() ?? '';

/** What registering uses: the link's code (to remember), else the one remembered earlier, else none. */
export function inviteCodeToUse(linked: string, remembered: string | null): { readonly code: string; readonly remember: boolean } {
  const fromLink = linked.trim();
  if (fromLink !== '') return { code: fromLink, remember: true };
  return { code: remembered?.trim() ?? '', remember: false };
}
