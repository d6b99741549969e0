import type { Meta, StoryObj } from '@storybook/react-vite';
import { Box } from '@chakra-ui/react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { PasswordResetRequestPageView } from './PasswordResetRequestPageView';
import { enterText } from '../app/stories/enterText';

const meta = {
  title: 'Auth/PasswordResetRequestPageView',
  component: PasswordResetRequestPageView,
  args: { sending: false, canRequest: true, secondsLeft: 0, onRequest: fn() },
} satisfies Meta<typeof PasswordResetRequestPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Ready: the e-mail field, the enabled button and the way back to the login. */
export const Ready: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText(/^邮箱地址/)).toBeVisible();
    await expect(c.getByRole('button', { name: '提交' })).toBeEnabled();
    await expect(c.getByRole('link', { name: '返回登录' })).toHaveAttribute('href', '/login');
  },
};
/** The button hands over the e-mail as typed. */
export const ReadyInteraction: Story = {
  tags: ['interaction'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await enterText(c.getByLabelText(/^邮箱地址/), 'alice@example.com');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(args.onRequest).toHaveBeenCalledWith('alice@example.com');
    await expect(c.getByRole('link', { name: '返回登录' })).toHaveAttribute('href', '/login');
  },
};
export const Sending: Story = { args: { sending: true, canRequest: false } };
export const CoolingDown: Story = {
  args: { canRequest: false, secondsLeft: 17 },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: '重试 (17)' });
    await expect(button).toBeDisabled();
    await expect(button).toHaveTextContent('重试 (17)');
  },
};
export const CoolingDownEnglish: Story = { args: { canRequest: false, secondsLeft: 3 }, parameters: { lang: 'en' } };
export const Narrow: Story = {
  args: { canRequest: false, secondsLeft: 30 },
  render: (args) => (
    <Box w="360px" borderWidth="1px" data-testid="screen-360">
      <PasswordResetRequestPageView {...args} />
    </Box>
  ),
  play: async ({ canvasElement }) => {
    const root = within(canvasElement).getByTestId('screen-360');
    await expect(root.scrollWidth).toBeLessThanOrEqual(360);
  },
};
