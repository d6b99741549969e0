import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { emptyTagEditDraft } from '../../machines/channelTags';
import { ChannelListPageView } from './ChannelListPageView';
import { bulkRun, channelRows, liveResults, names, tableState } from './ChannelListPage.fixtures';
import { expectCardsFit } from '../table/cards.fixtures';
import { phoneViewport } from '../table/table.fixtures';

const meta = {
  title: 'Channel/ChannelListPageView',
  component: ChannelListPageView,
  parameters: { route: '/channel' },
  args: {
    table: tableState(),
    names,
    groupOptions: ['default', 'vip'],
    typeOptions: [1, 8, 14, 24],
    showDetail: false,
    noticeShown: true,
    confirmingDeleteDisabled: false,
    deletingDisabled: false,
    bulkValue: null,
    loadingGroups: false,
    groups: [],
    liveResults: {},
    canStartTest: true,
    quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 },
    onTable: fn(),
    onActions: fn(),
    onTestStart: fn(),
    tagCounts: [
      { tag: 'team-a', count: 2 },
      { tag: 'prod', count: 1 },
    ],
    tagEdit: { step: 'closed', draft: emptyTagEditDraft, problem: null, count: 0 },
    onTags: fn(),
  },
} satisfies Meta<typeof ChannelListPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The list: columns, status colours and hints, inline priority, toolbar buttons. */
export const Ready: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const table = c.getByRole('table', { name: '渠道' });
    for (const header of ['ID', '名称', '分组', '类型', '状态', '响应时间', '优先级', '操作']) {
      await expect(within(table).getByRole('columnheader', { name: new RegExp(header) })).toBeInTheDocument();
    }
    await expect(within(table).queryByRole('columnheader', { name: /余额/ })).toBeNull();
    await expect(within(table).getByText('openai-main')).toBeInTheDocument();
    await expect(within(table).getAllByText('已禁用')).toHaveLength(2);
    await expect(within(table).getByText('未测试')).toBeInTheDocument();
    await expect(within(table).getByText('0.81 秒')).toBeInTheDocument();
  },
};

/** Detail mode: balance, weight and the test-model dropdown. */
export const Detail: Story = {
  args: { showDetail: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '$42.50（刷新渠道 openai-main 的余额）' })).toHaveTextContent('$42.50');
    await expect(c.getByRole('button', { name: '不支持（刷新渠道 claude-backup 的余额）' })).toBeInTheDocument();
    await expect(c.getByLabelText('渠道 openai-main 的权重')).toHaveValue(2);
    await expect(c.getByLabelText('渠道 openai-main 的测试模型')).toHaveValue('gpt-3.5-turbo');
    await expect(c.getByLabelText('渠道 custom-upstream 的测试模型')).toHaveValue('llama-3-70b');
  },
};

/** A row whose test model was chosen: the test uses it. */
export const ChosenTestModel: Story = {
  args: { showDetail: true, table: tableState({ rows: [{ ...channelRows[0]!, test_model: 'gpt-4o-mini' }] }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('渠道 openai-main 的测试模型')).toHaveValue('gpt-4o-mini');
  },
};

/** Live test results: a pass and a fail mark beside the response time, the message as the name. */
export const LiveResults: Story = {
  args: { liveResults, canStartTest: false },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('img', { name: '本次测试通过：Hello!' })).toBeInTheDocument();
    await expect(c.getByRole('img', { name: /本次测试失败：http status code: 401/ })).toBeInTheDocument();
    await expect(c.getByRole('button', { name: '测试所有渠道' })).toBeDisabled();
  },
};

/** First load: skeleton rows. */
export const FirstLoad: Story = {
  args: { table: tableState({ rows: [], shownCount: 0, loadedCount: 0, firstLoad: true, loading: true, idle: false, complete: false }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: '渠道' }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
  },
};

