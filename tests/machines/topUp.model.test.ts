import { describe, expect, it } from 'vitest';
import { assign, createActor, createMachine, fromPromise, initialTransition, transition, waitFor, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, networkError } from '../../src/domain/apiError';
import type { Status } from '../../src/domain/status';
import type { User } from '../../src/domain/user';
import { isMessageKey } from '../../src/i18n';
import {
  selectCode,
  selectIsBusy,
  selectIsLoading,
  selectIsOpeningLink,
  selectIsRedeeming,
  selectRemainingQuota,
  selectRemainingQuotaText,
  topUpMachine,
  topUpUrl,
  type RedeemCodeInput,
  type TopUpEmitted,
  type TopUpInput,
} from '../../src/machines/topUp';
import { sessionFactsOf, type SessionChanged } from '../../src/machines/sessionWatch';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, follows } from './support/replay';

type Snap = SnapshotFrom<typeof topUpMachine>;

const sparse: User = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1 };
const alice: User = { ...sparse, quota: 500000 };
const richer: User = { ...alice, quota: 600000 };
const link = 'https://pay.example.com/buy';
const status = { display_in_currency: true, quota_per_unit: 500000, top_up_link: '', turnstile_check: false } as Status;

/** A session stand-in: holds a user and a status, takes `session.userUpdated` and status reloads. */
const sessionLogic = createMachine({
  types: {} as {
    context: { user: User | null; status: Status | null; updates: User[] };
    input: { user: User | null; status: Status | null };
    events: { type: 'session.userUpdated'; user: User } | { type: 'status.loaded'; status: Status };
  },
  context: ({ input }) => ({ user: input.user, status: input.status, updates: [] }),
  on: {
    'session.userUpdated': { actions: assign({ user: ({ event }) => event.user, updates: ({ context, event }) => [...context.updates, event.user] }) },
    'status.loaded': { actions: assign({ status: ({ event }) => event.status }) },
  },
});
const fakeSession = (over: Partial<Status> = {}) => createActor(sessionLogic, { input: { user: sparse, status: { ...status, ...over } } }).start();
const session = fakeSession();
const input: TopUpInput = { session };
/** The session reports a (re)loaded status: the link configured, or taken away. */
const statusReport = (topUpLink: string): SessionChanged => ({
  type: 'session.changed',
  facts: sessionFactsOf({ user: sparse, status: { ...status, top_up_link: topUpLink } }),
  changed: ['topUpLink'],
});
const linkSet = statusReport(link);
const linkGone = statusReport('');
const uuid = '3b241101-e2bb-4255-8caf-4136c566a962';

const fixtures: EventFixtures<typeof topUpMachine> = {
  'code.change': [
    { type: 'code.change', code: '' },
    { type: 'code.change', code: ' 0f1e2d3c4b5a69788796a5b4c3d2e1f0 ' },
  ],
  'redeem.submit': [{ type: 'redeem.submit' }],
  'link.open': [{ type: 'link.open' }],
  'account.reload': [{ type: 'account.reload' }],
  'session.changed': [linkSet, linkGone],
};
const loaded = doneActor('loadSelf', alice);
const loadFailed = errorActor('loadSelf', failure('GET /api/user/self', '无权进行此操作，用户已被封禁'));
const redeemed = doneActor('redeemCode', 100000);
const refused = errorActor('redeemCode', failure('POST /api/user/topup', '兑换失败，该兑换码已被使用'));
const unreachable = errorActor('redeemCode', networkError('POST /api/user/topup', 'Failed to fetch'));
const idMade = doneActor('createTransactionId', uuid);
const idFailed = errorActor('createTransactionId', new Error('no random source'));
const internal = [loaded, loadFailed, redeemed, refused, unreachable, idMade, idFailed];
const model = { fixtures, internal, input };

const realShortest = () => shortestPaths(topUpMachine, model).filter(isRealistic);

function journey(events: readonly AnyEventObject[]): { s: Snap; emitted: TopUpEmitted[]; opened: string[]; sent: { to: unknown; event: unknown }[] } {
  let [s] = initialTransition(topUpMachine, input);
  const emitted: TopUpEmitted[] = [];
  const opened: string[] = [];
  const sent: { to: unknown; event: unknown }[] = [];
  for (const e of events) {
    const [next, actions] = transition(topUpMachine, s, e as never);
    for (const a of actions) {
      if ((a.type as string) === 'xstate.emit') emitted.push(((a as { params?: unknown }).params as { event: TopUpEmitted }).event);
      if (a.type === 'openWindow') opened.push((a.params as { url: string }).url);
      if ((a.type as string) === 'xstate.sendTo') sent.push(((a as { params?: unknown }).params as { to: unknown; event: unknown }));
    }
    s = next;
  }
  return { s, emitted, opened, sent: sent.map(({ to, event }) => ({ to, event })) };
}
const code = fixtures['code.change'][1]!;
const submit = { type: 'redeem.submit' };

