import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { expectCardsFit } from '../table/cards.fixtures';
import { LogListPageView } from './LogListPageView';
import { defaultForm, logRows, logTableState, phoneViewport } from './LogListPage.fixtures';

const meta = {
  title: 'Log/LogListPageView',
  component: LogListPageView,
  parameters: { route: '/log' },
  args: {
    table: logTableState(),
    admin: true,
    quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 },
    form: defaultForm,
    formKey: '{}',
    statQuota: null,
    statLoading: false,
    exporting: false,
    onApply: fn(),
    onReload: fn(),
    onSort: fn(),
    onPage: fn(),
    onSize: fn(),
    onRetry: fn(),
    onStat: fn(),
    onExport: fn(),
  },
} satisfies Meta<typeof LogListPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** An admin's list: every column, type badges, the elapsed time in its colour, the admin filters. */
export const Admin: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const table = c.getByRole('table', { name: '使用明细' });
    for (const header of ['时间', '渠道', '用户', '令牌', '类型', '模型', '提示', '补全', '额度', '用时', '流式', '详情']) {
      await expect(within(table).getByRole('columnheader', { name: new RegExp(`^${header}`) })).toBeInTheDocument();
    }
    await expect(within(table).getAllByText('消费')).toHaveLength(2);
    await expect(within(table).getByText('充值')).toBeInTheDocument();
    await expect(within(table).getByText('2.31 秒')).toBeInTheDocument();
    await expect(within(table).getByText('12.50 秒')).toBeInTheDocument();
    await expect(within(table).getByText('48.0k')).toBeInTheDocument();
    await expect(c.getByLabelText('渠道 ID')).toBeInTheDocument();
    await expect(c.getByLabelText('用户名称')).toBeInTheDocument();
    await expect(c.getByLabelText('结束时间')).toHaveValue('2025-11-23T13:13');
  },
};

/** A common user: own logs, no channel or user column, no admin filters. */
export const Self: Story = {
  args: { admin: false, table: logTableState({ rows: logRows.map((r, i) => ({ ...r, id: i + 1 })) }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const table = c.getByRole('table', { name: '使用明细' });
    await expect(within(table).queryByRole('columnheader', { name: /^用户/ })).toBeNull();
    await expect(within(table).queryByRole('columnheader', { name: /^渠道/ })).toBeNull();
    await expect(c.queryByLabelText('渠道 ID')).toBeNull();
    await expect(c.queryByLabelText('用户名称')).toBeNull();
  },
};

export const StatLoading: Story = {
  args: { statLoading: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '加载中...' })).toBeDisabled();
  },
};

export const StatLoaded: Story = {
  args: { statQuota: 50713 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '总消耗额度：50.7k（点击刷新）' })).toBeEnabled();
  },
};

export const Exporting: Story = {
  args: { exporting: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: /导出中/ })).toBeDisabled();
  },
};

export const FirstLoad: Story = {
  args: { table: logTableState({ rows: [], shownCount: 0, loadedCount: 0, firstLoad: true, loading: true, idle: false }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: '使用明细' }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
  },
};

export const Empty: Story = {
  args: { table: logTableState({ rows: [], shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('暂无日志')).toBeVisible();
  },
};

export const LoadFailed: Story = {
  args: { table: logTableState({ rows: [], loadFailed: true, idle: false }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '重试' })).toBeVisible();
  },
};

/** In English on a 375 px phone. */
export const PhoneEnglish: Story = {
  ...phoneViewport,
  parameters: { ...phoneViewport.parameters, lang: 'en', route: '/log' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: 'Usage logs' })).toBeVisible();
    await expect(c.getByRole('button', { name: 'Total consumed quota: click to view' })).toBeVisible();
    await expect(c.getByRole('button', { name: 'Search' })).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** A column header sorts. */
export const AdminInteraction: Story = {
  ...Admin,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const table = within(canvasElement).getByRole('table', { name: '使用明细' });
    await userEvent.click(within(table).getByRole('button', { name: /额度/ }));
    await expect(args.onSort).toHaveBeenCalledWith('quota');
  },
};

/** The filters are sent as typed when the search button is pressed. */
export const ApplyFiltersInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByLabelText('模型名称'), 'gpt-4o');
    await userEvent.type(c.getByLabelText('用户名称'), 'alice');
    await userEvent.selectOptions(c.getByLabelText('日志类型'), '2');
    await userEvent.click(c.getByRole('button', { name: '查询' }));
    await expect(args.onApply).toHaveBeenCalledWith({ ...defaultForm, model_name: 'gpt-4o', username: 'alice', type: '2' });
    await userEvent.click(c.getByRole('button', { name: '刷新' }));
    await expect(args.onReload).toHaveBeenCalled();
    await userEvent.click(c.getByRole('button', { name: '导出 CSV' }));
    await expect(args.onExport).toHaveBeenCalled();
    await userEvent.click(c.getByRole('button', { name: '总消耗额度：点击查看' }));
    await expect(args.onStat).toHaveBeenCalled();
  },
};

export const LoadFailedInteraction: Story = {
  ...LoadFailed,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalled();
  },
};

/** A 375 px phone: each log entry is a card headed by its time; nothing scrolls sideways. */
export const PhoneCards: Story = {
  ...phoneViewport,
  play: async ({ canvasElement }) => {
    await expectCardsFit(canvasElement, '使用明细');
  },
};