export const Empty: Story = {
  args: { table: tableState({ rows: [], shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('暂无数据')).toBeInTheDocument();
  },
};

/** Search results; the clear button shows. */
export const SearchResults: Story = {
  args: { table: tableState({ rows: [channelRows[0]!], keyword: 'openai', draft: 'openai', shownCount: 1, loadedCount: 1 }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('searchbox')).toHaveValue('openai');
    await expect(c.getByRole('button', { name: '清除搜索' })).toBeVisible();
  },
};

export const NoMatch: Story = {
  args: { table: tableState({ rows: [], keyword: 'zzz', draft: 'zzz', shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('没有找到匹配的记录')).toBeInTheDocument();
  },
};

export const LoadFailed: Story = {
  args: { table: tableState({ rows: [], loadFailed: true, idle: false, shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('列表加载失败')).toBeInTheDocument();
    await expect(c.getByRole('button', { name: '重试' })).toBeEnabled();
  },
};

/** A row busy with its test: its buttons are disabled, the others are not. */
export const RowBusy: Story = {
  args: { table: tableState({ busy: { 7: 'test' } }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '测试渠道 openai-main' })).toBeDisabled();
    await expect(c.getByLabelText('渠道 openai-main 的优先级')).toBeDisabled();
    await expect(c.getByRole('button', { name: '测试渠道 custom-upstream' })).toBeEnabled();
  },
};

export const ConfirmingRowDelete: Story = {
  args: { table: tableState({ idle: false, pending: { id: 4, action: 'delete', value: '' } }) },
  play: async () => {
    await expect(await within(document.body).findByRole('alertdialog')).toHaveTextContent('确定删除渠道 gemini-free（#4）吗？');
  },
};

export const ConfirmingDeleteDisabled: Story = {
  args: { confirmingDeleteDisabled: true },
  play: async () => {
    await expect(await within(document.body).findByRole('alertdialog')).toHaveTextContent('将删除所有已禁用的渠道');
  },
};

export const DeletingDisabled: Story = {
  args: { deletingDisabled: true },
  play: async () => {
    const dialog = await within(document.body).findByRole('alertdialog');
    for (const cancel of within(dialog).getAllByRole('button', { name: '取消' })) await expect(cancel).toBeDisabled();
  },
};

/** Rows selected: the bulk bar with its actions. */
export const Selected: Story = {
  args: { table: tableState({ selected: new Set([7, 6]), selectedCount: 2 }) },
  play: async ({ canvasElement }) => {
    const bar = within(canvasElement).getByRole('region', { name: '已选择 2 项' });
    await expect(within(bar).getByRole('button', { name: '设置优先级' })).toBeVisible();
    await expect(within(bar).getByRole('button', { name: '设置分组' })).toBeVisible();
  },
};

/** The value prompt of "set priority", after a refused value. */
export const BulkValuePrompt: Story = {
  args: {
    table: tableState({ selected: new Set([7, 6]), selectedCount: 2 }),
    bulkValue: { action: 'priority', value: '', problem: { key: 'channels.bulk.value.needNumber' } },
  },
  play: async () => {
    const dialog = await within(document.body).findByRole('dialog');
    await expect(dialog).toHaveTextContent('请输入一个整数');
    await expect(within(dialog).getByLabelText('优先级')).toHaveValue(null);
  },
};

export const BulkValueLoadingGroups: Story = {
  args: { bulkValue: { action: 'setGroup', value: '', problem: null }, loadingGroups: true },
  play: async () => {
    const dialog = await within(document.body).findByRole('dialog');
    await expect(within(dialog).getByRole('status')).toHaveTextContent('正在加载分组……');
  },
};

export const BulkValueGroups: Story = {
  args: { bulkValue: { action: 'setGroup', value: '', problem: null }, groups: ['default', 'vip', 'svip'] },
  play: async () => {
    const dialog = await within(document.body).findByRole('dialog');
    await expect(within(within(dialog).getByLabelText('分组')).getByRole('option', { name: 'svip' })).toBeInTheDocument();
  },
};

/** The table's confirmation names the count. */
export const ConfirmingBulk: Story = {
  args: {
    table: tableState({ idle: false, selected: new Set([7, 6]), selectedCount: 2, bulkToConfirm: bulkRun({ action: 'priority', value: '3' }) }),
  },
  play: async () => {
    const dialog = await within(document.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('2');
    await expect(dialog).toHaveTextContent('设置优先级为 3');
  },
};

export const BulkRunning: Story = {
  args: { table: tableState({ idle: false, selected: new Set([7, 6]), selectedCount: 2, bulkRunning: bulkRun({ done: 1, succeeded: [7] }) }) },
  play: async () => {
    const dialog = await within(document.body).findByRole('alertdialog');
    await expect(within(dialog).getByRole('button', { name: '停止' })).toBeEnabled();
  },
};

export const BulkReportWithFailures: Story = {
  args: {
    table: tableState({
      idle: false,
      selected: new Set([7, 6]),
      selectedCount: 2,
      bulkReport: bulkRun({
        action: 'removeModel',
        value: 'qwen-72b',
        done: 2,
        succeeded: [6],
        failures: [{ id: 7, message: { text: 'the last model (qwen-72b) of a channel cannot be removed' } }],
      }),
    }),
  },
  play: async () => {
    const dialog = await within(document.body).findByRole('alertdialog');
    await waitFor(() => expect(dialog).toHaveTextContent('#7 openai-main'));
    await expect(dialog).toHaveTextContent('移除模型 qwen-72b');
  },
};

/** Channels of types the gateway cannot relay (PaLM2, Proxy): a text badge beside the type says so. */
const notRelayableRows = [
  ...channelRows.slice(0, 2),
  { ...channelRows[0]!, id: 9, type: 11, name: 'palm-legacy', models: 'PaLM-2',  response_time: 0, test_time: 0 },
  { ...channelRows[1]!, id: 8, type: 43, name: 'passthrough', models: '', response_time: 0, test_time: 0 },
];
export const NotRelayableRows: Story = {
  args: { table: tableState({ rows: notRelayableRows, shownCount: 4, loadedCount: 4 }), typeOptions: [1, 8, 11, 43] },
  play: async ({ canvasElement }) => {
    const table = within(within(canvasElement).getByRole('table', { name: '渠道' }));
    const row = (name: string) => within(table.getByText(name).closest('tr')!);
    await expect(row('palm-legacy').getByText('无法转发：PaLM API 已停用')).toBeVisible();
    await expect(row('passthrough').getByText('仅限透明代理')).toBeVisible();
    await expect(row('openai-main').queryByText(/无法转发/)).toBeNull();
    await expect(table.getAllByText(/无法转发|仅限透明代理/)).toHaveLength(2);
  },
};

export const NoticeDismissed: Story = {
  args: { noticeShown: false },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole('button', { name: '关闭提示' })).toBeNull();
  },
};

