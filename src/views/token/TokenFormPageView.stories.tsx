import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { msg } from '../../domain/message';
import { emptyTokenForm, type TokenForm } from '../../domain/tokenForm';
import { TokenFormPageView } from './TokenFormPageView';

const phoneViewport = {
  parameters: {
    viewport: {
      options: { phone375: { name: 'Phone 375', styles: { width: '375px', height: '667px' }, type: 'mobile' } },
    },
  },
  globals: { viewport: { value: 'phone375' } },
};

const editForm: TokenForm = {
  name: 'ci-runner',
  models: ['gpt-4o', 'legacy-model'],
  subnet: '10.0.0.0/8',
  expiry: '2030-01-02T03:04:05',
  remainQuota: '1000000',
  unlimited: false,
};
const available = ['gpt-4o', 'gpt-4o-mini', 'claude-3-haiku', 'text-embedding-3-small'];

const meta = {
  title: 'Token/TokenFormPageView',
  component: TokenFormPageView,
  args: {
    isEdit: true,
    form: editForm,
    availableModels: available,
    modelFilter: '',
    problem: null,
    quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 },
    loading: false,
    loadFailed: false,
    busy: false,
    saving: false,
    canSubmit: true,
    onChange: fn(),
    onToggleModel: fn(),
    onClearModels: fn(),
    onFilterModels: fn(),
    onQuickExpiry: fn(),
    onToggleUnlimited: fn(),
    onSubmit: fn(),
    onRetry: fn(),
    onCancel: fn(),
  },
} satisfies Meta<typeof TokenFormPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Edit: every field, the chosen models (one no longer offered), the currency equivalent, the note. */
export const Edit: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '更新令牌信息' })).toBeVisible();
    await expect(c.getByLabelText('名称')).toHaveValue('ci-runner');
    await expect(c.getByText('已选择 2 个模型')).toBeVisible();
    await expect(c.getByRole('checkbox', { name: 'gpt-4o' })).toBeChecked();
    await expect(c.getByRole('checkbox', { name: 'legacy-model' })).toBeChecked();
    await expect(c.getByRole('checkbox', { name: 'gpt-4o-mini' })).not.toBeChecked();
    await expect(c.getByLabelText('IP 限制')).toHaveValue('10.0.0.0/8');
    await expect(c.getByLabelText('过期时间')).toHaveValue('2030-01-02T03:04:05');
    await expect(c.getByText('等价金额：$2.00')).toBeVisible();
    await expect(c.getByText(/令牌的额度仅用于限制令牌本身的最大额度使用量/)).toBeVisible();
  },
};
/** Create: the defaults (500000, never expires), the name is required, no model means no restriction. */
export const Create: Story = {
  args: { isEdit: false, form: emptyTokenForm, quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '创建新的令牌' })).toBeVisible();
    await expect(c.getByLabelText(/^名称/)).toBeRequired();
    await expect(c.getByText('未限制：可使用全部可用模型')).toBeVisible();
    await expect(c.getByLabelText('额度')).toHaveValue('500000');
    await expect(c.getByLabelText('过期时间')).toHaveValue('');
    await expect(c.getByText('留空表示永不过期')).toBeVisible();
    await expect(c.queryByText(/等价金额/)).toBeNull();
  },
};
/** The filter narrows the list; nothing matching says so. */
export const Filtered: Story = {
  args: { modelFilter: 'mini' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getAllByRole('checkbox', { name: /gpt|claude|legacy|embedding/ })).toHaveLength(1);
    await expect(c.getByRole('checkbox', { name: 'gpt-4o-mini' })).toBeVisible();
  },
};
export const NoMatch: Story = {
  args: { modelFilter: 'zzz' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('没有匹配的模型')).toBeVisible();
  },
};
export const NoModels: Story = {
  args: { isEdit: false, form: emptyTokenForm, availableModels: [] },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('没有可用的模型')).toBeVisible();
    await expect(c.queryByLabelText('搜索模型')).toBeNull();
  },
};
/** Unlimited: the quota input is disabled and says why. */
export const Unlimited: Story = {
  args: { form: { ...editForm, unlimited: true } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('额度')).toBeDisabled();
    await expect(c.getByRole('checkbox', { name: '无限额度' })).toBeChecked();
    await expect(c.getByText('无限额度的令牌不受上面的额度限制')).toBeVisible();
  },
};
export const SubnetInvalid: Story = {
  args: { form: { ...editForm, subnet: '10.0.0.0/8, nope' }, problem: { field: 'subnet', message: msg('tokenForm.subnetInvalid', { entry: 'nope' }) } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无效的网段：nope')).toBeVisible();
    await expect(c.getByLabelText('IP 限制')).toHaveAttribute('aria-invalid', 'true');
  },
};
/** A negative remaining quota (a limited token) is refused at its field, naming it and the range. */
export const RemainQuotaNegative: Story = {
  args: {
    form: { ...editForm, remainQuota: '-1' },
    problem: { field: 'remainQuota', message: msg('number.range', { min: 0, max: 1_000_000_000_000_000, field: 'number.field.remainQuota' }) },
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('额度 必须在 0 到 1000000000000000 之间')).toBeVisible();
    await expect(c.getByLabelText(/^额度/)).toHaveAttribute('aria-invalid', 'true');
    await expect(c.queryByText(/\$-0\.00/)).toBeNull();
  },
};
export const ExpiryInvalid: Story = {
  args: { problem: { field: 'expiry', message: msg('validation.token.expiryInvalid') } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('过期时间格式错误！')).toBeVisible();
  },
};
export const NameMissing: Story = {
  args: { isEdit: false, form: emptyTokenForm, problem: { field: 'name', message: msg('validation.token.nameRequired') } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('请填写令牌名称！')).toBeVisible();
  },
};
export const Loading: Story = {
  args: { loading: true, busy: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载令牌信息……');
  },
};
export const LoadFailed: Story = {
  args: { loadFailed: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载令牌信息。')).toBeVisible();
  },
};
export const Saving: Story = {
  args: { busy: true, saving: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('名称')).toBeDisabled();
    await expect(c.getByRole('button', { name: '一天后过期' })).toBeDisabled();
  },
};
export const Phone: Story = {
  ...phoneViewport,
  play: async ({ canvasElement }) => {
    const doc = canvasElement.ownerDocument;
    await expect(doc.documentElement.scrollWidth).toBeLessThanOrEqual(doc.documentElement.clientWidth);
  },
};
export const EnglishDark: Story = {
  parameters: { lang: 'en', colorMode: 'dark' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: 'Update token info' })).toBeVisible();
    await expect(c.getByRole('button', { name: 'Expires in a day' })).toBeVisible();
    await expect(c.getByLabelText('IP restriction')).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Edit: every field, the chosen models (one no longer offered), the currency equivalent, the note. */
