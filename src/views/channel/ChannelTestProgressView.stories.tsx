import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { ChannelTestProgressView } from './ChannelTestProgressView';

const failures = [
  { channelId: 5, message: 'http status code: 401, error message: Incorrect API key provided: sk-abc***xyz' },
  { channelId: 12, message: 'Post "https://api.example.com/v1/chat/completions": dial tcp: i/o timeout' },
];

const meta = {
  title: 'Channel/ChannelTestProgressView',
  component: ChannelTestProgressView,
  args: {
    run: { id: 3, scope: 'all', status: 'running', total: 40, done: 13 },
    preparing: false,
    running: true,
    cancelling: false,
    pollFailed: false,
    localMode: false,
    passed: 11,
    failed: 2,
    percent: 33,
    failures,
    channelNames: { 5: 'OpenAI 主线路' },
    canCancel: true,
    canRetryFailed: false,
    canDismiss: false,
    onCancel: fn(),
    onRetryFailed: fn(),
    onDismiss: fn(),
  },
} satisfies Meta<typeof ChannelTestProgressView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A run going: bar, counts, spinner, Cancel, the failures folded. */
export const Running: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const bar = c.getByRole('progressbar', { name: '测试进度' });
    await expect(bar).toHaveAttribute('aria-valuenow', '33');
    await expect(c.getByText('13 / 40')).toBeVisible();
    await expect(c.getByText('通过 11')).toBeVisible();
    await expect(c.getByText('失败 2')).toBeVisible();
    await expect(c.getByText('全部渠道')).toBeVisible();
    await expect(c.getByRole('status')).toHaveTextContent('测试中');
    await expect(c.queryByRole('button', { name: '重试失败的渠道' })).toBeNull();
    await expect(c.getByRole('button', { name: '取消测试' })).toBeEnabled();
    await expect(c.getByRole('button', { name: '失败详情（2）' })).toHaveAttribute('aria-expanded', 'false');
  },
};

/** The page tests the channels itself (one-api): a note asks to keep it open. */
export const RunningLocal: Story = {
  args: { localMode: true, run: { id: 0, scope: 'disabled', status: 'running', total: 4, done: 1 }, passed: 1, failed: 0, percent: 25, failures: [] },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText(/由本页面逐个测试/)).toBeVisible();
    await expect(c.getByText('已禁用的渠道')).toBeVisible();
  },
};

export const Cancelling: Story = {
  args: { cancelling: true, canCancel: false },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('status')).toHaveTextContent('正在取消……');
    await expect(c.getByRole('button', { name: /正在取消/ })).toBeDisabled();
  },
};

/** Finished with failures: Retry failed and Dismiss, no spinner. */
export const FinishedWithFailures: Story = {
  args: {
    run: { id: 3, scope: 'all', status: 'finished', total: 40, done: 40 },
    running: false,
    passed: 38,
    failed: 2,
    percent: 100,
    canCancel: false,
    canRetryFailed: true,
    canDismiss: true,
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('status')).toHaveTextContent('已完成');
    await expect(c.queryByRole('button', { name: '取消测试' })).toBeNull();
    await expect(c.getByRole('button', { name: '重试失败的渠道' })).toBeEnabled();
    await expect(c.getByRole('button', { name: '关闭' })).toBeEnabled();
  },
};

export const FinishedAllPassed: Story = {
  args: {
    run: { id: 3, scope: 'ids', status: 'finished', total: 2, done: 2 },
    running: false,
    passed: 2,
    failed: 0,
    percent: 100,
    failures: [],
    canCancel: false,
    canDismiss: true,
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('所选渠道')).toBeVisible();
    await expect(c.queryByRole('button', { name: /失败详情/ })).toBeNull();
  },
};

export const Cancelled: Story = {
  args: {
    run: { id: 3, scope: 'all', status: 'cancelled', total: 40, done: 13 },
    running: false,
    canCancel: false,
    canRetryFailed: true,
    canDismiss: true,
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('已取消');
  },
};

/** Polls failed: progress unknown, Dismiss only. */
export const PollFailed: Story = {
  args: { running: false, pollFailed: true, canCancel: false, canDismiss: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('进度未知');
  },
};

export const Preparing: Story = {
  args: { run: null, preparing: true, running: false, passed: 0, failed: 0, percent: 0, failures: [], canCancel: false },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('status')).toHaveTextContent('正在准备测试……');
    await expect(c.queryByRole('progressbar')).toBeNull();
  },
};

/** No run: nothing is rendered. */
export const NoRun: Story = {
  args: { run: null, running: false, passed: 0, failed: 0, percent: 0, failures: [], canCancel: false },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole('region')).toBeNull();
  },
};

export const Narrow: Story = { globals: { viewport: { value: 'mobile1' } } };
export const Dark: Story = { parameters: { colorMode: 'dark' }, args: { ...FinishedWithFailures.args } };
export const English: Story = {
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('11 passed')).toBeVisible();
    await expect(c.getByRole('button', { name: 'Cancel test' })).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Cancel is sent once. */
export const RunningInteraction: Story = {
  ...Running,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '取消测试' }));
    await expect(args.onCancel).toHaveBeenCalledTimes(1);
  },
};

/** The failures list opens from its toggle (keyboard too) and names the channels. */
export const FailuresExpandedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const toggle = c.getByRole('button', { name: '失败详情（2）' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(await c.findByText('OpenAI 主线路（#5）')).toBeVisible();
    await expect(c.getByText('渠道 #12')).toBeVisible();
    await expect(c.getByText(/Incorrect API key provided/)).toBeVisible();
  },
};

/** Finished with failures: Retry failed and Dismiss are sent. */
export const FinishedWithFailuresInteraction: Story = {
  ...FinishedWithFailures,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '重试失败的渠道' }));
    await expect(args.onRetryFailed).toHaveBeenCalledTimes(1);
    await userEvent.click(c.getByRole('button', { name: '关闭' }));
    await expect(args.onDismiss).toHaveBeenCalledTimes(1);
  },
};
