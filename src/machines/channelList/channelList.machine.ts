import type { Channel } from '../../domain/channel';
import { defaultTestModel } from '../../domain/constants';
import { pageSizeOptions, type TableQuerySchema } from '../../domain/tableQuery';
import { createTableMachine } from '../table';

/**
 * The channel list (/channel, spec §2 "Channel list"): one instance of the table machine. A row
 * is a channel as the server lists it plus the client-only `test_model` the row's dropdown
 * chose (kept on the row with `row.patch`).
 */
export type ChannelRow = Channel & { readonly test_model?: string };

export const channelTableMachine = createTableMachine<ChannelRow>({ id: 'channelTable' });

/** What the address bar may say for /channel: header sorts, the three filters, page sizes. */
export const channelTableSchema: TableQuerySchema = {
  sortKeys: ['id', 'name', 'type', 'status', 'response_time', 'balance', 'priority'],
  orders: [],
  filterKeys: ['status', 'type', 'group'],
  sizes: pageSizeOptions,
};

/**
 * Action names of the rows (`row.action`) and of the selection (`bulk.request`). The composition
 * root maps each to API calls (src/api/actors/channelRows.ts).
 */
export const channelRowActions = {
  /** Test with the model in `value` (GET /api/channel/test/:id?model=). */
  test: 'test',
  /** Enable a disabled channel, disable an enabled one. */
  toggle: 'toggle',
  remove: 'delete',
  /** Inline priority: `value` is the number typed. */
  priority: 'priority',
  /** Inline weight: `value` is the number typed; negatives become 0. */
  weight: 'weight',
  /** Ask the provider for the balance again. */
  balance: 'balance',
} as const;

export const channelBulkActions = {
  enable: 'enable',
  disable: 'disable',
  remove: 'delete',
  /** `value`: the priority for every selected channel. */
  priority: 'priority',
  /** `value`: a model name added to each channel's models. */
  addModel: 'addModel',
  /** `value`: a model name removed from each channel's models. */
  removeModel: 'removeModel',
  /** `value`: the group every selected channel is put in (replacing its groups). */
  setGroup: 'setGroup',
} as const;

export type ChannelBulkAction = (typeof channelBulkActions)[keyof typeof channelBulkActions];

/** Bulk actions that ask for a value first. */
export type ChannelBulkValueAction = 'priority' | 'addModel' | 'removeModel' | 'setGroup';

/** The bulk actions that destroy (their confirm button is red). */
export const isDangerousChannelAction = (action: string): boolean => action === channelBulkActions.remove;

/** The model names of a channel's comma list, each once, in order. */
export const channelModelNames = (models: string): readonly string[] => [
  ...new Set(
    models
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m !== ''),
  ),
];

/** The model a test uses by default: gpt-3.5-turbo when the channel serves it, else its first model. */
export const defaultTestModelOf = (models: string): string => {
  const names = channelModelNames(models);
  return names.includes(defaultTestModel) ? defaultTestModel : (names[0] ?? '');
};

/** The model the row's test uses: the dropdown's choice, else the default. */
export const testModelOf = (row: ChannelRow): string =>
  row.test_model !== undefined && row.test_model !== '' ? row.test_model : defaultTestModelOf(row.models);

/**
 * An inline number as typed (priority, weight): '' is ignored (null); otherwise an integer
 * (fractions truncated), weight clamped to 0 when negative. Not a number: null.
 */
export function parseInlineNumber(text: string, field: 'priority' | 'weight'): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const n = Number(trimmed);
  if (!Number.isFinite(n)) return null;
  const whole = Math.trunc(n);
  return field === 'weight' && whole < 0 ? 0 : whole;
}
