import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from '@chakra-ui/react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { SelectionBarView } from './SelectionBarView';

const disable = fn();

const meta = {
  title: 'Table/SelectionBarView',
  component: SelectionBarView,
  args: {
    selectedCount: 2,
    shownCount: 20,
    complete: false,
    onSelectAllMatching: fn(),
    onClear: fn(),
    children: (
      <>
        <Button size="xs" variant="outline" onClick={disable}>
          禁用
        </Button>
        <Button size="xs" variant="outline" colorPalette="red">
          删除
        </Button>
      </>
    ),
  },
} satisfies Meta<typeof SelectionBarView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Nothing selected: no bar at all. */
export const NothingSelected: Story = {
  args: { selectedCount: 0 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole('region')).toBeNull();
  },
};

/** Some rows selected while the server has more: "select all matching" loads the rest. */
export const SomeSelected: Story = {
  play: async ({ canvasElement }) => {
    disable.mockClear();
    const c = within(canvasElement);
    const bar = c.getByRole('region', { name: '已选择 2 项' });
    await expect(within(bar).getByText('已选择 2 项')).toBeVisible();
  },
};

/** Every row is loaded: the offer names how many rows "all" is. */
export const SomeSelectedComplete: Story = {
  args: { complete: true, shownCount: 37 },
};

/** All matching rows are selected: nothing more to offer. */
export const AllSelected: Story = {
  args: { complete: true, selectedCount: 37, shownCount: 37 },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('已选择 37 项')).toBeVisible();
    await expect(c.queryByRole('button', { name: /选择全部/ })).toBeNull();
    await expect(c.getByRole('button', { name: '取消选择' })).toBeEnabled();
  },
};

export const Disabled: Story = {
  args: { disabled: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '取消选择' })).toBeDisabled();
    await expect(c.getByRole('button', { name: /选择全部/ })).toBeDisabled();
  },
};

export const Dark: Story = { parameters: { colorMode: 'dark' } };

export const Narrow: Story = {
  globals: { viewport: { value: 'mobile1' } },
  play: async () => {
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(window.innerWidth);
  },
};

export const English: Story = { parameters: { lang: 'en' } };

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Some rows selected while the server has more: "select all matching" loads the rest. */
export const SomeSelectedInteraction: Story = {
  ...SomeSelected,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    disable.mockClear();
    const c = within(canvasElement);
    const bar = c.getByRole('region', { name: '已选择 2 项' });
    await expect(within(bar).getByText('已选择 2 项')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '选择全部符合条件的记录（将加载所有页）' }));
    await expect(args.onSelectAllMatching).toHaveBeenCalledTimes(1);
    await userEvent.click(c.getByRole('button', { name: '禁用' }));
    await expect(disable).toHaveBeenCalledTimes(1);
    await userEvent.click(c.getByRole('button', { name: '取消选择' }));
    await expect(args.onClear).toHaveBeenCalledTimes(1);
  },
};

/** Every row is loaded: the offer names how many rows "all" is. */
export const SomeSelectedCompleteInteraction: Story = {
  ...SomeSelectedComplete,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '选择全部 37 项' }));
    await expect(args.onSelectAllMatching).toHaveBeenCalledTimes(1);
  },
};
