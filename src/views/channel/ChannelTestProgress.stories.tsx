import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from '@chakra-ui/react';
import { fromPromise, type AnyMachineSnapshot } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { httpError } from '../../domain/apiError';
import type { Channel, ChannelTestRun, ChannelTestRunRequest, ChannelTestRunResult } from '../../domain/channel';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import {
  channelTestMachine,
  type CancelTestRunInput,
  type ChannelTestContext,
  type ChannelTestOutcome,
  type FetchTestRunInput,
  type TestChannelInput,
} from '../../machines/channelTest';
import { EffectsProvider, MachineRegistryProvider, useMachineActor } from '../app/machineRegistry';
import { ChannelTestProgress } from './ChannelTestProgress';

const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };

const ok = (index: number, channel_id: number): ChannelTestRunResult => ({
  index,
  channel_id,
  success: true,
  message: 'I am gpt-3.5-turbo',
  time: 0.81,
  model: 'gpt-3.5-turbo',
  status: 1,
  response_time: 810,
  test_time: 1760000001,
});
const bad = (index: number, channel_id: number): ChannelTestRunResult => ({
  index,
  channel_id,
  success: false,
  message: 'http status code: 401, error message: Incorrect API key provided',
  time: 0,
  model: 'gpt-3.5-turbo',
  status: 3,
  response_time: 0,
  test_time: 1760000002,
});
const testRun = (over: Partial<ChannelTestRun>): ChannelTestRun => ({
  id: 3,
  scope: 'all',
  status: 'running',
  total: 3,
  done: 0,
  started_at: 1760000000,
  finished_at: 0,
  channel_ids: [7, 5, 4],
  results: [],
  ...over,
});

// Stub actors: never resolve, resolve with, reject with.
const never = <O, I = unknown>() => fromPromise<O, I>(() => new Promise<O>(() => undefined));
const pending = {
  fetchCurrentRun: never<ChannelTestRun | null>(),
  startTestRun: never<ChannelTestRun, ChannelTestRunRequest>(),
  fetchTestRun: never<ChannelTestRun, FetchTestRunInput>(),
  cancelTestRun: never<ChannelTestRun, CancelTestRunInput>(),
  listAllChannels: never<Channel[]>(),
  testChannel: never<ChannelTestOutcome, TestChannelInput>(),
};
const machineWith = (actors: Partial<typeof pending> = {}) =>
  channelTestMachine.provide({ actors: { ...pending, ...actors }, delays: { pollInterval: 10 } });

const empty: ChannelTestContext = {
  mode: 'server',
  run: null,
  results: {},
  order: [],
  failed: [],
  received: 0,
  pollErrors: 0,
  request: null,
  queue: [],
  cancelRequested: false,
};
const results = { 7: ok(0, 7), 5: bad(1, 5) };
const midRun: ChannelTestContext = {
  ...empty,
  request: { scope: 'all' },
  run: { id: 3, scope: 'all', status: 'running', total: 3, done: 2 },
  results,
  order: [7, 5, 4],
  failed: [5],
  received: 2,
};
const finished: ChannelTestContext = {
  ...midRun,
  run: { id: 3, scope: 'all', status: 'finished', total: 3, done: 3 },
  results: { ...results, 4: ok(2, 4) },
  received: 3,
};
const queue = [
  { id: 7, status: 1, model: 'gpt-3.5-turbo' },
  { id: 5, status: 3, model: 'gpt-4o-mini' },
  { id: 4, status: 2, model: '' },
];
const localRun: ChannelTestContext = { ...midRun, mode: 'local', run: { id: 0, scope: 'all', status: 'running', total: 3, done: 2 }, queue };

type StateValue = Parameters<typeof channelTestMachine.resolveState>[0]['value'];
const seed = (value: StateValue, context: ChannelTestContext): Record<string, AnyMachineSnapshot> => ({
  [channelTestMachine.id]: channelTestMachine.resolveState({ value, context }),
});

/** What the channel list does: owns the actor, starts runs, embeds the panel. */
function Page({ names }: { readonly names?: Readonly<Record<number, string>> }) {
  const actorRef = useMachineActor(channelTestMachine);
  return (
    <>
      <Button size="sm" mb={3} onClick={() => actorRef.send({ type: 'test.start', scope: 'all' })}>
        测试所有渠道
      </Button>
      <ChannelTestProgress actorRef={actorRef} channelNames={names} />
    </>
  );
}

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Channel/ChannelTestProgress',
  component: Page,
  args: { names: { 5: 'OpenAI 主线路' } },
} satisfies Meta<typeof Page>;
export default meta;
type Story = StoryObj<typeof meta>;

