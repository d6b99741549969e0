import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { Status } from '../../domain/status';
import { registerMachine, type RegisterUserInput, type RememberAffCodeInput, type SendVerificationCodeInput } from '../../machines/register';
import { sendCooldownWith } from '../../machines/sendCooldown';
import { turnstileMachine } from '../../machines/turnstile';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { SessionStory, seedSession, storyStatus } from '../app/stories/SessionStory';
import { RegisterPage } from './RegisterPage';
import { enterText } from '../app/stories/enterText';

/*
 * The /register container (route page + live register machine): the journeys, as interaction
 * stories. The states themselves (sending a code, its countdown, submitting, registered, the
 * server's flags) are RegisterPageView's stories. Server calls are spies that answer at once.
 */

const notify = fn<(e: NotifyEvent) => void>();
const navigate = fn<(e: NavigateEvent) => void>();
const effects = { notify, navigate };

const registerUser = fn((_input: RegisterUserInput) => Promise.resolve());
const sendVerificationCode = fn((_input: SendVerificationCodeInput) => Promise.resolve());
/** Stands in for localStorage 'aff': a link's code is kept, a link without one recalls 'Zz9q'. */
const rememberAffCode = fn(({ affCode }: RememberAffCodeInput) => Promise.resolve(affCode !== '' ? affCode : 'Zz9q'));

/** The register machine with answering spies. */
const answering = registerMachine.provide({
  actors: {
    registerUser: fromPromise<void, RegisterUserInput>(({ input }) => registerUser(input)),
    sendVerificationCode: sendCooldownWith(fromPromise<void, SendVerificationCodeInput>(({ input }) => sendVerificationCode(input))),
    rememberAffCode: fromPromise<string, RememberAffCodeInput>(({ input }) => rememberAffCode(input)),
  },
});
const never = <T,>() => new Promise<T>(() => undefined);

/** The bot check never loads its script (its token stays empty). */
const turnstile = turnstileMachine.provide({ actors: { loadTurnstile: fromPromise<void>(() => never<void>()) } });

const withEmail: Status = { ...storyStatus, email_verification: true };
const withBotCheck: Status = { ...storyStatus, turnstile_check: true, turnstile_site_key: '1x00000000000000000000AA' };

function RegisterStory({
  status = storyStatus,
}: {
  readonly status?: Status;
}) {
  return (
    <EffectsProvider value={effects}>
      <SessionStory snapshot={seedSession({ status })}>
        <MachineRegistryProvider machines={[answering, turnstile]}>
          <RegisterPage />
        </MachineRegistryProvider>
      </SessionStory>
    </EffectsProvider>
  );
}

const clearSpies = () => {
  notify.mockClear();
  navigate.mockClear();
  registerUser.mockClear();
  sendVerificationCode.mockClear();
  rememberAffCode.mockClear();
};

const fill = async (canvas: HTMLElement, values: { username: string; password: string; password2: string }) => {
  const c = within(canvas);
  const username = c.getByLabelText(/^用户名/);
  const password = c.getByLabelText(/^密码/);
  const password2 = c.getByLabelText(/^确认密码/);
  await userEvent.clear(username);
  await userEvent.clear(password);
  await userEvent.clear(password2);
  if (values.username !== '') await enterText(username, values.username);
  if (values.password !== '') await enterText(password, values.password);
  if (values.password2 !== '') await enterText(password2, values.password2);
};

const meta = {
  title: 'Auth/RegisterPage',
  component: RegisterPage,
  parameters: { route: '/register' },
  // Before render: a live machine calls `rememberAffCode` as it starts.
  beforeEach: clearSpies,
} satisfies Meta<typeof RegisterPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * E-mail verification off: no e-mail or code fields. Each field's rule is checked before anything
 * is sent: an empty submit says, under each field, that username and password are required and
 * focuses the username; a short password, a differing repeat and a username over 12 characters are
 * said at their fields. No toast, nothing sent.
 */
export const EmailVerificationOffInteraction: Story = {
  tags: ['interaction'],
  render: () => <RegisterStory />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.queryByLabelText(/^邮箱地址/)).toBeNull();
    await expect(c.queryByLabelText(/^验证码/)).toBeNull();
    await expect(c.queryByRole('button', { name: '获取验证码' })).toBeNull();
    const submit = c.getByRole('button', { name: '注册' });

    await userEvent.click(submit);
    await expect(await c.findByText('用户名不能为空')).toBeVisible();
    await expect(c.getByText('密码不能为空')).toBeVisible();
    await waitFor(() => expect(c.getByLabelText(/^用户名/)).toHaveFocus());
    await expect(c.getByLabelText(/^用户名/)).toHaveAttribute('aria-invalid', 'true');

    await fill(canvasElement, { username: 'alice', password: 'short1', password2: 'short1' });
    await expect(c.queryByText('用户名不能为空')).toBeNull();
    await userEvent.click(submit);
    await expect(await c.findByText('密码长度必须在 8 到 20 个字符之间')).toBeVisible();
    await waitFor(() => expect(c.getByLabelText(/^密码/)).toHaveFocus());

    await fill(canvasElement, { username: 'alice', password: 'secret123', password2: 'secret124' });
    await userEvent.click(submit);
    await expect(await c.findByText('两次输入的密码不一致')).toBeVisible();

    // the lengths the server enforces: the message names the field and the rule
    await fill(canvasElement, { username: 'u'.repeat(13), password: 'secret123', password2: 'secret123' });
    await userEvent.click(submit);
    await expect(await c.findByText('用户名长度不能超过 12 个字符')).toBeVisible();

    await expect(notify).not.toHaveBeenCalled();
    await expect(registerUser).not.toHaveBeenCalled();
    await expect(submit).toBeEnabled();
  },
};

