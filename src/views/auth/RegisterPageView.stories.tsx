import type { Meta, StoryObj } from '@storybook/react-vite';
import { Box, Text } from '@chakra-ui/react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { RegisterPageView } from './RegisterPageView';
import { enterText } from '../app/stories/enterText';

const meta = {
  title: 'Auth/RegisterPageView',
  component: RegisterPageView,
  args: {
    emailVerification: false,
    submitting: false,
    registered: false,
    sendingCode: false,
    canSendCode: true,
    codeSecondsLeft: 0,
    onSubmit: fn(),
    onSendCode: fn(),
  },
} satisfies Meta<typeof RegisterPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Username and passwords only, with their length hints. */
export const Plain: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('最长 12 个字符')).toBeVisible();
    await expect(c.getByText('8 到 20 个字符')).toBeVisible();
    await expect(c.queryByLabelText(/邮箱地址/)).toBeNull();
    await expect(c.getByRole('button', { name: '注册' })).toBeEnabled();
    await expect(c.getByRole('link', { name: '点击登录' })).toHaveAttribute('href', '/login');
  },
};

/** The form hands over what was typed. */
export const PlainInteraction: Story = {
  tags: ['interaction'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByLabelText(/^用户名/), 'alice');
    await enterText(c.getByLabelText(/^密码/), 'secret123');
    await enterText(c.getByLabelText(/^确认密码/), 'secret123');
    await userEvent.click(c.getByRole('button', { name: '注册' }));
    await expect(args.onSubmit).toHaveBeenCalledWith({
      username: 'alice',
      password: 'secret123',
      password2: 'secret123',
      email: '',
      verification_code: '',
    });
    await expect(c.getByRole('link', { name: '点击登录' })).toHaveAttribute('href', '/login');
  },
};

/** With e-mail verification: e-mail, code and the enabled send-code button. */
export const WithEmailVerification: Story = {
  args: { emailVerification: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText(/^邮箱地址/)).toBeVisible();
    await expect(c.getByLabelText(/^验证码/)).toBeVisible();
    await expect(c.getByRole('button', { name: '获取验证码' })).toBeEnabled();
  },
};

/** The send-code button reads the e-mail field; the form hands over e-mail and code. */
export const WithEmailVerificationInteraction: Story = {
  tags: ['interaction'],
  args: { emailVerification: true },
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await enterText(c.getByLabelText(/^邮箱地址/), 'alice@example.com');
    await userEvent.click(c.getByRole('button', { name: '获取验证码' }));
    await expect(args.onSendCode).toHaveBeenCalledWith('alice@example.com');
    await expect(args.onSubmit).not.toHaveBeenCalled();
    await userEvent.type(c.getByLabelText(/^验证码/), 'a1b2c3');
    await userEvent.click(c.getByRole('button', { name: '注册' }));
    await expect(args.onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ email: 'alice@example.com', verification_code: 'a1b2c3' }),
    );
  },
};

export const SendingCode: Story = { args: { emailVerification: true, sendingCode: true, canSendCode: false } };

/** The code button counts down after a send. */
export const CodeCoolingDown: Story = {
  args: { emailVerification: true, canSendCode: false, codeSecondsLeft: 25 },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: '重新发送 (25)' });
    await expect(button).toBeDisabled();
    await expect(button).toHaveTextContent('重新发送 (25)');
  },
};

export const Submitting: Story = {
  args: { submitting: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: /注册/ })).toBeDisabled();
  },
};

export const Registered: Story = { args: { registered: true } };

/** The bot-check slot (here a placeholder box). */
export const WithBotCheck: Story = {
  args: {
    emailVerification: true,
    turnstile: (
      <Box borderWidth="1px" borderRadius="md" p={3} w="300px" maxW="full" h="65px">
        <Text fontSize="sm">Turnstile</Text>
      </Box>
    ),
  },
};

export const English: Story = { args: { emailVerification: true, codeSecondsLeft: 9, canSendCode: false }, parameters: { lang: 'en' } };

/** The narrowest supported screen. */
export const Narrow: Story = {
  args: { emailVerification: true, codeSecondsLeft: 30, canSendCode: false },
  render: (args) => (
    <Box w="360px" borderWidth="1px" data-testid="screen-360">
      <RegisterPageView {...args} />
    </Box>
  ),
  play: async ({ canvasElement }) => {
    const root = within(canvasElement).getByTestId('screen-360');
    // nothing sticks out of a 360 px screen
    await expect(root.scrollWidth).toBeLessThanOrEqual(360);
  },
};

/** An empty submit was refused: each field says what it needs (the machine's `fieldErrors`). */
export const EmptySubmitRefused: Story = {
  args: {
    fieldErrors: {
      username: { key: 'rules.username.required' },
      password: { key: 'rules.password.required' },
    },
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('用户名不能为空')).toBeVisible();
    await expect(c.getByText('密码不能为空')).toBeVisible();
    await expect(c.getByLabelText(/^用户名/)).toHaveFocus();
  },
};

/** Every field refused, with e-mail verification on, in English. */
export const FieldErrorsEnglish: Story = {
  args: {
    emailVerification: true,
    fieldErrors: {
      username: { key: 'rules.username.tooLong', params: { max: 12 } },
      password: { key: 'rules.password.length', params: { min: 8, max: 20 } },
      password2: { key: 'validation.register.passwordMismatch' },
      email: { key: 'rules.email.required' },
      verification_code: { key: 'rules.verificationCode.required' },
    },
  },
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('username must be at most 12 characters')).toBeVisible();
    await expect(c.getByText('verification code is required')).toBeVisible();
  },
};
