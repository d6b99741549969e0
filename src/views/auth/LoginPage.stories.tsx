import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import type { Status } from '../../domain/status';
import type { ExternalSignIn } from '../../domain/twoFactor';
import type { User } from '../../domain/user';
import { oauthLaunchMachine } from '../../machines/oauthLaunch';
import { wechatLoginMachine } from '../../machines/wechatLogin';
import { MachineRegistryProvider } from '../app/machineRegistry';
import { SessionStory, seedSession, storyStatus, stubSession } from '../app/stories/SessionStory';
import { LoginPage } from './LoginPage';
import { enterText } from '../app/stories/enterText';

/*
 * The /login container, one story per session state (conventions §4). The password login is
 * the app session's: the stub `logIn` is a spy that never answers, so a sent login stays in
 * `signingIn` and nothing reaches the network.
 */

const never = <T,>() => new Promise<T>(() => undefined);

/** The session's `logIn` actor: records what the session sends, never answers. */
const logIn = fn((_credentials: { username: string; password: string }) => never<User>());
const session = stubSession({ logIn });

/** A stand-in QR image (inline, no network). */
const qrCode =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 8 8"><rect width="8" height="8" fill="#fff"/><path d="M1 1h2v2H1zM5 1h2v2H5zM1 5h2v2H1zM4 4h1v1H4zM5 6h2v1H5z" fill="#111"/></svg>',
  );

/** Every alternate login the server can enable. */
const allLogins: Status = {
  ...storyStatus,
  github_oauth: true,
  github_client_id: 'gh-client',
  lark_client_id: 'cli_lark',
  wechat_login: true,
  wechat_qrcode: qrCode,
};
/** None enabled (GitHub's client id set but the switch off: still not offered). */
const noLogins: Status = {
  ...storyStatus,
  github_oauth: false,
  github_client_id: 'gh-client',
  lark_client_id: '',
  wechat_login: false,
  wechat_qrcode: qrCode,
};

/** The alternate logins' own machines, stubbed (nothing is fetched or opened). */
const oauthLaunch = oauthLaunchMachine.provide({
  actors: { fetchOAuthState: fromPromise<string>(() => never<string>()) },
  actions: { openWindow: () => undefined },
});
const wechatLogin = wechatLoginMachine.provide({
  actors: { loginWithWeChat: fromPromise<ExternalSignIn, string>(() => never<ExternalSignIn>()) },
});

function LoginStory({ snapshot }: { readonly snapshot: ReturnType<typeof seedSession> }) {
  return (
    <SessionStory session={session} snapshot={snapshot}>
      <MachineRegistryProvider machines={[oauthLaunch, wechatLogin]}>
        <LoginPage />
      </MachineRegistryProvider>
    </SessionStory>
  );
}

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Auth/LoginPage',
  component: LoginPage,
  parameters: { route: '/login' },
  beforeEach: () => {
    logIn.mockClear();
  },
} satisfies Meta<typeof LoginPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** * Session `signedOut`: the form, its links, no alternate logins (none enabled). Login validation: the session sends nothing unless both fields are filled (the username trimmed). */
export const SignedOut: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <LoginStory snapshot={seedSession({ auth: 'signedOut' })} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '用户登录' })).toBeVisible();
    await expect(c.getByRole('link', { name: '点击重置' })).toHaveAttribute('href', '/reset');
    await expect(c.getByRole('link', { name: '点击注册' })).toHaveAttribute('href', '/register');
    await expect(c.queryByText('其他登录方式')).toBeNull();
    await expect(c.queryByText('未登录或登录已过期，请重新登录！')).toBeNull();
  },
};

/** `?expired=true` (a 401 sent the browser here): the warning above the form. */
export const SessionExpired: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { route: '/login?expired=true' },
  render: () => <LoginStory snapshot={seedSession({ auth: 'signedOut' })} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('未登录或登录已过期，请重新登录！')).toBeVisible();
    await expect(c.getByRole('button', { name: '登录' })).toBeEnabled();
  },
};

/** `signedOut` with GitHub, Lark and WeChat enabled by the server status. */
export const AllAlternateLogins: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <LoginStory snapshot={seedSession({ auth: 'signedOut', status: allLogins })} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('其他登录方式')).toBeVisible();
    await expect(c.getByRole('button', { name: '使用 GitHub 登录' })).toBeEnabled();
    await expect(c.getByRole('button', { name: '使用飞书登录' })).toBeEnabled();
    // The WeChat dialog loads on demand, only where the server enables it.
    const wechat = await c.findByRole('button', { name: '使用微信验证码登录' });
    await expect(wechat).toBeEnabled();
  },
};

