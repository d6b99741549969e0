import type { Meta, StoryObj } from '@storybook/react-vite';
import type { AnyMachineSnapshot } from 'xstate';
import { createActor, fromPromise } from 'xstate';
import { Text } from '@chakra-ui/react';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { Message, NavigateEvent, NotifyEvent } from '../../domain/message';
import type { ExternalSignIn } from '../../domain/twoFactor';
import type { User } from '../../domain/user';
import { selectUser } from '../../machines/session/session.selectors';
import { wechatLoginMachine } from '../../machines/wechatLogin';
import { EffectsProvider, MachineRegistryProvider, useMachineEffects } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { SessionStory, seedSession, storyUsers, stubSession } from '../app/stories/SessionStory';
import { WeChatLoginDialog } from './WeChatLoginDialog';

/*
 * The login page's WeChat code dialog (wechatLogin machine): journeys from a seeded state, as
 * interaction stories (the states themselves, submitting, a refused code, no QR code, English,
 * are WeChatLoginDialogView's stories); the code
 * check is a spy that never answers, answers a user, or refuses.
 */

const never = <T,>() => new Promise<T>(() => undefined);

/** A stand-in QR image (inline, no network). */
const qrCode =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 8 8"><rect width="8" height="8" fill="#fff"/><path d="M1 1h2v2H1zM5 1h2v2H5zM1 5h2v2H1zM4 4h1v1H4zM6 5h1v2H6z" fill="#111"/></svg>',
  );

const notify = fn<(e: NotifyEvent) => void>();
const navigate = fn<(e: NavigateEvent) => void>();
const effects = { notify, navigate };

const pendingLogin = fn((_code: string) => never<ExternalSignIn>());
const answeringLogin = fn((_code: string): Promise<ExternalSignIn> => Promise.resolve({ bound: false, user: storyUsers.common }));
const refusingLogin = fn(async (_code: string): Promise<ExternalSignIn> => {
  await Promise.resolve();
  throw failure('loginWithWeChat', '验证码错误或已过期');
});
const withLogin = (login: (code: string) => Promise<ExternalSignIn>) =>
  wechatLoginMachine.provide({ actors: { loginWithWeChat: fromPromise<ExternalSignIn, string>(({ input }) => login(input)) } });
const pending = withLogin(pendingLogin);
const answering = withLogin(answeringLogin);
const refusing = withLogin(refusingLogin);
const secondStepLogin = fn((_code: string): Promise<ExternalSignIn> => Promise.resolve({ bound: false, secondFactor: true }));
const askingSecondStep = withLogin(secondStepLogin);

/**
 * The app session. Its storage actor does not run from a seeded snapshot, so `saveUser` is
 * replaced by a spy (the signed-in user the session would store).
 */
const saveUser = fn<(user: User | null) => void>();
const session = stubSession().provide({ actions: { saveUser: (_, params: { user: User | null }) => saveUser(params.user) } });

/** Shows the session's user, and routes the session's navigation to the story's spies. */
function SessionProbe() {
  const actorRef = SessionContext.useActorRef();
  useMachineEffects(actorRef);
  const user = SessionContext.useSelector(selectUser);
  return (
    <Text mt={2} fontSize="sm" data-testid="session-user">
      {user === null ? '(signed out)' : user.username}
    </Text>
  );
}

/** The session a seeded (frozen) dialog names: never started; a story that signs in starts live instead. */
const seededSession = createActor(stubSession(), { input: { user: null, status: null, buildVersion: 'v0.1.0' }, snapshot: seedSession({ auth: 'signedOut' }) });
const seed = (value: 'closed' | 'open' | 'submitting', context: { code: string; error: Message | null } = { code: '', error: null }) => ({
  [wechatLoginMachine.id]: wechatLoginMachine.resolveState({ value, context: { session: seededSession, ...context } }),
});

function DialogStory({
  qrCodeUrl,
  machine = pending,
  snapshots,
}: {
  readonly qrCodeUrl: string;
  readonly machine?: typeof wechatLoginMachine;
  readonly snapshots?: Record<string, AnyMachineSnapshot>;
}) {
  return (
    <EffectsProvider value={effects}>
      <SessionStory session={session} snapshot={seedSession({ auth: 'signedOut' })}>
        <MachineRegistryProvider machines={[machine]} snapshots={snapshots}>
          <WeChatLoginDialog qrCodeUrl={qrCodeUrl} />
        </MachineRegistryProvider>
        <SessionProbe />
      </SessionStory>
    </EffectsProvider>
  );
}

const dialog = async () => within(await screen.findByRole('dialog'));

