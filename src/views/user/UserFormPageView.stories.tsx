import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { msg } from '../../domain/message';
import { emptyUserForm } from '../../machines/userForm';
import { UserFormPageView } from './UserFormPageView';
import { phoneViewport } from './UserListPage.fixtures';

const editForm = {
  username: 'alice',
  display_name: 'Alice',
  password: '',
  group: 'vip',
  quota: '2500000',
  github_id: 'alice-gh',
  wechat_id: '',
  email: 'alice@example.com',
};

const meta = {
  title: 'User/UserFormPageView',
  component: UserFormPageView,
  args: {
    isEdit: true,
    form: editForm,
    groupOptions: ['default', 'vip', 'svip'],
    quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 },
    loading: false,
    loadFailed: false,
    busy: false,
    saving: false,
    canSubmit: true,
    onChange: fn(),
    onSubmit: fn(),
    onRetry: fn(),
    onCancel: fn(),
  },
} satisfies Meta<typeof UserFormPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Edit: every field, the read-only bindings, the quota's currency equivalent. */
export const Edit: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '更新用户信息' })).toBeVisible();
    await expect(c.getByLabelText('密码')).toHaveAttribute('placeholder', '请输入新的密码，最短 8 位');
    await expect(c.getByLabelText('分组')).toHaveValue('vip');
    await expect(c.getByText('请在系统设置页面编辑分组倍率以添加新的分组')).toBeVisible();
    await expect(c.getByText('等价金额：$5.00')).toBeVisible();
    await expect(c.getByLabelText('已绑定的 GitHub 账户')).toHaveAttribute('readonly');
    await expect(c.getByLabelText('已绑定的邮箱账户')).toHaveValue('alice@example.com');
  },
};
/** Create: username, display name, password only. */
export const Create: Story = {
  args: { isEdit: false, form: emptyUserForm, canSubmit: false },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '创建新用户账户' })).toBeVisible();
    await expect(c.queryByLabelText('分组')).toBeNull();
    await expect(c.queryByLabelText('剩余额度')).toBeNull();
    await expect(c.getByRole('button', { name: '提交' })).toBeDisabled();
  },
};
export const QuotaInvalid: Story = {
  args: { form: { ...editForm, quota: '12x' }, fieldErrors: { quota: msg('users.form.quotaInvalid') } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('剩余额度必须是整数')).toBeVisible();
    await expect(c.getByLabelText('剩余额度')).toHaveAttribute('aria-invalid', 'true');
  },
};
/** Create refused: each field too long says so at the field, naming it (no toast); the first is focused. */
export const CreateFieldErrors: Story = {
  args: {
    isEdit: false,
    form: { ...emptyUserForm, username: 'u'.repeat(13), display_name: 'd'.repeat(21), password: 'short' },
    fieldErrors: {
      username: msg('rules.username.tooLong', { max: 12 }),
      display_name: msg('rules.displayName.tooLong', { max: 20 }),
      password: msg('rules.password.length', { min: 8, max: 20 }),
    },
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('用户名长度不能超过 12 个字符')).toBeVisible();
    await expect(c.getByText('显示名称长度不能超过 20 个字符')).toBeVisible();
    await expect(c.getByText('密码长度必须在 8 到 20 个字符之间')).toBeVisible();
    await expect(c.getByLabelText(/^用户名/)).toHaveFocus();
  },
};
/** Edit refused: a new password out of range, in English. */
export const EditFieldErrorsEnglish: Story = {
  args: { form: { ...editForm, password: 'p'.repeat(21) }, fieldErrors: { password: msg('rules.password.length', { min: 8, max: 20 }) } },
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('password must be 8 to 20 characters')).toBeVisible();
  },
};
/** The user's group is no longer offered (or the groups failed): it is still in the dropdown. */
export const GroupMissing: Story = {
  args: { form: { ...editForm, group: 'legacy' }, groupOptions: [] },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('分组')).toHaveValue('legacy');
  },
};
export const Loading: Story = {
  args: { loading: true, busy: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载用户信息……');
  },
};
export const LoadFailed: Story = {
  args: { loadFailed: true },
};
export const Saving: Story = {
  args: { busy: true, saving: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('用户名')).toBeDisabled();
  },
};
export const Phone: Story = { ...phoneViewport };
export const Dark: Story = { parameters: { colorMode: 'dark' } };
export const English: Story = {
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'Update user info' })).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Edit: every field, the read-only bindings, the quota's currency equivalent; typing, saving, cancel. */
export const EditInteraction: Story = {
  ...Edit,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '更新用户信息' })).toBeVisible();
    await expect(c.getByLabelText('密码')).toHaveAttribute('placeholder', '请输入新的密码，最短 8 位');
    await expect(c.getByLabelText('分组')).toHaveValue('vip');
    await expect(c.getByText('请在系统设置页面编辑分组倍率以添加新的分组')).toBeVisible();
    await expect(c.getByText('等价金额：$5.00')).toBeVisible();
    await expect(c.getByLabelText('已绑定的 GitHub 账户')).toHaveAttribute('readonly');
    await expect(c.getByLabelText('已绑定的邮箱账户')).toHaveValue('alice@example.com');
    await userEvent.selectOptions(c.getByLabelText('分组'), 'svip');
    await expect(args.onChange).toHaveBeenLastCalledWith('group', 'svip');
    await userEvent.type(c.getByLabelText('剩余额度'), '0');
    await expect(args.onChange).toHaveBeenLastCalledWith('quota', '25000000');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(args.onSubmit).toHaveBeenCalledTimes(1);
    await userEvent.click(c.getByRole('button', { name: '取消' }));
    await expect(args.onCancel).toHaveBeenCalledTimes(1);
  },
};

export const LoadFailedInteraction: Story = {
  ...LoadFailed,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};
