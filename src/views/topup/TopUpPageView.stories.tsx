import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { TopUpPageView } from './TopUpPageView';

const meta = {
  title: 'TopUp/TopUpPageView',
  component: TopUpPageView,
  args: {
    remainingQuota: '$1.00',
    loading: false,
    code: '',
    redeeming: false,
    openingLink: false,
    busy: false,
    onCodeChange: fn(),
    onRedeem: fn(),
    onTopUp: fn(),
  },
} satisfies Meta<typeof TopUpPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Ready: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '充值额度' })).toBeVisible();
    await expect(c.getByTestId('remaining-quota')).toHaveTextContent('$1.00');
    await expect(c.getByLabelText('兑换码')).toBeEnabled();
    await expect(c.getByRole('button', { name: '兑换' })).toBeEnabled();
    await expect(c.getByRole('button', { name: '充值' })).toBeEnabled();
  },
};
/** The field and the buttons report what they are asked. */
export const ReadyInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByLabelText('兑换码'), 'k');
    await expect(args.onCodeChange).toHaveBeenLastCalledWith('k');
    await userEvent.click(c.getByRole('button', { name: '兑换' }));
    await expect(args.onRedeem).toHaveBeenCalledTimes(1);
    await userEvent.click(c.getByRole('button', { name: '充值' }));
    await expect(args.onTopUp).toHaveBeenCalledTimes(1);
  },
};
/** Enter in the code field redeems too. */
export const RedeemWithEnterInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  args: { code: 'abc' },
  play: async ({ args, canvasElement }) => {
    await userEvent.type(within(canvasElement).getByLabelText('兑换码'), '{Enter}');
    await expect(args.onRedeem).toHaveBeenCalledTimes(1);
  },
};
export const Loading: Story = {
  args: { loading: true, busy: true, remainingQuota: null },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('正在加载额度……')).toBeVisible();
  },
};
export const Unknown: Story = { args: { remainingQuota: null } };
export const Redeeming: Story = {
  args: { code: 'abc', redeeming: true, busy: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('兑换码')).toBeDisabled();
  },
};
export const OpeningLink: Story = { args: { openingLink: true } };
export const Narrow: Story = { globals: { viewport: { value: 'mobile1' } } };
export const Dark: Story = { parameters: { colorMode: 'dark' } };
export const English: Story = {
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Redeem' })).toBeVisible();
  },
};
