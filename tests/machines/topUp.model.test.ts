import { describe, expect, it } from 'vitest';
import { initialTransition, transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, networkError } from '../../src/domain/apiError';
import type { User } from '../../src/domain/user';
import { isMessageKey } from '../../src/i18n';
import {
  selectCode,
  selectIsBusy,
  selectIsLoading,
  selectIsOpeningLink,
  selectIsRedeeming,
  selectRemainingQuota,
  topUpMachine,
  topUpUrl,
  type RedeemCodeInput,
  type TopUpEmitted,
  type TopUpInput,
} from '../../src/machines/topUp';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, follows } from './support/replay';

type Snap = SnapshotFrom<typeof topUpMachine>;

const sparse: User = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1 };
const alice: User = { ...sparse, quota: 500000 };
const richer: User = { ...alice, quota: 600000 };
const input: TopUpInput = { user: sparse, quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 } };
const link = 'https://pay.example.com/buy';
const uuid = '3b241101-e2bb-4255-8caf-4136c566a962';

const fixtures: EventFixtures<typeof topUpMachine> = {
  'code.change': [
    { type: 'code.change', code: '' },
    { type: 'code.change', code: ' 0f1e2d3c4b5a69788796a5b4c3d2e1f0 ' },
  ],
  'redeem.submit': [{ type: 'redeem.submit' }],
  'link.open': [
    { type: 'link.open', topUpLink: '' },
    { type: 'link.open', topUpLink: link },
  ],
  'account.reload': [{ type: 'account.reload' }],
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

function journey(events: readonly AnyEventObject[]): { s: Snap; emitted: TopUpEmitted[]; opened: string[] } {
  let [s] = initialTransition(topUpMachine, input);
  const emitted: TopUpEmitted[] = [];
  const opened: string[] = [];
  for (const e of events) {
    const [next, actions] = transition(topUpMachine, s, e as never);
    for (const a of actions) {
      if ((a.type as string) === 'xstate.emit') emitted.push(((a as { params?: unknown }).params as { event: TopUpEmitted }).event);
      if (a.type === 'openWindow') opened.push((a.params as { url: string }).url);
    }
    s = next;
  }
  return { s, emitted, opened };
}
const code = fixtures['code.change'][1]!;
const submit = { type: 'redeem.submit' };

describe('topUp model', () => {
  it('reaches every state', () => {
    expect(unreachedStates(topUpMachine, realShortest())).toEqual([]);
  });

  it('keeps its invariants on every simple path', () => {
    const paths = simplePaths(topUpMachine, { ...model, limit: 3000 }).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        const children = Object.keys(s.children);
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
    it('redeem: says how much was added in the currency display, empties the code, refreshes the quota', () => {
      const { s, emitted } = journey([loaded, code, submit, redeemed, doneActor('loadSelf', richer)]);
      expect(s.value).toBe('ready');
      expect(selectCode(s)).toBe('');
      expect(selectRemainingQuota(s)).toBe(600000);
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'topUp.redeemed', params: { quota: '$0.20' } } },
        { type: 'user.refreshed', user: richer },
      ]);
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
      const { s, emitted, opened } = journey([loaded, fixtures['link.open'][0]!]);
      expect(s.value).toBe('ready');
      expect(opened).toEqual([]);
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { key: 'validation.topUp.noLink' } }]);
    });
    it('the link opens with username, user_id and the generated transaction id', () => {
      const { s, opened } = journey([loaded, fixtures['link.open'][1]!, idMade]);
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
      const { emitted, opened, redeem } = await replay([loaded, code, submit, redeemed, doneActor('loadSelf', richer), fixtures['link.open'][1]!, idMade]);
      expect(redeem.calls).toEqual([{ key: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' }]);
      expect(opened).toEqual([`${link}?username=alice&user_id=2&transaction_id=${uuid}`]);
      for (const e of emitted) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
      const { emitted: more } = await replay([loaded, submit, fixtures['link.open'][0]!, code, submit, unreachable]);
      for (const e of more) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });
});
