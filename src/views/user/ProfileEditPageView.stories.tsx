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
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText(/用户名/)).toHaveValue('alice');
    await expect(c.getByLabelText('密码')).toHaveAttribute('placeholder', '请输入新的密码，最短 8 位');
    await userEvent.type(c.getByLabelText('显示名称'), '!');
    await expect(args.onChange).toHaveBeenLastCalledWith('display_name', 'Alice!');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(args.onSubmit).toHaveBeenCalledTimes(1);
  },
};
export const Loading: Story = { args: { loading: true, busy: true } };
export const LoadFailed: Story = {
  args: { loadFailed: true },
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};
export const Saving: Story = { args: { busy: true, saving: true, canSubmit: false } };
export const Narrow: Story = { globals: { viewport: { value: 'mobile1' } } };
export const Dark: Story = { parameters: { colorMode: 'dark' } };
export const English: Story = { parameters: { lang: 'en' } };
