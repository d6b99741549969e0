import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { Redemption } from '../../domain/redemption';
import {
  emptyRedemptionForm,
  redemptionFormMachine,
  type DownloadKeysInput,
  type RedemptionFormContext,
  type SaveRedemptionInput,
} from '../../machines/redemptionForm';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { RedemptionFormPage } from './RedemptionFormPage';
import { redemptionRows } from './RedemptionListPage.fixtures';
import { withStorySession } from '../app/stories/SessionStory';

const notify = fn<(e: NotifyEvent) => void>();
const navigate = fn<(e: NavigateEvent) => void>();
const downloads = fn<(input: DownloadKeysInput) => void>();
const effects = { notify, navigate };
const keys = ['0f3c9a7e1b2d4c5f8a9b0c1d2e3f4a5b', '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b'];
const never = <T,>() => new Promise<T>(() => undefined);

const live = redemptionFormMachine.provide({
  actors: {
    loadRedemption: fromPromise<Redemption, { readonly id: number }>(() => Promise.resolve(redemptionRows[0]!)),
    saveRedemption: fromPromise<readonly string[], SaveRedemptionInput>(({ input }) => Promise.resolve(input.id === null ? keys : [])),
    downloadKeys: fromPromise<void, DownloadKeysInput>(({ input }) => {
      downloads(input);
      return Promise.resolve();
    }),
    copyText: fromPromise<void, { readonly text: string }>(() => Promise.resolve()),
  },
});
const refusing = live.provide({
  actors: {
    saveRedemption: fromPromise<readonly string[], SaveRedemptionInput>(async () => {
      await Promise.resolve();
      throw failure('saveRedemption', '兑换码名称长度必须在1-20之间');
    }),
  },
});
const frozen = redemptionFormMachine.provide({
  actors: {
    loadRedemption: fromPromise<Redemption, { readonly id: number }>(() => never()),
    saveRedemption: fromPromise<readonly string[], SaveRedemptionInput>(() => never()),
    downloadKeys: fromPromise<void, DownloadKeysInput>(() => never()),
    copyText: fromPromise<void, { readonly text: string }>(() => never()),
  },
});

type Value = Parameters<typeof redemptionFormMachine.resolveState>[0]['value'];
const seed = (value: Value, over: Partial<RedemptionFormContext> = {}) => ({
  [redemptionFormMachine.id]: redemptionFormMachine.resolveState({
    value,
    context: { id: null, form: emptyRedemptionForm, problem: null, keys: [], createdName: '', ...over },
  }),
});

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Redemption/RedemptionFormPage',
  component: RedemptionFormPage,
  decorators: [withStorySession],
  parameters: { route: '/redemption/add' },
  args: { id: null, quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 } },
} satisfies Meta<typeof RedemptionFormPage>;
export default meta;
type Story = StoryObj<typeof meta>;

const frozenStory = (snapshots: ReturnType<typeof seed>, id: number | null = null): Story => ({
  args: { id },
  render: (args) => (
    <MachineRegistryProvider machines={[frozen]} snapshots={snapshots}>
      <RedemptionFormPage {...args} />
    </MachineRegistryProvider>
  ),
});

export const Loading: Story = {
  tags: ['!dev', '!autodocs'],
  ...frozenStory(seed('loading', { id: 12 }), 12),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toBeVisible();
  },
};
export const LoadFailed: Story = {
  tags: ['!dev', '!autodocs'],
  ...frozenStory(seed('loadFailed', { id: 12 }), 12),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('无法加载兑换码信息。')).toBeVisible();
  },
};
export const Editing: Story = {
  tags: ['!dev', '!autodocs'],
  ...frozenStory(seed('editing', { id: 12, form: { name: 'spring-promo', quota: '100000', count: '1' } }), 12),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByLabelText('生成数量')).toBeNull();
  },
};
export const Saving: Story = {
  tags: ['!dev', '!autodocs'],
  ...frozenStory(seed('saving', { form: { name: 'promo', quota: '100000', count: '2' } })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText(/名称/)).toBeDisabled();
  },
};
export const Downloading: Story = {
  ...frozenStory(seed({ created: 'downloading' }, { form: { name: 'promo', quota: '100000', count: '2' }, keys, createdName: 'promo' })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '重新下载' })).toBeDisabled();
  },
};
export const Shown: Story = {
  tags: ['!dev', '!autodocs'],
  ...frozenStory(seed({ created: 'shown' }, { form: { name: 'promo', quota: '100000', count: '2' }, keys, createdName: 'promo' })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('兑换码已下载为 promo.txt，每行一个。')).toBeVisible();
  },
};
export const Copying: Story = {
  tags: ['!dev', '!autodocs'],
  ...frozenStory(seed({ created: 'copying' }, { form: { name: 'promo', quota: '100000', count: '2' }, keys, createdName: 'promo' })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: /复制全部/ })).toBeDisabled();
  },
};
export const EnglishDark: Story = {
  tags: ['!dev', '!autodocs'],
  ...frozenStory(seed('editing')),
  parameters: { lang: 'en', colorMode: 'dark' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'Create redemption codes' })).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** A live create: the name rule, then two codes created, downloaded and listed. */
export const LiveCreateInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[live]}>
        <RedemptionFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    downloads.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(c.getByText('请填写兑换码名称！')).toBeVisible();
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'warning', message: { key: 'validation.redemption.nameRequired' } });
    await userEvent.type(c.getByLabelText(/名称/), 'promo');
    await userEvent.clear(c.getByLabelText('生成数量'));
    await userEvent.type(c.getByLabelText('生成数量'), '2');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(await c.findByText('已生成 2 个兑换码')).toBeVisible();
    await expect(downloads).toHaveBeenCalledWith({ name: 'promo.txt', text: `${keys.join('\n')}\n` });
    await userEvent.click(c.getByRole('button', { name: '复制全部' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'redemptions.copied' } }));
  },
};

/** A live edit: the code loads, the save goes back to the list. */
export const LiveEditInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  parameters: { route: '/redemption/edit/12' },
  args: { id: 12 },
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[live]}>
        <RedemptionFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    navigate.mockClear();
    const c = within(canvasElement);
    await expect(await c.findByLabelText(/名称/)).toHaveValue('spring-promo');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/redemption', replace: false }));
  },
};

/** A refused save keeps what was typed and shows the server's message. */
export const SaveRefusedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[refusing]} snapshots={seed('editing', { form: { ...emptyRedemptionForm, name: 'a-very-long-name-indeed' } })}>
        <RedemptionFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: '兑换码名称长度必须在1-20之间' } }));
    await expect(c.getByLabelText(/名称/)).toHaveValue('a-very-long-name-indeed');
  },
};