export const English: Story = {
  args: { showDetail: true, liveResults },
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: 'Test all channels' })).toBeInTheDocument();
    await expect(c.getByRole('columnheader', { name: /Response time/ })).toBeInTheDocument();
  },
};

/** A 375 px phone: each channel is a card (heading, label/value pairs, the row's buttons on screen). */
export const Narrow: Story = {
  args: { showDetail: true, liveResults },
  ...phoneViewport,
  play: async ({ canvasElement }) => {
    const list = await expectCardsFit(canvasElement, '渠道', channelRows.length);
    const card = within(list).getByRole('heading', { name: 'openai-main' }).closest('li')!;
    await expect(within(card).getByRole('button', { name: '测试渠道 openai-main' })).toBeVisible();
    await expect(within(card).getByRole('button', { name: '删除渠道 openai-main' })).toBeVisible();
    await expect(within(card).getByText('响应时间')).toBeVisible();
    const failed = within(list).getByRole('heading', { name: 'custom-upstream' }).closest('li')!;
    await expect(within(failed).getByText('失败')).toBeVisible();
  },
};

/** The same phone in English: the failed test reads "Failed". */
export const NarrowEnglish: Story = {
  ...Narrow,
  parameters: { ...phoneViewport.parameters, lang: 'en' },
  play: async ({ canvasElement }) => {
    const list = await expectCardsFit(canvasElement, 'Channels', channelRows.length);
    await expect(within(list).getByText('Failed')).toHaveAttribute('title', expect.stringContaining('Incorrect API key provided'));
  },
};

/**
 * Failed tests: a single test that failed before this page opened (0 ms with a test time: the
 * server kept no error), one that failed on this page (its error kept on the row), and a batch
 * result that failed although the run stored its elapsed time (3 ms): all three red "失败",
 * never a green time; the passed row keeps its green time.
 */
