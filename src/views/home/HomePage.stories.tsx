import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { httpError } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { Status } from '../../domain/status';
import {
  pageContentMachine,
  type FetchContentInput,
  type PageContentContext,
  type ReadCachedContentInput,
  type WriteCachedContentInput,
  type WriteSeenNoticeInput,
} from '../../machines/pageContent';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { HomePage } from './HomePage';

const status: Status = {
  version: 'v0.6.10',
  start_time: 1740137416,
  system_name: '星河网关',
  logo: '',
  footer_html: '',
  quota_per_unit: 500000,
  display_in_currency: true,
  chat_link: '',
  server_address: 'https://gateway.example.com',
  top_up_link: '',
  turnstile_check: true,
  turnstile_site_key: '0x4AAAAAAA',
  email_verification: false,
  github_oauth: true,
  github_client_id: 'Iv1.0123456789abcdef',
  wechat_login: false,
  wechat_qrcode: '',
};
const cachedCopy = '# 星河网关\n\n（上次访问时的首页）';
const serverMarkdown = '# 星河网关\n\n统一接入主流大模型，**一个密钥**即可调用。';
const notice = '**维护通知**：今晚 23:00 升级。';

const notify = fn<(e: NotifyEvent) => void>();
const writes = fn<(key: string, value: string) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };

const never = <O, I>() => fromPromise<O, I>(() => new Promise<O>(() => undefined));
const resolves = <O, I>(value: O) => fromPromise<O, I>(() => Promise.resolve(value));

/** Every actor pending: a seeded snapshot stays exactly as seeded. */
const frozen = pageContentMachine.provide({
  actors: {
    readCachedContent: never<string | null, ReadCachedContentInput>(),
    writeCachedContent: never<void, WriteCachedContentInput>(),
    fetchContent: never<string, FetchContentInput>(),
    readSeenNotice: never<string | null, unknown>(),
    fetchNotice: never<string, unknown>(),
    writeSeenNotice: never<void, WriteSeenNoticeInput>(),
  },
});

/**
 * A live run: the cached copy, the server's answer and the notice as given; `server` null
 * makes the content call fail with a 500.
 */
const live = (opts: { cached: string | null; server: string | null; notice: string; seen: string | null }) => {
  const { server } = opts;
  return pageContentMachine.provide({
    actors: {
      readCachedContent: resolves<string | null, ReadCachedContentInput>(opts.cached),
      writeCachedContent: fromPromise<void, WriteCachedContentInput>(({ input }) => {
        writes(input.key, input.value);
        return Promise.resolve();
      }),
      fetchContent:
        server === null
          ? fromPromise<string, FetchContentInput>(async () => {
              await new Promise((r) => setTimeout(r, 50));
              throw httpError('getHomePageContent', 500, 'Internal Server Error');
            })
          : fromPromise<string, FetchContentInput>(async () => {
              await new Promise((r) => setTimeout(r, 50));
              return server;
            }),
      readSeenNotice: resolves<string | null, unknown>(opts.seen),
      fetchNotice: resolves<string, unknown>(opts.notice),
      writeSeenNotice: fromPromise<void, WriteSeenNoticeInput>(({ input }) => {
        writes('notice', input.notice);
        return Promise.resolve();
      }),
    },
  });
};

const context = (over: Partial<PageContentContext> = {}): PageContentContext => ({
  kind: 'home',
  content: null,
  fresh: false,
  seenNotice: null,
  notice: null,
  error: null,
  ...over,
});
type ContentValue = 'ready' | 'failed' | { loading: 'readingCache' | 'fetching' };
type NoticeValue = 'readingSeen' | 'fetching' | 'showing' | 'off';
const seed = (content: ContentValue, noticeValue: NoticeValue, over?: Partial<PageContentContext>) => ({
  [pageContentMachine.id]: pageContentMachine.resolveState({
    value: { content, notice: noticeValue },
    context: context(over),
  }),
});

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Home/HomePage',
  component: HomePage,
  args: { status },
} satisfies Meta<typeof HomePage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** State `content.loading.readingCache`: nothing known yet, a spinner. */
export const LoadingReadingCache: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed({ loading: 'readingCache' }, 'readingSeen')}>
      <HomePage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载内容……');
  },
};

