import type { Meta, StoryObj } from '@storybook/react-vite';
import { Text } from '@chakra-ui/react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { SettingsPageView } from './SettingsPageView';
import { storyOptionValues } from './settings.fixtures';

const meta = {
  title: 'Setting/SettingsPageView',
  component: SettingsPageView,
  args: {
    tabs: ['personal', 'operation', 'system', 'other'],
    tab: 'operation',
    loading: false,
    loadFailed: false,
    busy: false,
    values: storyOptionValues,
    problems: {},
    savingSection: null,
    changedSections: [],
    whitelistEntry: '',
    canAddWhitelistEntry: false,
    confirmingToggle: null,
    confirmingLeave: null,
    personal: <Text>personal settings slot</Text>,
    logClean: <Text>log clean slot</Text>,
    updateCheck: <Text>update check slot</Text>,
    onTabSelect: fn(),
    onRetry: fn(),
    onChange: fn(),
    onToggle: fn(),
    onSave: fn(),
    onWhitelistInput: fn(),
    onWhitelistAdd: fn(),
    onWhitelistRemove: fn(),
    onConfirmToggle: fn(),
    onCancelToggle: fn(),
    onLeave: fn(),
    onStay: fn(),
    priceEditor: <Text>price editor slot</Text>,
  },
} satisfies Meta<typeof SettingsPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Root on the operation tab: log clean first, then general, monitor, quota, and the price editor in the ratio section's place. */
export const Operation: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('tab', { name: '运营设置' })).toHaveAttribute('aria-selected', 'true');
    await expect(c.getByText('log clean slot')).toBeVisible();
    for (const name of ['通用设置', '监控设置', '额度设置']) await expect(c.getByRole('heading', { name })).toBeVisible();
    // the ratio section is the price editor (its own stories show it)
    await expect(c.getByText('price editor slot')).toBeVisible();
  },
};

/** The tab list is keyboard reachable: arrows move between tabs and ask for the focused one. */
export const KeyboardTabsInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    c.getByRole('tab', { name: '运营设置' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    await waitFor(() => expect(args.onTabSelect).toHaveBeenCalledWith('system'));
    await userEvent.click(c.getByRole('tab', { name: '其他设置' }));
    await expect(args.onTabSelect).toHaveBeenCalledWith('other');
  },
};

/** A common user: the personal tab alone. */
export const PersonalOnly: Story = {
  args: { tabs: ['personal'], tab: 'personal' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getAllByRole('tab')).toHaveLength(1);
    await expect(c.getByText('personal settings slot')).toBeVisible();
  },
};

/** System tab: every system section. */
export const System: Story = {
  args: { tab: 'system', changedSections: ['smtp'] },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    for (const name of ['登录注册', '邮箱域名白名单', 'SMTP 邮件', 'GitHub OAuth', '飞书授权登录', '微信服务器', '消息推送', 'Turnstile 人机校验', '服务器地址'])
      await expect(c.getByRole('heading', { name })).toBeVisible();
    await expect(c.getByRole('button', { name: '保存 SMTP 邮件' })).toBeEnabled();
  },
};

/** Other tab: the personalisation sections, then the update check. */
export const Other: Story = {
  args: { tab: 'other' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '页脚' })).toBeVisible();
    await expect(c.getByText('update check slot')).toBeVisible();
  },
};

/** Loading the options. */
export const Loading: Story = {
  args: { loading: true, busy: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载设置……');
  },
};

/** The options could not be loaded: the message and a retry. */
export const LoadFailed: Story = {
  args: { loadFailed: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载设置。')).toBeVisible();
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

/** Turning PasswordLoginEnabled off asks first: the confirmation is open. */
export const ConfirmToggle: Story = {
  args: { tab: 'system', confirmingToggle: 'PasswordLoginEnabled' },
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('alertdialog', { name: '关闭密码登录？' });
    await expect(within(dialog).getByRole('button', { name: '确认关闭' })).toBeEnabled();
    await expect(within(dialog).getByText('取消')).toBeVisible();
  },
};

/** Turning PasswordLoginEnabled off with no other sign-in method enabled: the confirmation warns of the lockout and offers cancel. */
export const ConfirmToggleLockout: Story = {
  args: { tab: 'system', confirmingToggle: 'PasswordLoginEnabled', toggleLocksOut: true },
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('alertdialog', { name: '关闭密码登录？' });
    await expect(within(dialog).getByText(/当前没有启用任何其他登录方式/)).toBeVisible();
    await expect(within(dialog).getByText('取消')).toBeVisible();
  },
};

/** The lockout warning in English. */
export const ConfirmToggleLockoutEnglish: Story = {
  args: { tab: 'system', confirmingToggle: 'PasswordLoginEnabled', toggleLocksOut: true },
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('alertdialog', { name: 'Turn off password login?' });
    await expect(within(dialog).getByText(/no other sign-in method \(GitHub, Lark, WeChat\) is enabled/)).toBeVisible();
  },
};

/** The confirmation's buttons answer: cancel, then confirm. */
export const ConfirmToggleInteraction: Story = {
  args: ConfirmToggle.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('alertdialog', { name: '关闭密码登录？' });
    await userEvent.click(within(dialog).getByText('取消'));
    await expect(args.onCancelToggle).toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: '确认关闭' }));
    await expect(args.onConfirmToggle).toHaveBeenCalledTimes(1);
  },
};

/** Leaving a tab with unsaved changes asks first: the confirmation is open. */
export const ConfirmLeave: Story = {
  args: { changedSections: ['general'], confirmingLeave: 'system' },
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('alertdialog', { name: '放弃未保存的更改？' });
    await expect(within(dialog).getByRole('button', { name: '放弃并离开' })).toBeEnabled();
    await expect(within(dialog).getByText('取消')).toBeVisible();
  },
};

/** The leave confirmation's buttons answer: leave, then stay. */
export const ConfirmLeaveInteraction: Story = {
  args: ConfirmLeave.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('alertdialog', { name: '放弃未保存的更改？' });
    await userEvent.click(within(dialog).getByRole('button', { name: '放弃并离开' }));
    await expect(args.onLeave).toHaveBeenCalledTimes(1);
    await userEvent.click(within(dialog).getByText('取消'));
    await expect(args.onStay).toHaveBeenCalled();
  },
};

/** A section saves: every field is disabled, the section's button spins. */
export const Saving: Story = {
  args: {
    tab: 'system',
    busy: true,
    savingSection: 'smtp',
    changedSections: ['smtp'],
    values: { ...storyOptionValues, SMTPServer: 'smtp.example.com' },
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('SMTP 服务器地址')).toBeDisabled();
    await expect(c.getByRole('button', { name: '保存 SMTP 邮件' })).toBeDisabled();
  },
};

/** English, dark. */
export const SystemEnglishDark: Story = {
  args: { tab: 'system' },
  parameters: { lang: 'en', colorMode: 'dark' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('tab', { name: 'System' })).toHaveAttribute('aria-selected', 'true');
    await expect(c.getByRole('heading', { name: 'SMTP e-mail' })).toBeVisible();
  },
};
