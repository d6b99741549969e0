import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { Status } from '../../domain/status';
import { passwordResetRequestMachine, type SendPasswordResetInput } from '../../machines/passwordResetRequest';
import { sendCooldownWith } from '../../machines/sendCooldown';
import { turnstileMachine } from '../../machines/turnstile';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { SessionStory, seedSession, storyStatus } from '../app/stories/SessionStory';
import { PasswordResetRequestPage } from './PasswordResetRequestPage';
import { enterText } from '../app/stories/enterText';

/*
 * The /reset container (route page + live passwordResetRequest machine): the journeys, as
 * interaction stories. The states themselves (sending, the countdown) are
 * PasswordResetRequestPageView's stories. The reset mail is a spy; the sender's `tick` is shortened.
 */

const never = <T,>() => new Promise<T>(() => undefined);

const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };

const sendPasswordReset = fn((_input: SendPasswordResetInput) => Promise.resolve());
const refused = fn(async (_input: SendPasswordResetInput) => {
  await Promise.resolve();
  throw failure('sendPasswordReset', '该邮箱地址未注册');
});

/** The mail sender with a 100 ms tick: the whole 30-step cooldown takes 3 s. */
const withSend = (send: (input: SendPasswordResetInput) => Promise<void>) =>
  passwordResetRequestMachine.provide({
    actors: {
      sendPasswordReset: sendCooldownWith(fromPromise<void, SendPasswordResetInput>(({ input }) => send(input))).provide({
        delays: { tick: 100 },
      }),
    },
  });
const answering = withSend(sendPasswordReset);
const failing = withSend(refused);
/** The bot check never loads its script (its token stays empty). */
const turnstile = turnstileMachine.provide({ actors: { loadTurnstile: fromPromise<void>(() => never<void>()) } });

const withBotCheck: Status = { ...storyStatus, turnstile_check: true, turnstile_site_key: '1x00000000000000000000AA' };

function ResetStory({
  status = storyStatus,
  machine = answering,
}: {
  readonly status?: Status;
  readonly machine?: typeof passwordResetRequestMachine;
}) {
  return (
    <EffectsProvider value={effects}>
      <SessionStory snapshot={seedSession({ status })}>
        <MachineRegistryProvider machines={[machine, turnstile]}>
          <PasswordResetRequestPage />
        </MachineRegistryProvider>
      </SessionStory>
    </EffectsProvider>
  );
}

/** The number on the counting-down button, or null when it is not counting down. */
const countdownOf = (button: HTMLElement): number | null => {
  const m = /^重试 \((\d+)\)$/.exec(button.textContent ?? '');
  return m === null ? null : Number(m[1]);
};

const meta = {
  title: 'Auth/PasswordResetRequestPage',
  component: PasswordResetRequestPage,
  parameters: { route: '/reset' },
  beforeEach: () => {
    notify.mockClear();
    sendPasswordReset.mockClear();
    refused.mockClear();
  },
} satisfies Meta<typeof PasswordResetRequestPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The e-mail field and the button; an empty (or blank) e-mail sends nothing. */
export const EmptyEmailInteraction: Story = {
  tags: ['interaction'],
  render: () => <ResetStory />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const submit = c.getByRole('button', { name: '提交' });
    await expect(submit).toBeEnabled();
    await expect(c.getByRole('link', { name: '返回登录' })).toHaveAttribute('href', '/login');
    await userEvent.click(submit);
    await userEvent.type(c.getByLabelText(/^邮箱地址/), '   ');
    await userEvent.click(submit);
    await expect(sendPasswordReset).not.toHaveBeenCalled();
    await expect(notify).not.toHaveBeenCalled();
    await expect(submit).toBeEnabled();
  },
};

/**
 * Cooldown countdown (live, 100 ms ticks): the mail is sent with the trimmed e-mail, the button
 * is disabled with a falling count, and after the countdown it can be pressed again.
 */
export const CooldownCountdownInteraction: Story = {
  tags: ['interaction'],
  render: () => <ResetStory />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await enterText(c.getByLabelText(/^邮箱地址/), ' alice@example.com ');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(sendPasswordReset).toHaveBeenCalledTimes(1));
    await expect(sendPasswordReset).toHaveBeenCalledWith({ email: 'alice@example.com', turnstile: '' });
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'account.reset.sent' } }),
    );

    const button = await c.findByRole('button', { name: /^重试 \(\d+\)$/ });
    await expect(button).toBeDisabled();
    const first = countdownOf(button);
    await expect(first).not.toBeNull();
    await expect(first).toBeLessThanOrEqual(30);
    await waitFor(() => expect(countdownOf(button)).toBeLessThan(first ?? 0));
    await expect(button).toBeDisabled();

    // Over: the button reads 'submit' again and sends again.
    await waitFor(() => expect(c.getByRole('button', { name: '提交' })).toBeEnabled(), { timeout: 5000 });
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(sendPasswordReset).toHaveBeenCalledTimes(2));
  },
};

/** A refused request: the server's message, and the button still counts down. */
export const SendRefusedInteraction: Story = {
  tags: ['interaction'],
  render: () => <ResetStory machine={failing} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await enterText(c.getByLabelText(/^邮箱地址/), 'nobody@example.com');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: '该邮箱地址未注册' } }),
    );
    await expect(await c.findByRole('button', { name: /^重试 \(\d+\)$/ })).toBeDisabled();
  },
};

/** Bot check on and no token yet: the request is held back with the English wait message. */
export const BotCheckPendingInteraction: Story = {
  tags: ['interaction'],
  render: () => <ResetStory status={withBotCheck} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('group', { name: '人机验证' })).toBeVisible();
    await enterText(c.getByLabelText(/^邮箱地址/), 'alice@example.com');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(notify).toHaveBeenCalledWith({
      type: 'notify',
      level: 'info',
      message: { key: 'validation.turnstile.waitEnglish' },
    });
    await expect(sendPasswordReset).not.toHaveBeenCalled();
  },
};
