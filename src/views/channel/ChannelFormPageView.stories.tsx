import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { emptyChannelConfig, emptyChannelForm, type ChannelForm } from '../../domain/channelForm';
import { ChannelFormPageView } from './ChannelFormPageView';

const form: ChannelForm = { ...emptyChannelForm, name: 'openai-main', key: '', models: ['gpt-4o', 'gpt-4o-mini'] };
const withType = (type: number, over: Partial<ChannelForm> = {}): { form: ChannelForm } => ({ form: { ...form, type, ...over } });

const meta = {
  title: 'Channel/ChannelFormPageView',
  component: ChannelFormPageView,
  args: {
    form,
    isEdit: false,
    loading: false,
    loadFailed: false,
    busy: false,
    saving: false,
    canSubmit: true,
    canBatch: true,
    groupOptions: ['default', 'vip', 'svip'],
    catalogue: ['gpt-4o', 'gpt-4o-mini', 'claude-3-haiku'],
    problem: null,
    onChange: fn(),
    onTypeChange: fn(),
    onAddModel: fn(),
    onRemoveModel: fn(),
    onFillRelated: fn(),
    onFillAll: fn(),
    onClearModels: fn(),
    onAddCustom: fn(),
    onGroupsChange: fn(),
    onAddTags: fn(),
    onRemoveTag: fn(),
    onBatchToggle: fn(),
    onSubmit: fn(),
    onCancel: fn(),
    onRetry: fn(),
  },
} satisfies Meta<typeof ChannelFormPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Creating an OpenAI channel. */
export const Create: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '创建新的渠道' })).toBeVisible();
    await expect(c.getByLabelText('类型')).toHaveValue('1');
    await expect(c.getByLabelText(/^名称/)).toHaveValue('openai-main');
    await expect(c.getByLabelText(/密钥/)).toHaveAttribute('placeholder', '请输入渠道对应的鉴权密钥');
    await expect(c.getByRole('button', { name: '移除模型 gpt-4o' })).toBeVisible();
    await expect(c.getByRole('checkbox', { name: 'default' })).toBeChecked();
    await expect(c.getByRole('checkbox', { name: '批量创建' })).not.toBeChecked();
    await expect(c.getByRole('button', { name: '提交' })).toBeEnabled();
  },
};

/** Custom model names typed, not yet added. */
export const CustomModels: Story = {
  args: { form: { ...form, customModel: 'my-model, other' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('自定义模型名称')).toHaveValue('my-model, other');
    await expect(c.getByRole('button', { name: '填入' })).toBeEnabled();
  },
};

export const Edit: Story = {
  args: { isEdit: true, canBatch: false, form: { ...form, groups: ['default', 'vip'] } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '更新渠道信息' })).toBeVisible();
    await expect(c.getByText('留空则保持原有密钥不变')).toBeVisible();
    await expect(c.queryByRole('checkbox', { name: '批量创建' })).toBeNull();
    await expect(c.getByRole('checkbox', { name: 'vip' })).toBeChecked();
  },
};

export const Loading: Story = {
  args: { loading: true, busy: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载渠道信息……');
  },
};

export const LoadFailed: Story = {
  args: { loadFailed: true, isEdit: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载渠道信息。')).toBeVisible();
    await expect(c.getByRole('button', { name: '重试' })).toBeEnabled();
  },
};

export const Saving: Story = {
  args: { busy: true, saving: true, canSubmit: false },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText(/^名称/)).toBeDisabled();
    await expect(c.getByRole('button', { name: /提交/ })).toBeDisabled();
  },
};

/** A refused submit: the message shows once, under the field it names, which is marked invalid and focused. */
export const ValidationError: Story = {
  args: { form: { ...form, name: '' }, problem: { field: 'name', message: { key: 'validation.channel.nameAndKeyRequired' } } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const name = c.getByLabelText(/^名称/);
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveFocus();
    await expect(c.getAllByText('请填写渠道名称和渠道密钥！')).toHaveLength(1);
    await expect(c.queryByRole('alert')).toBeNull();
  },
};

