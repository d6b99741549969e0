import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ReactNode } from 'react';
import { createActor, fromPromise, type AnyMachineSnapshot } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { User } from '../../domain/user';
import { topUpMachine, type RedeemCodeInput, type TopUpContext } from '../../machines/topUp';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { SessionStory, seedSession, storyStatus, stubSession } from '../app/stories/SessionStory';
import { TopUpPage } from './TopUpPage';
import { enterText } from '../app/stories/enterText';

const alice: User = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1, quota: 500000 };
const quotaDisplay = { displayInCurrency: true, quotaPerUnit: 500000 };
const topUpLink = 'https://pay.example.com/buy';
const status = { ...storyStatus, display_in_currency: true, quota_per_unit: 500000, top_up_link: topUpLink };

const notify = fn<(e: NotifyEvent) => void>();
/** The user record the session stores (a redemption hands it the refreshed account). */
const sessionSaved = fn<(user: User | null) => void>();
const session = stubSession().provide({ actions: { saveUser: (_, { user }) => sessionSaved(user) } });
/** The session a seeded (frozen) page names: never started, nothing is sent to it in those stories. */
const seededSession = createActor(stubSession(), { input: { user: null, status: null, buildVersion: 'v0.1.0' }, snapshot: seedSession({ user: alice, status }) });
const opened = fn<(url: string) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };

let stored: User = alice;
const never = <T,>() => new Promise<T>(() => undefined);
const live = (redeem: (key: string) => Promise<number>) =>
  topUpMachine.provide({
    actors: {
      loadSelf: fromPromise<User>(() => Promise.resolve(stored)),
      redeemCode: fromPromise<number, RedeemCodeInput>(({ input }) => redeem(input.key)),
      createTransactionId: fromPromise<string>(() => Promise.resolve('00000000-0000-4000-8000-000000000000')),
    },
    actions: { openWindow: (_, { url }) => opened(url) },
  });
const redeems = live(async (key) => {
  await Promise.resolve();
  if (key !== 'good-code') throw failure('POST /api/user/topup', '兑换失败，无效的兑换码');
  stored = { ...stored, quota: (stored.quota ?? 0) + 250000 };
  return 250000;
});
const frozen = topUpMachine.provide({
  actors: {
    loadSelf: fromPromise<User>(() => never<User>()),
    redeemCode: fromPromise<number, RedeemCodeInput>(() => never<number>()),
    createTransactionId: fromPromise<string>(() => never<string>()),
  },
  actions: { openWindow: () => undefined },
});

type Value = 'loading' | 'ready' | 'redeeming' | 'refreshing' | 'openingLink';
const seed = (value: Value, over: Partial<TopUpContext> = {}) => ({
  [topUpMachine.id]: topUpMachine.resolveState({
    value,
    context: { session: seededSession, user: alice, quotaDisplay, topUpLink, code: '', pendingLink: '', ...over },
  }),
});

/*
 * The states this page shows are its view's stories (TopUpPageView). Here: the journeys through the
 * real machine (interaction stories), the states only the page has, and, tagged '!dev', the frozen
 * states its view already shows: they stay as tests of what the page hands its view and are left
 * out of the sidebar and the docs page.
 */
const meta = {
  title: 'TopUp/TopUpPage',
  component: TopUpPage,
  parameters: { route: '/topup' },
} satisfies Meta<typeof TopUpPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The page in a signed-in session (alice, the top-up link configured, quotas in currency). */
function Frame({
  machines,
  snapshots,
  link = topUpLink,
  children,
}: {
  readonly machines: readonly (typeof frozen)[];
  readonly snapshots?: Readonly<Record<string, AnyMachineSnapshot>>;
  readonly link?: string;
  readonly children: ReactNode;
}) {
  return (
    <SessionStory session={session} snapshot={seedSession({ user: alice, status: { ...status, top_up_link: link } })}>
      <EffectsProvider value={effects}>
        <MachineRegistryProvider machines={machines} snapshots={snapshots}>
          {children}
        </MachineRegistryProvider>
      </EffectsProvider>
    </SessionStory>
  );
}

