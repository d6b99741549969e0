import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { rangeOfPreset } from '../../domain/dashboard';
import { DashboardPageView } from './DashboardPageView';
import { freeRows, longModelRows, manyModelRows, phoneViewport, smallAmountRows, storyNow, usageRows } from './DashboardPage.fixtures';

const meta = {
  title: 'Dashboard/DashboardPageView',
  component: DashboardPageView,
  args: {
    isAdmin: false,
    preset: '7d',
    range: rangeOfPreset('7d', storyNow, 0),
    utcOffset: 0,
    customStart: '2026-11-17',
    customEnd: '2026-11-23',
    rangeProblem: null,
    metric: 'quota',
    viewer: { kind: 'self' },
    rows: usageRows,
    account: { quota: 700000, usedQuota: 250000 },
    loading: false,
    loadFailed: false,
    keyword: '',
    searchResults: null,
    searching: false,
    quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 },
    onPreset: fn(),
    onCustomChange: fn(),
    onApplyCustom: fn(),
    onMetric: fn(),
    onViewer: fn(),
    onKeyword: fn(),
    onSearch: fn(),
    onRetry: fn(),
  },
} satisfies Meta<typeof DashboardPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A user's week: the cards, both charts with their summaries and tables; range and metric send events. */
export const Week: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '数据看板' })).toBeVisible();
    await expect(c.getByText('2026-11-17 至 2026-11-23')).toBeVisible();
    await expect(within(c.getByRole('group', { name: '请求次数' })).getByText('42')).toBeVisible();
    await expect(within(c.getByRole('group', { name: '消耗额度' })).getByText('250.0k')).toBeVisible();
    await expect(within(c.getByRole('group', { name: 'Tokens' })).getByText('12.6k')).toBeVisible();
    await expect(within(c.getByRole('group', { name: '剩余额度' })).getByText('700.0k')).toBeVisible();
    await expect(within(c.getByRole('group', { name: '已用额度' })).getByText('250.0k')).toBeVisible();
    // 250000 over 7 days → 35714 a day → 700000 lasts 19 days
    await expect(within(c.getByRole('group', { name: '预计可用天数' })).getByText('19 天')).toBeVisible();
    await expect(c.getByRole('img', { name: /消耗额度：7 天共 250\.0k，单日最高 120\.0k（2026-11-21）/ })).toBeInTheDocument();
    await expect(c.getByRole('img', { name: /共 3 个模型，最多的是 claude-3\.5-sonnet/ })).toBeInTheDocument();
  },
};

/** The table alternative (every day of the range, zero-filled). */
export const TableAndControls: Story = {
};

/** Requests as the metric, quota in currency. */
export const RequestsInCurrency: Story = {
  args: { metric: 'requests', quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(within(c.getByRole('group', { name: '消耗额度' })).getByText('$0.50')).toBeVisible();
    await expect(c.getByRole('img', { name: /请求次数：7 天共 42/ })).toBeInTheDocument();
  },
};

/** The custom range: two dates and apply. */
export const CustomRange: Story = {
  args: { preset: 'custom', rangeProblem: 'endBeforeStart', customStart: '2026-11-23', customEnd: '2026-11-01' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('alert')).toHaveTextContent('结束日期不能早于开始日期');
    await expect(c.getByLabelText('开始日期')).toHaveValue('2026-11-23');
  },
};

/** An admin: the user picker, the search and its results. */
export const AdminSearch: Story = {
  args: {
    isAdmin: true,
    keyword: 'ali',
    searchResults: [
      { id: 2, username: 'alice', display_name: 'Alice' },
      { id: 5, username: 'alibaba', display_name: '' },
    ],
  },
};

/** A search without matches. */
export const AdminSearchEmpty: Story = {
  args: { isAdmin: true, keyword: 'nobody', searchResults: [] },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('没有找到用户')).toBeVisible();
  },
};

/** All users: the totals of the range, no quota cards. */
export const AllUsers: Story = {
  args: { isAdmin: true, viewer: { kind: 'all' }, account: null },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText(/当前查看：所有用户/)).toBeVisible();
    await expect(c.queryByRole('group', { name: '剩余额度' })).toBeNull();
    await expect(c.getByLabelText('查看用户')).toHaveValue('all');
  },
};

/** A picked user whose quota could not be read: dashes with the reason. */
export const PickedUserQuotaUnreadable: Story = {
  args: { isAdmin: true, viewer: { kind: 'user', id: 3, username: 'bob' }, account: null },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('查看用户')).toHaveValue('user:3');
    await expect(within(c.getByRole('group', { name: '剩余额度' })).getByText('—')).toBeVisible();
  },
};

