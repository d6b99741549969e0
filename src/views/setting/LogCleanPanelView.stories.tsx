import type { Meta, StoryObj } from '@storybook/react-vite';
import { Box } from '@chakra-ui/react';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { LogCleanPanelView } from './LogCleanPanelView';

const meta = {
  title: 'Setting/LogCleanPanelView',
  component: LogCleanPanelView,
  args: {
    target: '2025-05-16T10:30',
    confirming: false,
    clearing: false,
    lastCount: null,
    onTargetChange: fn(),
    onRequest: fn(),
    onConfirm: fn(),
    onCancel: fn(),
  },
} satisfies Meta<typeof LogCleanPanelView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The target field and the button. */
export const Idle: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const field = c.getByLabelText('日志清理时间');
    await expect(field).toHaveValue('2025-05-16T10:30');
    await expect(field).toHaveAttribute('type', 'datetime-local');
  },
};

/** The confirmation names the target. */
export const Confirming: Story = {
  args: { confirming: true },
  play: async () => {
    const dialog = within(await screen.findByRole('alertdialog'));
    await waitFor(() => expect(dialog.getByText('确认清除历史日志？')).toBeVisible());
    await waitFor(() => expect(dialog.getByText('2025-05-16 10:30:00 之前的全部日志将被删除，此操作不可撤销。')).toBeVisible());
  },
};

/** The delete is on its way: the dialog's button is busy, the field is disabled. */
export const Clearing: Story = {
  args: { clearing: true },
  play: async ({ canvasElement }) => {
    const dialog = within(await screen.findByRole('alertdialog'));
    await expect(dialog.getByRole('button', { name: '确认清除' })).toBeDisabled();
    await expect(within(canvasElement).getByLabelText('日志清理时间')).toBeDisabled();
  },
};

/** After a clean: how many rows it removed. */
export const AfterClean: Story = {
  args: { lastCount: 128 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('上次清理了 128 条日志')).toBeVisible();
  },
};

export const Narrow: Story = {
  args: { lastCount: 3 },
  decorators: [
    (Story) => (
      <Box maxW="340px" borderWidth="1px" p={2}>
        <Story />
      </Box>
    ),
  ],
};
export const English: Story = {
  args: { confirming: true },
  parameters: { lang: 'en' },
  play: async () => {
    const box = within(await screen.findByRole('alertdialog'));
    await waitFor(() => expect(box.getByText('Clear history logs?')).toBeVisible());
  },
};
export const Dark: Story = { args: { lastCount: 7 }, parameters: { colorMode: 'dark' } };

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** The target field and the button; typing reports the value, the button asks to clear. */
export const IdleInteraction: Story = {
  ...Idle,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    const field = c.getByLabelText('日志清理时间');
    await expect(field).toHaveValue('2025-05-16T10:30');
    await expect(field).toHaveAttribute('type', 'datetime-local');
    await userEvent.click(c.getByRole('button', { name: '清除历史日志' }));
    await expect(args.onRequest).toHaveBeenCalledTimes(1);
    await expect(screen.queryByRole('alertdialog')).toBeNull();
  },
};

/** The confirmation names the target; confirm and cancel report. */
export const ConfirmingInteraction: Story = {
  ...Confirming,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    const dialog = within(await screen.findByRole('alertdialog'));
    await waitFor(() => expect(dialog.getByText('确认清除历史日志？')).toBeVisible());
    await waitFor(() => expect(dialog.getByText('2025-05-16 10:30:00 之前的全部日志将被删除，此操作不可撤销。')).toBeVisible());
    await userEvent.click(dialog.getByRole('button', { name: '确认清除' }));
    await expect(args.onConfirm).toHaveBeenCalledTimes(1);
    // The footer button (the close icon has the same name).
    await userEvent.click(dialog.getAllByRole('button', { name: '取消' })[0]!);
    await expect(args.onCancel).toHaveBeenCalled();
  },
};
