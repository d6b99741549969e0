import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { PricingPageView } from './PricingPageView';
import { vipPricing } from './PricingPage.fixtures';

const meta = {
  title: 'Pricing/PricingPageView',
  component: PricingPageView,
  args: {
    phase: 'ready',
    group: vipPricing.group,
    groupRatio: vipPricing.group_ratio,
    models: vipPricing.models,
    total: vipPricing.models.length,
    search: '',
    sort: { key: 'model', direction: 'asc' },
    error: null,
    quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 },
    onSearch: fn(),
    onSort: fn(),
    onRetry: fn(),
  },
} satisfies Meta<typeof PricingPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The models with their prices in US dollars. */
export const Ready: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('row', { name: /deepseek-chat/ })).toHaveTextContent('$0.5');
  },
};

/** The group lists no model. */
export const Empty: Story = {
  args: { models: [], total: 0 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('当前分组暂无可用模型')).toBeVisible();
  },
};

/** A search that keeps nothing. */
export const NoMatch: Story = {
  args: { models: [], search: 'zzz' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('没有匹配的模型')).toBeVisible();
  },
};

/** Typing and sorting call back with the text and the column. */
export const CallbacksInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement, args }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByLabelText('搜索模型'), 'g');
    await expect(args.onSearch).toHaveBeenCalledWith('g');
    await userEvent.click(c.getByRole('button', { name: /输出价格/ }));
    await expect(args.onSort).toHaveBeenCalledWith('output');
  },
};
