import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { OAuthCallbackPageView } from './OAuthCallbackPageView';

const meta = {
  title: 'Auth/OAuthCallbackPageView',
  component: OAuthCallbackPageView,
  args: { provider: 'github', phase: 'processing', attempt: 0, maxAttempts: 3, retryInSeconds: 0, lastError: null },
} satisfies Meta<typeof OAuthCallbackPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Processing: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('处理中...')).toBeVisible();
  },
};
export const Retrying: Story = {
  args: {
    phase: 'retrying',
    attempt: 2,
    retryInSeconds: 4,
    lastError: { text: '登录状态校验失败（state 为空或不一致），请返回登录页重新发起登录' },
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('出现错误，4 秒后进行第 2 次重试……')).toBeVisible();
    await expect(c.getByText('已失败 2 次（最多尝试 3 次）')).toBeVisible();
  },
};
export const Bound: Story = { args: { phase: 'bound' } };
export const SignedIn: Story = { args: { provider: 'lark', phase: 'signedIn' } };
export const Failed: Story = {
  args: { phase: 'failed', attempt: 3, lastError: { text: '无法连接至 GitHub 服务器，请稍后重试！' } },
};
export const RetryingEnglish: Story = {
  args: { provider: 'lark', phase: 'retrying', attempt: 1, retryInSeconds: 2, lastError: { key: 'error.internal' } },
  parameters: { lang: 'en' },
};