describe('topUp model', () => {
  it('reaches every state', () => {
    expect(unreachedStates(topUpMachine, realShortest())).toEqual([]);
  });

  it('keeps its invariants on every simple path', () => {
    // the session's reports only change what the page shows (covered by the journeys): left out here to keep the paths few
    const paths = simplePaths(topUpMachine, { ...model, fixtures: { ...fixtures, 'session.changed': [] }, limit: 3000 }).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        // the session is followed for as long as the page lives
        expect(s.children.followSession).toBeDefined();
        expect(s.context.session).toBe(session);
        const children = Object.keys(s.children).filter((id) => id !== 'followSession');
        expect(children.length).toBeLessThanOrEqual(1);
        if (s.matches('loading') || s.matches('refreshing')) expect(children).toEqual(['loadSelf']);
        if (s.matches('redeeming')) expect(children).toEqual(['redeemCode']);
        if (s.matches('openingLink')) expect(children).toEqual(['createTransactionId']);
        if (s.matches('ready')) expect(children).toEqual([]);
        expect(selectIsBusy(s)).toBe(s.matches('loading') || s.matches('redeeming') || s.matches('refreshing'));
        expect(selectIsLoading(s)).toBe(s.matches('loading'));
        expect(selectIsRedeeming(s)).toBe(s.matches('redeeming') || s.matches('refreshing'));
        expect(selectIsOpeningLink(s)).toBe(s.matches('openingLink'));
        // a link is only held while it is being opened, and never an empty one
        expect(s.context.pendingLink !== '').toBe(s.matches('openingLink'));
        // a redemption never runs with an empty code
        if (s.matches('redeeming')) expect(selectCode(s).trim()).not.toBe('');
        expect(s.status).toBe('active');
      }
    }
  });

  describe('pinned journeys', () => {
    it('redeem: says how much was added in the currency display, empties the code, refreshes the quota, tells the session', () => {
      const { s, emitted, sent } = journey([loaded, code, submit, redeemed, doneActor('loadSelf', richer)]);
      expect(s.value).toBe('ready');
      expect(selectCode(s)).toBe('');
      expect(selectRemainingQuota(s)).toBe(600000);
      expect(selectRemainingQuotaText(s)).toBe('$1.20');
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'topUp.redeemed', params: { quota: '$0.20' } } }]);
      expect(sent).toEqual([{ to: session, event: { type: 'session.userUpdated', user: richer } }]);
    });
    it('starts from the session: its user, link and quota display', () => {
      const [s] = initialTransition(topUpMachine, { session: fakeSession({ top_up_link: link, display_in_currency: false }) });
      expect(s.context.user).toEqual(sparse);
      expect(s.context.topUpLink).toBe(link);
      expect(s.context.quotaDisplay).toEqual({ displayInCurrency: false, quotaPerUnit: 500000 });
    });
    it('a status reload changes the quota display the page shows (no stale value from the mount)', () => {
      const raw = { ...statusReport(''), facts: { ...statusReport('').facts, quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 } }, changed: ['quotaDisplay'] } as SessionChanged;
      const { s } = journey([loaded, raw]);
      expect(selectRemainingQuotaText(s)).toBe('500.0k');
    });
    it('a user update from elsewhere (another tab) replaces the account shown', () => {
      const { s } = journey([loaded, { type: 'session.changed', facts: sessionFactsOf({ user: richer, status }), changed: ['user'] }]);
      expect(selectRemainingQuota(s)).toBe(600000);
    });
    it('an empty code says "please enter a top-up code!" and sends nothing', () => {
      const { s, emitted } = journey([loaded, submit]);
      expect(s.value).toBe('ready');
      expect(emitted).toEqual([{ type: 'notify', level: 'info', message: { key: 'validation.topUp.codeRequired' } }]);
    });
    it("a refused code shows the server's message and keeps the code", () => {
      const { s, emitted } = journey([loaded, code, submit, refused]);
      expect(s.value).toBe('ready');
      expect(selectCode(s)).toBe(code.code);
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { text: '兑换失败，该兑换码已被使用' } }]);
    });
    it("a call that does not reach the server says 'Request failed'", () => {
      expect(journey([loaded, code, submit, unreachable]).emitted).toEqual([
        { type: 'notify', level: 'error', message: { key: 'topUp.requestFailed' } },
      ]);
    });
    it('no link configured: the super administrator message, nothing opens', () => {
      const { s, emitted, opened } = journey([loaded, linkGone, fixtures['link.open'][0]!]);
      expect(s.value).toBe('ready');
      expect(opened).toEqual([]);
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { key: 'validation.topUp.noLink' } }]);
    });
    it('the link opens with username, user_id and the generated transaction id', () => {
      const { s, opened } = journey([loaded, linkSet, fixtures['link.open'][0]!, idMade]);
      expect(s.value).toBe('ready');
      expect(opened).toEqual([`${link}?username=alice&user_id=2&transaction_id=${uuid}`]);
    });
    it('a failed account load still lets the person redeem', () => {
      const { s } = journey([loadFailed, code, submit]);
      expect(s.value).toBe('redeeming');
    });
  });

  it('builds the top-up URL onto links with or without a query', () => {
    expect(topUpUrl('https://p.example/?a=1', { id: 7, username: 'b c' }, 'x')).toBe('https://p.example/?a=1&username=b+c&user_id=7&transaction_id=x');
    expect(topUpUrl('https://p.example/?', { id: 7, username: 'b' }, 'x')).toBe('https://p.example/?username=b&user_id=7&transaction_id=x');
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      const load = controlled<User, unknown>();
      const redeem = controlled<number, RedeemCodeInput>();
      const makeId = controlled<string, unknown>();
      const opened: string[] = [];
      const machine = topUpMachine.provide({ actions: { openWindow: (_, { url }) => void opened.push(url) } });
      const stubs = { loadSelf: load, redeemCode: redeem, createTransactionId: makeId };
      return { ...(await replayOn({ machine, input, stubs }, events, check)), opened, redeem };
    }

    it.each(realShortest().filter((p) => p.steps.length > 1).map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      await replay(
        p.steps.map((s) => s.event),
        follows(p),
      );
    });

    it('redeems the trimmed code, opens the link, and every key it emits is in the catalogue', async () => {
      const { emitted, opened, redeem } = await replay([loaded, code, submit, redeemed, doneActor('loadSelf', richer), linkSet, fixtures['link.open'][0]!, idMade]);
      expect(redeem.calls).toEqual([{ key: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' }]);
      expect(opened).toEqual([`${link}?username=alice&user_id=2&transaction_id=${uuid}`]);
      for (const e of emitted) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
      const { emitted: more } = await replay([loaded, submit, fixtures['link.open'][0]!, code, submit, unreachable]);
      expect(more).toContainEqual({ type: 'notify', level: 'error', message: { key: 'validation.topUp.noLink' } });
      for (const e of more) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });
});

describe('topUp with a live session', () => {
  const never = () => new Promise<never>(() => undefined);
  it('a redemption hands the refreshed account to the session; a status reload with a link reaches the page', async () => {
    const live = fakeSession();
    let quota = 500000;
    const machine = topUpMachine.provide({
      actors: {
        loadSelf: fromPromise<User>(() => Promise.resolve({ ...alice, quota })),
        redeemCode: fromPromise<number, RedeemCodeInput>(() => {
          quota += 100000;
          return Promise.resolve(100000);
        }),
        createTransactionId: fromPromise<string>(never),
      },
      actions: { openWindow: () => undefined },
    });
    const page = createActor(machine, { input: { session: live } }).start();
    await waitFor(page, (s) => s.matches('ready'));
    page.send(code);
    page.send({ type: 'redeem.submit' });
    await waitFor(live, (s) => s.context.updates.length === 1);
    expect(live.getSnapshot().context.user).toEqual(richer);
    await waitFor(page, (s) => s.matches('ready'));
    expect(selectRemainingQuota(page.getSnapshot())).toBe(600000);
    expect(page.getSnapshot().context.topUpLink).toBe('');
    live.send({ type: 'status.loaded', status: { ...status, top_up_link: link } });
    await waitFor(page, (s) => s.context.topUpLink === link);
    page.stop();
    live.stop();
  });
});
