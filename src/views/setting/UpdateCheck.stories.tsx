import type { Meta, StoryObj } from '@storybook/react-vite';
import type { AnyMachineSnapshot } from 'xstate';
import { fromPromise } from 'xstate';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { networkError } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import { updateCheckMachine, type LatestRelease, type UpdateCheckContext } from '../../machines/updateCheck';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { SessionStory } from '../app/stories/SessionStory';
import { UpdateCheck } from './UpdateCheck';

/*
 * The check-for-updates container (updateCheck machine), one story per machine state. The
 * release listing is a stub (a fake release, never the public service); the console's version
 * is the seeded session's build version, v0.1.0.
 */

const never = <T,>() => new Promise<T>(() => undefined);
const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };

const newer: LatestRelease = { tag: 'v0.2.0', notes: '## v0.2.0\n\n- 日志清理\n- 价格一览', url: 'https://releases.example/v0.2.0' };
const current: LatestRelease = { tag: 'v0.1.0', notes: '', url: 'https://releases.example/v0.1.0' };

const fetchLatestRelease = fn(() => Promise.resolve(newer));
const withFetch = (fetch: () => Promise<LatestRelease>) =>
  updateCheckMachine.provide({ actors: { fetchLatestRelease: fromPromise<LatestRelease, void>(() => fetch()) } });
const answering = withFetch(fetchLatestRelease);
const upToDate = withFetch(() => Promise.resolve(current));
const offline = withFetch(async () => {
  await Promise.resolve();
  throw networkError('getLatestRelease', 'Failed to fetch');
});
const pending = withFetch(() => never<LatestRelease>());

const seed = (value: 'idle' | 'checking' | 'showing', over: Partial<UpdateCheckContext> = {}): Record<string, AnyMachineSnapshot> => ({
  [updateCheckMachine.id]: updateCheckMachine.resolveState({ value, context: { currentVersion: 'v0.1.0', release: null, ...over } }),
});

function CheckStory({
  machine = answering,
  snapshots,
}: {
  readonly machine?: typeof updateCheckMachine;
  readonly snapshots?: Record<string, AnyMachineSnapshot>;
}) {
  return (
    <EffectsProvider value={effects}>
      <SessionStory>
        <MachineRegistryProvider machines={[machine]} snapshots={snapshots}>
          <UpdateCheck />
        </MachineRegistryProvider>
      </SessionStory>
    </EffectsProvider>
  );
}

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Setting/UpdateCheck',
  // Every state here is one UpdateCheckView's stories show: no docs page of its own.
  tags: ['!autodocs'],
  component: UpdateCheck,
  parameters: { route: '/setting' },
  beforeEach: () => {
    notify.mockClear();
    fetchLatestRelease.mockClear();
  },
} satisfies Meta<typeof UpdateCheck>;
export default meta;
type Story = StoryObj<typeof meta>;

/** State `idle`, a newer release out. */
export const Idle: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <CheckStory snapshots={seed('idle')} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('当前版本：v0.1.0')).toBeVisible();
  },
};

/** State `checking` (frozen): the button is busy. */
export const Checking: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <CheckStory machine={pending} snapshots={seed('checking')} />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '检查更新' })).toBeDisabled();
    await expect(fetchLatestRelease).not.toHaveBeenCalled();
  },
};

/** State `showing`: the dialog with the seeded release. */
export const Showing: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <CheckStory snapshots={seed('showing', { release: newer })} />,
  play: async () => {
    const dialog = within(await screen.findByRole('dialog'));
    await waitFor(() => expect(dialog.getByRole('heading', { name: '新版本：v0.2.0' })).toBeVisible());
    await waitFor(() => expect(dialog.getByText('价格一览')).toBeVisible());
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** State `idle`, a newer release out: the dialog opens with it; closing returns to idle. */
export const IdleInteraction: Story = {
  ...Idle,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('当前版本：v0.1.0')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '检查更新' }));
    await waitFor(() => expect(fetchLatestRelease).toHaveBeenCalledTimes(1));
    const dialog = within(await screen.findByRole('dialog'));
    await waitFor(() => expect(dialog.getByRole('heading', { name: '新版本：v0.2.0' })).toBeVisible());
    await waitFor(() => expect(dialog.getByText('日志清理')).toBeVisible());
    await expect(dialog.getByRole('link', { name: '查看发布页面' })).toHaveAttribute('href', newer.url);
    await userEvent.click(dialog.getAllByRole('button', { name: '关闭' })[0]!);
    await expect(notify).not.toHaveBeenCalled();
  },
};

/** State `idle`, the latest release is this console's: '已是最新版本：v0.1.0', no dialog. */
export const UpToDateInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => <CheckStory machine={upToDate} snapshots={seed('idle')} />,
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '检查更新' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        type: 'notify',
        level: 'success',
        message: { key: 'settingsExtras.update.latest', params: { tag: 'v0.1.0' } },
      }),
    );
    await expect(screen.queryByRole('dialog')).toBeNull();
  },
};

/** State `idle`, the listing cannot be reached: an error toast. */
export const OfflineInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => <CheckStory machine={offline} snapshots={seed('idle')} />,
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '检查更新' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        type: 'notify',
        level: 'error',
        message: { key: 'error.prefixed', params: { message: 'Failed to fetch' } },
      }),
    );
  },
};
