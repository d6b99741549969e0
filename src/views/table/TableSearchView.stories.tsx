import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { TableSearchView, type TableSearchViewProps } from './TableSearchView';

/** The view with its draft kept the way a table machine keeps it (echoing onDraft). */
function Echoing(props: TableSearchViewProps) {
  const [draft, setDraft] = useState(props.draft);
  return (
    <TableSearchView
      {...props}
      draft={draft}
      onDraft={(text) => {
        setDraft(text);
        props.onDraft(text);
      }}
    />
  );
}

const meta = {
  title: 'Table/TableSearchView',
  component: TableSearchView,
  args: {
    draft: '',
    keyword: '',
    label: '搜索渠道的 ID，名称和密钥 ...',
    onDraft: fn(),
    onSubmit: fn(),
    onClear: fn(),
  },
  render: (args) => <Echoing {...args} />,
} satisfies Meta<typeof TableSearchView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A search in effect: the clear button shows and goes back to the list. */
export const WithKeyword: Story = {
  args: { draft: 'openai', keyword: 'openai' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('searchbox')).toHaveValue('openai');
  },
};

/** A draft that was not submitted yet is no search: still no clear button. */
export const DraftOnly: Story = {
  args: { draft: 'half typed' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole('button', { name: '清除搜索' })).toBeNull();
  },
};

export const Disabled: Story = {
  args: { draft: 'openai', keyword: 'openai', disabled: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('searchbox')).toBeDisabled();
    await expect(c.getByRole('button', { name: '搜索' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '清除搜索' })).toBeDisabled();
  },
};

export const Dark: Story = { args: { draft: 'openai', keyword: 'openai' }, parameters: { colorMode: 'dark' } };

export const Narrow: Story = {
  args: { draft: 'openai', keyword: 'openai' },
  globals: { viewport: { value: 'mobile1' } },
  play: async () => {
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(window.innerWidth);
  },
};

export const English: Story = {
  args: { label: 'Search channels by ID, name or key ...', draft: 'openai', keyword: 'openai' },
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Clear search' })).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Typing sends every draft; Enter searches; without a search in effect there is no clear button. */
export const TypingInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('search', { name: args.label })).toBeVisible();
    const box = c.getByRole('searchbox', { name: args.label });
    await expect(box).toHaveAttribute('placeholder', args.label);
    await expect(c.queryByRole('button', { name: '清除搜索' })).toBeNull();
    await userEvent.type(box, 'gpt');
    await expect(args.onDraft).toHaveBeenCalledTimes(3);
    await expect(args.onDraft).toHaveBeenLastCalledWith('gpt');
    await expect(box).toHaveValue('gpt');
    await userEvent.keyboard('{Enter}');
    await expect(args.onSubmit).toHaveBeenCalledTimes(1);
    await userEvent.click(c.getByRole('button', { name: '搜索' }));
    await expect(args.onSubmit).toHaveBeenCalledTimes(2);
    await expect(args.onClear).not.toHaveBeenCalled();
  },
};

/** A search in effect: the clear button shows and goes back to the list. */
export const WithKeywordInteraction: Story = {
  ...WithKeyword,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('searchbox')).toHaveValue('openai');
    await userEvent.click(c.getByRole('button', { name: '清除搜索' }));
    await expect(args.onClear).toHaveBeenCalledTimes(1);
    await expect(args.onSubmit).not.toHaveBeenCalled();
  },
};
