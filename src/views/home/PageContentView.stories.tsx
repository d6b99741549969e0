import type { Meta, StoryObj } from '@storybook/react-vite';
import { Container, Heading, Text } from '@chakra-ui/react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { PageContentView } from './PageContentView';

const markdown = '# 使用说明\n\n- 在 **令牌** 页面创建令牌\n- 用 `sk-` 开头的密钥调用接口\n\n> 额度不足时请先充值。';

const meta = {
  title: 'Home/PageContentView',
  component: PageContentView,
  args: {
    contentKind: 'markdown',
    content: markdown,
    frameTitle: '首页内容',
    loading: false,
    cachedCopy: false,
    error: null,
    onRetry: fn(),
    wrapMarkdown: (node) => <Container py={6}>{node}</Container>,
    renderEmpty: () => (
      <Container py={6}>
        <Heading as="h1">默认内容</Heading>
        <Text>（页面自己的默认内容）</Text>
      </Container>
    ),
  },
} satisfies Meta<typeof PageContentView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Markdown: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: '使用说明' })).toBeVisible();
    await expect(c.getByText('令牌')).toBeVisible();
    await expect(c.getAllByRole('listitem')).toHaveLength(2);
  },
};

/** Raw HTML inside the Markdown is sanitised: no script, no handler survives. */
export const MarkdownSanitised: Story = {
  args: {
    content: '# 公告\n\n<img src="x" alt="" onerror="window.__pwned = true">\n\n<script>window.__pwned = true</script>\n\n正文',
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('正文')).toBeVisible();
    await expect(canvasElement.querySelector('script')).toBeNull();
    await expect(canvasElement.querySelector('[onerror]')).toBeNull();
    await expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
  },
};

export const Pending: Story = {
  args: { contentKind: 'pending', content: '', loading: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载内容……');
  },
};

export const CachedCopyWhileLoading: Story = {
  args: { loading: true, cachedCopy: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('正在获取最新内容……')).toBeVisible();
    await expect(c.getByRole('heading', { name: '使用说明' })).toBeVisible();
  },
};

export const Empty: Story = {
  args: { contentKind: 'empty', content: '' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: '默认内容' })).toBeVisible();
  },
};

export const Framed: Story = {
  args: { contentKind: 'url', content: 'https://example.com/home' },
  play: async ({ canvasElement }) => {
    const frame = canvasElement.querySelector('iframe');
    await expect(frame).not.toBeNull();
    await expect(frame).toHaveAttribute('src', 'https://example.com/home');
    await expect(frame).toHaveAttribute('title', '首页内容');
  },
};

export const FailedKeepsCachedCopy: Story = {
  args: { error: { key: 'error.internal' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('内容加载失败')).toBeVisible();
    await expect(c.getByText('错误：服务器内部错误，请联系管理员！')).toBeVisible();
    await expect(c.getByRole('heading', { name: '使用说明' })).toBeVisible();
  },
};

export const FailedEnglish: Story = {
  args: { contentKind: 'empty', content: '', error: { text: 'upstream timeout' } },
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('The content could not be loaded')).toBeVisible();
    await expect(c.getByRole('button', { name: 'Retry' })).toBeVisible();
  },
};

const table = [
  '| 模型 | 输入倍率 | 输出倍率 | 说明 |',
  '| --- | --- | --- | --- |',
  '| gpt-4o-mini | 0.075 | 0.3 | 默认分组可用 |',
  '| claude-3-5-sonnet-20241022 | 1.5 | 5 | 仅 vip 分组 |',
  '| gemini-1.5-pro | 1.25 | 3 | 长上下文，适合读取整本文档的场景 |',
].join('\n');

/** A Markdown table: borders, padding and a header background. */
export const MarkdownTable: Story = {
  args: { content: `## 模型价格\n\n${table}` },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const header = c.getByRole('columnheader', { name: '模型' });
    await expect(getComputedStyle(header).borderTopStyle).toBe('solid');
    await expect(getComputedStyle(header).backgroundColor).not.toBe('rgba(0, 0, 0, 0)');
    await expect(parseFloat(getComputedStyle(c.getByRole('cell', { name: 'gpt-4o-mini' })).paddingLeft)).toBeGreaterThan(4);
  },
};

/** The same table in dark mode. */
export const MarkdownTableDark: Story = { ...MarkdownTable, parameters: { colorMode: 'dark' } };

/** On a narrow screen the table scrolls sideways on its own; the page does not widen. */
export const MarkdownTableNarrow: Story = {
  ...MarkdownTable,
  decorators: [(Story) => <div style={{ width: 220 }}>{Story()}</div>],
  play: async ({ canvasElement }) => {
    const box = canvasElement.querySelector('table')?.parentElement;
    await expect(box).toBeInstanceOf(HTMLElement);
    await expect(getComputedStyle(box as HTMLElement).overflowX).toBe('auto');
    await expect((box as HTMLElement).tabIndex).toBe(0);
    await expect((box as HTMLElement).scrollWidth).toBeGreaterThan((box as HTMLElement).clientWidth);
    await expect((box as HTMLElement).getBoundingClientRect().width).toBeLessThanOrEqual(220);
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

export const FailedKeepsCachedCopyInteraction: Story = {
  ...FailedKeepsCachedCopy,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('内容加载失败')).toBeVisible();
    await expect(c.getByText('错误：服务器内部错误，请联系管理员！')).toBeVisible();
    await expect(c.getByRole('heading', { name: '使用说明' })).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};
