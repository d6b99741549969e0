import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, within } from 'storybook/test';
import { AboutPageView } from './AboutPageView';

const meta = {
  title: 'Home/AboutPageView',
  component: AboutPageView,
  args: { contentKind: 'empty', content: '', loading: false, cachedCopy: false, error: null, onRetry: fn() },
} satisfies Meta<typeof AboutPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** About empty: how to set it, and the project repository. */
export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: '关于' })).toBeVisible();
    await expect(c.getByText('可在设置页面设置关于内容，支持 HTML & Markdown')).toBeVisible();
    await expect(c.getByRole('link', { name: 'https://github.com/songquanpeng/one-api' })).toBeVisible();
  },
};

export const EmptyEnglish: Story = {
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { level: 1, name: 'About' })).toBeVisible();
  },
};

export const Markdown: Story = {
  args: { contentKind: 'markdown', content: '# 关于我们\n\n星河网关由平台组维护，问题请发送至 ops@example.com。' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: '关于我们' })).toBeVisible();
    await expect(c.getByText(/平台组维护/)).toBeVisible();
  },
};

export const Framed: Story = {
  args: { contentKind: 'url', content: 'https://example.com/about' },
  play: async ({ canvasElement }) => {
    const frame = within(canvasElement).getByTitle('关于');
    await expect(frame).toHaveAttribute('src', 'https://example.com/about');
  },
};

export const Loading: Story = {
  args: { contentKind: 'pending', loading: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('正在加载内容……')).toBeVisible();
  },
};

export const Failed: Story = {
  args: { error: { text: '服务器繁忙' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('服务器繁忙')).toBeVisible();
    await expect(c.getByRole('button', { name: '重试' })).toBeVisible();
  },
};