export const FailedTests: Story = {
  args: {
    liveResults: { 4: { ...liveResults[6]!, index: 2, channel_id: 4, response_time: 3, test_time: 1_763_950_002 } },
    table: tableState({
      rows: [
        channelRows[0]!,
        { ...channelRows[1]!, response_time: 0, test_time: 1_763_900_500 },
        {
          ...channelRows[2]!,
          response_time: 0,
          test_time: 1_763_900_600,
          last_test: { success: false, message: 'upstream said: model not found', response_time: 0, test_time: 1_763_900_600 },
        },
        { ...channelRows[3]!, response_time: 3, test_time: 1_763_950_002 },
      ],
    }),
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const badges = c.getAllByText('失败');
    await expect(badges).toHaveLength(3);
    await expect(badges[0]).toHaveAttribute('title', expect.stringContaining('服务器未保存错误信息'));
    await expect(badges[1]).toHaveAttribute('title', expect.stringContaining('upstream said: model not found'));
    await expect(badges[2]).toHaveAttribute('title', expect.stringContaining('Incorrect API key provided'));
    await expect(c.queryByText('0.00 秒')).toBeNull();
    await expect(c.getByText('0.81 秒')).toBeVisible();
  },
};

export const Dark: Story = {
  args: { showDetail: true, liveResults },
  parameters: { colorMode: 'dark' },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Header sort and inline priority (an emptied field saves nothing). */
export const ReadyInteraction: Story = {
  ...Ready,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '按 ID 排序' }));
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'sort.toggle', key: 'id' });
    const priority = c.getByLabelText('渠道 openai-main 的优先级');
    await userEvent.clear(priority);
    await userEvent.type(priority, '12{Enter}');
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'row.action', id: 7, action: 'priority', value: '12' });
    await userEvent.clear(c.getByLabelText('渠道 custom-upstream 的优先级'));
    c.getByLabelText('渠道 custom-upstream 的优先级').blur();
    await expect(args.onTable).not.toHaveBeenCalledWith(expect.objectContaining({ id: 6, action: 'priority' }));
  },
};

/** Row buttons: test with the default model, enable/disable, delete (with confirmation). */
export const RowActionsInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '测试渠道 openai-main' }));
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'row.action', id: 7, action: 'test', value: 'gpt-3.5-turbo' });
    await userEvent.click(c.getByRole('button', { name: '禁用渠道 openai-main' }));
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'row.action', id: 7, action: 'toggle' });
    await userEvent.click(c.getByRole('button', { name: '启用渠道 claude-backup' }));
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'row.action', id: 5, action: 'toggle' });
    await userEvent.click(c.getByRole('button', { name: '删除渠道 gemini-free' }));
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'row.action', id: 4, action: 'delete', confirm: true });
  },
};

/** The toolbar, the notice and the filters send their events. */
export const ToolbarInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('link', { name: '编辑渠道 openai-main' })).toHaveAttribute('href', '/channel/edit/7');
    await expect(c.getByRole('link', { name: '添加新的渠道' })).toHaveAttribute('href', '/channel/add');
    await userEvent.click(c.getByRole('button', { name: '测试所有渠道' }));
    await expect(args.onTestStart).toHaveBeenCalledWith('all');
    await userEvent.click(c.getByRole('button', { name: '测试禁用渠道' }));
    await expect(args.onTestStart).toHaveBeenCalledWith('disabled');
    await userEvent.click(c.getByRole('button', { name: '删除禁用渠道' }));
    await expect(args.onActions).toHaveBeenCalledWith({ type: 'deleteDisabled.request' });
    await userEvent.click(c.getByRole('button', { name: '刷新' }));
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'rows.reload' });
    await userEvent.click(c.getByRole('checkbox', { name: '详情模式' }));
    await expect(args.onActions).toHaveBeenCalledWith({ type: 'detail.toggle' });
    await userEvent.click(c.getByRole('button', { name: '关闭提示' }));
    await expect(args.onActions).toHaveBeenCalledWith({ type: 'notice.dismiss' });
    await userEvent.selectOptions(c.getByLabelText('状态'), '3');
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'filter.change', key: 'status', value: '3' });
    await userEvent.type(c.getByRole('searchbox', { name: '搜索渠道的 ID、名称和密钥 ...' }), 'o');
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'search.input', text: 'o' });
  },
};

