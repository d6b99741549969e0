import type { Meta, StoryObj } from '@storybook/react-vite';
import type { AnyMachineSnapshot } from 'xstate';
import { fromPromise } from 'xstate';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import { logCleanMachine, type ClearLogsInput, type LogCleanContext } from '../../machines/logClean';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { LogCleanPanel } from './LogCleanPanel';

/*
 * The clear-history-logs container (logClean machine), one story per machine state. The delete
 * is a spy answering a count (or the server's refusal); nothing reaches the network.
 */

const never = <T,>() => new Promise<T>(() => undefined);
const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };

const clearLogs = fn((_input: ClearLogsInput) => Promise.resolve(17));
const refused = fn(async (_input: ClearLogsInput) => {
  await Promise.resolve();
  throw failure('clearLogs', '无权进行此操作，权限不足');
});
const withClear = (clear: (input: ClearLogsInput) => Promise<number>) =>
  logCleanMachine.provide({ actors: { clearLogs: fromPromise<number, ClearLogsInput>(({ input }) => clear(input)) } });
const answering = withClear(clearLogs);
const failing = withClear(refused);
const pending = withClear(() => never<number>());

const target = '2025-05-16T10:30';
const seed = (value: 'idle' | 'confirming' | 'clearing', over: Partial<LogCleanContext> = {}): Record<string, AnyMachineSnapshot> => ({
  [logCleanMachine.id]: logCleanMachine.resolveState({ value, context: { target, lastCount: null, ...over } }),
});

function CleanStory({
  machine = answering,
  snapshots,
}: {
  readonly machine?: typeof logCleanMachine;
  readonly snapshots?: Record<string, AnyMachineSnapshot>;
}) {
  return (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machine]} snapshots={snapshots}>
        <LogCleanPanel />
      </MachineRegistryProvider>
    </EffectsProvider>
  );
}

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Setting/LogCleanPanel',
  component: LogCleanPanel,
  parameters: { route: '/setting' },
  beforeEach: () => {
    notify.mockClear();
    clearLogs.mockClear();
    refused.mockClear();
  },
} satisfies Meta<typeof LogCleanPanel>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Not seeded: the target starts 30 days before now. */
export const Fresh: Story = {
  render: () => <CleanStory />,
  play: async ({ canvasElement }) => {
    const field = within(canvasElement).getByLabelText('日志清理时间');
    const shown = new Date(String((field as HTMLInputElement).value)).getTime() / 1000;
    const days = (Date.now() / 1000 - shown) / 86400;
    await expect(days).toBeGreaterThanOrEqual(30);
    await expect(days).toBeLessThan(30.01);
  },
};

/** State `idle`. */
export const Idle: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <CleanStory snapshots={seed('idle')} />,
};

/** State `idle` with an emptied field. */
export const InvalidTarget: Story = {
  render: () => <CleanStory snapshots={seed('idle', { target: '' })} />,
};

/** State `confirming`. */
export const Confirming: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <CleanStory snapshots={seed('confirming')} />,
  play: async () => {
    const dialog = within(await screen.findByRole('alertdialog'));
    await waitFor(() => expect(dialog.getByText('2025-05-16 10:30:00 之前的全部日志将被删除，此操作不可撤销。')).toBeVisible());
  },
};

/** State `clearing` (frozen): the dialog's button is busy. */
export const Clearing: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <CleanStory machine={pending} snapshots={seed('clearing')} />,
  play: async () => {
    const dialog = within(await screen.findByRole('alertdialog'));
    await expect(dialog.getByRole('button', { name: '确认清除' })).toBeDisabled();
    await expect(clearLogs).not.toHaveBeenCalled();
  },
};

/** State `idle` after a clean: the count stays shown. */
export const Cleared: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <CleanStory snapshots={seed('idle', { lastCount: 5 })} />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('上次清理了 5 条日志')).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** State `idle`: pick a target, ask, confirm: the delete gets the target and the toast the count. */
export const IdleInteraction: Story = {
  ...Idle,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const field = c.getByLabelText('日志清理时间');
    await userEvent.clear(field);
    await userEvent.type(field, '2024-12-31T23:59');
    await userEvent.click(c.getByRole('button', { name: '清除历史日志' }));
    const dialog = within(await screen.findByRole('alertdialog'));
    await expect(clearLogs).not.toHaveBeenCalled();
    await userEvent.click(dialog.getByRole('button', { name: '确认清除' }));
    await waitFor(() => expect(clearLogs).toHaveBeenCalledTimes(1));
    await expect(clearLogs).toHaveBeenCalledWith({ targetTimestamp: new Date(2024, 11, 31, 23, 59).getTime() / 1000 });
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        type: 'notify',
        level: 'success',
        message: { key: 'settingsExtras.logClean.cleared', params: { count: 17 } },
      }),
    );
    await expect(await c.findByText('上次清理了 17 条日志')).toBeVisible();
  },
};

/** State `idle` with an emptied field: an error toast, nothing asked, nothing sent. */
export const InvalidTargetInteraction: Story = {
  ...InvalidTarget,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '清除历史日志' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { key: 'settingsExtras.logClean.invalidTarget' } }),
    );
    await expect(screen.queryByRole('alertdialog')).toBeNull();
    await expect(clearLogs).not.toHaveBeenCalled();
  },
};

/** State `confirming`: cancelling closes the dialog and sends nothing. */
export const ConfirmingInteraction: Story = {
  ...Confirming,
  tags: ['interaction', '!autodocs'],
  play: async () => {
    const dialog = within(await screen.findByRole('alertdialog'));
    await waitFor(() => expect(dialog.getByText('2025-05-16 10:30:00 之前的全部日志将被删除，此操作不可撤销。')).toBeVisible());
    // The footer button (the close icon has the same name).
    await userEvent.click(dialog.getAllByRole('button', { name: '取消' })[0]!);
    await expect(clearLogs).not.toHaveBeenCalled();
    await expect(notify).not.toHaveBeenCalled();
  },
};

/** State `confirming`, the server refuses: 'log cleanup failed: {message}'. */
export const RefusedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => <CleanStory machine={failing} snapshots={seed('confirming')} />,
  play: async () => {
    const dialog = within(await screen.findByRole('alertdialog'));
    await userEvent.click(dialog.getByRole('button', { name: '确认清除' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        type: 'notify',
        level: 'error',
        message: { key: 'settingsExtras.logClean.failed', params: { message: '无权进行此操作，权限不足' } },
      }),
    );
  },
};
