import type { MessageKey } from '../../i18n';

export interface MenuItem {
  readonly to: string;
  readonly labelKey: MessageKey;
}

export interface MenuAccess {
  readonly isAdmin: boolean;
  /** The configured chat link ('' hides the chat entry). */
  readonly chatLink: string;
}

const all: readonly (MenuItem & { readonly admin?: true; readonly chat?: true })[] = [
  { to: '/', labelKey: 'shell.nav.home' },
  { to: '/dashboard', labelKey: 'shell.nav.dashboard' },
  { to: '/channel', labelKey: 'shell.nav.channel', admin: true },
  { to: '/token', labelKey: 'shell.nav.token' },
  { to: '/redemption', labelKey: 'shell.nav.redemption', admin: true },
  { to: '/topup', labelKey: 'shell.nav.topup' },
  { to: '/user', labelKey: 'shell.nav.user', admin: true },
  { to: '/log', labelKey: 'shell.nav.log' },
  { to: '/setting', labelKey: 'shell.nav.setting' },
  { to: '/chat', labelKey: 'shell.nav.chat', chat: true },
  { to: '/about', labelKey: 'shell.nav.about' },
];

/** The header menu for a viewer (spec §2): admin entries for role >= 10, chat only when linked. */
export const menuItems = ({ isAdmin, chatLink }: MenuAccess): readonly MenuItem[] =>
  all
    .filter((item) => (item.admin !== true || isAdmin) && (item.chat !== true || chatLink !== ''))
    .map(({ to, labelKey }) => ({ to, labelKey }));

/** Whether `pathname` is inside the menu entry `to` ('/' only matches itself). */
export const isActive = (to: string, pathname: string): boolean =>
  to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);