/** Detail mode: a balance click refreshes, negative weights become 0, the test model is chosen. */
export const DetailInteraction: Story = {
  ...Detail,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '$42.50（刷新渠道 openai-main 的余额）' }));
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'row.action', id: 7, action: 'balance' });
    const weight = c.getByLabelText('渠道 custom-upstream 的权重');
    await userEvent.clear(weight);
    await userEvent.type(weight, '-3{Enter}');
    // -3 is 0, the weight it already has: nothing to save
    await expect(args.onTable).not.toHaveBeenCalledWith(expect.objectContaining({ action: 'weight' }));
    await userEvent.clear(c.getByLabelText('渠道 openai-main 的权重'));
    await userEvent.type(c.getByLabelText('渠道 openai-main 的权重'), '-3{Enter}');
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'row.action', id: 7, action: 'weight', value: '0' });
    const model = c.getByLabelText('渠道 openai-main 的测试模型');
    await expect(model).toHaveValue('gpt-3.5-turbo');
    await expect(c.getByLabelText('渠道 custom-upstream 的测试模型')).toHaveValue('llama-3-70b');
    await userEvent.selectOptions(model, 'gpt-4o');
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'row.patch', id: 7, patch: { test_model: 'gpt-4o' } });
  },
};

/** A row whose test model was chosen: the test uses it. */
export const ChosenTestModelInteraction: Story = {
  ...ChosenTestModel,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '测试渠道 openai-main' }));
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'row.action', id: 7, action: 'test', value: 'gpt-4o-mini' });
  },
};

export const SearchResultsInteraction: Story = {
  ...SearchResults,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '清除搜索' }));
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'search.clear' });
  },
};

export const LoadFailedInteraction: Story = {
  ...LoadFailed,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '重试' }));
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'load.retry' });
  },
};

export const ConfirmingRowDeleteInteraction: Story = {
  ...ConfirmingRowDelete,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    const dialog = await within(document.body).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'confirm.accept' });
  },
};

export const ConfirmingDeleteDisabledInteraction: Story = {
  ...ConfirmingDeleteDisabled,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    const dialog = await within(document.body).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await expect(args.onActions).toHaveBeenCalledWith({ type: 'deleteDisabled.accept' });
  },
};

/** Rows selected: value actions open the prompt, the others ask the table. */
export const SelectedInteraction: Story = {
  ...Selected,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const bar = within(canvasElement).getByRole('region', { name: '已选择 2 项' });
    await userEvent.click(within(bar).getByRole('button', { name: '禁用' }));
    await expect(args.onTable).toHaveBeenCalledWith({ type: 'bulk.request', action: 'disable' });
    await userEvent.click(within(bar).getByRole('button', { name: '设置优先级' }));
    await expect(args.onActions).toHaveBeenCalledWith({ type: 'bulkValue.open', action: 'priority' });
    await userEvent.click(within(bar).getByRole('button', { name: '设置分组' }));
    await expect(args.onActions).toHaveBeenCalledWith({ type: 'bulkValue.open', action: 'setGroup' });
  },
};

/** The value prompt: typing and "next" reach the actions machine. */
export const BulkValuePromptInteraction: Story = {
  ...BulkValuePrompt,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    const dialog = await within(document.body).findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('优先级'), '3');
    await expect(args.onActions).toHaveBeenCalledWith({ type: 'bulkValue.input', value: '3' });
    await userEvent.click(within(dialog).getByRole('button', { name: '下一步' }));
    await expect(args.onActions).toHaveBeenCalledWith({ type: 'bulkValue.submit' });
  },
};

export const BulkValueGroupsInteraction: Story = {
  ...BulkValueGroups,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    const dialog = await within(document.body).findByRole('dialog');
    await userEvent.selectOptions(within(dialog).getByLabelText('分组'), 'vip');
    await expect(args.onActions).toHaveBeenCalledWith({ type: 'bulkValue.input', value: 'vip' });
  },
};

/** The not-relayable badge is focusable and its hint says why requests to the channel are refused. */
export const NotRelayableRowsInteraction: Story = {
  ...NotRelayableRows,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const badge = within(canvasElement).getByText('无法转发：PaLM API 已停用');
    await userEvent.hover(badge);
    await waitFor(() => expect(within(document.body).getByRole('tooltip')).toHaveTextContent(/请求会被拒绝/));
  },
};