/** Nothing used: no charts, and the quota lasts forever. */
export const Empty: Story = {
  args: { rows: [] },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('所选范围内没有用量')).toBeVisible();
    await expect(within(c.getByRole('group', { name: '预计可用天数' })).getByText('∞')).toBeVisible();
    await expect(c.queryByRole('img')).toBeNull();
  },
};

/** The first load. */
export const Loading: Story = {
  args: { rows: [], account: null, loading: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载统计数据……');
  },
};

/** A failed load: the retry. */
export const Failed: Story = {
  args: { rows: [], account: null, loadFailed: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载统计数据。')).toBeVisible();
  },
};

/** Nine models: six colours and "others"; the table still lists every model. */
export const ManyModels: Story = {
  args: { rows: manyModelRows, range: rangeOfPreset('today', storyNow, 0), preset: 'today' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('img', { name: /共 9 个模型，最多的是 model-1/ })).toBeInTheDocument();
    await expect(within(c.getByRole('table', { name: '模型用量明细' })).getAllByRole('row')).toHaveLength(10);
  },
};

/** 375 px wide, dark, English: nothing overflows. */
export const PhoneDarkEnglish: Story = {
  ...phoneViewport,
  args: { isAdmin: true },
  parameters: { ...phoneViewport.parameters, colorMode: 'dark', lang: 'en' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(c.getByRole('img', { name: /Quota used: 250\.0k over 7 days/ })).toBeInTheDocument();
    await expect(canvasElement.ownerDocument.documentElement.scrollWidth).toBeLessThanOrEqual(375);
  },
};

/** The y-axis tick labels of the daily chart, once recharts has measured and drawn it. */
async function yTicks(canvasElement: HTMLElement): Promise<string[]> {
  const read = () => [...canvasElement.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')].map((e) => e.textContent ?? '');
  await waitFor(() => expect(read().length).toBeGreaterThan(1), { timeout: 10_000 });
  return read();
}

/** The legends of the two charts, each as the list of its items' labels and colours. */
async function legendItems(canvasElement: HTMLElement): Promise<{ readonly label: string; readonly color: string }[][]> {
  const read = () =>
    [...canvasElement.querySelectorAll('.recharts-legend-wrapper')].map((w) =>
      [...w.querySelectorAll('.color-swatch')].map((swatch) => ({
        label: swatch.nextElementSibling?.textContent ?? '',
        color: swatch.getAttribute('data-value') ?? '',
      })),
    );
  await waitFor(() => expect(read().filter((l) => l.length > 0)).toHaveLength(2), { timeout: 10_000 });
  return read();
}

/** The legends of the two charts, each as the list of its labels. */
const legends = async (canvasElement: HTMLElement): Promise<string[][]> =>
  (await legendItems(canvasElement)).map((items) => items.map((i) => i.label));

/** Millionths of a dollar: the y axis is scaled to the data (no column of $0.00), the cards keep two significant digits. */
export const SmallAmountsAxis: Story = {
  args: { rows: smallAmountRows, quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 }, account: { quota: 40, usedQuota: 15 } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const ticks = await yTicks(canvasElement);
    // the busiest day is 8 quota = $0.000016: a $0.000005 step
    await expect(ticks).toEqual(['$0.000000', '$0.000005', '$0.000010', '$0.000015', '$0.000020']);
    await expect(new Set(ticks).size).toBe(ticks.length);
    await expect(within(c.getByRole('group', { name: '消耗额度' })).getByText('$0.000030')).toBeVisible();
    await expect(within(c.getByRole('group', { name: '剩余额度' })).getByText('$0.000080')).toBeVisible();
    // 15 quota over 7 days → 2.14 a day → 40 lasts 18 days
    await expect(within(c.getByRole('group', { name: '预计可用天数' })).getByText('18 天')).toBeVisible();
  },
};

/** Both legends list the models in one order (largest first, not alphabetical) with the same colours. */
export const SameLegendOrder: Story = {
  args: { rows: smallAmountRows },
  play: async ({ canvasElement }) => {
    const [daily, models] = await legendItems(canvasElement);
    await expect(daily!.map((i) => i.label)).toEqual(['zeta-small', 'alpha-tiny']);
    await expect(models).toEqual(daily);
  },
};

/** Many models: "others" comes last in both legends. */
export const ManyModelsLegendOrder: Story = {
  args: { rows: manyModelRows, range: rangeOfPreset('today', storyNow, 0), preset: 'today' },
  play: async ({ canvasElement }) => {
    const [daily, models] = await legends(canvasElement);
    await expect(daily).toEqual(['model-1', 'model-2', 'model-3', 'model-4', 'model-5', 'model-6', '其他']);
    await expect(models).toEqual(daily);
  },
};