/** A base URL that is not an http(s) address: the error sits under the proxy field. */
export const BaseUrlInvalid: Story = {
  args: withType(1, { base_url: 'ftp://relay' }),
  render: (args) => (
    <ChannelFormPageView {...args} problem={{ field: 'base_url', message: { key: 'validation.channel.baseUrlInvalid' } }} />
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const url = c.getByLabelText('代理');
    await expect(url).toHaveAttribute('aria-invalid', 'true');
    await expect(url).toHaveFocus();
    await expect(c.getByText('Base URL 必须是以 http:// 或 https:// 开头的网址！')).toBeVisible();
  },
};

/** No model chosen: the error sits in the model group, whose first button takes the focus. */
export const ModelsMissing: Story = {
  args: { form: { ...form, models: [] }, problem: { field: 'models', message: { key: 'validation.channel.modelsRequired' } } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getAllByText('请至少选择一个模型！')).toHaveLength(1);
    await expect(c.getByRole('button', { name: '填入相关模型' })).toHaveFocus();
  },
};

/** The weight field: a whole number, its range error naming it. */
export const WeightField: Story = {
  args: { form: { ...form, weight: '-1' }, problem: { field: 'weight', message: { key: 'validation.channel.weightInvalid' } } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const weight = c.getByLabelText('权重');
    await expect(weight).toHaveValue(-1);
    await expect(weight).toHaveAttribute('aria-invalid', 'true');
    await expect(weight).toHaveAttribute('min', '0');
    await expect(c.getByText('权重必须是大于或等于 0 的整数！')).toBeVisible();
  },
};

/** Clone mode: a new channel prefilled from a stored one; the key is not copied and must be entered again. */
export const Clone: Story = {
  args: { form: { ...form, name: 'openai-main (副本)', base_url: 'https://relay.example.com', weight: '5' }, isClone: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '复制渠道' })).toBeVisible();
    await expect(c.getByLabelText(/^名称/)).toHaveValue('openai-main (副本)');
    await expect(c.getByLabelText(/^密钥/)).toHaveValue('');
    await expect(c.getByText('密钥不会被复制，请为新渠道重新填写密钥。')).toBeVisible();
    await expect(c.getByLabelText('代理')).toHaveValue('https://relay.example.com');
    await expect(c.getByLabelText('权重')).toHaveValue(5);
  },
};

export const Batch: Story = {
  args: { form: { ...form, batch: true, key: 'sk-1\nsk-2' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const keys = c.getByLabelText(/密钥/);
    await expect(keys.tagName).toBe('TEXTAREA');
    await expect(keys).toHaveAttribute('placeholder', '请输入密钥，一行一个');
    await expect(c.getByRole('checkbox', { name: '批量创建' })).toBeChecked();
  },
};

/** OpenAI (and every standard type): the optional proxy base URL, with its placeholder. */
export const Type1OpenAI: Story = {
  args: withType(1, { base_url: 'https://proxy.example.com' }),
  play: async ({ canvasElement }) => {
    const url = within(canvasElement).getByLabelText('代理');
    await expect(url).toHaveValue('https://proxy.example.com');
    await expect(url).toHaveAttribute('placeholder', '可选，填写代理地址，例如 https://api.example.com');
  },
};

export const Type3Azure: Story = {
  args: withType(3),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('AZURE_OPENAI_ENDPOINT')).toHaveAttribute('placeholder', expect.stringContaining('https://'));
    await expect(c.queryByLabelText('代理')).toBeNull();
    await expect(c.getByLabelText('默认 API 版本')).toBeVisible();
  },
};

export const Type8Custom: Story = {
  args: withType(8, { base_url: 'https://relay.example.com' }),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('Base URL')).toHaveValue('https://relay.example.com');
    await expect(within(canvasElement).getByLabelText('Base URL')).toHaveAttribute('placeholder', expect.stringContaining('https://'));
    await expect(within(canvasElement).queryByLabelText('代理')).toBeNull();
  },
};

