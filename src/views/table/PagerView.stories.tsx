import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { PagerView } from './PagerView';

const meta = {
  title: 'Table/PagerView',
  component: PagerView,
  args: {
    page: 0,
    pageCount: 5,
    complete: true,
    loadedCount: 48,
    shownCount: 48,
    size: 10,
    loading: false,
    onPage: fn(),
    onSize: fn(),
  },
} satisfies Meta<typeof PagerView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The visible page buttons' texts, in order, with "…" for a gap. */
const pagerTexts = (nav: HTMLElement): string[] =>
  [...nav.children].filter((el) => el.tagName !== 'DIV').map((el) => el.textContent);

/** Page 1 of 5, every row loaded: "previous" is off, page 1 is current. */
export const FirstPage: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const nav = c.getByRole('navigation', { name: '分页' });
    await expect(c.getByRole('button', { name: '上一页' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '第 1 页' })).toHaveAttribute('aria-current', 'page');
    await expect(pagerTexts(nav)).toEqual(['‹', '1', '2', '…', '5', '›']);
    await expect(c.getByText('已加载 48 条，显示 48 条')).toBeVisible();
  },
};

/** Page 5 of 10: first, the current page with one neighbour each side, last. */
export const MiddlePage: Story = {
  args: { page: 4, pageCount: 10, loadedCount: 100, shownCount: 100 },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const nav = c.getByRole('navigation', { name: '分页' });
    await expect(pagerTexts(nav)).toEqual(['‹', '1', '…', '4', '5', '6', '…', '10', '›']);
    await expect(c.getByRole('button', { name: '第 5 页' })).toHaveAttribute('aria-current', 'page');
    await expect(c.getByRole('button', { name: '第 4 页' })).not.toHaveAttribute('aria-current');
  },
};

/** The last page of a complete list: "next" is off. */
export const LastPage: Story = {
  args: { page: 4 },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '下一页' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '上一页' })).toBeEnabled();
    await expect(c.getByRole('button', { name: '第 5 页' })).toHaveAttribute('aria-current', 'page');
  },
};

/** The server may have more: the last button is "load more" ("3+") and the summary says so. */
export const LoadMoreLastPage: Story = {
  args: { page: 1, pageCount: 3, complete: false, loadedCount: 20, shownCount: 20 },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const more = c.getByRole('button', { name: '3+ 下一页（加载更多）' });
    await expect(more).toHaveTextContent('3+');
    await expect(c.getByText('已加载 20 条，显示 20 条，还有更多')).toBeVisible();
  },
};

/** Everything loaded: no "+" anywhere, the plain summary. */
export const Complete: Story = {
  args: { page: 2, pageCount: 3, loadedCount: 27, shownCount: 27 },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.queryByRole('button', { name: /加载更多/ })).toBeNull();
    await expect(c.getByRole('button', { name: '第 3 页' })).toHaveTextContent(/^3$/);
    await expect(c.getByText('已加载 27 条，显示 27 条')).toBeVisible();
  },
};

/** A filter narrowed what is shown below what is loaded. */
export const Filtered: Story = {
  args: { page: 0, pageCount: 1, loadedCount: 120, shownCount: 7 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('已加载 120 条，显示 7 条')).toBeVisible();
  },
};

/** Fetching the next server page: the summary says so and no control answers. */
export const Loading: Story = {
  args: { page: 2, pageCount: 3, complete: false, loadedCount: 20, shownCount: 20, loading: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('正在加载更多...')).toBeVisible();
    for (const b of c.getAllByRole('button')) await expect(b).toBeDisabled();
    await expect(c.getByRole('combobox', { name: '每页条数' })).toBeDisabled();
  },
};

/** The page sizes on offer. */
export const Sizes: Story = {
  args: { size: 20 },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const select = c.getByRole('combobox', { name: '每页条数' });
    await expect(select).toHaveValue('20');
    await expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      '10 条/页',
      '20 条/页',
      '50 条/页',
      '100 条/页',
    ]);
  },
};

export const Disabled: Story = {
  args: { page: 1, disabled: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    for (const b of c.getAllByRole('button')) await expect(b).toBeDisabled();
  },
};

/** One page only: both arrows off. */
export const SinglePage: Story = {
  args: { pageCount: 1, loadedCount: 3, shownCount: 3 },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '上一页' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '下一页' })).toBeDisabled();
  },
};

export const Dark: Story = { args: { page: 4, pageCount: 10, complete: false }, parameters: { colorMode: 'dark' } };

export const Narrow: Story = {
  args: { page: 4, pageCount: 10, complete: false },
  globals: { viewport: { value: 'mobile1' } },
  play: async () => {
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(window.innerWidth);
  },
};

export const English: Story = {
  args: { page: 1, pageCount: 3, complete: false, loadedCount: 20, shownCount: 20 },
  parameters: { lang: 'en' },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Page 1 of 5, every row loaded: "previous" is off, page 1 is current. */
export const FirstPageInteraction: Story = {
  ...FirstPage,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    const nav = c.getByRole('navigation', { name: '分页' });
    await expect(c.getByRole('button', { name: '上一页' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '第 1 页' })).toHaveAttribute('aria-current', 'page');
    await expect(pagerTexts(nav)).toEqual(['‹', '1', '2', '…', '5', '›']);
    await expect(c.getByText('已加载 48 条，显示 48 条')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '下一页' }));
    await expect(args.onPage).toHaveBeenCalledWith(1);
    await userEvent.click(c.getByRole('button', { name: '第 5 页' }));
    await expect(args.onPage).toHaveBeenLastCalledWith(4);
  },
};

/** Page 5 of 10: first, the current page with one neighbour each side, last; gaps between. */
export const MiddlePageInteraction: Story = {
  ...MiddlePage,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    const nav = c.getByRole('navigation', { name: '分页' });
    await expect(pagerTexts(nav)).toEqual(['‹', '1', '…', '4', '5', '6', '…', '10', '›']);
    await expect(c.getByRole('button', { name: '第 5 页' })).toHaveAttribute('aria-current', 'page');
    await expect(c.getByRole('button', { name: '第 4 页' })).not.toHaveAttribute('aria-current');
    await userEvent.click(c.getByRole('button', { name: '上一页' }));
    await expect(args.onPage).toHaveBeenCalledWith(3);
    c.getByRole('button', { name: '下一页' }).focus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onPage).toHaveBeenLastCalledWith(5);
  },
};

/** The server may have more: the last button is "load more" ("3+") and the summary says so. */
export const LoadMoreLastPageInteraction: Story = {
  ...LoadMoreLastPage,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    const more = c.getByRole('button', { name: '3+ 下一页（加载更多）' });
    await expect(more).toHaveTextContent('3+');
    await expect(c.getByText('已加载 20 条，显示 20 条，还有更多')).toBeVisible();
    await userEvent.click(more);
    await expect(args.onPage).toHaveBeenCalledWith(2);
  },
};

/** The page sizes on offer; choosing one asks for it. */
export const SizesInteraction: Story = {
  ...Sizes,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    const select = c.getByRole('combobox', { name: '每页条数' });
    await expect(select).toHaveValue('20');
    await expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      '10 条/页',
      '20 条/页',
      '50 条/页',
      '100 条/页',
    ]);
    await userEvent.selectOptions(select, '100');
    await expect(args.onSize).toHaveBeenCalledWith(100);
  },
};