/** E-mail verification on: e-mail and code fields and the send-code button; an empty e-mail sends nothing. */
export const EmailVerificationOnInteraction: Story = {
  tags: ['interaction'],
  render: () => <RegisterStory status={withEmail} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText(/^邮箱地址/)).toBeVisible();
    await expect(c.getByLabelText(/^验证码/)).toBeVisible();
    const send = c.getByRole('button', { name: '获取验证码' });
    await expect(send).toBeEnabled();

    await userEvent.click(send);
    await userEvent.type(c.getByLabelText(/^邮箱地址/), '   ');
    await userEvent.click(send);
    await expect(sendVerificationCode).not.toHaveBeenCalled();
    await expect(notify).not.toHaveBeenCalled();
    await expect(send).toBeEnabled();

    // a submit without e-mail or code names both fields
    await fill(canvasElement, { username: 'alice', password: 'secret123', password2: 'secret123' });
    await userEvent.click(c.getByRole('button', { name: '注册' }));
    await expect(await c.findByText('邮箱地址不能为空')).toBeVisible();
    await expect(c.getByText('验证码不能为空')).toBeVisible();
    await waitFor(() => expect(c.getByLabelText(/^邮箱地址/)).toHaveFocus());
    await expect(registerUser).not.toHaveBeenCalled();
  },
};

/** A live send: the code goes out with the trimmed e-mail, and the button starts counting down. */
export const SendsCodeInteraction: Story = {
  tags: ['interaction'],
  render: () => <RegisterStory status={withEmail} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await enterText(c.getByLabelText(/^邮箱地址/), ' alice@example.com ');
    await userEvent.click(c.getByRole('button', { name: '获取验证码' }));
    await waitFor(() => expect(sendVerificationCode).toHaveBeenCalledTimes(1));
    await expect(sendVerificationCode).toHaveBeenCalledWith({ email: 'alice@example.com', turnstile: '' });
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'account.register.codeSent' } }),
    );
    await expect(await c.findByRole('button', { name: /^重新发送 \(\d+\)$/ })).toBeDisabled();
  },
};

/** Bot check on and no token yet: a valid form is held back with the Turnstile wait message. */
export const BotCheckPendingInteraction: Story = {
  tags: ['interaction'],
  render: () => <RegisterStory status={withBotCheck} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('group', { name: '人机验证' })).toBeVisible();
    await fill(canvasElement, { username: 'alice', password: 'secret123', password2: 'secret123' });
    await userEvent.click(c.getByRole('button', { name: '注册' }));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'info', message: { key: 'validation.turnstile.wait' } });
    await expect(registerUser).not.toHaveBeenCalled();
  },
};

/**
 * A live run from `/register?aff=Ab3x`: the inviter code is remembered and sent as `aff_code`;
 * success says so and goes to /login.
 */
export const InviteLinkInteraction: Story = {
  tags: ['interaction'],
  parameters: { route: '/register?aff=Ab3x' },
  render: () => <RegisterStory />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(rememberAffCode).toHaveBeenCalledWith({ affCode: 'Ab3x' }));
    await fill(canvasElement, { username: 'alice', password: 'secret123', password2: 'secret123' });
    await userEvent.click(c.getByRole('button', { name: '注册' }));
    await waitFor(() => expect(registerUser).toHaveBeenCalledTimes(1));
    await expect(registerUser).toHaveBeenCalledWith({
      payload: {
        username: 'alice',
        password: 'secret123',
        password2: 'secret123',
        email: '',
        verification_code: '',
        aff_code: 'Ab3x',
      },
      turnstile: '',
    });
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'account.register.success' } }),
    );
    await expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/login', replace: false });
    await waitFor(() => expect(c.getByRole('button', { name: '注册' })).toBeDisabled());
  },
};

/** A live run without `?aff=`: the code remembered from an earlier invite link is sent. */
export const RememberedInviteCodeInteraction: Story = {
  tags: ['interaction'],
  render: () => <RegisterStory />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(rememberAffCode).toHaveBeenCalledWith({ affCode: '' }));
    await fill(canvasElement, { username: 'bob', password: 'secret123', password2: 'secret123' });
    await userEvent.click(c.getByRole('button', { name: '注册' }));
    await waitFor(() => expect(registerUser).toHaveBeenCalledTimes(1));
    await expect(registerUser).toHaveBeenCalledWith({
      payload: { username: 'bob', password: 'secret123', password2: 'secret123', email: '', verification_code: '', aff_code: 'Zz9q' },
      turnstile: '',
    });
  },
};
