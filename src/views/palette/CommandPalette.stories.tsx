import type { Meta, StoryObj } from '@storybook/react-vite';
import type { AnyMachineSnapshot } from 'xstate';
import { fromPromise } from 'xstate';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import type { PaletteEntities } from '../../domain/commandPalette';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import {
  commandPaletteMachine,
  initialPaletteContext,
  type CommandPaletteContext,
  type SearchEntitiesInput,
} from '../../machines/commandPalette';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { SessionStory, seedSession, storyUsers } from '../app/stories/SessionStory';
import { CommandPalette } from './CommandPalette';

/*
 * The command palette container (commandPalette machine), one story per machine state, seeded
 * frozen; the search APIs are spies answering canned entities; nothing reaches the network.
 */

const never = <T,>() => new Promise<T>(() => undefined);
const navigate = fn<(e: NavigateEvent) => void>();
const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate };

const entities: PaletteEntities = {
  channels: [{ id: 3, name: 'openai-main' }],
  tokens: [{ id: 5, name: 'openai ci' }],
  users: [{ id: 7, name: 'openai-bot' }],
};
const searchEntities = fn((_input: SearchEntitiesInput) => Promise.resolve(entities));
const machine = commandPaletteMachine.provide({
  actors: {
    searchEntities: fromPromise<PaletteEntities, SearchEntitiesInput>(({ input }) => searchEntities(input)),
    testAllChannels: fromPromise<void, void>(() => never<void>()),
  },
  delays: { searchDebounce: 10 },
});

type Value = 'closed' | { open: 'idle' | 'debouncing' | 'searching' | 'failed' };
const seed = (value: Value, over: Partial<CommandPaletteContext> = {}): Record<string, AnyMachineSnapshot> => ({
  [commandPaletteMachine.id]: commandPaletteMachine.resolveState({ value, context: { ...initialPaletteContext, isAdmin: true, ...over } }),
});

function PaletteStory({ snapshots, admin = true }: { readonly snapshots?: Record<string, AnyMachineSnapshot>; readonly admin?: boolean }) {
  return (
    <SessionStory snapshot={seedSession({ user: admin ? storyUsers.admin : storyUsers.common })}>
      <EffectsProvider value={effects}>
        <MachineRegistryProvider machines={[machine]} snapshots={snapshots}>
          <CommandPalette />
        </MachineRegistryProvider>
      </EffectsProvider>
    </SessionStory>
  );
}

const meta = {
  title: 'Palette/CommandPalette',
  component: PaletteStory,
  beforeEach: () => {
    navigate.mockClear();
    notify.mockClear();
    searchEntities.mockClear();
  },
} satisfies Meta<typeof PaletteStory>;
export default meta;
type Story = StoryObj<typeof meta>;

const dialog = () => screen.findByRole('dialog', { name: '命令面板' });
const groupNames = (box: HTMLElement) => within(box).getAllByRole('group').map((g) => g.getAttribute('aria-labelledby') && document.getElementById(g.getAttribute('aria-labelledby')!)?.textContent);

/** closed: only the header button, with its shortcut. */
export const Closed: Story = {
  args: { snapshots: seed('closed') },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: /^搜索或跳转/ });
    await expect(button).toHaveAttribute('aria-keyshortcuts');
    await expect(screen.queryByRole('dialog')).toBeNull();
  },
};

/** open.idle, nothing typed: every page and action, and the shortcuts. */
export const OpenEmpty: Story = {
  args: { snapshots: seed({ open: 'idle' }) },
  play: async () => {
    const box = await dialog();
    const field = within(box).getByRole('combobox', { name: '搜索页面、操作、渠道、令牌或用户' });
    await expect(field).toHaveAttribute('aria-activedescendant');
    await expect(groupNames(box)).toEqual(['页面', '操作']);
    await expect(within(box).getByRole('option', { name: '渠道' })).toBeVisible();
    await expect(within(box).getByText('快捷键')).toBeVisible();
  },
};

