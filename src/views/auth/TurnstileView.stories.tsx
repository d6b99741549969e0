import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { installFakeTurnstile } from './TurnstileFake';
import { TurnstileView } from './TurnstileView';

const meta = {
  title: 'Auth/TurnstileView',
  component: TurnstileView,
  args: {
    siteKey: '1x00000000000000000000AA',
    phase: 'ready',
    onMounted: fn(),
    onToken: fn(),
    onExpired: fn(),
    onChallengeError: fn(),
    onRetry: fn(),
  },
  beforeEach: () => installFakeTurnstile(),
} satisfies Meta<typeof TurnstileView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Idle: Story = {
  args: { phase: 'idle' },
  play: async ({ args }) => {
    // the box on the page asks for the script
    await expect(args.onMounted).toHaveBeenCalled();
  },
};
export const Loading: Story = {
  args: { phase: 'loading' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('正在加载人机验证……')).toBeVisible();
  },
};
export const Ready: Story = {
};
export const Solved: Story = { args: { phase: 'solved' } };
export const Failed: Story = {
  args: { phase: 'failed' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('Failed to load Turnstile.')).toBeVisible();
  },
};
export const FailedEnglish: Story = { args: { phase: 'failed' }, parameters: { lang: 'en' } };

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

export const ReadyInteraction: Story = {
  ...Ready,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: 'Verify you are human' }));
    await waitFor(() => expect(args.onToken).toHaveBeenCalledWith('fake-turnstile-token'));
  },
};

export const FailedInteraction: Story = {
  ...Failed,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('Failed to load Turnstile.')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};
