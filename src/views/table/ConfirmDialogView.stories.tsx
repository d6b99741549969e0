import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, waitFor } from 'storybook/test';
import { ConfirmDialogView } from './ConfirmDialogView';

const meta = {
  title: 'Table/ConfirmDialogView',
  component: ConfirmDialogView,
  args: {
    open: true,
    body: '确定删除渠道「openai-main」吗？',
    onConfirm: fn(),
    onCancel: fn(),
  },
} satisfies Meta<typeof ConfirmDialogView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Open: the title, what will change, and the two answers. */
export const Open: Story = {
  play: async () => {
    const dialog = await screen.findByRole('alertdialog', { name: '请确认' });
    await expect(dialog).toHaveAccessibleDescription('确定删除渠道「openai-main」吗？');
  },
};

/** A destructive action with its own title and button text. */
export const Danger: Story = {
  args: { danger: true, title: '删除渠道', confirmLabel: '删除' },
};

/** Waiting for the answer: cancel is off, confirm spins. */
export const Busy: Story = {
  args: { busy: true },
  play: async () => {
    await screen.findByRole('alertdialog');
    for (const b of screen.getAllByRole('button', { name: '取消' })) await expect(b).toBeDisabled();
    await expect(screen.getByRole('button', { name: /确定/ })).toBeDisabled();
  },
};

export const Closed: Story = {
  args: { open: false },
  play: async () => {
    await expect(screen.queryByRole('alertdialog')).toBeNull();
  },
};

export const Dark: Story = { args: { danger: true }, parameters: { colorMode: 'dark' } };

export const Narrow: Story = { globals: { viewport: { value: 'mobile1' } } };

export const English: Story = {
  args: { body: 'Delete channel "openai-main"?' },
  parameters: { lang: 'en' },
  play: async () => {
    await screen.findByRole('alertdialog', { name: 'Please confirm' });
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Open: the title, what will change, and the two answers. */
export const OpenInteraction: Story = {
  ...Open,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    const dialog = await screen.findByRole('alertdialog', { name: '请确认' });
    await expect(dialog).toHaveAccessibleDescription('确定删除渠道「openai-main」吗？');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await expect(args.onConfirm).toHaveBeenCalledTimes(1);
    await expect(args.onCancel).not.toHaveBeenCalled();
  },
};

/** Escape cancels. */
export const EscapeCancelsInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    await screen.findByRole('alertdialog');
    await waitFor(() => expect(screen.getByRole('alertdialog')).toContainElement(document.activeElement as HTMLElement));
    await userEvent.keyboard('{Escape}');
    await expect(args.onCancel).toHaveBeenCalledTimes(1);
    await expect(args.onConfirm).not.toHaveBeenCalled();
  },
};

/** The cancel button (and the corner close button) cancel. */
export const CancelButtonInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    await screen.findByRole('alertdialog');
    const [cancel, close] = screen.getAllByRole('button', { name: '取消' });
    await userEvent.click(cancel!);
    await expect(args.onCancel).toHaveBeenCalledTimes(1);
    await userEvent.click(close!);
    await expect(args.onCancel).toHaveBeenCalledTimes(2);
  },
};

/** A destructive action with its own title and button text. */
export const DangerInteraction: Story = {
  ...Danger,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    await screen.findByRole('alertdialog', { name: '删除渠道' });
    await userEvent.click(screen.getByRole('button', { name: '删除' }));
    await expect(args.onConfirm).toHaveBeenCalledTimes(1);
  },
};
