import type { Meta, StoryObj } from '@storybook/react-vite';
import { Box } from '@chakra-ui/react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { RatioPricesView } from './RatioPricesView';

const modelRatio = JSON.stringify({
  'gpt-4o': 2.5,
  'gpt-4o-mini': 0.075,
  'gpt-3.5-turbo': 0.25,
  'claude-3-opus-20240229': 7.5,
  'deepseek-chat': 0.07,
  'glm-4-flash': 0,
  'llama3-8b-8192(33)': 0.15,
  'meta/llama-3-70b-instruct': 0.325,
});
const completionRatio = JSON.stringify({ 'deepseek-chat': 2, 'llama3-8b-8192(33)': 2 });
const groupRatio = JSON.stringify({ default: 1, vip: 0.8, svip: 0.5 });

const meta = {
  title: 'Setting/RatioPricesView',
  component: RatioPricesView,
  args: { modelRatio, completionRatio, groupRatio, quotaPerUnit: '500000', filter: '', onFilterChange: fn() },
} satisfies Meta<typeof RatioPricesView>;
export default meta;
type Story = StoryObj<typeof meta>;

const rowOf = (canvas: HTMLElement, model: string): HTMLElement => within(canvas).getByRole('cell', { name: model }).closest('tr')!;

/** Every model priced in $ per 1M tokens; the group multipliers below. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('8 / 8 个模型')).toBeVisible();
    // ratio 2.5 → $5 input; gpt-4o's built-in completion ratio 4 → $20 output
    await expect(within(rowOf(canvasElement, 'gpt-4o')).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      'gpt-4o',
      '2.5',
      '$5',
      '4（内置规则）',
      '$20',
    ]);
    // a configured completion ratio, no "rule" mark
    await expect(within(rowOf(canvasElement, 'deepseek-chat')).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      'deepseek-chat',
      '0.07',
      '$0.14',
      '2',
      '$0.28',
    ]);
    // the hosted chat models' own table is not reproduced: 'default'
    await expect(within(rowOf(canvasElement, 'meta/llama-3-70b-instruct')).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      'meta/llama-3-70b-instruct',
      '0.325',
      '$0.65',
      '默认',
      '默认',
    ]);
    const groups = within(c.getByRole('table', { name: '分组倍率' }));
    await expect(groups.getAllByRole('row').slice(1).map((tr) => tr.textContent)).toEqual(['default× 1', 'svip× 0.5', 'vip× 0.8']);
  },
};

/** The filter narrows the models (case-insensitive). */
export const Filtered: Story = {
  args: { filter: 'GPT' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('按模型名称筛选')).toHaveValue('GPT');
    await expect(c.getByText('3 / 8 个模型')).toBeVisible();
    await expect(c.queryByRole('cell', { name: 'deepseek-chat' })).toBeNull();
  },
};

/** No model matches the filter. */
export const NoMatch: Story = {
  args: { filter: 'zzz' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('没有匹配的模型')).toBeVisible();
  },
};

/** Typing in the filter reports the new value (the page keeps it in the address). */
export const TypeFilterInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  args: { filter: 'gpt' },
  play: async ({ args, canvasElement }) => {
    await userEvent.type(within(canvasElement).getByLabelText('按模型名称筛选'), '-4');
    await expect(args.onFilterChange).toHaveBeenCalledWith('gpt-');
  },
};

/** A QuotaPerUnit of 1M quota per dollar halves every price. */
export const OtherQuotaPerUnit: Story = {
  args: { quotaPerUnit: '1000000' },
  play: async ({ canvasElement }) => {
    await expect(within(rowOf(canvasElement, 'gpt-4o')).getAllByRole('cell')[2]).toHaveTextContent('$2.5');
  },
};

/** Invalid JSON: a short note instead of the table. */
export const InvalidJson: Story = {
  args: { modelRatio: '{"gpt-4o": 2.5,', groupRatio: '[1]' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('ModelRatio 不是合法的 JSON 对象（值须为数字），无法显示价格。')).toBeVisible();
    await expect(c.getByText('GroupRatio 不是合法的 JSON 对象（值须为数字），无法显示价格。')).toBeVisible();
    await expect(c.queryByLabelText('按模型名称筛选')).toBeNull();
    await expect(c.queryByRole('table')).toBeNull();
  },
};

/** The price table's scroll box and its first header cell (the model column). */
const priceTable = (canvas: HTMLElement) => {
  const model = within(canvas).getByRole('columnheader', { name: /^(模型|Model)$/ });
  const table = model.closest('table')!;
  return { model, table, scroll: table.parentElement! };
};

/**
 * A narrow box: the columns are never clipped; the table scrolls sideways inside its own box and
 * the model column stays in view (sticky).
 */
export const Narrow: Story = {
  decorators: [
    (Story) => (
      <Box maxW="343px" borderWidth="1px" p={2}>
        <Story />
      </Box>
    ),
  ],
  play: async ({ canvasElement }) => {
    const { model, table, scroll } = priceTable(canvasElement);
    await expect(getComputedStyle(scroll).overflowX).toMatch(/auto|scroll/);
    await expect(table.scrollWidth).toBeGreaterThan(scroll.clientWidth);
    await expect(scroll.getBoundingClientRect().right).toBeLessThanOrEqual(canvasElement.getBoundingClientRect().right + 0.5);
    await expect(getComputedStyle(model).position).toBe('sticky');
    scroll.scrollLeft = 200;
    const cell = within(canvasElement).getByRole('cell', { name: 'gpt-4o' });
    await expect(Math.abs(cell.getBoundingClientRect().left - scroll.getBoundingClientRect().left)).toBeLessThan(2);
    // the last column can be reached
    scroll.scrollLeft = scroll.scrollWidth;
    const output = within(canvasElement).getByRole('columnheader', { name: '输出价格' });
    await expect(output.getBoundingClientRect().right).toBeLessThanOrEqual(scroll.getBoundingClientRect().right + 0.5);
  },
};

/** At a laptop's width (1366 px, the page's content box) every column fits: nothing scrolls, nothing is clipped. */
export const LaptopWidth: Story = {
  args: {
    modelRatio: JSON.stringify({ 'meta/llama-3.1-405b-instruct-turbo': 1.75, 'claude-3-5-sonnet-20240620': 1.5, 'gpt-4o': 2.5 }),
  },
  parameters: { lang: 'en' },
  decorators: [
    (Story) => (
      <Box maxW="1100px" borderWidth="1px" p={2}>
        <Story />
      </Box>
    ),
  ],
  play: async ({ canvasElement }) => {
    const { table, scroll } = priceTable(canvasElement);
    await expect(table.scrollWidth).toBeLessThanOrEqual(scroll.clientWidth);
    for (const th of within(table).getAllByRole('columnheader')) {
      await expect(th.getBoundingClientRect().right).toBeLessThanOrEqual(scroll.getBoundingClientRect().right + 0.5);
    }
  },
};
export const English: Story = { parameters: { lang: 'en' } };
export const Dark: Story = { parameters: { colorMode: 'dark' } };
