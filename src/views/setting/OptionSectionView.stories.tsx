import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { msg } from '../../domain/message';
import { sectionOf } from '../../domain/optionSections';
import { contrastRatio } from '../app/contrast';
import { OptionSectionView } from './OptionSectionView';
import { storyOptionValues } from './settings.fixtures';

const meta = {
  title: 'Setting/OptionSectionView',
  component: OptionSectionView,
  args: {
    section: sectionOf('general'),
    values: storyOptionValues,
    problems: {},
    busy: false,
    saving: false,
    changed: false,
    whitelistEntry: '',
    canAddWhitelistEntry: false,
    onChange: fn(),
    onToggle: fn(),
    onSave: fn(),
    onWhitelistInput: fn(),
    onWhitelistAdd: fn(),
    onWhitelistRemove: fn(),
  },
} satisfies Meta<typeof OptionSectionView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** General: inputs and switches. */
export const General: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '通用设置' })).toBeVisible();
    await expect(c.getByLabelText('单位美元额度')).toHaveAttribute('step', '0.01');
    await expect(c.getByLabelText('失败重试次数')).toHaveAttribute('min', '0');
    await expect(c.getByRole('button', { name: '保存通用设置' })).toBeDisabled();
  },
};

/** Changed: the save button answers and says there are unsaved changes. */
export const Changed: Story = {
  args: { changed: true, values: { ...storyOptionValues, TopUpLink: 'https://pay.example.com' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('有未保存的更改')).toBeVisible();
  },
};

/** Saving: fields disabled, the button spins. */
export const Saving: Story = {
  args: { changed: true, busy: true, saving: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('充值链接')).toBeDisabled();
    await expect(c.getByRole('button', { name: '保存通用设置' })).toBeDisabled();
  },
};

/** Ratio: JSON text areas; an invalid one shows the spec's message at its field. */
export const RatioInvalid: Story = {
  args: {
    section: sectionOf('ratio'),
    changed: true,
    values: { ...storyOptionValues, ModelRatio: '{"gpt-4":' },
    problems: { ModelRatio: msg('validation.ratio.model') },
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('模型倍率不是合法的 JSON 字符串')).toBeVisible();
    await expect(c.getByLabelText('模型倍率')).toHaveAttribute('aria-invalid', 'true');
    await expect(c.getByLabelText('分组倍率')).toHaveValue('{\n  "default": 1,\n  "vip": 1\n}');
  },
};

/** Ratio: the JSON options as loaded, pretty-printed (two spaces, one entry a line). */
export const RatioPretty: Story = {
  args: { section: sectionOf('ratio') },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('模型倍率')).toHaveValue('{\n  "gpt-4": 15,\n  "gpt-3.5-turbo": 0.75\n}');
    await expect(c.getByRole('button', { name: '保存倍率设置' })).toBeDisabled();
  },
};

/** The text contrast of a button: its colour on its own background, or the first opaque one behind it. */
function textContrastOf(el: HTMLElement): number {
  const rgb = (css: string): [number, number, number, number] => {
    const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
    return [r, g, b, css.startsWith('rgba') ? a : 1];
  };
  const hex = ([r, g, b]: readonly number[]) => `#${[r, g, b].map((v) => Math.round(v ?? 0).toString(16).padStart(2, '0')).join('')}`;
  let node: HTMLElement | null = el;
  let bg = rgb('rgba(0, 0, 0, 0)');
  while (node !== null && bg[3] === 0) {
    bg = rgb(getComputedStyle(node).backgroundColor);
    node = node.parentElement;
  }
  const fg = rgb(getComputedStyle(el).color);
  const opacity = Number(getComputedStyle(el).opacity);
  // text drawn at the button's opacity over the background
  const seen = fg.slice(0, 3).map((v, i) => v * opacity + (bg[i] ?? 0) * (1 - opacity));
  return contrastRatio(hex(seen), hex(bg));
}

/** Dark mode, unsaved changes: the solid save button reads at >= 4.5:1. */
export const UnsavedDark: Story = {
  args: Changed.args,
  parameters: { colorMode: 'dark' },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: '保存通用设置' });
    await expect(button).toBeEnabled();
    await expect(textContrastOf(button)).toBeGreaterThanOrEqual(4.5);
  },
};

/** Dark mode, nothing to save: the idle save button is an outline one, still readable (>= 4.5:1), not half-transparent. */
export const NothingToSaveDark: Story = {
  parameters: { colorMode: 'dark' },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: '保存通用设置' });
    await expect(button).toBeDisabled();
    await expect(textContrastOf(button)).toBeGreaterThanOrEqual(4.5);
  },
};