/** Requests but no charge in the range: the quota lasts forever (∞). */
export const DaysLeftForever: Story = {
  args: { rows: freeRows },
  play: async ({ canvasElement }) => {
    const card = within(within(canvasElement).getByRole('group', { name: '预计可用天数' }));
    await expect(card.getByText('∞')).toBeVisible();
    await expect(card.getByText('所选范围内没有消耗')).toBeVisible();
  },
};

/** A huge balance against a tiny use: "> 9,999 天", never a 14-digit day count. */
export const DaysLeftHuge: Story = {
  args: { rows: smallAmountRows, account: { quota: 1_000_000_000_000, usedQuota: 15 } },
  play: async ({ canvasElement }) => {
    const card = within(within(canvasElement).getByRole('group', { name: '预计可用天数' }));
    await expect(card.getByText('> 9,999 天')).toBeVisible();
  },
};

/** The same in English. */
export const DaysLeftHugeEnglish: Story = {
  ...DaysLeftHuge,
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const card = within(within(canvasElement).getByRole('group', { name: 'Days left' }));
    await expect(card.getByText('> 9,999 days')).toBeVisible();
  },
};

/** English, 375 px, long model names: they wrap only after '-', '/', '.', ':' (in the legends and tables), nothing overflows. */
export const LongModelNamesEnglish: Story = {
  ...phoneViewport,
  args: { rows: longModelRows },
  parameters: { ...phoneViewport.parameters, lang: 'en' },
  play: async ({ canvasElement }) => {
    const [daily] = await legends(canvasElement);
    await expect(daily).toEqual(['meta-llama/Llama-3.1-405B-Instruct-Turbo', 'anthropic.claude-3-5-sonnet-20241022-v2:0', 'gpt-4o-mini-2024-07-18']);
    for (const wrapper of canvasElement.querySelectorAll('.recharts-legend-wrapper')) {
      await expect(wrapper.querySelectorAll('wbr').length).toBeGreaterThan(0);
    }
    const names = [...canvasElement.querySelectorAll('[data-wrap-name]')];
    await expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      await expect(getComputedStyle(name).wordBreak).toBe('normal');
    }
    await expect(canvasElement.ownerDocument.documentElement.scrollWidth).toBeLessThanOrEqual(375);
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** The table alternative (every day of the range, zero-filled); range and metric send events. */
export const TableAndControlsInteraction: Story = {
  ...TableAndControls,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    // the table alternative: every day of the range, zero-filled
    await userEvent.click(c.getAllByText('以表格查看')[0]!);
    const daily = c.getByRole('table', { name: '每日用量明细' });
    await expect(within(daily).getAllByRole('row')).toHaveLength(8);
    await expect(within(daily).getByRole('cell', { name: '2026-11-19' })).toBeInTheDocument();
    await userEvent.selectOptions(c.getByLabelText('时间范围'), '30d');
    await expect(args.onPreset).toHaveBeenCalledWith('30d');
    await userEvent.click(c.getByRole('button', { name: '请求次数' }));
    await expect(args.onMetric).toHaveBeenCalledWith('requests');
    await expect(c.getByRole('button', { name: '消耗额度' })).toHaveAttribute('aria-pressed', 'true');
    // a common user has no user picker
    await expect(c.queryByLabelText('查看用户')).toBeNull();
  },
};

/** The custom range: two dates and apply; a refused range says why. */
export const CustomRangeInteraction: Story = {
  ...CustomRange,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('alert')).toHaveTextContent('结束日期不能早于开始日期');
    await expect(c.getByLabelText('开始日期')).toHaveValue('2026-11-23');
    await userEvent.click(c.getByRole('button', { name: '应用' }));
    await expect(args.onApplyCustom).toHaveBeenCalledTimes(1);
  },
};

/** An admin: the user picker, the search and its results. */
export const AdminSearchInteraction: Story = {
  ...AdminSearch,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.selectOptions(c.getByLabelText('查看用户'), 'all');
    await expect(args.onViewer).toHaveBeenCalledWith({ kind: 'all' });
    await userEvent.type(c.getByLabelText('搜索用户'), 'c');
    await expect(args.onKeyword).toHaveBeenLastCalledWith('alic');
    await userEvent.click(c.getByRole('button', { name: '搜索' }));
    await expect(args.onSearch).toHaveBeenCalledTimes(1);
    await userEvent.click(c.getByRole('button', { name: /^查看 alice（#2）/ }));
    await expect(args.onViewer).toHaveBeenLastCalledWith({ kind: 'user', id: 2, username: 'alice' });
  },
};

/** A failed load: the retry. */
export const FailedInteraction: Story = {
  ...Failed,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载统计数据。')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};