const meta = {
  title: 'Auth/WeChatLoginDialog',
  component: WeChatLoginDialog,
  args: { qrCodeUrl: qrCode },
  beforeEach: () => {
    notify.mockClear();
    navigate.mockClear();
    saveUser.mockClear();
    pendingLogin.mockClear();
    answeringLogin.mockClear();
    refusingLogin.mockClear();
  },
} satisfies Meta<typeof WeChatLoginDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * From `closed`: the button opens the dialog; an empty (or blank) code sends nothing; a code
 * is checked once (the check never answers here, so the dialog stays busy).
 */
export const ClosedInteraction: Story = {
  tags: ['interaction'],
  render: (args) => <DialogStory {...args} snapshots={seed('closed')} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(c.getByRole('button', { name: '使用微信验证码登录' }));
    const d = await dialog();
    await waitFor(() => expect(d.getByRole('img', { name: '微信公众号二维码' })).toBeVisible());

    const submit = d.getByRole('button', { name: '登录' });
    await userEvent.click(submit);
    await userEvent.type(d.getByLabelText('验证码'), '   ');
    await userEvent.click(submit);
    await expect(pendingLogin).not.toHaveBeenCalled();
    await expect(submit).toBeEnabled();

    await userEvent.clear(d.getByLabelText('验证码'));
    await userEvent.type(d.getByLabelText('验证码'), ' 654321 ');
    await userEvent.click(submit);
    await waitFor(() => expect(pendingLogin).toHaveBeenCalledTimes(1));
    await expect(pendingLogin).toHaveBeenCalledWith('654321');
    await waitFor(() => expect(d.getByRole('button', { name: '登录' })).toBeDisabled());
  },
};

/** From `open`: the QR code, the code input; closing goes back to `closed`. */
export const OpenInteraction: Story = {
  tags: ['interaction'],
  render: (args) => <DialogStory {...args} snapshots={seed('open')} />,
  play: async () => {
    const d = await dialog();
    await waitFor(() => expect(d.getByRole('img', { name: '微信公众号二维码' })).toBeVisible());
    await expect(d.getByLabelText('验证码')).toBeVisible();
    await userEvent.click(d.getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  },
};

/** A live login: the code is accepted, the dialog closes, the session signs the user in and goes to /. */
export const SignsInInteraction: Story = {
  tags: ['interaction'],
  render: (args) => <DialogStory {...args} machine={answering} />,
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '使用微信验证码登录' }));
    const d = await dialog();
    await userEvent.type(d.getByLabelText('验证码'), '654321');
    await userEvent.click(d.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await expect(answeringLogin).toHaveBeenCalledTimes(1);
    await expect(within(canvasElement).getByTestId('session-user')).toHaveTextContent(storyUsers.common.username);
    await expect(saveUser).toHaveBeenCalledWith(storyUsers.common);
    await expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/', replace: false });
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'signIn.loggedIn' } });
  },
};

/** A live login of a user with two-factor sign-in on: the dialog closes, nobody is signed in yet, the session asks for the code on /login. */
export const SecondStepInteraction: Story = {
  tags: ['interaction'],
  render: (args) => <DialogStory {...args} machine={askingSecondStep} />,
  play: async ({ canvasElement }) => {
    navigate.mockClear();
    notify.mockClear();
    saveUser.mockClear();
    await userEvent.click(within(canvasElement).getByRole('button', { name: '使用微信验证码登录' }));
    const d = await dialog();
    await userEvent.type(d.getByLabelText('验证码'), '654321');
    await userEvent.click(d.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await expect(secondStepLogin).toHaveBeenCalledTimes(1);
    await expect(within(canvasElement).getByTestId('session-user')).toHaveTextContent('(signed out)');
    await expect(saveUser).not.toHaveBeenCalled();
    await expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/login', replace: true });
    await expect(notify).not.toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'signIn.loggedIn' } });
  },
};

/** A live refusal: the server's message shows and the dialog stays open for another code. */
export const CodeRefusedInteraction: Story = {
  tags: ['interaction'],
  render: (args) => <DialogStory {...args} machine={refusing} snapshots={seed('open')} />,
  play: async ({ canvasElement }) => {
    const d = await dialog();
    await userEvent.type(d.getByLabelText('验证码'), '000000');
    await userEvent.click(d.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(d.getByText('验证码错误或已过期')).toBeVisible());
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: '验证码错误或已过期' } });
    await expect(d.getByRole('button', { name: '登录' })).toBeEnabled();
    await expect(within(canvasElement).getByTestId('session-user')).toHaveTextContent('(signed out)');
  },
};
