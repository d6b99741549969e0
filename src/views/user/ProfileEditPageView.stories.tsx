import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { ProfileEditPageView } from './ProfileEditPageView';

const meta = {
  title: 'User/ProfileEditPageView',
  component: ProfileEditPageView,
  args: {
    form: { username: 'alice', display_name: 'Alice', password: '' },
    loading: false,
    loadFailed: false,
    busy: false,
    saving: false,
    canSubmit: true,
    onChange: fn(),
    onSubmit: fn(),
    onRetry: fn(),
  },
} satisfies Meta<typeof ProfileEditPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Ready: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText(/用户名/)).toHaveValue('alice');
    await expect(c.getByLabelText('显示名称')).toHaveValue('Alice');
    await expect(c.getByLabelText('密码')).toHaveAttribute('placeholder', '请输入新的密码，最短 8 位');
    await expect(c.getByRole('button', { name: '提交' })).toBeEnabled();
  },
};
/** The fields and the button report what they are asked. */
export const ReadyInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByLabelText('显示名称'), '!');
    await expect(args.onChange).toHaveBeenLastCalledWith('display_name', 'Alice!');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(args.onSubmit).toHaveBeenCalledTimes(1);
  },
};
export const Loading: Story = { args: { loading: true, busy: true } };
/** Editing with an empty username: the button stays disabled. */
export const EmptyUsername: Story = {
  args: { form: { username: '', display_name: 'Alice', password: '' }, canSubmit: false },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '提交' })).toBeDisabled();
  },
};
export const LoadFailed: Story = {
  args: { loadFailed: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载用户信息。')).toBeVisible();
    await expect(c.getByRole('button', { name: '重试' })).toBeEnabled();
  },
};
/** Retry after a failed load asks for it. */
export const RetryInteraction: Story = {
  args: LoadFailed.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};
export const Saving: Story = { args: { busy: true, saving: true, canSubmit: false } };
export const Narrow: Story = { globals: { viewport: { value: 'mobile1' } } };
export const Dark: Story = { parameters: { colorMode: 'dark' } };
export const English: Story = { parameters: { lang: 'en' } };
