import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, within } from 'storybook/test';
import { groupRowsOf, modelProblems, modelRowsOf, withInput, type PriceScale } from '../../domain/priceEditor';
import { PriceEditorView } from './PriceEditorView';

/* The price editor's picture, from props alone (its states are the container's stories, PriceEditor). */

const scale: PriceScale = { unit: 'usd', quotaPerUnit: 500000 };
const models = modelRowsOf({ 'gpt-4o': 2.5, 'gpt-4o-mini': 0.075, 'claude-3-5-sonnet-20240620': 3 }, { 'gpt-4o': 4 }, scale).map((r) =>
  r.name === 'gpt-4o-mini' ? withInput(r, '-1') : r,
);
const json = { ModelRatio: '{\n  "gpt-4o": 2.5\n}', CompletionRatio: '{}', GroupRatio: '{\n  "default": 1\n}' };

const meta = {
  title: 'Setting/PriceEditorView',
  component: PriceEditorView,
  args: {
    loading: false,
    loadFailed: false,
    saving: false,
    saved: false,
    saveError: null,
    scale,
    modes: { models: 'table', groups: 'table' },
    search: '',
    models,
    totalModels: models.length,
    rowLimit: 50,
    groups: groupRowsOf({ default: 1, vip: 0.5 }),
    json,
    cellProblems: modelProblems(models, scale),
    jsonProblems: {},
    problemCount: 1,
    hasChanges: true,
    onRetry: fn(),
    onSearch: fn(),
    onAddModel: fn(),
    onRemoveModel: fn(),
    onRenameModel: fn(),
    onPrice: fn(),
    onAddGroup: fn(),
    onRemoveGroup: fn(),
    onRenameGroup: fn(),
    onMultiplier: fn(),
    onToggleMode: fn(),
    onJson: fn(),
    onSave: fn(),
  },
} satisfies Meta<typeof PriceEditorView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** One invalid cell, marked where it is. */
export const WithProblem: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('gpt-4o-mini 输入价格')).toHaveAttribute('aria-invalid', 'true');
    await expect(c.getByLabelText('gpt-4o 输入价格')).not.toHaveAttribute('aria-invalid');
  },
};

/** On a phone: the table scrolls inside its own box, the page does not. */
export const Narrow: Story = {
  globals: { viewport: { value: 'mobile1' } },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.ownerDocument.documentElement.scrollWidth).toBeLessThanOrEqual(canvasElement.ownerDocument.documentElement.clientWidth);
  },
};

/** In English, quota units. */
export const EnglishQuota: Story = {
  parameters: { lang: 'en' },
  args: { scale: { unit: 'quota', quotaPerUnit: 500000 }, models: modelRowsOf({ 'gpt-4o': 2.5 }, {}, { unit: 'quota', quotaPerUnit: 500000 }), cellProblems: {}, problemCount: 0 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('gpt-4o input price')).toHaveValue('2500000');
  },
};