export const Type17Ali: Story = {
  args: withType(17),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('插件参数')).toBeVisible();
  },
};

export const Type18Xunfei: Story = {
  args: withType(18),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('模型版本')).toBeVisible();
    await expect(c.getByLabelText(/密钥/)).toHaveAttribute('placeholder', '按照如下格式输入：APPID|APISecret|APIKey');
  },
};

export const Type21KnowledgeBase: Story = {
  args: withType(21),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('知识库 ID')).toBeVisible();
  },
};

export const Type22FastGPT: Story = {
  args: withType(22),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('私有部署地址')).toHaveAttribute('placeholder', expect.stringContaining('https://'));
    await expect(c.queryByLabelText('代理')).toBeNull();
    await expect(c.getByLabelText(/密钥/)).toHaveAttribute('placeholder', '按照如下格式输入：APIKey-AppId');
  },
};

export const Type33Aws: Story = {
  args: { ...withType(33, { config: { ...emptyChannelConfig, region: 'us-east-1' } }), canBatch: false },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('Region')).toHaveValue('us-east-1');
    await expect(c.queryByLabelText(/密钥/)).toBeNull();
    await expect(c.getByText('密钥将由以上字段组合而成。')).toBeVisible();
    await expect(c.getByLabelText('AK')).toBeVisible();
    await expect(c.getByLabelText('SK')).toBeVisible();
    await expect(c.queryByLabelText('代理')).toBeNull();
  },
};

export const Type34Coze: Story = {
  args: withType(34),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('User ID')).toBeVisible();
    await expect(c.getByText(/模型名称即 Bot ID/)).toBeVisible();
  },
};

export const Type37Cloudflare: Story = {
  args: withType(37),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('Account ID')).toBeVisible();
  },
};

export const Type40Doubao: Story = {
  args: withType(40),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText(/推理接入点名称/)).toBeVisible();
  },
};

export const Type42VertexAI: Story = {
  args: withType(42),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('Vertex AI Project ID')).toBeVisible();
    await expect(c.getByLabelText('Google Cloud Application Default Credentials JSON').tagName).toBe('TEXTAREA');
    await expect(c.queryByLabelText(/密钥/)).toBeNull();
  },
};

export const Type43Proxy: Story = {
  args: withType(43, { models: [] }),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('该类型的渠道不需要填写模型。')).toBeVisible();
    await expect(c.getByRole('status')).toHaveTextContent(/仅限透明代理.*\/v1\/oneapi\/proxy/);
    await expect(c.queryByRole('button', { name: '填入所有模型' })).toBeNull();
  },
};

/** The type picker: each entry says how it is relayed (nothing for the plain OpenAI-format types). */
export const TypePicker: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const option = (value: string) => c.getByLabelText('类型').querySelector(`option[value="${value}"]`);
    await expect(option('1')).toHaveTextContent(/^OpenAI$/);
    await expect(option('14')).toHaveTextContent('Anthropic（原生适配）');
    await expect(option('16')).toHaveTextContent('智谱 ChatGLM（OpenAI 兼容接口）');
    await expect(option('42')).toHaveTextContent('VertexAI（原生适配）');
    await expect(option('18')).toHaveTextContent('讯飞星火认知（原生适配）');
    await expect(option('21')).toHaveTextContent('知识库：AI Proxy（无法转发：接口无公开文档）');
    await expect(option('46')).toHaveTextContent('Replicate（原生适配）');
    await expect(option('43')).toHaveTextContent('Proxy（仅限透明代理）');
    await expect(c.getByText(/转发方式：OpenAI 格式/)).toBeVisible();
  },
};

