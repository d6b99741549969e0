import type { Meta, StoryObj } from '@storybook/react-vite';
import { Box } from '@chakra-ui/react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { LoginPageView } from './LoginPageView';
import { OAuthButtonsView } from './OAuthButtonsView';
import { WeChatLoginDialogView } from './WeChatLoginDialogView';

const meta = {
  title: 'Auth/LoginPageView',
  component: LoginPageView,
  args: { expired: false, signingIn: false, onSubmit: fn() },
} satisfies Meta<typeof LoginPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

const alternate = (
  <OAuthButtonsView github lark launching={null} onLaunch={fn()}>
    <WeChatLoginDialogView
      open={false}
      submitting={false}
      error={null}
      qrCodeUrl=""
      onOpen={fn()}
      onClose={fn()}
      onSubmit={fn()}
    />
  </OAuthButtonsView>
);

export const Empty: Story = {
};
export const Expired: Story = {
  args: { expired: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('未登录或登录已过期，请重新登录！')).toBeVisible();
  },
};
export const SigningIn: Story = { args: { signingIn: true } };
export const WithAlternateLogins: Story = { args: { alternate } };
export const Narrow: Story = {
  args: { alternate, expired: true },
  decorators: [
    (Story) => (
      <Box maxW="360px" borderWidth="1px">
        <Story />
      </Box>
    ),
  ],
};
export const English: Story = { args: { alternate }, parameters: { lang: 'en' } };

/** PasswordLoginEnabled off: no username/password form, a short note, the alternate logins stay. */
export const PasswordLoginDisabled: Story = {
  args: { alternate, offer: 'alternateOnly' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('管理员已关闭密码登录，请使用下方的其他登录方式。')).toBeVisible();
    await expect(c.queryByLabelText('密码')).toBeNull();
    await expect(c.queryByRole('button', { name: '登录' })).toBeNull();
    await expect(c.getByRole('button', { name: '使用 GitHub 登录' })).toBeVisible();
  },
};

/** PasswordLoginEnabled off and no alternate login enabled: no form, no empty "below", a message to contact the administrator. */
export const NoLoginMethod: Story = {
  args: { offer: 'none' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('alert')).toHaveTextContent('管理员已关闭密码登录，且未启用其他登录方式，请联系管理员。');
    await expect(c.queryByText(/请使用下方的其他登录方式/)).toBeNull();
    await expect(c.queryByText('其他登录方式')).toBeNull();
    await expect(c.queryByLabelText('密码')).toBeNull();
  },
};

/** The same in English. */
export const NoLoginMethodEnglish: Story = {
  args: { offer: 'none' },
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('alert')).toHaveTextContent(
      'The administrator has turned password login off and no other sign-in method is enabled; please contact the administrator.',
    );
  },
};

/** Dark mode: the a11y check covers its contrast. */
export const Dark: Story = {
  args: { expired: true },
  parameters: { colorMode: 'dark' },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

export const EmptyInteraction: Story = {
  ...Empty,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByLabelText('用户名或邮箱'), 'root');
    await userEvent.type(c.getByLabelText('密码'), '123456');
    await userEvent.click(c.getByRole('button', { name: '登录' }));
    await expect(args.onSubmit).toHaveBeenCalledWith({ username: 'root', password: '123456' });
    await expect(c.getByRole('link', { name: '点击重置' })).toHaveAttribute('href', '/reset');
    await expect(c.getByRole('link', { name: '点击注册' })).toHaveAttribute('href', '/register');
  },
};
