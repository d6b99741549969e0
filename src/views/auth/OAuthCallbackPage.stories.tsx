import type { Meta, StoryObj } from '@storybook/react-vite';
import type { AnyMachineSnapshot } from 'xstate';
import { createActor, fromPromise } from 'xstate';
import { Text } from '@chakra-ui/react';
import { expect, fn, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { User } from '../../domain/user';
import {
  oauthCallbackMachine,
  type OAuthCallbackContext,
  type ExchangeCodeInput,
  type OAuthOutcome,
  type OAuthProvider,
} from '../../machines/oauthCallback';
import { selectUser } from '../../machines/session/session.selectors';
import { EffectsProvider, MachineRegistryProvider, useMachineEffects } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { SessionStory, seedSession, storyUsers, stubSession } from '../app/stories/SessionStory';
import { OAuthCallbackPage } from './OAuthCallbackPage';

/*
 * The /oauth/github and /oauth/lark container (oauthCallback machine), one story per machine
 * state, seeded frozen; plus a live run whose exchange fails twice before it signs in.
 */

const never = <T,>() => new Promise<T>(() => undefined);

const notify = fn<(e: NotifyEvent) => void>();
const navigate = fn<(e: NavigateEvent) => void>();
const effects = { notify, navigate };

/** The exchange: scripted per story in `beforeEach`. */
const exchangeCode = fn<(input: ExchangeCodeInput) => Promise<OAuthOutcome>>();
/** Releases the scripted exchange that waits (the third, in the retry story). */
let release: (outcome: OAuthOutcome) => void = () => undefined;

const scripted = oauthCallbackMachine.provide({
  actors: { exchangeCode: fromPromise<OAuthOutcome, ExchangeCodeInput>(({ input }) => exchangeCode(input)) },
  // The real backoff is 2 s × attempt (the page still says so); 50 ms keeps the story short.
  delays: { retryBackoff: 50 },
});
const pending = oauthCallbackMachine.provide({
  actors: { exchangeCode: fromPromise<OAuthOutcome, ExchangeCodeInput>(() => never<OAuthOutcome>()) },
});

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

type State = 'exchanging' | 'retrying' | 'bound' | 'signedIn' | 'failed';
/** The session a seeded (frozen) page names: never started; the stories that sign in start live instead. */
const seededSession = createActor(stubSession(), { input: { user: null, status: null, buildVersion: 'v0.1.0' }, snapshot: seedSession({ auth: 'signedOut' }) });
const seed = (provider: OAuthProvider, value: State, over: Partial<OAuthCallbackContext> = {}): Record<string, AnyMachineSnapshot> => ({
  [oauthCallbackMachine.id]: oauthCallbackMachine.resolveState({
    value,
    context: { session: seededSession, provider, code: 'abc', state: 'xyz', attempt: 0, lastError: null, ...over },
  }),
});

function CallbackStory({
  provider,
  machine = pending,
  snapshots,
}: {
  readonly provider: OAuthProvider;
  readonly machine?: typeof oauthCallbackMachine;
  readonly snapshots?: Record<string, AnyMachineSnapshot>;
}) {
  return (
    <EffectsProvider value={effects}>
      <SessionStory session={session} snapshot={seedSession({ auth: 'signedOut' })}>
        <MachineRegistryProvider machines={[machine]} snapshots={snapshots}>
          <OAuthCallbackPage provider={provider} />
        </MachineRegistryProvider>
        <SessionProbe />
      </SessionStory>
    </EffectsProvider>
  );
}

const serverError = { text: 'GitHub 返回的 code 无效' };

const meta = {
  title: 'Auth/OAuthCallbackPage',
  component: OAuthCallbackPage,
  args: { provider: 'github' },
  parameters: { route: '/oauth/github?code=abc&state=xyz' },
  beforeEach: () => {
    notify.mockClear();
    navigate.mockClear();
    saveUser.mockClear();
    exchangeCode.mockReset();
  },
} satisfies Meta<typeof OAuthCallbackPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** State `exchanging` (GitHub): 'processing...' while the code is forwarded. */
export const Exchanging: Story = {
  render: (args) => <CallbackStory provider={args.provider} snapshots={seed(args.provider, 'exchanging')} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: 'GitHub 登录' })).toBeVisible();
    await expect(c.getByRole('status')).toHaveTextContent('处理中...');
    await expect(c.queryByText(/已失败/)).toBeNull();
  },
};

/** State `exchanging` for Lark. */
export const ExchangingLark: Story = {
  args: { provider: 'lark' },
  parameters: { route: '/oauth/lark?code=abc&state=xyz' },
  render: Exchanging.render,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '飞书登录' })).toBeVisible();
    await expect(c.getByRole('status')).toHaveTextContent('处理中...');
  },
};

/** State `retrying` after the first failure: the wait, the server's message and the counter. */
export const Retrying: Story = {
  render: (args) => (
    <CallbackStory provider={args.provider} snapshots={seed(args.provider, 'retrying', { attempt: 1, lastError: serverError })} />
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('出现错误，2 秒后进行第 1 次重试……')).toBeVisible();
    await expect(c.getByText(serverError.text)).toBeVisible();
    await expect(c.getByText('已失败 1 次（最多尝试 3 次）')).toBeVisible();
    await expect(c.getByText('处理中...')).toBeVisible();
  },
};