/** `signedOut` with every alternate login switched off: no buttons, no separator. */
export const NoAlternateLogins: Story = {
  render: () => <LoginStory snapshot={seedSession({ auth: 'signedOut', status: noLogins })} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.queryByText('其他登录方式')).toBeNull();
    await expect(c.queryByRole('button', { name: '使用 GitHub 登录' })).toBeNull();
    await expect(c.queryByRole('button', { name: '使用飞书登录' })).toBeNull();
    await expect(c.queryByRole('button', { name: '使用微信验证码登录' })).toBeNull();
    await expect(c.getAllByRole('button')).toHaveLength(1);
  },
};

/** The status has not arrived yet (null): no alternate logins are offered. */
export const StatusUnknown: Story = {
  render: () => <LoginStory snapshot={seedSession({ phase: 'loading', auth: 'signedOut', status: null })} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.queryByText('其他登录方式')).toBeNull();
    await expect(c.getByRole('button', { name: '登录' })).toBeEnabled();
  },
};

/** Session `signingIn` (frozen: the login is on its way): the button is busy. */
export const SigningIn: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <LoginStory snapshot={seedSession({ auth: 'signingIn', pendingLogin: { to: '/token', defaultPassword: false } })} />
  ),
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: '登录' });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('data-loading');
    // A frozen snapshot starts nothing.
    await expect(logIn).not.toHaveBeenCalled();
  },
};

/** English: the expired warning and the form in the other language. */
export const English: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', route: '/login?expired=true' },
  render: () => <LoginStory snapshot={seedSession({ auth: 'signedOut', status: allLogins })} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(c.getByText('Not logged in or the login has expired, please log in again!')).toBeVisible();
    await expect(c.getByLabelText('Username or e-mail')).toBeVisible();
    await expect(c.getByRole('button', { name: 'Log in' })).toBeEnabled();
    await expect(c.getByRole('button', { name: 'Sign in with GitHub' })).toBeVisible();
    await expect(c.getByRole('button', { name: 'Sign in with Lark' })).toBeVisible();
    await expect(await c.findByRole('button', { name: 'Sign in with a WeChat code' })).toBeVisible();
  },
};

/** Status `password_login: false` (PasswordLoginEnabled off): no password form, the OAuth/WeChat buttons stay. */
export const PasswordLoginDisabled: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <LoginStory snapshot={seedSession({ auth: 'signedOut', status: { ...allLogins, password_login: false } })} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('管理员已关闭密码登录，请使用下方的其他登录方式。')).toBeVisible();
    await expect(c.queryByLabelText('用户名或邮箱')).toBeNull();
    await expect(c.queryByLabelText('密码')).toBeNull();
    await expect(c.queryByRole('button', { name: '登录' })).toBeNull();
    await expect(c.getByRole('button', { name: '使用 GitHub 登录' })).toBeEnabled();
    await expect(c.getByRole('button', { name: '使用飞书登录' })).toBeEnabled();
    await expect(await c.findByRole('button', { name: '使用微信验证码登录' })).toBeEnabled();
    await expect(c.getByRole('link', { name: '点击注册' })).toHaveAttribute('href', '/register');
  },
};

/** Status `password_login: false` with every alternate login off: no form, no separator, a message to contact the administrator. */
export const NoLoginMethod: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <LoginStory snapshot={seedSession({ auth: 'signedOut', status: { ...noLogins, password_login: false } })} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('alert')).toHaveTextContent('管理员已关闭密码登录，且未启用其他登录方式，请联系管理员。');
    await expect(c.queryByText('管理员已关闭密码登录，请使用下方的其他登录方式。')).toBeNull();
    await expect(c.queryByText('其他登录方式')).toBeNull();
    await expect(c.queryByLabelText('密码')).toBeNull();
    await expect(c.queryByRole('button', { name: '登录' })).toBeNull();
  },
};

/** Status `password_login: true` (sent explicitly): the form as usual. */
export const PasswordLoginEnabled: Story = {
  render: () => <LoginStory snapshot={seedSession({ auth: 'signedOut', status: { ...storyStatus, password_login: true } })} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('密码')).toBeVisible();
    await expect(c.getByRole('button', { name: '登录' })).toBeEnabled();
    await expect(c.queryByText('管理员已关闭密码登录，请使用下方的其他登录方式。')).toBeNull();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/**
 * Session `signedOut`: the form, its links, no alternate logins (none enabled). Login
 * validation: the session sends nothing unless both fields are filled (the username trimmed).
 */
