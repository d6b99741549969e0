import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import {
  pageContentMachine,
  type FetchContentInput,
  type PageContentContext,
  type ReadCachedContentInput,
  type WriteCachedContentInput,
  type WriteSeenNoticeInput,
} from '../../machines/pageContent';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { AboutPage } from './AboutPage';

const about = '# 关于星河网关\n\n由平台组维护，问题请发送至 ops@example.com。';

const notify = fn<(e: NotifyEvent) => void>();
const fetches = fn<(input: FetchContentInput) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };

const never = <O, I>() => fromPromise<O, I>(() => new Promise<O>(() => undefined));
const machineWith = (fetchContent: ReturnType<typeof fromPromise<string, FetchContentInput>>, cached: string | null = null) =>
  pageContentMachine.provide({
    actors: {
      readCachedContent: fromPromise<string | null, ReadCachedContentInput>(() => Promise.resolve(cached)),
      writeCachedContent: fromPromise<void, WriteCachedContentInput>(() => Promise.resolve()),
      fetchContent,
      readSeenNotice: never<string | null, unknown>(),
      fetchNotice: never<string, unknown>(),
      writeSeenNotice: never<void, WriteSeenNoticeInput>(),
    },
  });
const frozen = machineWith(never<string, FetchContentInput>());

const context = (over: Partial<PageContentContext> = {}): PageContentContext => ({
  kind: 'about',
  content: null,
  fresh: false,
  seenNotice: null,
  notice: null,
  error: null,
  ...over,
});
const seed = (content: 'ready' | 'failed' | { loading: 'readingCache' | 'fetching' }, over?: Partial<PageContentContext>) => ({
  [pageContentMachine.id]: pageContentMachine.resolveState({ value: { content, notice: 'off' }, context: context(over) }),
});

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Home/AboutPage',
  component: AboutPage,
  parameters: { route: '/about' },
} satisfies Meta<typeof AboutPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** State `content.loading.readingCache`. */
export const LoadingReadingCache: Story = {
  render: () => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed({ loading: 'readingCache' })}>
      <AboutPage />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('正在加载内容……')).toBeVisible();
  },
};

/** State `content.loading.fetching` with the cached copy. */
export const LoadingWithCachedCopy: Story = {
  render: () => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed({ loading: 'fetching' }, { content: about })}>
      <AboutPage />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '关于星河网关' })).toBeVisible();
    await expect(c.getByText('正在获取最新内容……')).toBeVisible();
  },
};

/** State `content.ready` with Markdown. */
export const ReadyMarkdown: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed('ready', { content: about, fresh: true })}>
      <AboutPage />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { level: 1, name: '关于星河网关' })).toBeVisible();
  },
};

/** State `content.ready` with an https:// address. */
export const ReadyFramed: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <MachineRegistryProvider
      machines={[frozen]}
      snapshots={seed('ready', { content: 'https://example.com/about', fresh: true })}
    >
      <AboutPage />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTitle('关于')).toHaveAttribute('src', 'https://example.com/about');
  },
};

/** State `content.ready` with About empty: how to set it. */
export const ReadyEmpty: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed('ready', { content: '', fresh: true })}>
      <AboutPage />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('可在设置页面设置关于内容，支持 HTML & Markdown')).toBeVisible();
  },
};

/** State `content.failed`. */
export const Failed: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed('failed', { error: { text: '服务器繁忙' } })}>
      <AboutPage />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('服务器繁忙')).toBeVisible();
    await expect(c.getByRole('button', { name: '重试' })).toBeVisible();
  },
};

let attempts = 0;
const failsOnce = fromPromise<string, FetchContentInput>(async ({ input }) => {
  fetches(input);
  await new Promise((r) => setTimeout(r, 30));
  attempts += 1;
  if (attempts === 1) throw failure('getAbout', '服务器繁忙');
  return about;
});

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** A live run: the first load fails (toast), retry loads the page. */
export const LiveRetryInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  beforeEach: () => {
    attempts = 0;
    notify.mockClear();
    fetches.mockClear();
  },
  render: () => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith(failsOnce)]}>
        <AboutPage />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: '重试' }));
    await expect(await c.findByRole('heading', { name: '关于星河网关' })).toBeVisible();
    await waitFor(() => expect(c.queryByRole('button', { name: '重试' })).toBeNull());
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: '服务器繁忙' } });
    await expect(fetches).toHaveBeenCalledWith({ kind: 'about' });
  },
};