/** Keyboard: a focused badge shows the table's one shared hint, which describes it; Escape hides it. */
export const HintOnFocusInteraction: Story = {
  ...NotRelayableRows,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const badge = within(canvasElement).getByText('无法转发：PaLM API 已停用');
    badge.focus();
    const tip = await within(document.body).findByRole('tooltip');
    await expect(tip).toHaveTextContent(/请求会被拒绝/);
    await waitFor(() => expect(badge).toHaveAccessibleDescription(/请求会被拒绝/));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(within(document.body).queryByRole('tooltip')).toBeNull());
    await expect(badge).not.toHaveAttribute('aria-describedby');
  },
};

/** The tag filter lists every tag with its channel count. */
export const TagFilter: Story = {
  play: async ({ canvasElement }) => {
    const select = within(canvasElement).getByLabelText('标签');
    await expect(within(select).getByRole('option', { name: 'team-a（2）' })).toBeInTheDocument();
    await expect(within(select).getByRole('option', { name: 'prod（1）' })).toBeInTheDocument();
  },
};

/** Edit by tag: choosing the tag and the fields (disable chosen). */
export const EditByTag: Story = {
  args: { tagEdit: { step: 'editing', draft: { ...emptyTagEditDraft, tag: 'team-a', fields: ['status'] }, problem: null, count: 2 } },
  play: async () => {
    const dialog = await within(document.body).findByRole('dialog');
    await expect(within(dialog).getByRole('combobox', { name: '标签' })).toHaveValue('team-a');
    await expect(within(dialog).getByRole('checkbox', { name: '启用/禁用' })).toBeChecked();
    await expect(within(dialog).getByLabelText('启用/禁用', { selector: 'select' })).toHaveValue('2');
  },
};

/** Edit by tag, refused: the reason is shown. */
export const EditByTagRefused: Story = {
  args: { tagEdit: { step: 'editing', draft: { ...emptyTagEditDraft, tag: 'team-a' }, problem: { key: 'channels.tagEdit.needField' }, count: 2 } },
  play: async () => {
    const dialog = await within(document.body).findByRole('dialog');
    await expect(within(dialog).getByRole('alert')).toHaveTextContent('请至少选择一个要修改的字段');
  },
};

/** Edit by tag: the confirmation says how many channels change. */
export const EditByTagConfirming: Story = {
  args: { tagEdit: { step: 'confirming', draft: { ...emptyTagEditDraft, tag: 'team-a', fields: ['status'] }, problem: null, count: 2 } },
  play: async () => {
    const dialog = await within(document.body).findByRole('dialog');
    await expect(dialog).toHaveTextContent('将修改带有标签「team-a」的 2 个渠道，确定吗？');
  },
};

/** Edit by tag: saving. */
export const EditByTagSaving: Story = {
  args: { tagEdit: { step: 'saving', draft: { ...emptyTagEditDraft, tag: 'team-a', fields: ['status'] }, problem: null, count: 2 } },
  play: async () => {
    const dialog = await within(document.body).findByRole('dialog');
    await expect(within(dialog).getByRole('button', { name: '返回' })).toBeDisabled();
  },
};

/** Edit by tag from the keyboard: the fields and the next step send their events. */
export const EditByTagKeyboardInteraction: Story = {
  tags: ['interaction'],
  args: { tagEdit: { step: 'editing', draft: { ...emptyTagEditDraft, tag: 'team-a' }, problem: null, count: 2 } },
  play: async ({ args }) => {
    const dialog = await within(document.body).findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: '优先级' }));
    await expect(args.onTags).toHaveBeenCalledWith({ type: 'tagEdit.field', field: 'priority', on: true });
    await userEvent.click(within(dialog).getByRole('button', { name: '下一步' }));
    await expect(args.onTags).toHaveBeenCalledWith({ type: 'tagEdit.submit' });
  },
};

/** Tags are badges on their row. */
export const TagBadges: Story = {
  play: async ({ canvasElement }) => {
    const table = within(canvasElement).getByRole('table', { name: '渠道' });
    await expect(within(table).getByRole('columnheader', { name: /标签/ })).toBeInTheDocument();
    await expect(within(table).getByText('team-a')).toBeInTheDocument();
    await expect(within(table).getByText('prod')).toBeInTheDocument();
  },
};
