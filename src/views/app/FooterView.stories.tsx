import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { FooterView } from './FooterView';

const meta = {
  title: 'App/FooterView',
  component: FooterView,
  args: { systemName: '星河网关', version: 'v0.1.0', footerHtml: '' },
} satisfies Meta<typeof FooterView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** No Footer option: the system, its version and where the source lives. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('contentinfo')).toHaveTextContent('星河网关 v0.1.0');
    await expect(c.getByRole('link', { name: '基于 One API 构建' })).toHaveAttribute(
      'href',
      'https://github.com/songquanpeng/one-api',
    );
    await expect(c.getByRole('link', { name: '源代码遵循 MIT 协议' })).toHaveAttribute('target', '_blank');
  },
};

export const DefaultEnglish: Story = {
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('link', { name: 'Built on One API' })).toBeVisible();
  },
};

/** Before the status is known there is no name to show: only the links. */
export const DefaultWithoutStatus: Story = {
  args: { systemName: '', version: '' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('contentinfo')).toHaveTextContent(/^基于 One API 构建/);
  },
};

/** The configured Footer option, sanitised. */
export const Configured: Story = {
  args: {
    footerHtml:
      '<p>© 2025 星河科技 · <a href="https://beian.example.cn" target="_blank">京ICP备00000000号</a><script>window.__footer = 1</script></p>',
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const link = c.getByRole('link', { name: '京ICP备00000000号' });
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(c.getByText(/2025 星河科技/)).toBeVisible();
    await expect(c.queryByText('基于 One API 构建')).toBeNull();
    await expect(canvasElement.querySelector('footer script')).toBeNull();
  },
};

/** A Footer option that sanitises to nothing falls back to the default line. */
export const ConfiguredButUnsafe: Story = {
  args: { footerHtml: '<script>alert(1)</script>' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('link', { name: '基于 One API 构建' })).toBeVisible();
  },
};
