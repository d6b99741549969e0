import type { RouteAccess } from '../../domain/shellRules';
import type { MessageKey } from '../../i18n';

export interface MenuItem {
  readonly to: string;
  readonly labelKey: MessageKey;
}

export interface MenuAccess {
  /** A user is signed in (signed out, only the pages a visitor can open are listed). */
  readonly signedIn: boolean;
  readonly isAdmin: boolean;
  /** The configured chat link ('' hides the chat entry). */
  readonly chatLink: string;
}

type Entry = MenuItem & { readonly admin?: true; readonly chat?: true; readonly visitor?: true };

const all: readonly Entry[] = [
  { to: '/', labelKey: 'shell.nav.home', visitor: true },
  { to: '/dashboard', labelKey: 'shell.nav.dashboard' },
  { to: '/channel', labelKey: 'shell.nav.channel', admin: true },
  { to: '/token', labelKey: 'shell.nav.token' },
  { to: '/redemption', labelKey: 'shell.nav.redemption', admin: true },
  { to: '/topup', labelKey: 'shell.nav.topup' },
  { to: '/user', labelKey: 'shell.nav.user', admin: true },
  { to: '/log', labelKey: 'shell.nav.log' },
  { to: '/pricing', labelKey: 'shell.nav.pricing' },
  { to: '/setting', labelKey: 'shell.nav.setting' },
  { to: '/chat', labelKey: 'shell.nav.chat', chat: true, visitor: true },
  { to: '/about', labelKey: 'shell.nav.about', visitor: true },
];

/**
 * The header menu for a viewer (spec §2): admin entries for role >= 10, chat only when linked;
 * signed out, only home, chat and about (the other pages send a visitor to /login).
 */
export const menuItems = ({ signedIn, isAdmin, chatLink }: MenuAccess): readonly MenuItem[] =>
  all
    .filter(
      (item) =>
        (signedIn || item.visitor === true) && (item.admin !== true || (signedIn && isAdmin)) && (item.chat !== true || chatLink !== ''),
    )
    .map(({ to, labelKey }) => ({ to, labelKey }));

/**
 * Routes inside a menu entry's path that belong elsewhere: the viewer's own profile is reached
 * from the settings page, and the password reset link is nobody's entry (not the user list's).
 */
const ownedElsewhere: Readonly<Record<string, string | null>> = { '/user/edit': '/setting', '/user/reset': null };

const within = (to: string, pathname: string): boolean =>
  to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);

/** The menu entry (its `to`) that `pathname` belongs to, or null ('/' only matches itself). */
export const activeEntryOf = (pathname: string): string | null => {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path in ownedElsewhere) return ownedElsewhere[path] ?? null;
  return all.find((item) => within(item.to, path))?.to ?? null;
};

/** Whether the menu entry `to` is the current page's. */
export const isActive = (to: string, pathname: string): boolean => activeEntryOf(pathname) === to;

/** Pages outside the menu that still name themselves in the tab title. */
const titledPages: Readonly<Record<string, MessageKey>> = {
  '/login': 'shell.account.login',
  '/register': 'shell.account.register',
};

/**
 * The page's name for the browser tab title ('令牌 - My Gateway'), null on home and unnamed pages;
 * the 403 page's title when the route guard forbids it (`access`, src/domain/shellRules).
 */
export const pageTitleKeyOf = (pathname: string, access: RouteAccess = 'allow'): MessageKey | null => {
  // A common user on an admin URL sees the 403 page: the tab says so, not the admin page's name.
  if (access === 'forbidden') return 'shell.forbidden.title';
  const titled = titledPages[pathname];
  if (titled !== undefined) return titled;
  if (pathname in ownedElsewhere) return null;
  const entry = all.find((item) => item.to !== '/' && within(item.to, pathname));
  return entry?.labelKey ?? null;
};

/** The tab title: '{page} - {system name}', or the system name alone. */
export const documentTitleOf = (page: string | null, systemName: string): string =>
  page === null || page === '' ? systemName : `${page} - ${systemName}`;

/**
 * How many menu entries fit on the header's row (the rest go into the "More" menu): all when
 * their widths fit `available`, else as many as fit beside the More button (at least none).
 */
export const fitNavItems = (widths: readonly number[], available: number, moreWidth: number): number => {
  const total = widths.reduce((sum, w) => sum + w, 0);
  if (total <= available) return widths.length;
  let used = moreWidth;
  let count = 0;
  for (const w of widths) {
    if (used + w > available) break;
    used += w;
    count += 1;
  }
  return count;
};
