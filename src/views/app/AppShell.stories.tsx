import type { Meta, StoryObj } from '@storybook/react-vite';
import { Text } from '@chakra-ui/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { expect, userEvent, within } from 'storybook/test';
import { footerMachine } from '../../machines/footer';
import { RequireUser } from './AppRoutes';
import { AppShell } from './AppShell';
import { MachineRegistryProvider } from './machineRegistry';
import { SessionStory, seedSession, storyStatus, storyUsers, type SessionSeed } from './stories/SessionStory';

const footer = footerMachine.provide({ actors: { readStoredFooter: fromPromise(() => Promise.resolve('')) } });

function Shell({ seed }: { readonly seed: SessionSeed }) {
  return (
    <SessionStory key={JSON.stringify(seed)} snapshot={seedSession(seed)}>
      <MachineRegistryProvider machines={[footer]}>
        <AppShell>
          <Text>页面内容</Text>
        </AppShell>
      </MachineRegistryProvider>
    </SessionStory>
  );
}

const meta = {
  title: 'App/AppShell',
  component: Shell,
  args: { seed: {} },
} satisfies Meta<typeof Shell>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Session `status.loading` before any status: the default system name. */
export const StatusLoading: Story = {
  args: { seed: { phase: 'loading', status: null } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('One API')).toBeVisible();
  },
};

/** Session `status.failed`: the shell still works (the toast said the server is unreachable). */
export const StatusFailed: Story = {
  args: { seed: { phase: 'failed', status: null } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('link', { name: '登录' })).toBeVisible();
  },
};

/** `auth.signedOut`: login and register buttons; footer from the status. */
export const SignedOut: Story = {
  args: { seed: { status: { ...storyStatus, system_name: '我的网关' } } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('我的网关')).toBeVisible();
    await expect(c.getByRole('link', { name: '注册' })).toBeVisible();
    await expect(c.getByRole('main')).toHaveTextContent('页面内容');
  },
};

/** `auth.signedIn` as a common user, with a chat link configured. */
export const SignedInCommon: Story = {
  args: { seed: { user: storyUsers.common, status: { ...storyStatus, chat_link: 'https://chat.example.com' } } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByRole('button', { name: '账户菜单：Alice' })).toBeVisible();
    await expect(c.getByRole('link', { name: '聊天' })).toBeVisible();
    await expect(c.queryByRole('link', { name: '渠道' })).toBeNull();
  },
};

/** `auth.signedIn` as an admin: the admin entries. */
export const SignedInAdmin: Story = {
  args: { seed: { user: storyUsers.admin } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    for (const name of ['渠道', '兑换', '用户']) await expect(c.getByRole('link', { name })).toBeVisible();
  },
};

/** `auth.signingOut`: the account button shows progress. */
export const SigningOut: Story = { args: { seed: { user: storyUsers.root, auth: 'signingOut' } } };

/** `auth.signingIn`: nothing changes in the header until the user arrives. */
export const SigningIn: Story = { args: { seed: { auth: 'signingIn', pendingLogin: { to: '/token', defaultPassword: false } } } };

function WhereAmI() {
  const location = useLocation();
  const from = (location.state as { from?: { pathname: string } } | null)?.from?.pathname ?? '';
  return (
    <Text>
      {location.pathname} from {from}
    </Text>
  );
}

function Guarded({ seed }: { readonly seed: SessionSeed }) {
  return (
    <SessionStory key={JSON.stringify(seed)} snapshot={seedSession(seed)}>
      <Routes>
        <Route
          path="/token"
          element={
            <RequireUser>
              <Text>令牌列表</Text>
            </RequireUser>
          }
        />
        <Route path="/login" element={<WhereAmI />} />
      </Routes>
    </SessionStory>
  );
}

/** The login guard sends a signed-out visitor to /login and remembers the origin. */
export const GuardSignedOut: StoryObj<typeof Guarded> = {
  render: () => <Guarded seed={{}} />,
  parameters: { route: '/token' },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('/login from /token')).toBeVisible();
  },
};

/** Signed in, the guarded page shows. */
export const GuardSignedIn: StoryObj<typeof Guarded> = {
  render: () => <Guarded seed={{ user: storyUsers.common }} />,
  parameters: { route: '/token' },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('令牌列表')).toBeVisible();
  },
};

/** `auth.checkingEnrolment`: a restored admin's guarded page waits until the two-factor status says whether they must enrol. */
export const GuardCheckingEnrolment: StoryObj<typeof Guarded> = {
  render: () => <Guarded seed={{ user: storyUsers.admin, auth: 'checkingEnrolment' }} />,
  parameters: { route: '/token' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByRole('status')).toBeVisible();
    await expect(c.queryByText('令牌列表')).toBeNull();
  },
};

/** Dark mode, signed in as an admin. */
export const DarkAdmin: Story = {
  args: { seed: { user: storyUsers.admin } },
  parameters: { colorMode: 'dark' },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Logout from the account menu sends the session to `signingOut`. */
export const LogoutInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  args: { seed: { user: storyUsers.common } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: '账户菜单：Alice' }));
    await userEvent.click(await within(canvasElement.ownerDocument.body).findByRole('menuitem', { name: '注销' }));
    // the stub logout never answers: the session waits with the button busy
    await expect(await c.findByRole('button', { name: '账户菜单：Alice' })).toHaveAttribute('data-loading');
  },
};

function EnrolmentShell({ seed }: { readonly seed: SessionSeed }) {
  const location = useLocation();
  return (
    <SessionStory key={JSON.stringify(seed)} snapshot={seedSession(seed)}>
      <MachineRegistryProvider machines={[footer]}>
        <AppShell>
          <Text>页面：{location.pathname}</Text>
        </AppShell>
      </MachineRegistryProvider>
    </SessionStory>
  );
}

/** `auth.signedIn` as an admin who must enrol (TwoFactorRequiredForAdmins), on the settings: the banner explains, the page shows. */
export const EnrolmentRequired: StoryObj<typeof EnrolmentShell> = {
  render: () => <EnrolmentShell seed={{ user: storyUsers.admin, enrolmentRequired: true }} />,
  parameters: { route: '/setting' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('status')).toHaveTextContent('请先开启两步验证');
    await expect(c.getByText('页面：/setting')).toBeVisible();
  },
};

/** The same admin opening another page is sent to the enrolment (/setting), banner shown. */
export const EnrolmentRedirect: StoryObj<typeof EnrolmentShell> = {
  render: () => <EnrolmentShell seed={{ user: storyUsers.admin, enrolmentRequired: true }} />,
  parameters: { route: '/channel' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByText('页面：/setting')).toBeVisible();
    await expect(c.getByRole('status')).toHaveTextContent('两步验证');
  },
};

/** An admin who need not enrol stays where they are; no banner. */
export const EnrolmentNotRequired: StoryObj<typeof EnrolmentShell> = {
  render: () => <EnrolmentShell seed={{ user: storyUsers.admin }} />,
  parameters: { route: '/channel' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('页面：/channel')).toBeVisible();
    await expect(c.queryByText('请先开启两步验证')).toBeNull();
  },
};