/** A live run: the quota loads, a code is redeemed, the toast says how much and the shell hears of it. */
export const RedeemInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => (
    <Frame machines={[redeems]}>
      <TopUpPage />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    stored = alice;
    notify.mockClear();
    sessionSaved.mockClear();
    const c = within(canvasElement);
    await waitFor(() => expect(c.getByTestId('remaining-quota')).toHaveTextContent('$1.00'));
    await userEvent.click(c.getByRole('button', { name: '兑换' }));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'info', message: { key: 'validation.topUp.codeRequired' } });
    await enterText(c.getByLabelText('兑换码'), 'good-code');
    await userEvent.click(c.getByRole('button', { name: '兑换' }));
    await waitFor(() => expect(c.getByTestId('remaining-quota')).toHaveTextContent('$1.50'));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'topUp.redeemed', params: { quota: '$0.50' } } });
    await expect(sessionSaved).toHaveBeenCalledWith({ ...alice, quota: 750000 });
    await expect(c.getByLabelText('兑换码')).toHaveValue('');
  },
};

/** A refused code: the server's message, the code stays. */
export const RefusedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => (
    <Frame machines={[redeems]} snapshots={seed('ready', { code: 'used-code' })}>
      <TopUpPage />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '兑换' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: '兑换失败，无效的兑换码' } }));
    await expect(c.getByLabelText('兑换码')).toHaveValue('used-code');
  },
};

/** "Top up" opens the link with username, user_id and the generated transaction id. */
export const OpenLinkInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => (
    <Frame machines={[redeems]} snapshots={seed('ready')}>
      <TopUpPage />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    opened.mockClear();
    await userEvent.click(within(canvasElement).getByRole('button', { name: '充值' }));
    await waitFor(() =>
      expect(opened).toHaveBeenCalledWith(
        'https://pay.example.com/buy?username=alice&user_id=2&transaction_id=00000000-0000-4000-8000-000000000000',
      ),
    );
  },
};

/** No link configured: the super administrator message, nothing opens. */
export const NoLinkInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => (
    <Frame machines={[redeems]} snapshots={seed('ready', { topUpLink: '' })} link="">
      <TopUpPage />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    opened.mockClear();
    await userEvent.click(within(canvasElement).getByRole('button', { name: '充值' }));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { key: 'validation.topUp.noLink' } });
    await expect(opened).not.toHaveBeenCalled();
  },
};

/** State `loading`. */
export const Loading: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Frame machines={[frozen]} snapshots={seed('loading')}>
      <TopUpPage />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('正在加载额度……')).toBeVisible();
  },
};

/** State `ready` (no quota known: the sparse session user). */
export const Ready: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Frame machines={[frozen]} snapshots={seed('ready', { user: { ...alice, quota: undefined } })}>
      <TopUpPage />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTestId('remaining-quota')).toHaveTextContent('—');
  },
};

/** State `redeeming`: the field and buttons are disabled. */
export const Redeeming: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Frame machines={[frozen]} snapshots={seed('redeeming', { code: 'good-code' })}>
      <TopUpPage />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('兑换码')).toBeDisabled();
    await expect(c.getByRole('button', { name: /兑换/ })).toBeDisabled();
  },
};

/** State `refreshing`: the new quota is read back. */
export const Refreshing: Story = {
  render: () => (
    <Frame machines={[frozen]} snapshots={seed('refreshing')}>
      <TopUpPage />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: /充值/ })).toBeDisabled();
  },
};

/** State `openingLink`. */
export const OpeningLink: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Frame machines={[frozen]} snapshots={seed('openingLink', { pendingLink: 'https://pay.example.com/buy' })}>
      <TopUpPage />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTestId('remaining-quota')).toHaveTextContent('$1.00');
  },
};

/** English and dark mode. */
export const EnglishDark: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', colorMode: 'dark' },
  render: () => (
    <Frame machines={[frozen]} snapshots={seed('ready')}>
      <TopUpPage />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'Top up quota' })).toBeVisible();
  },
};