const render =
  (machine: ReturnType<typeof machineWith>, snapshots?: Record<string, AnyMachineSnapshot>) =>
  (args: { readonly names?: Readonly<Record<number, string>> }) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machine]} snapshots={snapshots}>
        <Page {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  );

/** Live: a start, three polls, each result counted as it arrives, the summary toast. */
export const LiveServerRunInteraction: Story = {
  tags: ['interaction'],
  render: (() => {
    let polls = 0;
    const progress = [
      testRun({ done: 1, results: [ok(0, 7)] }),
      testRun({ done: 2, results: [bad(1, 5)] }),
      testRun({ status: 'finished', done: 3, finished_at: 1760000004, results: [ok(2, 4)] }),
    ];
    return render(
      machineWith({
        fetchCurrentRun: fromPromise(() => Promise.resolve<ChannelTestRun | null>(null)),
        startTestRun: fromPromise(() => {
          polls = 0;
          return Promise.resolve(testRun({}));
        }),
        fetchTestRun: fromPromise(() => Promise.resolve(progress[Math.min(polls++, 2)]!)),
      }),
    );
  })(),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '测试所有渠道' }));
    await waitFor(() => expect(c.getByRole('status')).toHaveTextContent('已完成'));
    await expect(c.getByText('3 / 3')).toBeVisible();
    await expect(c.getByText('通过 2')).toBeVisible();
    await expect(c.getByText('失败 1')).toBeVisible();
    await expect(c.getByRole('progressbar', { name: '测试进度' })).toHaveAttribute('aria-valuenow', '100');
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'info', message: { key: 'channelTest.started', params: { total: 3 } } });
    await expect(notify).toHaveBeenCalledWith({
      type: 'notify',
      level: 'warning',
      message: { key: 'channelTest.finished', params: { ok: 2, failed: 1 } },
    });
  },
};

/** Live against one-api (404): the page lists the channels and tests them one by one. */
export const LiveLocalFallbackInteraction: Story = {
  tags: ['interaction'],
  render: render(
    machineWith({
      fetchCurrentRun: fromPromise<ChannelTestRun | null>(async () => {
        await Promise.resolve();
        throw httpError('GET /api/channel/test_run', 404, 'Not Found');
      }),
      listAllChannels: fromPromise(() =>
        Promise.resolve<Channel[]>([
          { id: 7, type: 1, name: 'a', status: 1, models: 'gpt-3.5-turbo', group: 'default' },
          { id: 5, type: 1, name: 'b', status: 3, models: 'gpt-4o-mini', group: 'default' },
        ]),
      ),
      testChannel: fromPromise(({ input }) =>
        Promise.resolve(
          input.id === 7
            ? { success: true, message: 'hi', time: 0.5, model: '', test_time: 1760000000 }
            : { success: false, message: 'invalid api key', time: 0, model: '', test_time: 1760000000 },
        ),
      ),
    }),
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '测试所有渠道' }));
    await waitFor(() => expect(c.getByRole('status')).toHaveTextContent('已完成'));
    await expect(c.getByText('2 / 2')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '失败详情（1）' }));
    await expect(await c.findByText('OpenAI 主线路（#5）')).toBeVisible();
    await expect(c.getByText(/invalid api key/)).toBeVisible();
  },
};

/** State `checking` (looking for a run going): nothing shown yet. */
export const Checking: Story = {
  tags: ['!dev', '!autodocs'],
  render: render(machineWith(), seed('checking', empty)),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole('region', { name: '渠道测试' })).toBeNull();
  },
};

/** State `idle`: no panel. */
export const Idle: Story = {
  tags: ['!dev', '!autodocs'],
  render: render(machineWith(), seed('idle', empty)),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole('region', { name: '渠道测试' })).toBeNull();
  },
};

/** State `starting`: the panel says it is preparing. */
export const Starting: Story = {
  tags: ['!dev', '!autodocs'],
  render: render(machineWith(), seed('starting', { ...empty, request: { scope: 'all' } })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在准备测试……');
  },
};

/** State `running.waiting`: progress so far. */
export const RunningWaiting: Story = {
  tags: ['!dev', '!autodocs'],
  render: render(machineWith(), seed({ running: 'waiting' }, midRun)),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('2 / 3')).toBeVisible();
    await expect(c.getByRole('progressbar', { name: '测试进度' })).toHaveAttribute('aria-valuenow', '67');
  },
};