/** A native type chosen: the helper text says the gateway translates its API. */
export const NativeType: Story = {
  args: withType(14),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('类型')).toHaveAccessibleDescription(/转发方式：原生适配/);
    await expect(c.queryByRole('status')).toBeNull();
  },
};

/** A type the gateway cannot relay chosen: a warning says requests to it are refused (it can still be saved). */
export const NotRelayableType: Story = {
  args: withType(21, { name: 'library' }),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const warning = c.getByRole('status');
    await expect(warning).toHaveTextContent('无法转发');
    await expect(warning).toHaveTextContent(/请求会被拒绝/);
    await expect(c.getByLabelText('类型')).not.toHaveAccessibleDescription(/转发方式/);
    await expect(c.getByRole('button', { name: '提交' })).toBeEnabled();
  },
};

/** PaLM2 chosen: the warning says why it will never be relayed (Google retired the PaLM API) and what to use instead. */
export const RetiredPalmType: Story = {
  args: withType(11, { name: 'palm' }),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const warning = c.getByRole('status');
    await expect(warning).toHaveTextContent('无法转发：PaLM API 已停用');
    await expect(warning).toHaveTextContent(/Google 已停用 PaLM API.*Google Gemini（24）或 Vertex AI（42）/);
    await expect(c.getByRole('button', { name: '提交' })).toBeEnabled();
  },
};

/** AI Proxy library chosen (English): the warning says its question API is undocumented. */
export const UndocumentedAiProxyLibraryType: Story = {
  args: withType(21, { name: 'library' }),
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const warning = within(canvasElement).getByRole('status');
    await expect(warning).toHaveTextContent('Not relayable: API undocumented');
    await expect(warning).toHaveTextContent(/publishes no documentation of its library question API/);
  },
};

export const NoGroupsOrModels: Story = {
  args: { groupOptions: [], catalogue: [], form: { ...form, groups: [], models: [] } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('没有可选的分组')).toBeVisible();
    await expect(c.getByText('尚未选择模型')).toBeVisible();
  },
};

export const Narrow: Story = { globals: { viewport: { value: 'mobile1' } } };
export const Dark: Story = { parameters: { colorMode: 'dark' }, args: withType(15) };
export const English: Story = {
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: 'Create a new channel' })).toBeVisible();
    await expect(c.getByRole('button', { name: 'Fill related models' })).toBeVisible();
  },
};

/** English type labels: the picker translates the word labels (custom channel, OpenAI compatible), keeps brand names. */
export const EnglishTypeLabels: Story = {
  parameters: { lang: 'en' },
  args: withType(8),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const picker = c.getByLabelText('Type');
    await expect(picker).toHaveDisplayValue('Custom channel');
    const options = [...(picker as HTMLSelectElement).options].map((o) => o.text);
    await expect(options).toContain('OpenAI compatible');
    await expect(options.some((o) => o.startsWith('Anthropic'))).toBe(true);
    await expect(options.some((o) => /[\u4e00-\u9fff]/.test(o))).toBe(false);
    await expect(c.getByLabelText('Base URL')).toHaveAttribute('placeholder', "Enter the custom channel's base URL, e.g. https://api.example.com");
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Creating an OpenAI channel: every control reports its intent. */
export const CreateInteraction: Story = {
  ...Create,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.selectOptions(c.getByLabelText('类型'), '14');
    await expect(args.onTypeChange).toHaveBeenCalledWith(14);
    await userEvent.type(c.getByLabelText(/^名称/), 'x');
    await expect(args.onChange).toHaveBeenLastCalledWith('name', 'openai-mainx');
    await userEvent.click(c.getByRole('button', { name: '移除模型 gpt-4o' }));
    await expect(args.onRemoveModel).toHaveBeenCalledWith('gpt-4o');
    await userEvent.click(c.getByRole('button', { name: '填入相关模型' }));
    await userEvent.click(c.getByRole('button', { name: '填入所有模型' }));
    await userEvent.click(c.getByRole('button', { name: '清除所有模型' }));
    await expect(args.onFillRelated).toHaveBeenCalledTimes(1);
    await expect(args.onFillAll).toHaveBeenCalledTimes(1);
    await expect(args.onClearModels).toHaveBeenCalledTimes(1);
    await userEvent.selectOptions(c.getByLabelText('从模型列表中添加'), 'claude-3-haiku');
    await expect(args.onAddModel).toHaveBeenCalledWith('claude-3-haiku');
    await userEvent.click(c.getByRole('checkbox', { name: 'vip' }));
    await expect(args.onGroupsChange).toHaveBeenCalledWith(['default', 'vip']);
    await userEvent.click(c.getByRole('checkbox', { name: '批量创建' }));
    await expect(args.onBatchToggle).toHaveBeenCalledTimes(1);
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(args.onSubmit).toHaveBeenCalledTimes(1);
    await userEvent.click(c.getByRole('button', { name: '取消' }));
    await expect(args.onCancel).toHaveBeenCalledTimes(1);
  },
};

