import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { WeChatLoginDialogView } from './WeChatLoginDialogView';

/** A stand-in QR image (inline, no network). */
const sampleQr =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 6 6"><rect width="6" height="6" fill="#fff"/><path d="M0 0h2v2H0zM4 0h2v2H4zM0 4h2v2H0zM3 3h1v1H3zM4 4h1v2H4z" fill="#000"/></svg>',
  );

const meta = {
  title: 'Auth/WeChatLoginDialogView',
  component: WeChatLoginDialogView,
  args: {
    open: false,
    submitting: false,
    error: null,
    qrCodeUrl: sampleQr,
    onOpen: fn(),
    onClose: fn(),
    onSubmit: fn(),
  },
} satisfies Meta<typeof WeChatLoginDialogView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Closed: only the button that opens the dialog. */
export const Closed: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '使用微信验证码登录' })).toBeEnabled();
    await expect(screen.queryByRole('dialog')).toBeNull();
  },
};
/** The button asks to open the dialog. */
export const ClosedInteraction: Story = {
  tags: ['interaction'],
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '使用微信验证码登录' }));
    await expect(args.onOpen).toHaveBeenCalledTimes(1);
  },
};
/** Open: the QR code, the code field and the sign-in button. */
export const Open: Story = {
  args: { open: true },
  play: async () => {
    const dialog = await screen.findByRole('dialog');
    const d = within(dialog);
    await waitFor(() => expect(d.getByRole('img', { name: '微信公众号二维码' })).toBeVisible());
    await expect(d.getByLabelText('验证码')).toBeVisible();
    await expect(d.getByRole('button', { name: '登录' })).toBeVisible();
  },
};
/** The dialog hands over the typed code, and asks to close. */
export const OpenInteraction: Story = {
  tags: ['interaction'],
  args: { open: true },
  play: async ({ args }) => {
    const dialog = await screen.findByRole('dialog');
    const d = within(dialog);
    await waitFor(() => expect(d.getByRole('img', { name: '微信公众号二维码' })).toBeVisible());
    await userEvent.type(d.getByLabelText('验证码'), '654321');
    await userEvent.click(d.getByRole('button', { name: '登录' }));
    await expect(args.onSubmit).toHaveBeenCalledWith('654321');
    await userEvent.click(d.getByRole('button', { name: '关闭' }));
    await expect(args.onClose).toHaveBeenCalled();
  },
};
/** Submitting: the code is being checked; the login button is busy, cancel is disabled. */
export const Submitting: Story = {
  args: { open: true, submitting: true },
  play: async () => {
    const d = within(await screen.findByRole('dialog'));
    const submit = d.getByRole('button', { name: '登录' });
    await waitFor(() => expect(submit).toBeDisabled());
    await expect(submit).toHaveAttribute('data-loading');
    await expect(d.getByRole('button', { name: '取消' })).toBeDisabled();
  },
};
export const Failed: Story = {
  args: { open: true, error: { text: '验证码错误或已过期' } },
  play: async () => {
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByText('验证码错误或已过期')).toBeVisible());
    await expect(within(dialog).getByLabelText('验证码')).toHaveAttribute('aria-invalid', 'true');
    await expect(within(dialog).getByRole('button', { name: '登录' })).toBeEnabled();
  },
};
/** Open without a QR code configured. */
export const WithoutQrCode: Story = {
  args: { open: true, qrCodeUrl: '' },
  play: async () => {
    const d = within(await screen.findByRole('dialog'));
    await waitFor(() => expect(d.getByText('管理员尚未设置公众号二维码。')).toBeVisible());
    await expect(d.queryByRole('img')).toBeNull();
  },
};
export const English: Story = {
  args: { open: true },
  parameters: { lang: 'en' },
  play: async () => {
    const d = within(await screen.findByRole('dialog'));
    await waitFor(() => expect(d.getByRole('img', { name: 'WeChat official account QR code' })).toBeVisible());
    await expect(d.getByRole('button', { name: 'Log in' })).toBeVisible();
  },
};