/** State `running.polling`. */
export const RunningPolling: Story = {
  tags: ['!dev', '!autodocs'],
  render: render(machineWith(), seed({ running: 'polling' }, midRun)),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '取消测试' })).toBeEnabled();
  },
};

/** State `running.cancelling`. */
export const RunningCancelling: Story = {
  tags: ['!dev', '!autodocs'],
  render: render(machineWith(), seed({ running: 'cancelling' }, { ...midRun, cancelRequested: true })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: /正在取消/ })).toBeDisabled();
  },
};

/** State `local.listing`: the page is listing the channels to test. */
export const LocalListing: Story = {
  tags: ['!dev', '!autodocs'],
  render: render(machineWith(), seed({ local: 'listing' }, { ...empty, mode: 'local', request: { scope: 'disabled' } })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在准备测试……');
  },
};

/** State `local.testing`: one-api, the page tests. */
export const LocalTesting: Story = {
  tags: ['!dev', '!autodocs'],
  render: render(machineWith(), seed({ local: 'testing' }, localRun)),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText(/由本页面逐个测试/)).toBeVisible();
    await expect(c.getByRole('button', { name: '取消测试' })).toBeEnabled();
  },
};

/** State `ended` with failures: Retry failed and Dismiss. */
export const EndedWithFailures: Story = {
  tags: ['!dev', '!autodocs'],
  render: render(machineWith(), seed('ended', finished)),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('status')).toHaveTextContent('已完成');
    await expect(c.getByRole('button', { name: '重试失败的渠道' })).toBeEnabled();
  },
};

/** State `ended` after a cancel. */
export const EndedCancelled: Story = {
  tags: ['!dev', '!autodocs'],
  render: render(machineWith(), seed('ended', { ...midRun, run: { id: 3, scope: 'all', status: 'cancelled', total: 3, done: 2 } })),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('status')).toHaveTextContent('已取消');
    await expect(c.getByRole('button', { name: '关闭' })).toBeVisible();
  },
};

/** State `failed`: polls failed; progress unknown. */
export const Failed: Story = {
  tags: ['!dev', '!autodocs'],
  render: render(machineWith(), seed('failed', { ...midRun, pollErrors: 3 })),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('status')).toHaveTextContent('进度未知');
    await expect(c.getByRole('button', { name: '关闭' })).toBeVisible();
  },
};

/** Ended, in English and dark mode, at phone width. */
export const EndedEnglishDarkNarrow: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', colorMode: 'dark' },
  globals: { viewport: { value: 'mobile1' } },
  render: render(machineWith(), seed('ended', finished)),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: 'Retry failed' })).toBeVisible();
    await expect(c.getByText('2 passed')).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction'). One that spreads a state
 * story plays its flow from that state, with the real machine.
 */

/** From `running.waiting`: Cancel sends the cancel. */
export const RunningWaitingInteraction: Story = {
  ...RunningWaiting,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '取消测试' }));
    await expect(c.getByRole('status')).toHaveTextContent('正在取消……');
  },
};

/** From `local.testing`: Cancel stops after the current channel. */
export const LocalTestingInteraction: Story = {
  ...LocalTesting,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '取消测试' }));
    await expect(c.getByRole('button', { name: /正在取消/ })).toBeDisabled();
  },
};

/** State `ended` with failures: Retry failed starts a run of the failed ids. */
const retryStarts = fn<(input: ChannelTestRunRequest) => void>();
export const EndedWithFailuresInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: render(
    machineWith({
      startTestRun: fromPromise<ChannelTestRun, ChannelTestRunRequest>(({ input }) => {
        retryStarts(input);
        return new Promise<ChannelTestRun>(() => undefined);
      }),
    }),
    seed('ended', finished),
  ),
  play: async ({ canvasElement }) => {
    retryStarts.mockClear();
    const c = within(canvasElement);
    await expect(c.getByRole('status')).toHaveTextContent('已完成');
    await userEvent.click(c.getByRole('button', { name: '重试失败的渠道' }));
    await waitFor(() => expect(retryStarts).toHaveBeenCalledWith({ ids: [5] }));
    await expect(c.getByRole('status')).toHaveTextContent('正在准备测试……');
  },
};

/** From `ended` after a cancel: Dismiss hides the panel. */
export const EndedCancelledInteraction: Story = {
  ...EndedCancelled,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '关闭' }));
    await expect(c.queryByRole('region', { name: '渠道测试' })).toBeNull();
  },
};