/** open.idle for a common user: no admin pages or actions. */
export const OpenEmptyCommonUser: Story = {
  args: { snapshots: seed({ open: 'idle' }, { isAdmin: false }), admin: false },
  play: async () => {
    const box = await dialog();
    await expect(within(box).queryByRole('option', { name: '渠道' })).toBeNull();
    await expect(within(box).queryByRole('option', { name: '用户' })).toBeNull();
    await expect(within(box).getByRole('option', { name: '令牌' })).toBeVisible();
  },
};

/** open.idle with a query matching pages and actions (local, no search yet). */
export const OpenWithPageResults: Story = {
  args: { snapshots: seed({ open: 'idle' }, { query: '令牌' }) },
  play: async () => {
    const box = await dialog();
    const options = within(box).getAllByRole('option');
    await expect(options[0]).toHaveTextContent('令牌');
    await expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await expect(groupNames(box)).toEqual(['页面', '操作']);
  },
};

/** open.searching: the entity search is on its way. */
export const Searching: Story = {
  args: { snapshots: seed({ open: 'searching' }, { query: 'openai' }) },
  play: async () => {
    const box = await dialog();
    await expect(within(box).getByRole('status')).toHaveTextContent('正在搜索…');
  },
};

/** open.idle with the entities found, grouped after pages and actions. */
export const ResultsWithEntities: Story = {
  args: { snapshots: seed({ open: 'idle' }, { query: 'openai', entities, searchedFor: 'openai', activeIndex: 1 }) },
  play: async () => {
    const box = await dialog();
    await expect(groupNames(box)).toEqual(['渠道', '令牌', '用户']);
    const selected = within(box).getByRole('option', { selected: true });
    await expect(selected).toHaveTextContent('openai ci');
    await expect(within(box).getByRole('combobox')).toHaveAttribute('aria-activedescendant', selected.id);
  },
};

/** open.failed: the search failed; the reason and a retry. */
export const FailedSearch: Story = {
  args: { snapshots: seed({ open: 'failed' }, { query: 'openai', error: { text: '无权进行此操作，权限不足' } }) },
  play: async () => {
    const box = await dialog();
    await expect(within(box).getByRole('status')).toHaveTextContent('搜索失败：无权进行此操作，权限不足');
    await expect(within(box).getByRole('button', { name: '重试' })).toBeVisible();
  },
};

/** 375 px: the dialog takes the whole width. */
export const Narrow: Story = {
  args: { snapshots: seed({ open: 'idle' }, { query: 'openai', entities, searchedFor: 'openai' }) },
  globals: { viewport: { value: 'mobile1' } },
  play: async () => {
    const box = await dialog();
    await waitFor(() => expect(box.getBoundingClientRect().width).toBeGreaterThanOrEqual(window.innerWidth - 1));
  },
};

/** Ctrl+K, type, the search answers, ArrowDown, Enter: the token's edit page; Escape closes and focus returns. */
export const ClosedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: /^搜索或跳转/ });
    button.focus();
    await userEvent.keyboard('{Control>}k{/Control}');
    const box = await dialog();
    const field = within(box).getByRole('combobox');
    await waitFor(() => expect(field).toHaveFocus(), { timeout: 5000 });
    await userEvent.type(field, 'openai');
    await waitFor(() => expect(searchEntities).toHaveBeenCalledWith({ keyword: 'openai', isAdmin: true }), { timeout: 5000 });
    await within(box).findByRole('option', { name: /openai ci/ }, { timeout: 5000 });
    await userEvent.keyboard('{ArrowDown}');
    await waitFor(() => expect(within(box).getByRole('option', { selected: true })).toHaveTextContent('openai ci'), { timeout: 5000 });
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/token/edit/5', replace: false }), { timeout: 5000 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 5000 });
    await userEvent.click(button);
    await dialog();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 5000 });
    await waitFor(() => expect(button).toHaveFocus(), { timeout: 5000 });
  },
};
