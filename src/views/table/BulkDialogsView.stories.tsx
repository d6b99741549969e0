import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { msg } from '../../domain/message';
import type { BulkRun } from '../../machines/table';
import { BulkDialogsView } from './BulkDialogsView';

const names: Readonly<Record<number, string>> = { 1: 'openai-main', 2: 'azure-east', 3: 'claude-backup', 4: 'gemini-free', 5: 'moonshot' };
const actionNames: Readonly<Record<string, string>> = { disable: '禁用', delete: '删除', enable: '启用' };

const run = (over: Partial<BulkRun> = {}): BulkRun => ({
  action: 'disable',
  value: '',
  ids: [1, 2, 3, 4, 5],
  done: 0,
  succeeded: [],
  failures: [],
  cancelled: false,
  ...over,
});

const failures = [
  { id: 2, message: { text: '渠道不存在' } },
  { id: 4, message: msg('table.bulk.rowGone') },
];

const meta = {
  title: 'Table/BulkDialogsView',
  component: BulkDialogsView,
  args: {
    toConfirm: null,
    running: null,
    report: null,
    actionLabel: (r: BulkRun) => actionNames[r.action] ?? r.action,
    rowLabel: (id: number) => `#${id} ${names[id] ?? ''}`,
    isDanger: (action: string) => action === 'delete',
    onConfirm: fn(),
    onCancel: fn(),
    onStop: fn(),
    onRetry: fn(),
    onDismiss: fn(),
  },
} satisfies Meta<typeof BulkDialogsView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Nothing running: no dialog. */
export const Idle: Story = {
  play: async () => {
    await expect(screen.queryByRole('alertdialog')).toBeNull();
  },
};

/** The confirmation says how many rows change and what happens to them. */
export const Confirm: Story = {
  args: { toConfirm: run() },
  play: async () => {
    const dialog = await screen.findByRole('alertdialog', { name: '请确认' });
    await expect(dialog).toHaveTextContent('将对 5 项执行「禁用」，确定继续吗？');
  },
};

/** Running: the progress bar and count. */
export const Running: Story = {
  args: { running: run({ done: 2, succeeded: [1], failures: failures.slice(0, 1) }) },
  play: async () => {
    const dialog = await screen.findByRole('alertdialog', { name: '正在执行「禁用」：2 / 5' });
    const bar = within(dialog).getByRole('progressbar');
    await expect(bar).toHaveAttribute('aria-valuenow', '40');
    await expect(dialog).toHaveTextContent('成功 1 项，失败 1 项');
    await expect(dialog).toHaveTextContent('#2 azure-east: 渠道不存在');
    await expect(within(dialog).queryByRole('button', { name: '关闭' })).toBeNull();
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
  },
};

/** Stop was asked: the current row finishes, the stop button is off. */
export const Stopping: Story = {
  args: { running: run({ done: 3, succeeded: [1, 2, 3], cancelled: true }) },
  play: async () => {
    const dialog = await screen.findByRole('alertdialog');
    await expect(within(dialog).getByRole('button', { name: '停止' })).toBeDisabled();
  },
};

