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
    onCancel: fn(),
    bindings: { github_id: 'alice-gh', wechat_id: '', email: 'alice@example.com' },
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

/** The read-only bindings (GitHub, WeChat, e-mail) and the Cancel button. */
export const BindingsAndCancel: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('已绑定的 GitHub 账户')).toHaveAttribute('readonly');
    await expect(c.getByLabelText('已绑定的微信账户')).toHaveAttribute('placeholder', '此项只读，请在个人设置页面通过相关绑定按钮进行绑定');
    await expect(c.getByRole('button', { name: '取消' })).toBeEnabled();
  },
};
/** A refused submit: each broken rule at its field, naming it; the first is focused. */
export const FieldErrors: Story = {
  args: {
    form: { username: 'u'.repeat(13), display_name: 'd'.repeat(21), password: 'short' },
    fieldErrors: {
      username: { key: 'rules.username.tooLong', params: { max: 12 } },
      password: { key: 'rules.password.length', params: { min: 8, max: 20 } },
      display_name: { key: 'rules.displayName.tooLong', params: { max: 20 } },
    },
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('用户名长度不能超过 12 个字符')).toBeVisible();
    await expect(c.getByText('显示名称长度不能超过 20 个字符')).toBeVisible();
    await expect(c.getByLabelText(/用户名/)).toHaveFocus();
  },
};
