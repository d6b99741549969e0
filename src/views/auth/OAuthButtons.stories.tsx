import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NotifyEvent } from '../../domain/message';
import { authorizeUrl, oauthLaunchMachine } from '../../machines/oauthLaunch';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import type { AlternateLogins } from '../../domain/loginMethods';
import { OAuthButtons } from './OAuthButtons';

const origin = 'https://console.example.com';
const methods: AlternateLogins = { github: 'gh-client', lark: 'cli_lark', wechat: null };

/** Spies the stories observe: the window the machine opens and the toasts it asks for. */
const openWindow = fn<(url: string) => void>();
const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn() };

const withState = (fetchOAuthState: ReturnType<typeof fromPromise<string>>) =>
  oauthLaunchMachine.provide({
    actors: { fetchOAuthState },
    actions: { openWindow: (_, params) => openWindow(params.url) },
  });
const never = withState(fromPromise<string>(() => new Promise<string>(() => undefined)));
const resolves = withState(fromPromise<string>(() => Promise.resolve('AbC123xyz789')));
const rejects = withState(
  fromPromise<string>(async () => {
    await Promise.resolve();
    throw failure('getOAuthState', '管理员未开启通过 GitHub 登录以及注册');
  }),
);

const idle = { [oauthLaunchMachine.id]: oauthLaunchMachine.resolveState({ value: 'idle', context: { origin, pending: null } }) };
const fetching = {
  [oauthLaunchMachine.id]: oauthLaunchMachine.resolveState({
    value: 'fetchingState',
    context: { origin, pending: { provider: 'github', clientId: 'gh-client' } },
  }),
};

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Auth/OAuthButtons',
  component: OAuthButtons,
  args: { methods },
} satisfies Meta<typeof OAuthButtons>;
export default meta;
type Story = StoryObj<typeof meta>;

/** State `idle`. */
export const Idle: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[resolves]} snapshots={idle}>
      <OAuthButtons {...args} />
    </MachineRegistryProvider>
  ),
};

/** State `fetchingState`: the GitHub button shows progress, both are disabled. */
export const FetchingState: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[never]} snapshots={fetching}>
      <OAuthButtons {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '使用 GitHub 登录' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '使用飞书登录' })).toBeDisabled();
  },
};

/** Only the GitHub button when Lark is not configured. */
export const GitHubOnly: Story = {
  tags: ['!dev', '!autodocs'],
  args: { methods: { github: 'gh-client', lark: null, wechat: null } },
  render: Idle.render,
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** State `idle`: a click fetches the state and opens GitHub's authorisation page. */
export const IdleInteraction: Story = {
  ...Idle,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    openWindow.mockClear();
    await userEvent.click(within(canvasElement).getByRole('button', { name: '使用 GitHub 登录' }));
    await waitFor(() =>
      expect(openWindow).toHaveBeenCalledWith(authorizeUrl('github', 'gh-client', 'AbC123xyz789', origin)),
    );
  },
};

/** A live run from the start (origin from the page): Lark opens with the console's callback. */
export const LarkLaunchInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[resolves]}>
      <OAuthButtons {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    openWindow.mockClear();
    await userEvent.click(within(canvasElement).getByRole('button', { name: '使用飞书登录' }));
    await waitFor(() =>
      expect(openWindow).toHaveBeenCalledWith(
        authorizeUrl('lark', 'cli_lark', 'AbC123xyz789', window.location.origin),
      ),
    );
  },
};

/** The state fetch fails: the API error becomes a toast and the buttons are ready again. */
export const StateFetchFailsInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[rejects]} snapshots={idle}>
        <OAuthButtons {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const github = within(canvasElement).getByRole('button', { name: '使用 GitHub 登录' });
    await userEvent.click(github);
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        type: 'notify',
        level: 'error',
        message: { text: '管理员未开启通过 GitHub 登录以及注册' },
      }),
    );
    await waitFor(() => expect(github).toBeEnabled());
  },
};
