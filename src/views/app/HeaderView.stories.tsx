import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { HeaderView } from './HeaderView';
import { menuItems } from './menu';

const meta = {
  title: 'App/HeaderView',
  component: HeaderView,
  args: {
    systemName: 'One API',
    logo: '/logo.png',
    items: menuItems({ isAdmin: false, chatLink: '' }),
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
    await expect(c.getByRole('link', { name: '登录' })).toHaveAttribute('href', '/login');
    await expect(c.getByRole('link', { name: '注册' })).toHaveAttribute('href', '/register');
  },
};

/** A common user: their own entries and the account menu with logout. */
export const CommonUser: Story = {
  args: { userName: 'Alice', pathname: '/token' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('link', { name: '令牌' })).toHaveAttribute('aria-current', 'page');
  },
};

/** An admin with a chat link: channel, redemption, user and chat entries appear. */
export const AdminWithChat: Story = {
  args: { userName: 'Admin Boss', items: menuItems({ isAdmin: true, chatLink: 'https://chat.example.com' }) },
  play: async ({ canvasElement }) => {
    const nav = within(within(canvasElement).getByRole('navigation', { name: '主导航' }));
    for (const name of ['渠道', '兑换', '用户', '聊天']) await expect(nav.getByRole('link', { name })).toBeVisible();
  },
};

/** Signing out: the account button shows progress. */
export const SigningOut: Story = { args: { userName: 'Alice', signingOut: true } };

/** English, dark mode. */
export const EnglishDark: Story = {
  args: { lang: 'en', colorMode: 'dark', userName: 'Alice' },
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