/** State `retrying` after the second failure (Lark): the wait has grown to 4 s. */
export const RetryingAgainLark: Story = {
  args: { provider: 'lark' },
  parameters: { route: '/oauth/lark?code=abc&state=xyz' },
  render: (args) => (
    <CallbackStory provider={args.provider} snapshots={seed(args.provider, 'retrying', { attempt: 2, lastError: serverError })} />
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('出现错误，4 秒后进行第 2 次重试……')).toBeVisible();
    await expect(c.getByText('已失败 2 次（最多尝试 3 次）')).toBeVisible();
  },
};

/** State `failed`: every attempt failed; the page gives up (the machine sends it to /login). */
export const Failed: Story = {
  render: (args) => (
    <CallbackStory provider={args.provider} snapshots={seed(args.provider, 'failed', { attempt: 3, lastError: serverError })} />
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('操作失败，正在返回登录页面……')).toBeVisible();
    await expect(c.getByText(serverError.text)).toBeVisible();
    await expect(c.getByText('已失败 3 次（最多尝试 3 次）')).toBeVisible();
    await expect(c.queryByText('处理中...')).toBeNull();
  },
};

/** State `bound`: the provider account was bound to the signed-in user. */
export const Bound: Story = {
  render: (args) => <CallbackStory provider={args.provider} snapshots={seed(args.provider, 'bound')} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('绑定成功！')).toBeVisible();
    await expect(c.queryByText('处理中...')).toBeNull();
  },
};

/** State `signedIn` (Lark): the user is logged in. */
export const SignedInLark: Story = {
  args: { provider: 'lark' },
  parameters: { route: '/oauth/lark?code=abc&state=xyz' },
  render: (args) => <CallbackStory provider={args.provider} snapshots={seed(args.provider, 'signedIn')} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '飞书登录' })).toBeVisible();
    await expect(c.getByText('登录成功！')).toBeVisible();
  },
};

/**
 * OAuth retry counter (live, 50 ms backoff): the exchange is refused twice, the counter shows
 * both failures, the third exchange signs the user in and the session takes the user and goes to /.
 */
export const RetryCounter: Story = {
  beforeEach: () => {
    const gate = new Promise<OAuthOutcome>((resolve) => {
      release = resolve;
    });
    exchangeCode
      .mockRejectedValueOnce(failure('exchangeOAuthCode', serverError.text))
      .mockRejectedValueOnce(failure('exchangeOAuthCode', serverError.text))
      .mockImplementationOnce(() => gate);
  },
  render: (args) => <CallbackStory provider={args.provider} machine={scripted} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    // Third try in flight: two failures counted.
    await waitFor(() => expect(exchangeCode).toHaveBeenCalledTimes(3));
    await expect(exchangeCode).toHaveBeenCalledWith({ provider: 'github', code: 'abc', state: 'xyz' });
    await expect(await c.findByText('已失败 2 次（最多尝试 3 次）')).toBeVisible();
    await expect(c.getByRole('status')).toHaveTextContent('处理中...');
    await expect(notify).toHaveBeenCalledTimes(2);
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: serverError });
    await expect(c.getByTestId('session-user')).toHaveTextContent('(signed out)');

    release({ bound: false, user: storyUsers.common });
    await expect(await c.findByText('登录成功！')).toBeVisible();
    await waitFor(() => expect(c.getByTestId('session-user')).toHaveTextContent(storyUsers.common.username));
    await expect(saveUser).toHaveBeenCalledWith(storyUsers.common);
    await expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/', replace: false });
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'signIn.loggedIn' } });
  },
};

/** A live run refused every time: the counter reaches the maximum and the page sends the person to /login. */
export const GivesUp: Story = {
  beforeEach: () => {
    exchangeCode.mockRejectedValue(failure('exchangeOAuthCode', serverError.text));
  },
  render: (args) => <CallbackStory provider={args.provider} machine={scripted} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByText('操作失败，正在返回登录页面……')).toBeVisible();
    await expect(c.getByText('已失败 3 次（最多尝试 3 次）')).toBeVisible();
    await expect(exchangeCode).toHaveBeenCalledTimes(3);
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { key: 'signIn.oauth.giveUp' } });
    await expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/login', replace: true });
    await expect(saveUser).not.toHaveBeenCalled();
  },
};

/** A live bind (message 'bind'): the account is bound and the page goes to /setting; no one signs in. */
export const BindsAccount: Story = {
  beforeEach: () => {
    exchangeCode.mockResolvedValue({ bound: true });
  },
  render: (args) => <CallbackStory provider={args.provider} machine={scripted} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByText('绑定成功！')).toBeVisible();
    await expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/setting', replace: true });
    await expect(c.getByTestId('session-user')).toHaveTextContent('(signed out)');
  },
};
