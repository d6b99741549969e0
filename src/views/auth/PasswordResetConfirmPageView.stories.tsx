import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { PasswordResetConfirmPageView } from './PasswordResetConfirmPageView';

const meta = {
  title: 'Auth/PasswordResetConfirmPageView',
  component: PasswordResetConfirmPageView,
  args: {
    email: 'alice@example.com',
    hasLink: true,
    busy: false,
    done: false,
    password: null,
    needsManualCopy: false,
    onConfirm: fn(),
  },
} satisfies Meta<typeof PasswordResetConfirmPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Ready: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('邮箱地址')).toHaveValue('alice@example.com');
    await expect(c.getByLabelText('邮箱地址')).toHaveAttribute('readonly');
  },
};
export const Busy: Story = { args: { busy: true } };
export const Done: Story = {
  args: { done: true, password: '3f9a0c1d2e4b' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('新密码')).toHaveValue('3f9a0c1d2e4b');
    await expect(c.getByRole('button', { name: '密码重置完成' })).toBeDisabled();
  },
};
export const CopyByHand: Story = {
  args: { done: true, password: '3f9a0c1d2e4b', needsManualCopy: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('新密码未能复制到剪贴板，请手动复制并妥善保存。')).toBeVisible();
  },
};
export const IncompleteLink: Story = {
  args: { email: '', hasLink: false },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('重置链接不完整，请从邮件中重新打开链接。')).toBeVisible();
    await expect(c.getByRole('button', { name: '提交' })).toBeDisabled();
  },
};
export const DoneEnglish: Story = {
  args: { done: true, password: '3f9a0c1d2e4b' },
  parameters: { lang: 'en' },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

export const ReadyInteraction: Story = {
  ...Ready,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('邮箱地址')).toHaveValue('alice@example.com');
    await expect(c.getByLabelText('邮箱地址')).toHaveAttribute('readonly');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(args.onConfirm).toHaveBeenCalledTimes(1);
  },
};
