import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { emptyRedemptionForm } from '../../machines/redemptionForm';
import { RedemptionFormPageView } from './RedemptionFormPageView';
import { phoneViewport } from './RedemptionListPage.fixtures';

const keys = ['0f3c9a7e1b2d4c5f8a9b0c1d2e3f4a5b', '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b', 'aa11bb22cc33dd44ee55ff6677889900'];

const meta = {
  title: 'Redemption/RedemptionFormPageView',
  component: RedemptionFormPageView,
  parameters: { route: '/redemption/add' },
  args: {
    form: emptyRedemptionForm,
    isEdit: false,
    loading: false,
    loadFailed: false,
    busy: false,
    saving: false,
    problem: null,
    keys: [],
    keysFile: '',
    copying: false,
    quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 },
    onChange: fn(),
    onSubmit: fn(),
    onRetry: fn(),
    onCopyAll: fn(),
    onDownload: fn(),
    onAgain: fn(),
  },
} satisfies Meta<typeof RedemptionFormPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Create: name, quota 100000 (with its currency equivalent), count 1. */
export const Create: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '创建新的兑换码' })).toBeVisible();
    await expect(c.getByLabelText('额度')).toHaveValue(100000);
    await expect(c.getByLabelText('生成数量')).toHaveValue(1);
    await expect(c.getByText(/\$0\.20/)).toBeVisible();
  },
};

/** The name rule broken: the spec's message by the field. */
export const NameMissing: Story = {
  args: { problem: { field: 'name', message: { key: 'validation.redemption.nameRequired' } } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('请填写兑换码名称！')).toBeVisible();
  },
};

export const CountTooLarge: Story = {
  args: { form: { name: 'promo', quota: '100000', count: '500' }, problem: { field: 'count', message: { key: 'redemptions.form.countInvalid', params: { max: 100 } } } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('生成数量必须是 1 到 100 之间的整数')).toBeVisible();
  },
};

/** Edit: name and quota only. */
export const Edit: Story = {
  parameters: { route: '/redemption/edit/7' },
  args: { isEdit: true, form: { name: 'promo', quota: '250000', count: '1' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '更新兑换码信息' })).toBeVisible();
    await expect(c.queryByLabelText('生成数量')).toBeNull();
    await expect(c.getByLabelText(/名称/)).toHaveValue('promo');
  },
};

export const Loading: Story = {
  args: { isEdit: true, loading: true, busy: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载兑换码信息……');
  },
};

export const LoadFailed: Story = {
  args: { isEdit: true, loadFailed: true },
};

export const Saving: Story = {
  args: { form: { name: 'promo', quota: '100000', count: '3' }, busy: true, saving: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText(/名称/)).toBeDisabled();
    await expect(c.getByRole('button', { name: /提交/ })).toBeDisabled();
  },
};

/** After a create: the codes, the file they went to, copy all / download again / create more. */
export const Created: Story = {
  args: { keys, keysFile: 'promo.txt' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('已生成 3 个兑换码')).toBeVisible();
    await expect(c.getByText('兑换码已下载为 promo.txt，每行一个。')).toBeVisible();
    await expect(within(c.getByRole('list', { name: '生成的兑换码' })).getAllByRole('listitem')).toHaveLength(3);
  },
};

export const Copying: Story = {
  args: { keys, keysFile: 'promo.txt', busy: true, copying: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: /复制全部/ })).toBeDisabled();
  },
};

export const Phone: Story = {
  ...phoneViewport,
  args: { keys, keysFile: 'promo.txt' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '复制全部' })).toBeVisible();
  },
};

export const EnglishDark: Story = {
  parameters: { lang: 'en', colorMode: 'dark' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: 'Create redemption codes' })).toBeVisible();
    await expect(c.getByLabelText('Number of codes')).toHaveValue(1);
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Create: name, quota 100000 (with its currency equivalent), count 1. */
export const CreateInteraction: Story = {
  ...Create,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '创建新的兑换码' })).toBeVisible();
    await expect(c.getByLabelText('额度')).toHaveValue(100000);
    await expect(c.getByLabelText('生成数量')).toHaveValue(1);
    await expect(c.getByText(/\$0\.20/)).toBeVisible();
    await userEvent.type(c.getByLabelText(/名称/), 'p');
    await expect(args.onChange).toHaveBeenCalledWith('name', 'p');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(args.onSubmit).toHaveBeenCalled();
  },
};

export const LoadFailedInteraction: Story = {
  ...LoadFailed,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalled();
    await expect(c.getByRole('link', { name: '返回列表' })).toHaveAttribute('href', '/redemption');
  },
};

/** After a create: the codes, the file they went to, copy all / download again / create more. */
export const CreatedInteraction: Story = {
  ...Created,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('已生成 3 个兑换码')).toBeVisible();
    await expect(c.getByText('兑换码已下载为 promo.txt，每行一个。')).toBeVisible();
    await expect(within(c.getByRole('list', { name: '生成的兑换码' })).getAllByRole('listitem')).toHaveLength(3);
    await userEvent.click(c.getByRole('button', { name: '复制全部' }));
    await expect(args.onCopyAll).toHaveBeenCalled();
    await userEvent.click(c.getByRole('button', { name: '重新下载' }));
    await expect(args.onDownload).toHaveBeenCalled();
    await userEvent.click(c.getByRole('button', { name: '继续创建' }));
    await expect(args.onAgain).toHaveBeenCalled();
  },
};