/** Custom model names: Enter in the box adds them (and does not submit). */
export const CustomModelsInteraction: Story = {
  ...CustomModels,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByLabelText('自定义模型名称'), '{Enter}');
    await expect(args.onAddCustom).toHaveBeenCalledTimes(1);
    await expect(args.onSubmit).not.toHaveBeenCalled();
    await userEvent.click(c.getByRole('button', { name: '填入' }));
    await expect(args.onAddCustom).toHaveBeenCalledTimes(2);
  },
};

export const LoadFailedInteraction: Story = {
  ...LoadFailed,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};

export const Type8CustomInteraction: Story = {
  ...Type8Custom,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.type(within(canvasElement).getByLabelText('Base URL'), '/');
    await expect(args.onChange).toHaveBeenLastCalledWith('base_url', 'https://relay.example.com/');
  },
};

export const Type33AwsInteraction: Story = {
  ...Type33Aws,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.type(within(canvasElement).getByLabelText('AK'), 'A');
    await expect(args.onChange).toHaveBeenLastCalledWith('config.ak', 'A');
  },
};

/** Picking a type the gateway cannot relay reports the type like any other. */
export const TypePickerInteraction: Story = {
  ...TypePicker,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.selectOptions(within(canvasElement).getByLabelText('类型'), '讯飞星火认知（原生适配）');
    await expect(args.onTypeChange).toHaveBeenCalledWith(18);
  },
};

/** Tags as chips, one more typed. */
export const Tags: Story = {
  args: { form: { ...form, tags: ['team-a', 'prod'], tagInput: 'eu' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('list', { name: '标签' })).toHaveTextContent('team-a');
    await expect(c.getByRole('button', { name: '移除标签 prod' })).toBeVisible();
    await expect(c.getByRole('textbox', { name: '标签' })).toHaveValue('eu');
  },
};

/** A bad tag refused at its field. */
export const TagRefused: Story = {
  args: {
    form: { ...form, tagInput: 'a,b' },
    problem: { field: 'tagInput', message: { key: 'validation.channel.tag.comma', params: { tag: 'a,b' } } },
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('标签「a,b」不能包含逗号')).toBeVisible();
  },
};

/** Tags from the keyboard: Enter adds, Backspace in an empty box removes the last chip. */
export const TagsKeyboardInteraction: Story = {
  tags: ['interaction'],
  args: { form: { ...form, tags: ['team-a'], tagInput: '' } },
  play: async ({ args, canvasElement }) => {
    const box = within(canvasElement).getByRole('textbox', { name: '标签' });
    await userEvent.click(box);
    await userEvent.keyboard('{Backspace}');
    await expect(args.onRemoveTag).toHaveBeenCalledWith('team-a');
    await userEvent.keyboard('x{Enter}');
    await expect(args.onChange).toHaveBeenCalledWith('tagInput', 'x');
    await expect(args.onAddTags).toHaveBeenCalled();
  },
};
