import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { Pricing } from '../../domain/pricing';
import { pricingMachine, type PricingContext } from '../../machines/pricing';
import { MachineRegistryProvider } from '../app/machineRegistry';
import { expectCardsFit } from '../table/cards.fixtures';
import { phoneViewport } from '../table/table.fixtures';
import { PricingPage } from './PricingPage';
import { vipPricing } from './PricingPage.fixtures';

const loads = fn<() => void>();
const never = <T,>() => new Promise<T>(() => undefined);

const machineWith = (load: 'ok' | 'fails' | 'never' = 'ok') =>
  pricingMachine.provide({
    actors: {
      loadPricing: fromPromise<Pricing>(async () => {
        loads();
        if (load === 'never') return never<Pricing>();
        await Promise.resolve();
        if (load === 'fails') throw failure('getPricing', '数据库繁忙');
        return vipPricing;
      }),
    },
  });

const context = (over: Partial<PricingContext> = {}): PricingContext => ({
  pricing: vipPricing,
  search: '',
  sort: { key: 'model', direction: 'asc' },
  error: null,
  ...over,
});
const seed = (value: 'loading' | 'ready' | 'failed', over: Partial<PricingContext> = {}) => ({
  [pricingMachine.id]: pricingMachine.resolveState({ value, context: context(over) }),
});

const meta = {
  title: 'Pricing/PricingPage',
  component: PricingPage,
  parameters: { route: '/pricing' },
  args: { quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 } },
} satisfies Meta<typeof PricingPage>;
export default meta;
type Story = StoryObj<typeof meta>;

const frozen = (snapshots: ReturnType<typeof seed>) => (args: { quotaDisplay: { displayInCurrency: boolean; quotaPerUnit: number } }) => (
  <MachineRegistryProvider machines={[machineWith('never')]} snapshots={snapshots}>
    <PricingPage {...args} />
  </MachineRegistryProvider>
);

/** State loading: skeleton rows. */
export const Loading: Story = {
  render: frozen(seed('loading', { pricing: null })),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '模型价格' })).toBeVisible();
    await expect(c.getByRole('table', { name: '模型价格' }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
  },
};

/** State ready: the vip prices in US dollars per 1M tokens. */
export const Ready: Story = {
  render: frozen(seed('ready')),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('当前分组：vip（倍率 0.5）')).toBeVisible();
    const row = c.getByRole('row', { name: /gpt-4o/ });
    await expect(row).toHaveTextContent('$2.5');
    await expect(row).toHaveTextContent('$10');
    await expect(c.getByRole('row', { name: /gemini-1.5-pro-latest/ })).toHaveTextContent('不可用');
  },
};

/** State ready, prices in quota (display currency off), a search kept. */
export const ReadyQuotaSearch: Story = {
  args: { quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 } },
  render: frozen(seed('ready', { search: 'gpt' })),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('价格单位：额度 / 每 100 万 tokens')).toBeVisible();
    await expect(c.getByRole('row', { name: /gpt-4o/ })).toHaveTextContent('1,250,000');
    await expect(c.queryByRole('row', { name: /deepseek/ })).toBeNull();
  },
};

/** State failed: the server's message and a retry button. */
export const Failed: Story = {
  render: frozen(seed('failed', { pricing: null, error: { text: '数据库繁忙' } })),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('alert')).toHaveTextContent('模型价格加载失败');
    await expect(c.getByRole('alert')).toHaveTextContent('数据库繁忙');
    await expect(c.getByRole('button', { name: '重试' })).toBeVisible();
  },
};

/** State ready in English, dark. */
export const ReadyEnglishDark: Story = {
  parameters: { lang: 'en', colorMode: 'dark' },
  render: frozen(seed('ready')),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: 'Pricing' })).toBeVisible();
    await expect(c.getByText('Your group: vip (multiplier 0.5)')).toBeVisible();
  },
};

/** State ready on a 375 px phone: each model is a card. */
export const ReadyPhone: Story = {
  ...phoneViewport,
  render: frozen(seed('ready')),
  play: async ({ canvasElement }) => {
    await expectCardsFit(canvasElement, '模型价格', vipPricing.models.length);
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs page).
 */

/** Live: loads, filters by the search, sorts by the input price. */
export const SearchSortInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[machineWith()]}>
      <PricingPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(c.getByRole('row', { name: /gpt-4o/ })).toBeVisible());
    await userEvent.click(c.getByRole('button', { name: /输入价格/ }));
    const rows = c.getAllByRole('row').slice(1);
    await expect(rows[0]).toHaveTextContent('claude-3-haiku-20240307');
    await userEvent.type(c.getByLabelText('搜索模型'), 'GEM');
    await waitFor(() => expect(c.getAllByRole('row')).toHaveLength(2));
    await expect(c.getByRole('row', { name: /gemini/ })).toBeVisible();
  },
};

/** Live: a failed load, then retry loads. */
export const RetryInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[machineWith('fails')]}>
      <PricingPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const retry = await c.findByRole('button', { name: '重试' });
    const before = loads.mock.calls.length;
    await userEvent.click(retry);
    await waitFor(() => expect(loads.mock.calls.length).toBe(before + 1));
    await expect(await c.findByRole('button', { name: '重试' })).toBeVisible();
  },
};
