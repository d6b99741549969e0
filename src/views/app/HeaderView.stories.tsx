import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { openDeferred } from './afterPage';
import { HeaderView } from './HeaderView';
import { menuItems } from './menu';

const meta = {
  title: 'App/HeaderView',
  component: HeaderView,
  args: {
    systemName: 'One API',
    logo: '/logo.png',
    items: menuItems({ signedIn: false, isAdmin: false, chatLink: '' }),
    pathname: '/',
    userName: null,
    signingOut: false,
    lang: 'zh',
    colorMode: 'light',
    onLangChange: fn(),
    onToggleColorMode: fn(),
    onLogout: fn(),
  },
} satisfies Meta<typeof HeaderView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Signed out: the common menu, login and register buttons. */
export const SignedOut: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const nav = c.getByRole('navigation', { name: '主导航' });
    await expect(within(nav).getByRole('link', { name: '首页' })).toHaveAttribute('aria-current', 'page');
    await expect(within(nav).queryByRole('link', { name: '渠道' })).toBeNull();
    // a visitor is offered only the pages a visitor can open
    await expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['首页', '关于']);
    await expect(c.getByRole('link', { name: '登录' })).toHaveAttribute('href', '/login');
    await expect(c.getByRole('link', { name: '注册' })).toHaveAttribute('href', '/register');
  },
};

/** Signed out with a chat link: home, chat and about (chat is open to visitors). */
export const SignedOutWithChat: Story = {
  args: { items: menuItems({ signedIn: false, isAdmin: false, chatLink: 'https://chat.example.com' }) },
  play: async ({ canvasElement }) => {
    const nav = within(within(canvasElement).getByRole('navigation', { name: '主导航' }));
    await expect(nav.getAllByRole('link').map((a) => a.textContent)).toEqual(['首页', '聊天', '关于']);
  },
};

/** Every entry of the row is on one line, and the row does not overflow the header. */
async function expectOneLine(canvasElement: HTMLElement) {
  const nav = within(canvasElement).getByRole('navigation', { name: 'Main navigation' });
  await waitFor(() => expect(nav.scrollWidth).toBeLessThanOrEqual(nav.clientWidth + 1));
  const links = within(nav).getAllByRole('link');
  const tops = new Set(links.map((a) => Math.round(a.getBoundingClientRect().top)));
  await expect(tops.size).toBe(1);
  for (const a of links) await expect(a.getBoundingClientRect().height).toBeLessThan(parseFloat(getComputedStyle(a).lineHeight) * 2);
}

const adminChat = menuItems({ signedIn: true, isAdmin: true, chatLink: 'https://chat.example.com' });
const english = { items: adminChat, userName: 'Alice Administrator', lang: 'en', pathname: '/about' } as const;

/** English with chat at 1366 px: the entries stay on one line; what does not fit is under "More". */
export const EnglishOverflow1366: Story = {
  args: english,
  parameters: { lang: 'en' },
  decorators: [(Story) => <div style={{ width: 1366 }}>{Story()}</div>],
  play: async ({ canvasElement }) => {
    await expectOneLine(canvasElement);
    const nav = within(within(canvasElement).getByRole('navigation', { name: 'Main navigation' }));
    const shown = nav.getAllByRole('link').length;
    if (shown < adminChat.length) await expect(await nav.findByRole('button', { name: 'More' })).toBeVisible();
    else await expect(nav.queryByRole('button', { name: 'More' })).toBeNull();
  },
};

/** English with chat at 1024 px: fewer entries on the row, the rest (here the current page) under "More". */
export const EnglishOverflow1024: Story = {
  args: english,
  parameters: { lang: 'en' },
  decorators: [(Story) => <div style={{ width: 1024 }}>{Story()}</div>],
  play: async ({ canvasElement }) => {
    await expectOneLine(canvasElement);
    const nav = within(within(canvasElement).getByRole('navigation', { name: 'Main navigation' }));
    await expect(await nav.findByRole('button', { name: 'More' })).toBeVisible();
    await expect(nav.getAllByRole('link').length).toBeLessThan(adminChat.length);
    await expect(nav.queryByRole('link', { name: 'About' })).toBeNull();
  },
};