export const SignedOutInteraction: Story = {
  ...SignedOut,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '用户登录' })).toBeVisible();
    await expect(c.getByRole('link', { name: '点击重置' })).toHaveAttribute('href', '/reset');
    await expect(c.getByRole('link', { name: '点击注册' })).toHaveAttribute('href', '/register');
    await expect(c.queryByText('其他登录方式')).toBeNull();
    await expect(c.queryByText('未登录或登录已过期，请重新登录！')).toBeNull();

    const username = c.getByLabelText('用户名或邮箱');
    const password = c.getByLabelText('密码');
    const submit = c.getByRole('button', { name: '登录' });

    // Both empty.
    await userEvent.click(submit);
    // Username empty.
    await enterText(password, 'secret123');
    await userEvent.click(submit);
    // Username blank (only spaces).
    await userEvent.type(username, '   ');
    await userEvent.click(submit);
    // Password empty.
    await userEvent.clear(password);
    await userEvent.clear(username);
    await userEvent.type(username, 'alice');
    await userEvent.click(submit);

    await expect(logIn).toHaveBeenCalledTimes(0);
    await expect(submit).toBeEnabled();
    await expect(submit).not.toHaveAttribute('data-loading');
    await expect(username).toHaveValue('alice');

    // Both filled: one login with the trimmed username; the button shows progress.
    await userEvent.clear(username);
    await enterText(username, '  alice  ');
    await enterText(password, 'secret123');
    await userEvent.click(submit);
    await waitFor(() => expect(logIn).toHaveBeenCalledTimes(1));
    await expect(logIn).toHaveBeenCalledWith({ username: 'alice', password: 'secret123' });
    await waitFor(() => expect(c.getByRole('button', { name: '登录' })).toBeDisabled());
  },
};

/** `signedOut` with GitHub, Lark and WeChat enabled by the server status. */
export const AllAlternateLoginsInteraction: Story = {
  ...AllAlternateLogins,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('其他登录方式')).toBeVisible();
    await expect(c.getByRole('button', { name: '使用 GitHub 登录' })).toBeEnabled();
    await expect(c.getByRole('button', { name: '使用飞书登录' })).toBeEnabled();
    // The WeChat dialog loads on demand, only where the server enables it.
    const wechat = await c.findByRole('button', { name: '使用微信验证码登录' });
    await expect(wechat).toBeEnabled();
    // The WeChat button opens its dialog with the status's QR code.
    await userEvent.click(wechat);
    const dialog = within(await screen.findByRole('dialog'));
    await waitFor(() => expect(dialog.getByRole('img', { name: '微信公众号二维码' })).toHaveAttribute('src', qrCode));
  },
};

/** Session `secondFactor`: the password was right; the TOTP code is asked (no session yet). */
export const SecondFactor: Story = {
  render: () => (
    <LoginStory
      snapshot={seedSession({
        auth: 'secondFactor',
        pendingLogin: { to: '/token', defaultPassword: false },
        secondFactor: { recovery: false, error: null },
      })}
    />
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '两步验证' })).toBeVisible();
    await expect(c.getByLabelText('验证码')).toBeVisible();
    await expect(c.getByRole('button', { name: '改用恢复码' })).toBeEnabled();
    await expect(c.queryByLabelText('密码')).toBeNull();
  },
};

/** `secondFactor` in recovery-code mode, after a refusal: the field names the problem. */
export const SecondFactorRecoveryRefused: Story = {
  render: () => (
    <LoginStory
      snapshot={seedSession({
        auth: 'secondFactor',
        pendingLogin: { to: '/token', defaultPassword: false },
        secondFactor: { recovery: true, error: { text: '恢复码错误或已使用' } },
      })}
    />
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('恢复码')).toBeVisible();
    await expect(c.getByText('恢复码错误或已使用')).toBeVisible();
    await expect(c.getByRole('button', { name: '改用验证码' })).toBeEnabled();
  },
};

/** Session `verifyingSecondFactor`: the code is being checked. */
export const VerifyingSecondFactor: Story = {
  render: () => (
    <LoginStory
      snapshot={seedSession({
        auth: 'verifyingSecondFactor',
        pendingLogin: { to: '/token', defaultPassword: false },
        secondFactor: { recovery: false, error: null },
      })}
    />
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '验证' })).toHaveAttribute('data-loading');
    await expect(c.getByRole('button', { name: '返回登录' })).toBeDisabled();
  },
};