/** State `content.loading.fetching` with the cached copy on show. */
export const LoadingWithCachedCopy: Story = {
  render: (args) => (
    <MachineRegistryProvider
      machines={[frozen]}
      snapshots={seed({ loading: 'fetching' }, 'fetching', { content: cachedCopy })}
    >
      <HomePage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('（上次访问时的首页）')).toBeVisible();
    await expect(c.getByText('正在获取最新内容……')).toBeVisible();
  },
};

/** State `content.ready`: the server's Markdown. */
export const ReadyMarkdown: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed('ready', 'off', { content: serverMarkdown, fresh: true })}>
      <HomePage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: '星河网关' })).toBeVisible();
    await expect(c.getByText('一个密钥')).toBeVisible();
    await expect(c.queryByRole('status')).toBeNull();
  },
};

/** State `content.ready` with an https:// address: framed full width. */
export const ReadyFramed: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider
      machines={[frozen]}
      snapshots={seed('ready', 'off', { content: 'https://example.com/landing', fresh: true })}
    >
      <HomePage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTitle('首页内容')).toHaveAttribute('src', 'https://example.com/landing');
  },
};

/** State `content.ready` with HomePageContent empty: the built-in home with the system status. */
export const ReadyDefaultHome: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed('ready', 'off', { content: '', fresh: true })}>
      <HomePage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: '欢迎使用 星河网关' })).toBeVisible();
    await expect(c.getByText('v0.6.10')).toBeVisible();
  },
};

/** State `content.failed`: the error and a retry; the cached copy stays. */
export const FailedWithCachedCopy: Story = {
  render: (args) => (
    <MachineRegistryProvider
      machines={[frozen]}
      snapshots={seed('failed', 'off', { content: cachedCopy, error: { key: 'error.internal' } })}
    >
      <HomePage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('错误：服务器内部错误，请联系管理员！')).toBeVisible();
    await expect(c.getByText('（上次访问时的首页）')).toBeVisible();
    await expect(c.getByRole('button', { name: '重试' })).toBeEnabled();
  },
};

/** State `content.failed` with nothing cached: the default home under the error. */
export const FailedWithoutCachedCopy: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed('failed', 'off', { error: { text: '服务器繁忙' } })}>
      <HomePage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('服务器繁忙')).toBeVisible();
    await expect(c.getByRole('heading', { name: '系统状况' })).toBeVisible();
  },
};

/** State `notice.showing`. */
export const NoticeShowing: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider
      machines={[frozen]}
      snapshots={seed('ready', 'showing', { content: serverMarkdown, fresh: true, notice, seenNotice: '旧公告' })}
    >
      <HomePage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('region', { name: '公告' })).toHaveTextContent('维护通知：今晚 23:00 升级。');
  },
};

/** A live first visit: spinner, then the server's page and the new notice; both are stored. */
export const LiveFirstVisit: Story = {
  beforeEach: () => {
    writes.mockClear();
  },
  render: (args) => (
    <MachineRegistryProvider machines={[live({ cached: null, server: serverMarkdown, notice, seen: null })]}>
      <HomePage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByText('一个密钥')).toBeVisible();
    await expect(await c.findByRole('region', { name: '公告' })).toBeVisible();
    await waitFor(() => expect(writes).toHaveBeenCalledWith('home_page_content', serverMarkdown));
    await expect(writes).toHaveBeenCalledWith('notice', notice);
  },
};

/** A live visit where the notice was seen before: the cached page first, no notice. */
export const LiveNoticeAlreadySeen: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[live({ cached: cachedCopy, server: serverMarkdown, notice, seen: notice })]}>
      <HomePage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByText('一个密钥')).toBeVisible();
    await expect(c.queryByRole('region', { name: '公告' })).toBeNull();
  },
};

/** A live failure: the error toast is emitted, the cached copy stays, retry is offered. */
export const LiveFailure: Story = {
  beforeEach: () => {
    notify.mockClear();
  },
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[live({ cached: cachedCopy, server: null, notice: '', seen: null })]}>
        <HomePage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByRole('button', { name: '重试' })).toBeVisible();
    await expect(c.getByText('（上次访问时的首页）')).toBeVisible();
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { key: 'error.internal' } });
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** State `notice.showing`: the new notice above the page; closing it sends `notice.dismiss`. */
export const NoticeShowingInteraction: Story = {
  ...NoticeShowing,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('region', { name: '公告' })).toHaveTextContent('维护通知：今晚 23:00 升级。');
    await userEvent.click(c.getByRole('button', { name: '关闭公告' }));
    await waitFor(() => expect(c.queryByRole('region', { name: '公告' })).toBeNull());
  },
};