/** A common user: their own entries and the account menu with logout. */
export const CommonUser: Story = {
  args: { items: menuItems({ signedIn: true, isAdmin: false, chatLink: '' }), userName: 'Alice', pathname: '/token' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('link', { name: '令牌' })).toHaveAttribute('aria-current', 'page');
  },
};

/** An admin with a chat link: channel, redemption, user and chat entries appear. */
export const AdminWithChat: Story = {
  args: { userName: 'Admin Boss', items: menuItems({ signedIn: true, isAdmin: true, chatLink: 'https://chat.example.com' }) },
  play: async ({ canvasElement }) => {
    const nav = within(within(canvasElement).getByRole('navigation', { name: '主导航' }));
    for (const name of ['渠道', '兑换', '用户', '聊天']) await expect(nav.getByRole('link', { name })).toBeVisible();
  },
};

/** Signing out: the account button shows progress. */
export const SigningOut: Story = { args: { items: menuItems({ signedIn: true, isAdmin: false, chatLink: '' }), userName: 'Alice', signingOut: true } };

/** English, dark mode. */
export const EnglishDark: Story = {
  args: { items: menuItems({ signedIn: true, isAdmin: false, chatLink: '' }), lang: 'en', colorMode: 'dark', userName: 'Alice' },
  parameters: { lang: 'en', colorMode: 'dark' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '中文' })).toBeVisible();
    await expect(c.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();
    await expect(c.getByRole('link', { name: 'Tokens' })).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Signed out: the common menu, login and register buttons. */
export const SignedOutInteraction: Story = {
  ...SignedOut,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement, args }) => {
    const c = within(canvasElement);
    const nav = c.getByRole('navigation', { name: '主导航' });
    await expect(within(nav).getByRole('link', { name: '首页' })).toHaveAttribute('aria-current', 'page');
    await expect(within(nav).queryByRole('link', { name: '渠道' })).toBeNull();
    await expect(c.getByRole('link', { name: '登录' })).toHaveAttribute('href', '/login');
    await expect(c.getByRole('link', { name: '注册' })).toHaveAttribute('href', '/register');
    await userEvent.click(c.getByRole('button', { name: 'English' }));
    await expect(args.onLangChange).toHaveBeenCalledWith('en');
    const toggle = c.getByRole('button', { name: '切换到深色模式' });
    // the glyph is a real svg, sized by the icon recipe
    await expect(toggle.querySelector('svg path')).not.toBeNull();
    await userEvent.click(toggle);
    await expect(args.onToggleColorMode).toHaveBeenCalled();
  },
};

/** A common user: their own entries and the account menu with logout. */
export const CommonUserInteraction: Story = {
  ...CommonUser,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement, args }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('link', { name: '令牌' })).toHaveAttribute('aria-current', 'page');
    const account = await c.findByRole('button', { name: '账户菜单：Alice' });
    await userEvent.click(account);
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await body.findByRole('menuitem', { name: '注销' }));
    await expect(args.onLogout).toHaveBeenCalled();
  },
};

/** English at 1024 px: the "More" menu opens from the keyboard, lists the rest, and marks the current page. */
export const EnglishOverflowKeyboardInteraction: Story = {
  ...EnglishOverflow1024,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    // the account menu loads after the first page (at the latest 8 s into the story run): let it
    // load now, not while the More menu is open
    openDeferred();
    await within(canvasElement).findByRole('button', { name: 'Account menu: Alice Administrator' }, { timeout: 5000 });
    const nav = within(within(canvasElement).getByRole('navigation', { name: 'Main navigation' }));
    const more = await nav.findByRole('button', { name: 'More' });
    await waitFor(() => expect(more).toBeEnabled());
    more.focus();
    await userEvent.keyboard('{Enter}');
    const body = within(canvasElement.ownerDocument.body);
    const about = await body.findByRole('menuitem', { name: 'About' });
    await expect(about).toHaveAttribute('href', '/about');
    await expect(about).toHaveAttribute('aria-current', 'page');
    await expect(body.getByRole('menuitem', { name: 'Chat' })).toHaveAttribute('href', '/chat');
    await userEvent.keyboard('{Escape}');
    // the menu leaves after its exit animation: over 1 s once in a full CI run
    await waitFor(() => expect(body.queryByRole('menuitem', { name: 'About' })).toBeNull(), { timeout: 5000 });
  },
};
