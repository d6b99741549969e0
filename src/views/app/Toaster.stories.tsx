import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button, Stack } from '@chakra-ui/react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { NoticeLevel } from '../../domain/message';
import { showToast, toastDurations, Toaster } from './toaster';

const levels: readonly NoticeLevel[] = ['success', 'info', 'warning', 'error', 'notice'];

function ToasterDemo() {
  return (
    <Stack direction="row" gap={2} wrap="wrap">
      {levels.map((level) => (
        <Button key={level} onClick={() => showToast({ level }, `${level} message`)}>
          {level}
        </Button>
      ))}
      <Toaster />
    </Stack>
  );
}

const meta = { title: 'App/Toaster', component: ToasterDemo, tags: ['!autodocs'] } satisfies Meta<typeof ToasterDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** The one toaster: each level with the spec's duration (notices stay until closed). */
export const LevelsInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(c.getByRole('button', { name: 'error' }));
    await waitFor(() => expect(body.getByText('error message')).toBeVisible());
    await userEvent.click(c.getByRole('button', { name: 'notice' }));
    await waitFor(() => expect(body.getByText('notice message')).toBeVisible());
    await expect(toastDurations.notice).toBe(Infinity);
    await expect(toastDurations.success).toBe(1500);
    await userEvent.click(c.getByRole('button', { name: 'success' }));
    await waitFor(() => expect(body.getByText('success message')).toBeVisible());
    // success closes after 1.5 s; the notice is still there
    await waitFor(() => expect(body.queryByText('success message')).toBeNull(), { timeout: 4000 });
    await expect(body.getByText('notice message')).toBeVisible();
    const closers = body.getAllByRole('button', { name: '关闭通知' });
    for (const b of closers) await userEvent.click(b);
  },
};