/** Light mode, both looks of the save button read at >= 4.5:1. */
export const SaveButtonLight: Story = {
  args: { section: sectionOf('quota') },
  play: async ({ canvasElement }) => {
    await expect(textContrastOf(within(canvasElement).getByRole('button', { name: '保存额度设置' }))).toBeGreaterThanOrEqual(4.5);
  },
};

/** A numeric option out of its range: the message names the option and the rule at its field. */
export const NumberOutOfRange: Story = {
  args: {
    changed: true,
    values: { ...storyOptionValues, RetryTimes: '-3' },
    problems: { RetryTimes: msg('number.range', { min: 0, max: 10, field: 'settings.option.RetryTimes' }) },
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('失败重试次数 必须在 0 到 10 之间')).toBeVisible();
    await expect(c.getByLabelText('失败重试次数')).toHaveAttribute('aria-invalid', 'true');
  },
};

/** Switches only (login and registration): no save button. */
export const LoginSwitches: Story = {
  args: { section: sectionOf('login') },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.queryByRole('button')).toBeNull();
  },
};

/** The whitelist as tags: Enter adds, a tag's button removes. */
export const EmailDomainWhitelist: Story = {
  args: { section: sectionOf('emailDomain'), whitelistEntry: 'example.com', canAddWhitelistEntry: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('gmail.com')).toBeVisible();
  },
};

/** SMTP: the port hint and a secret box that never shows the stored value. */
export const Smtp: Story = {
  args: { section: sectionOf('smtp') },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('SMTP 端口')).toHaveAttribute('placeholder', '默认为 587');
    await expect(c.getByLabelText('SMTP 密码或授权码')).toHaveAttribute('type', 'password');
    await expect(c.getByLabelText('SMTP 密码或授权码')).toHaveAttribute('placeholder', '已隐藏，留空则保持不变');
  },
};

/** Theme: a choice among the server's themes. */
export const Theme: Story = {
  args: { section: sectionOf('theme') },
};

/** Footer (a text area) in English and dark mode. */
export const FooterEnglishDark: Story = {
  args: { section: sectionOf('footer') },
  parameters: { lang: 'en', colorMode: 'dark' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: 'Footer' })).toBeVisible();
    await expect(c.getByRole('button', { name: 'Save Footer' })).toBeDisabled();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** General: inputs and switches; a switch click toggles, typing changes, the save button waits for a change. */
export const GeneralInteraction: Story = {
  ...General,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '通用设置' })).toBeVisible();
    await expect(c.getByLabelText('单位美元额度')).toHaveAttribute('step', '0.01');
    await expect(c.getByLabelText('失败重试次数')).toHaveAttribute('min', '0');
    await expect(c.getByRole('button', { name: '保存通用设置' })).toBeDisabled();
    await userEvent.type(c.getByLabelText('充值链接'), 'x');
    await expect(args.onChange).toHaveBeenLastCalledWith('TopUpLink', 'x');
    await userEvent.click(c.getByText('记录额度消费日志'));
    await expect(args.onToggle).toHaveBeenCalledWith('LogConsumeEnabled');
  },
};

/** Changed: the save button answers and says there are unsaved changes. */
export const ChangedInteraction: Story = {
  ...Changed,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('有未保存的更改')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '保存通用设置' }));
    await expect(args.onSave).toHaveBeenCalledTimes(1);
  },
};

/** Switches only (login and registration): no save button. */
export const LoginSwitchesInteraction: Story = {
  ...LoginSwitches,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.queryByRole('button')).toBeNull();
    await userEvent.click(c.getByText('允许密码登录'));
    await expect(args.onToggle).toHaveBeenCalledWith('PasswordLoginEnabled');
  },
};

/** The whitelist as tags: Enter adds, a tag's button removes. */
export const EmailDomainWhitelistInteraction: Story = {
  ...EmailDomainWhitelist,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('gmail.com')).toBeVisible();
    await userEvent.type(c.getByLabelText('添加允许的邮箱域名'), '{Enter}');
    await expect(args.onWhitelistAdd).toHaveBeenCalledTimes(1);
    await userEvent.click(c.getByRole('button', { name: '添加' }));
    await expect(args.onWhitelistAdd).toHaveBeenCalledTimes(2);
    await userEvent.click(c.getByRole('button', { name: '移除 qq.com' }));
    await expect(args.onWhitelistRemove).toHaveBeenCalledWith('qq.com');
  },
};

/** Theme: a choice among the server's themes. */
export const ThemeInteraction: Story = {
  ...Theme,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.selectOptions(c.getByRole('combobox', { name: '主题' }), 'berry');
    await expect(args.onChange).toHaveBeenCalledWith('Theme', 'berry');
  },
};
