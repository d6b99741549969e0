import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { expectCardsFit } from '../table/cards.fixtures';
import { LogListPageView } from './LogListPageView';
import { defaultForm, logRows, logRowsOfEachType, logTableState, longModelLogRows, phoneViewport } from './LogListPage.fixtures';

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

/** The cells of the table row whose detail is `content`. */
function rowCells(canvasElement: HTMLElement, content: string, table = '使用明细'): string[] {
  const row = within(within(canvasElement).getByRole('table', { name: table })).getByText(content).closest('tr')!;
  return [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '');
}

/**
 * One row of each type in currency: a consume row shows its millionths; a top-up only its quota
 * (when it carries one); manage and system notes show "—" (read as "不适用") where a figure does
 * not apply; the total uses the rows' six decimals.
 */
export const RowTypes: Story = {
  args: {
    table: logTableState({ rows: logRowsOfEachType, shownCount: logRowsOfEachType.length, loadedCount: logRowsOfEachType.length }),
    quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 },
    statQuota: 16,
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '总消耗额度：$0.000032（点击刷新）' })).toBeEnabled();
    const table = c.getByRole('table', { name: '使用明细' });
    await expect(within(table).getAllByText('$0.000016')).toHaveLength(2);
    await expect(within(table).queryByText('$0.000000')).toBeNull();
    // consume: tokens, quota, elapsed time and stream
    const consume = rowCells(canvasElement, '模型倍率 2.50，分组倍率 1.00');
    await expect(consume).toEqual(expect.arrayContaining(['3', '5', '$0.000016', '2.31 秒', '流']));
    // a redemption top-up (quota 0): nothing but its type and detail
    const na = '—不适用';
    const redeemed = rowCells(canvasElement, '通过兑换码充值 $5.00');
    await expect(redeemed.filter((t) => t === na)).toHaveLength(5);
    await expect(redeemed).not.toContain('0.00 秒');
    await expect(redeemed).not.toContain('非流');
    // an API top-up shows its quota only
    const apiTopUp = rowCells(canvasElement, '通过 API 充值 $1.00');
    await expect(apiTopUp).toContain('$1.000000');
    await expect(apiTopUp.filter((t) => t === na)).toHaveLength(4);
    for (const content of ['管理员将用户额度从 $0.00 修改为 $1.00', '新用户注册赠送 $1.00']) {
      await expect(rowCells(canvasElement, content).filter((t) => t === na)).toHaveLength(5);
    }
    // the dash is read as "not applicable"
    await expect(within(table).getAllByText('不适用').length).toBe(19);
  },
};

/** Top-up, manage and system rows in English: "Not applicable" for assistive technology. */
export const RowTypesEnglish: Story = {
  args: RowTypes.args,
  parameters: { lang: 'en', route: '/log' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: 'Total consumed quota: $0.000032 (click to refresh)' })).toBeEnabled();
    const table = c.getByRole('table', { name: 'Usage logs' });
    await expect(within(table).getAllByText('Not applicable').length).toBe(19);
    // the second consume row is not a stream; the notes say nothing about it
    await expect(within(table).getAllByText('Non-stream')).toHaveLength(1);
    const system = rowCells(canvasElement, '新用户注册赠送 $1.00', 'Usage logs');
    await expect(system).not.toContain('0.00 s');
    await expect(system).not.toContain('Non-stream');
    await expect(system.filter((t) => t === '—Not applicable')).toHaveLength(5);
  },
};

/** English, long model names: they wrap only after '-', '/', '.', ':' (never mid-word). */
export const LongModelNamesEnglish: Story = {
  args: { table: logTableState({ rows: longModelLogRows, shownCount: 2, loadedCount: 2 }) },
  parameters: { lang: 'en', route: '/log' },
  play: async ({ canvasElement }) => {
    const names = [...canvasElement.querySelectorAll('td [data-wrap-name]')];
    await expect(names.map((n) => n.textContent)).toEqual(['meta-llama/Llama-3.1-405B-Instruct-Turbo', 'anthropic.claude-3-5-sonnet-20241022-v2:0']);
    for (const name of names) {
      await expect(name.querySelectorAll('wbr').length).toBeGreaterThan(3);
      await expect(getComputedStyle(name).wordBreak).toBe('normal');
    }
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