export const EditInteraction: Story = {
  ...Edit,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '更新令牌信息' })).toBeVisible();
    await expect(c.getByLabelText('名称')).toHaveValue('ci-runner');
    await expect(c.getByText('已选择 2 个模型')).toBeVisible();
    await expect(c.getByRole('checkbox', { name: 'gpt-4o' })).toBeChecked();
    await expect(c.getByRole('checkbox', { name: 'legacy-model' })).toBeChecked();
    await expect(c.getByRole('checkbox', { name: 'gpt-4o-mini' })).not.toBeChecked();
    await expect(c.getByLabelText('IP 限制')).toHaveValue('10.0.0.0/8');
    await expect(c.getByLabelText('过期时间')).toHaveValue('2030-01-02T03:04:05');
    await expect(c.getByText('等价金额：$2.00')).toBeVisible();
    await expect(c.getByText(/令牌的额度仅用于限制令牌本身的最大额度使用量/)).toBeVisible();
    // keyboard: the checkbox of a model toggles with Space
    c.getByRole('checkbox', { name: 'gpt-4o-mini' }).focus();
    await userEvent.keyboard(' ');
    await expect(args.onToggleModel).toHaveBeenLastCalledWith('gpt-4o-mini');
    await userEvent.click(c.getByRole('button', { name: '移除模型 legacy-model' }));
    await expect(args.onToggleModel).toHaveBeenLastCalledWith('legacy-model');
    await userEvent.click(c.getByRole('button', { name: '清除选择' }));
    await expect(args.onClearModels).toHaveBeenCalledTimes(1);
    await userEvent.type(c.getByLabelText('搜索模型'), 'm');
    await expect(args.onFilterModels).toHaveBeenLastCalledWith('m');
    await userEvent.type(c.getByLabelText('IP 限制'), ',');
    await expect(args.onChange).toHaveBeenLastCalledWith('subnet', '10.0.0.0/8,');
    for (const [name, preset] of [
      ['永不过期', 'never'],
      ['一个月后过期', 'month'],
      ['一天后过期', 'day'],
      ['一小时后过期', 'hour'],
      ['一分钟后过期', 'minute'],
    ] as const) {
      await userEvent.click(c.getByRole('button', { name }));
      await expect(args.onQuickExpiry).toHaveBeenLastCalledWith(preset);
    }
    await userEvent.click(c.getByRole('checkbox', { name: '无限额度' }));
    await expect(args.onToggleUnlimited).toHaveBeenCalledTimes(1);
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
    const c = within(canvasElement);
    await expect(c.getByText('无法加载令牌信息。')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};
