import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { Text } from '@chakra-ui/react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { turnstileMachine, type TurnstileContext } from '../../machines/turnstile';
import { MachineRegistryProvider } from '../app/machineRegistry';
import { Turnstile, useTurnstile } from './Turnstile';
import { installFakeTurnstile } from './TurnstileFake';

const withLoader = (loadTurnstile: ReturnType<typeof fromPromise<void>>) => turnstileMachine.provide({ actors: { loadTurnstile } });
const never = withLoader(fromPromise<void>(() => new Promise<void>(() => undefined)));
const resolves = withLoader(fromPromise<void>(() => Promise.resolve()));
const rejects = withLoader(
  fromPromise<void>(async () => {
    await Promise.resolve();
    throw new Error('Turnstile script timed out');
  }),
);

const seed = (value: 'idle' | 'loading' | 'ready' | 'solved' | 'failed', context: TurnstileContext = { token: null }) => ({
  [turnstileMachine.id]: turnstileMachine.resolveState({ value, context }),
});

/** The widget as a page uses it: its actor from the registry, the token shown beside it. */
function Harness({ siteKey }: { readonly siteKey: string }) {
  const { actorRef, token } = useTurnstile();
  return (
    <>
      <Turnstile actorRef={actorRef} siteKey={siteKey} />
      <Text mt={2} fontSize="sm" data-testid="token">
        {token === '' ? '(no token)' : token}
      </Text>
    </>
  );
}

const meta = {
  title: 'Auth/Turnstile',
  component: Harness,
  args: { siteKey: '1x00000000000000000000AA' },
  beforeEach: () => installFakeTurnstile('tok-from-provider'),
} satisfies Meta<typeof Harness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** State `idle`: putting the box on the page starts loading the script. */
export const Idle: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[never]} snapshots={seed('idle')}>
      <Harness {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('正在加载人机验证……')).toBeVisible();
  },
};

/** State `loading`. */
export const Loading: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[never]} snapshots={seed('loading')}>
      <Harness {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('group', { name: '人机验证' })).toHaveAttribute('aria-busy', 'true');
  },
};

/** State `ready`. */
export const Ready: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[resolves]} snapshots={seed('ready')}>
      <Harness {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByTestId('token')).toHaveTextContent('(no token)');
  },
};

/** State `solved`: the token is held. */
export const Solved: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[resolves]} snapshots={seed('solved', { token: 'tok-held' })}>
      <Harness {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTestId('token')).toHaveTextContent('tok-held');
  },
};

/** State `failed`. */
export const Failed: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[never]} snapshots={seed('failed')}>
      <Harness {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('Failed to load Turnstile.')).toBeVisible();
  },
};

/** A live run whose script fails to load. */
export const LoadFails: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[rejects]}>
      <Harness {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('Failed to load Turnstile.')).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** State `ready`: the provider's challenge is rendered; solving it hands over the token. */
export const ReadyInteraction: Story = {
  ...Ready,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByTestId('token')).toHaveTextContent('(no token)');
    await userEvent.click(await c.findByRole('button', { name: 'Verify you are human' }));
    await waitFor(() => expect(c.getByTestId('token')).toHaveTextContent('tok-from-provider'));
  },
};

/** State `failed`: the script did not load; retry loads it again. */
export const FailedInteraction: Story = {
  ...Failed,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('Failed to load Turnstile.')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(await c.findByText('正在加载人机验证……')).toBeVisible();
  },
};

/** A live run: the script loads, the challenge appears and is solved. */
export const LoadsAndSolvesInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[resolves]}>
      <Harness {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: 'Verify you are human' }));
    await waitFor(() => expect(c.getByTestId('token')).toHaveTextContent('tok-from-provider'));
  },
};
