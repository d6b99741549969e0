import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, networkError } from '../../src/domain/apiError';
import type { NotifyEvent } from '../../src/domain/message';
import { authorizeUrl, oauthLaunchMachine, selectIsBusy, selectLaunching } from '../../src/machines/oauthLaunch';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as walk, follows } from './support/replay';

const origin = 'https://console.example.com';
const input = { origin };
const fixtures: EventFixtures<typeof oauthLaunchMachine> = {
  'oauth.launch': [
    { type: 'oauth.launch', provider: 'github', clientId: 'gh-client' },
    { type: 'oauth.launch', provider: 'lark', clientId: 'cli_lark' },
  ],
};
const stateFetched = doneActor('fetchOAuthState', 'AbC123xyz789');
const stateFailed = errorActor('fetchOAuthState', failure('getOAuthState', '管理员未开启'));
const model = { fixtures, internal: [stateFetched, stateFailed], input };

type Snap = SnapshotFrom<typeof oauthLaunchMachine>;
const realShortest = () => shortestPaths(oauthLaunchMachine, model).filter(isRealistic);
const realSimple = () => simplePaths(oauthLaunchMachine, model).filter(isRealistic);

function journey(events: readonly AnyEventObject[]): Snap {
  return walk(oauthLaunchMachine, input, events);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('authorizeUrl', () => {
  it('builds the GitHub authorisation page', () => {
    expect(authorizeUrl('github', 'gh-client', 'AbC123xyz789', origin)).toBe(
      'https://github.com/login/oauth/authorize?client_id=gh-client&state=AbC123xyz789&scope=user:email',
    );
  });
  it('builds the Lark authorisation page with the console callback', () => {
    expect(authorizeUrl('lark', 'cli_lark', 'AbC123xyz789', origin)).toBe(
      'https://open.feishu.cn/open-apis/authen/v1/index?redirect_uri=https%3A%2F%2Fconsole.example.com%2Foauth%2Flark&app_id=cli_lark&state=AbC123xyz789',
    );
    const url = new URL(authorizeUrl('lark', 'cli_lark', 's', origin));
    expect(url.searchParams.get('redirect_uri')).toBe(`${origin}/oauth/lark`);
  });
});

describe('oauthLaunch model', () => {
  it('reaches every state', () => {
    const paths = realShortest();
    expect(unreachedStates(oauthLaunchMachine, paths)).toEqual([]);
    expect(paths.map(describePath)).toContain('xstate.init → oauth.launch');
  });

  it('keeps its invariants on every simple path', () => {
    const paths = realSimple();
    expect(paths.length).toBeGreaterThan(2);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        // never two state fetches in flight; one runs exactly while fetching
        const running = Object.keys(s.children);
        expect(running.length).toBeLessThanOrEqual(1);
        expect(running.length === 1).toBe(s.matches('fetchingState'));
        // a launch is remembered exactly while its state is fetched
        expect(s.context.pending !== null).toBe(s.matches('fetchingState'));
        expect(selectIsBusy(s)).toBe(s.matches('fetchingState'));
        expect(s.context.origin).toBe(origin);
      }
    }
  });

  describe('pinned journeys', () => {
    it('a click fetches the state for that provider', () => {
      const s = journey([fixtures['oauth.launch'][1]!]);
      expect(s.value).toBe('fetchingState');
      expect(selectLaunching(s)).toBe('lark');
    });
    it('a second click while fetching is ignored', () => {
      const s = journey([fixtures['oauth.launch'][0]!, fixtures['oauth.launch'][1]!]);
      expect(selectLaunching(s)).toBe('github');
    });
    it('the window opens and the buttons are ready again', () => {
      const s = journey([fixtures['oauth.launch'][0]!, stateFetched]);
      expect(s.value).toBe('idle');
      expect(selectLaunching(s)).toBeNull();
    });
    it('a failure leaves the buttons ready', () => {
      expect(journey([fixtures['oauth.launch'][0]!, stateFailed]).value).toBe('idle');
    });
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      vi.useFakeTimers();
      const fetchState = controlled<string, unknown>();
      const opened: string[] = [];
      const machine = oauthLaunchMachine.provide({ actions: { openWindow: (_, params) => opened.push(params.url) } });
      const settle = () => vi.advanceTimersByTimeAsync(0);
      const { emitted } = await replayOn({ machine, input, stubs: { fetchOAuthState: fetchState }, settle }, events, check);
      const notified = emitted.filter((e): e is NotifyEvent => e.type === 'notify');
      return { opened, notified, fetches: fetchState.calls.length };
    }

    const chosen = realSimple().filter((p) => p.steps.length > 1);
    it.each(chosen.map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      await replay(
        p.steps.map((s) => s.event),
        follows(p),
      );
    });

    it('opens the GitHub page with the fetched state', async () => {
      const { opened, notified, fetches } = await replay([
        { type: 'xstate.init' },
        fixtures['oauth.launch'][0]!,
        fixtures['oauth.launch'][0]!,
        stateFetched,
      ]);
      expect(fetches).toBe(1);
      expect(opened).toEqual([authorizeUrl('github', 'gh-client', 'AbC123xyz789', origin)]);
      expect(notified).toEqual([]);
    });

    it('a failed state fetch shows the API error and opens nothing', async () => {
      const { opened, notified } = await replay([
        { type: 'xstate.init' },
        fixtures['oauth.launch'][1]!,
        errorActor('fetchOAuthState', networkError('getOAuthState', 'Failed to fetch')),
      ]);
      expect(opened).toEqual([]);
      expect(notified).toEqual([
        { type: 'notify', level: 'error', message: { key: 'error.prefixed', params: { message: 'Failed to fetch' } } },
      ]);
    });
  });
});
