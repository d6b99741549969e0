import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fireEvent, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NotifyEvent } from '../../domain/message';
import {
  dashboardMachine,
  initialDashboardContext,
  type DashboardContext,
  type DashboardUserOption,
  type LoadDashboardInput,
  type LoadDashboardOutput,
} from '../../machines/dashboard';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { DashboardPage } from './DashboardPage';
import { storyNow, usageRows } from './DashboardPage.fixtures';

const notify = fn<(e: NotifyEvent) => void>();
const loads = fn<(input: LoadDashboardInput) => void>();
const effects = { notify, navigate: fn() };
const never = <T,>() => new Promise<T>(() => undefined);

const machineWith = (over: { load?: 'ok' | 'fails' | 'never' } = {}) =>
  dashboardMachine.provide({
    actors: {
      loadDashboard: fromPromise<LoadDashboardOutput, LoadDashboardInput>(async ({ input }) => {
        loads(input);
        if (over.load === 'never') return never<LoadDashboardOutput>();
        await Promise.resolve();
        if (over.load === 'fails') throw failure('loadDashboard', '无法获取统计信息');
        // all users: twice the rows; another user: only the first row
        const rows = input.query.user_id === 0 ? [...usageRows, ...usageRows] : input.query.user_id !== undefined ? usageRows.slice(0, 1) : usageRows;
        return { rows, account: input.account === null ? null : { quota: 700000, usedQuota: 250000 } };
      }),
      searchUsers: fromPromise<readonly DashboardUserOption[], { readonly keyword: string }>(({ input }) =>
        over.load === 'never' ? never() : Promise.resolve([{ id: 2, username: `${input.keyword}ce`, display_name: 'Alice' }]),
      ),
    },
  });

const input = { isAdmin: true, now: storyNow, utcOffset: 0 };
type Value = Parameters<typeof dashboardMachine.resolveState>[0]['value'];
const seed = (value: Value, over: Partial<DashboardContext> = {}) => ({
  [dashboardMachine.id]: dashboardMachine.resolveState({ value, context: { ...initialDashboardContext(input), rows: usageRows, account: { quota: 700000, usedQuota: 250000 }, ...over } }),
});

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Dashboard/DashboardPage',
  component: DashboardPage,
  parameters: { route: '/dashboard' },
  args: { ...input, quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 } },
} satisfies Meta<typeof DashboardPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Live: a failed load says why; retry. */
export const LoadFailedLive: Story = {
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith({ load: 'fails' })]}>
        <DashboardPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('button', { name: '重试' })).toBeVisible();
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: '无法获取统计信息' } });
  },
};

const frozen = (snapshots: ReturnType<typeof seed>) => (args: typeof input & { quotaDisplay: { displayInCurrency: boolean; quotaPerUnit: number } }) => (
  <MachineRegistryProvider machines={[machineWith({ load: 'never' })]} snapshots={snapshots}>
    <DashboardPage {...args} />
  </MachineRegistryProvider>
);

/** State usage.loading (first load). */
export const Loading: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ usage: 'loading', search: 'idle' }, { rows: [], account: null })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载统计数据……');
  },
};
/** State usage.ready. */
export const Ready: Story = {
  render: frozen(seed({ usage: 'ready', search: 'idle' })),
  play: async ({ canvasElement }) => {
    await expect(within(within(canvasElement).getByRole('group', { name: '请求次数' })).getByText('42')).toBeVisible();
  },
};
/** State usage.failed (the rows shown before stay). */
export const Failed: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ usage: 'failed', search: 'idle' })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('无法加载统计数据。')).toBeVisible();
  },
};
/** State search.searching. */
export const Searching: Story = {
  render: frozen(seed({ usage: 'ready', search: 'searching' }, { keyword: 'ali' })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('搜索用户')).toHaveValue('ali');
  },
};
/** Dark and English at 375 px. */
export const ReadyEnglishDark: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', colorMode: 'dark' },
  render: frozen(seed({ usage: 'ready', search: 'idle' })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Live, as an admin: loads the week, switches range and metric, views all users, searches and picks a user. */
export const AdminLiveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith()]}>
        <DashboardPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(within(c.getByRole('group', { name: '请求次数' })).getByText('42')).toBeVisible());
    await expect(loads).toHaveBeenCalledWith({
      query: { start_timestamp: 1_794_873_600, end_timestamp: 1_795_478_399, utc_offset: 0 },
      account: 'self',
    });
    await userEvent.selectOptions(c.getByLabelText('时间范围'), '30d');
    await waitFor(() => expect(loads).toHaveBeenLastCalledWith(expect.objectContaining({ query: expect.objectContaining({ start_timestamp: 1_792_886_400 }) as unknown })));
    await userEvent.click(c.getByRole('button', { name: 'Tokens' }));
    await expect(c.getByRole('button', { name: 'Tokens' })).toHaveAttribute('aria-pressed', 'true');
  },
};

/** Live, as an admin: all users' totals, then a user found by the search. */
export const AdminPickLiveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith()]}>
        <DashboardPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(within(c.getByRole('group', { name: '请求次数' })).getByText('42')).toBeVisible());
    await userEvent.selectOptions(c.getByLabelText('查看用户'), 'all');
    await waitFor(() => expect(within(c.getByRole('group', { name: '请求次数' })).getByText('84')).toBeVisible());
    await expect(c.queryByRole('group', { name: '剩余额度' })).toBeNull();
    await userEvent.type(c.getByLabelText('搜索用户'), 'ali');
    await userEvent.click(c.getByRole('button', { name: '搜索' }));
    await userEvent.click(await c.findByRole('button', { name: /^查看 alice（#2）/ }));
    await waitFor(() => expect(within(c.getByRole('group', { name: '请求次数' })).getByText('10')).toBeVisible());
    await expect(loads).toHaveBeenLastCalledWith(expect.objectContaining({ account: 2, query: expect.objectContaining({ user_id: 2 }) as unknown }));
  },
};

/** Live: a refused custom range sends nothing; a good one loads. */
export const CustomRangeLiveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  args: { isAdmin: false },
  render: (args) => (
    <MachineRegistryProvider machines={[machineWith()]}>
      <DashboardPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(within(c.getByRole('group', { name: '请求次数' })).getByText('42')).toBeVisible());
    loads.mockClear();
    await userEvent.selectOptions(c.getByLabelText('时间范围'), 'custom');
    await fireEvent.change(c.getByLabelText('结束日期'), { target: { value: '2026-11-01' } });
    await userEvent.click(c.getByRole('button', { name: '应用' }));
    await expect(await c.findByRole('alert')).toHaveTextContent('结束日期不能早于开始日期');
    await expect(loads).not.toHaveBeenCalled();
    await fireEvent.change(c.getByLabelText('结束日期'), { target: { value: '2026-11-20' } });
    await userEvent.click(c.getByRole('button', { name: '应用' }));
    await waitFor(() => expect(loads).toHaveBeenCalledTimes(1));
    await expect(c.getByText('2026-11-17 至 2026-11-20')).toBeVisible();
  },
};
