import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { UpdateCheckView } from './UpdateCheckView';

const release = {
  tag: 'v0.6.11',
  notes: '## 更新内容\n\n- 新增渠道测试进度\n- 修复若干问题\n\n<img src=x alt="" onerror="alert(1)"><script>window.pwned = true</script>',
  url: 'https://releases.example/v0.6.11',
};

const meta = {
  title: 'Setting/UpdateCheckView',
  component: UpdateCheckView,
  args: { currentVersion: 'v0.6.10', checking: false, release: null, onCheck: fn(), onClose: fn() },
} satisfies Meta<typeof UpdateCheckView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The button and the console's version. */
export const Idle: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('当前版本：v0.6.10')).toBeVisible();
  },
};

/** Reading the release list: the button is busy. */
export const Checking: Story = {
  args: { checking: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '检查更新' })).toBeDisabled();
  },
};

/** A newer release: its tag, the notes as sanitised Markdown, the release link. */
export const NewRelease: Story = {
  args: { release },
  play: async () => {
    const dialog = within(await screen.findByRole('dialog'));
    await waitFor(() => expect(dialog.getByRole('heading', { name: '新版本：v0.6.11' })).toBeVisible());
    await waitFor(() => expect(dialog.getByRole('heading', { name: '更新内容' })).toBeVisible());
    await waitFor(() => expect(dialog.getByText('新增渠道测试进度')).toBeVisible());
    const link = dialog.getByRole('link', { name: '查看发布页面' });
    await expect(link).toHaveAttribute('href', release.url);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    const body = await screen.findByRole('dialog');
    await expect(body.querySelector('script')).toBeNull();
    await expect(body.querySelector('[onerror]')).toBeNull();
    await expect((window as { pwned?: boolean }).pwned).toBeUndefined();
  },
};

/** A release without notes. */
export const NoNotes: Story = {
  args: { release: { ...release, notes: '  ' } },
  play: async () => {
    const box = within(await screen.findByRole('dialog'));
    await waitFor(() => expect(box.getByText('此版本没有更新说明。')).toBeVisible());
  },
};

export const English: Story = { args: { release }, parameters: { lang: 'en' } };
export const Dark: Story = { args: { release }, parameters: { colorMode: 'dark' } };

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** The button and the console's version; pressing reports. */
export const IdleInteraction: Story = {
  ...Idle,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('当前版本：v0.6.10')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '检查更新' }));
    await expect(args.onCheck).toHaveBeenCalledTimes(1);
  },
};

/** A newer release: its tag, the notes as sanitised Markdown, the release link; closing reports. */
export const NewReleaseInteraction: Story = {
  ...NewRelease,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    const dialog = within(await screen.findByRole('dialog'));
    await waitFor(() => expect(dialog.getByRole('heading', { name: '新版本：v0.6.11' })).toBeVisible());
    await waitFor(() => expect(dialog.getByRole('heading', { name: '更新内容' })).toBeVisible());
    await waitFor(() => expect(dialog.getByText('新增渠道测试进度')).toBeVisible());
    const link = dialog.getByRole('link', { name: '查看发布页面' });
    await expect(link).toHaveAttribute('href', release.url);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    const body = await screen.findByRole('dialog');
    await expect(body.querySelector('script')).toBeNull();
    await expect(body.querySelector('[onerror]')).toBeNull();
    await expect((window as { pwned?: boolean }).pwned).toBeUndefined();
    await userEvent.click(dialog.getAllByRole('button', { name: '关闭' })[0]!);
    await expect(args.onClose).toHaveBeenCalled();
  },
};