/** The report lists every failure by row. */
export const ReportWithFailures: Story = {
  args: { report: run({ done: 5, succeeded: [1, 3, 5], failures }) },
  play: async () => {
    const dialog = await screen.findByRole('alertdialog', { name: '批量操作结果：禁用' });
    await expect(within(dialog).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    await expect(dialog).toHaveTextContent('成功 3 项，失败 2 项');
    await expect(dialog).toHaveTextContent('失败的项目');
    const items = within(dialog).getAllByRole('listitem');
    await expect(items.map((i) => i.textContent)).toEqual(['#2 azure-east: 渠道不存在', '#4 gemini-free: 该记录已不在列表中']);
  },
};

/** Everything succeeded: no failure list, no retry. */
export const ReportAllSucceeded: Story = {
  args: { report: run({ action: 'enable', done: 5, succeeded: [1, 2, 3, 4, 5] }) },
  play: async () => {
    const dialog = await screen.findByRole('alertdialog', { name: '批量操作结果：启用' });
    await expect(dialog).toHaveTextContent('成功 5 项，失败 0 项');
    await expect(within(dialog).queryByRole('list')).toBeNull();
    await expect(within(dialog).queryByRole('button', { name: '重试失败项' })).toBeNull();
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
  },
};

/** Stopped part way: the report says how many rows were not tried. */
export const CancelledWithNotRun: Story = {
  args: { report: run({ action: 'delete', done: 2, succeeded: [1], failures: failures.slice(0, 1), cancelled: true }) },
  play: async () => {
    const dialog = await screen.findByRole('alertdialog', { name: '批量操作结果：删除' });
    await expect(dialog).toHaveTextContent('已停止，3 项未执行');
    await expect(dialog).toHaveTextContent('成功 1 项，失败 1 项');
    await expect(within(dialog).getByRole('button', { name: '重试失败项' })).toBeEnabled();
  },
};

export const Dark: Story = {
  args: { report: run({ done: 5, succeeded: [1, 3, 5], failures }) },
  parameters: { colorMode: 'dark' },
};

export const Narrow: Story = {
  args: { report: run({ done: 5, succeeded: [1, 3, 5], failures }) },
  globals: { viewport: { value: 'mobile1' } },
};

export const English: Story = {
  args: { running: run({ done: 1, succeeded: [1] }) },
  parameters: { lang: 'en' },
  play: async () => {
    await screen.findByRole('alertdialog', { name: 'Running "禁用": 1 / 5' });
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** The confirmation says how many rows change and what happens to them. */
export const ConfirmInteraction: Story = {
  ...Confirm,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    const dialog = await screen.findByRole('alertdialog', { name: '请确认' });
    await expect(dialog).toHaveTextContent('将对 5 项执行「禁用」，确定继续吗？');
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await expect(args.onConfirm).toHaveBeenCalledTimes(1);
  },
};

/** Escape (or cancel) on the confirmation cancels the bulk action. */
export const ConfirmCancelledInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  args: { toConfirm: run({ action: 'delete', ids: [1, 2] }) },
  play: async ({ args }) => {
    const dialog = await screen.findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('将对 2 项执行「删除」，确定继续吗？');
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await userEvent.keyboard('{Escape}');
    await expect(args.onCancel).toHaveBeenCalledTimes(1);
    await expect(args.onConfirm).not.toHaveBeenCalled();
  },
};

/** Running: the progress bar and count; Escape does not hide it; "stop" asks to stop. */
export const RunningInteraction: Story = {
  ...Running,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    const dialog = await screen.findByRole('alertdialog', { name: '正在执行「禁用」：2 / 5' });
    const bar = within(dialog).getByRole('progressbar');
    await expect(bar).toHaveAttribute('aria-valuenow', '40');
    await expect(dialog).toHaveTextContent('成功 1 项，失败 1 项');
    await expect(dialog).toHaveTextContent('#2 azure-east: 渠道不存在');
    await expect(within(dialog).queryByRole('button', { name: '关闭' })).toBeNull();
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await userEvent.keyboard('{Escape}');
    await expect(args.onDismiss).not.toHaveBeenCalled();
    await expect(screen.getByRole('alertdialog')).toBeVisible();
    await userEvent.click(within(dialog).getByRole('button', { name: '停止' }));
    await expect(args.onStop).toHaveBeenCalledTimes(1);
  },
};

/** The report lists every failure by row; "retry failed" and "close". */
export const ReportWithFailuresInteraction: Story = {
  ...ReportWithFailures,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    const dialog = await screen.findByRole('alertdialog', { name: '批量操作结果：禁用' });
    await expect(within(dialog).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    await expect(dialog).toHaveTextContent('成功 3 项，失败 2 项');
    await expect(dialog).toHaveTextContent('失败的项目');
    const items = within(dialog).getAllByRole('listitem');
    await expect(items.map((i) => i.textContent)).toEqual(['#2 azure-east: 渠道不存在', '#4 gemini-free: 该记录已不在列表中']);
    await userEvent.click(within(dialog).getByRole('button', { name: '重试失败项' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
    await userEvent.click(within(dialog).getByRole('button', { name: '关闭' }));
    await expect(args.onDismiss).toHaveBeenCalledTimes(1);
  },
};

/** Everything succeeded: no failure list, no retry; Escape closes the report. */
export const ReportAllSucceededInteraction: Story = {
  ...ReportAllSucceeded,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    const dialog = await screen.findByRole('alertdialog', { name: '批量操作结果：启用' });
    await expect(dialog).toHaveTextContent('成功 5 项，失败 0 项');
    await expect(within(dialog).queryByRole('list')).toBeNull();
    await expect(within(dialog).queryByRole('button', { name: '重试失败项' })).toBeNull();
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await userEvent.keyboard('{Escape}');
    await expect(args.onDismiss).toHaveBeenCalledTimes(1);
  },
};
