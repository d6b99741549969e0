import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import type { Status } from '../../domain/status';
import { HomePageView } from './HomePageView';

const status: Status = {
  version: 'v0.6.10',
  start_time: 1740137416,
  system_name: '星河网关',
  logo: '',
  footer_html: '',
  quota_per_unit: 500000,
  display_in_currency: true,
  chat_link: '',
  server_address: 'https://gateway.example.com',
  top_up_link: '',
  turnstile_check: false,
  turnstile_site_key: '',
  email_verification: true,
  github_oauth: true,
  github_client_id: 'Iv1.0123456789abcdef',
  wechat_login: false,
  wechat_qrcode: '',
};

const meta = {
  title: 'Home/HomePageView',
  component: HomePageView,
  args: {
    contentKind: 'empty',
    content: '',
    loading: false,
    cachedCopy: false,
    error: null,
    notice: null,
    status,
    onRetry: fn(),
    onDismissNotice: fn(),
  },
} satisfies Meta<typeof HomePageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** HomePageContent empty: the welcome and the system status from /api/status. */
export const DefaultHome: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: '欢迎使用 星河网关' })).toBeVisible();
    await expect(c.getByRole('heading', { name: '系统状况' })).toBeVisible();
    await expect(c.getByText('v0.6.10')).toBeVisible();
    await expect(c.getByText('启动时间')).toBeVisible();
    await expect(c.getByRole('link', { name: 'One API 项目仓库' })).toHaveAttribute(
      'href',
      'https://github.com/songquanpeng/one-api',
    );
    await expect(c.getAllByText('已启用')).toHaveLength(2);
    await expect(c.getAllByText('未启用')).toHaveLength(2);
  },
};

export const DefaultHomeWithoutStatus: Story = {
  args: { status: null },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: '系统状况' })).toBeVisible();
    await expect(c.getByText('尚未获取到系统状况')).toBeVisible();
  },
};

export const DefaultHomeEnglish: Story = {
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: 'Welcome to 星河网关' })).toBeVisible();
    await expect(c.getByText('E-mail verification')).toBeVisible();
  },
};

export const MarkdownContent: Story = {
  args: {
    contentKind: 'markdown',
    content: '# 星河网关\n\n统一接入主流大模型，**一个密钥**即可调用。\n\n[查看文档](https://docs.example.com)',
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: '星河网关' })).toBeVisible();
    await expect(c.getByRole('link', { name: '查看文档' })).toHaveAttribute('href', 'https://docs.example.com');
  },
};

export const FramedContent: Story = {
  args: { contentKind: 'url', content: 'https://example.com/landing' },
  play: async ({ canvasElement }) => {
    const frame = within(canvasElement).getByTitle('首页内容');
    await expect(frame.tagName).toBe('IFRAME');
    await expect(frame).toHaveAttribute('src', 'https://example.com/landing');
  },
};

export const WithNotice: Story = {
  args: { notice: '**维护通知**：今晚 23:00 至 23:30 升级，期间接口可能短暂不可用。' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const region = c.getByRole('region', { name: '公告' });
    await expect(within(region).getByText('维护通知')).toBeVisible();
  },
};

export const Loading: Story = {
  args: { contentKind: 'pending', loading: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('正在加载内容……')).toBeVisible();
  },
};

export const Failed: Story = {
  args: { error: { key: 'error.tooManyRequests' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('错误：请求次数过多，请稍后再试！')).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

export const WithNoticeInteraction: Story = {
  ...WithNotice,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    const region = c.getByRole('region', { name: '公告' });
    await expect(within(region).getByText('维护通知')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '关闭公告' }));
    await expect(args.onDismissNotice).toHaveBeenCalledTimes(1);
  },
};

export const FailedInteraction: Story = {
  ...Failed,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('错误：请求次数过多，请稍后再试！')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};
