import { describe, expect, it } from 'vitest';
import { initialTransition, transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { decodeError, failure, httpError, networkError } from '../../src/domain/apiError';
import { isMessageKey, renderMessage } from '../../src/i18n';
import {
  isCurrentRelease,
  selectIsChecking,
  selectNewRelease,
  updateCheckMachine,
  type LatestRelease,
  type UpdateCheckEvent,
  type UpdateCheckInput,
} from '../../src/machines/updateCheck';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as walk, follows } from './support/replay';

type Snap = SnapshotFrom<typeof updateCheckMachine>;

const input: UpdateCheckInput = { currentVersion: 'v0.6.10' };
const release = (tag: string, notes = '## Changes\n- faster'): LatestRelease => ({ tag, notes, url: `https://releases.example/${tag}` });
const same = release('v0.6.10');
const newer = release('v0.6.11');

const check: UpdateCheckEvent = { type: 'check.request' };
const close: UpdateCheckEvent = { type: 'dialog.close' };
const fixtures: EventFixtures<typeof updateCheckMachine> = {
  'check.request': [check],
  'dialog.close': [close],
};
const upToDate = doneActor('fetchLatestRelease', same);
const found = doneActor('fetchLatestRelease', newer);
const offline = errorActor('fetchLatestRelease', networkError('getLatestRelease', 'Failed to fetch'));
const limited = errorActor('fetchLatestRelease', httpError('getLatestRelease', 403, 'rate limit exceeded'));
const internal = [upToDate, found, offline, limited];
const model = { fixtures, internal, input };

function journey(events: readonly AnyEventObject[]): Snap {
  return walk(updateCheckMachine, input, events);
}
const realShortest = () => shortestPaths(updateCheckMachine, model).filter(isRealistic);

describe('updateCheck model', () => {
  it('reaches every state', () => {
    const paths = realShortest();
    expect(unreachedStates(updateCheckMachine, paths)).toEqual([]);
    const showing = paths.find((p) => p.state.matches('showing'))!;
    expect(describePath(showing)).toBe(`xstate.init → check.request → ${found.type}`);
  });

  it('keeps its invariants on every simple path', () => {
    // one simple path per distinct snapshot: idle, checking, showing and idle after a close
    const paths = simplePaths(updateCheckMachine, model).filter(isRealistic);
    expect(paths.length).toBeGreaterThanOrEqual(3);
    for (const p of paths) {
      const snaps = snapshotsOf(p);
      for (const [i, s] of snaps.entries()) {
        expect(s.status).toBe('active');
        expect(s.context.currentVersion).toBe(input.currentVersion);
        expect((s.children as Record<string, unknown>).fetchLatestRelease !== undefined).toBe(s.matches('checking'));
        expect(selectIsChecking(s)).toBe(s.matches('checking'));
        // a release is kept exactly while the dialog shows it, and it is never the console's own
        expect(s.context.release !== null).toBe(s.matches('showing'));
        expect(selectNewRelease(s)).toBe(s.context.release);
        if (s.context.release !== null) expect(isCurrentRelease(s.context, s.context.release)).toBe(false);
        expect(s.can(check)).toBe(s.matches('idle'));
        if (i > 0 && s.matches('checking') && !snaps[i - 1]!.matches('checking')) expect(p.steps[i]!.event).toEqual(check);
      }
    }
  });

  describe('pinned journeys', () => {
    it('the same tag as the console: back to idle, no dialog', () => {
      const s = journey([check, upToDate]);
      expect(s.value).toBe('idle');
      expect(selectNewRelease(s)).toBeNull();
    });
    it('another tag: the dialog with its tag, notes and page, until closed', () => {
      const s = journey([check, found]);
      expect(s.value).toBe('showing');
      expect(selectNewRelease(s)).toEqual(newer);
      const closed = journey([check, found, close]);
      expect(closed.value).toBe('idle');
      expect(selectNewRelease(closed)).toBeNull();
      expect(journey([check, found, close, check]).value).toBe('checking');
    });
    it('a failure returns to idle; pressing while checking does nothing', () => {
      expect(journey([check, offline]).value).toBe('idle');
      expect(journey([check, check]).value).toBe('checking');
      expect(journey([close]).value).toBe('idle');
    });
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      const fetch = controlled<LatestRelease, void>();
      return { ...(await replayOn({ machine: updateCheckMachine, input, stubs: { fetchLatestRelease: fetch } }, events, check)), fetch };
    }
    const handPath = (events: readonly AnyEventObject[]) => {
      const steps: { event: AnyEventObject; state: Snap }[] = [];
      let [s] = initialTransition(updateCheckMachine, input);
      steps.push({ event: { type: 'xstate.init' }, state: s });
      for (const event of events) {
        [s] = transition(updateCheckMachine, s, event as never);
        steps.push({ event, state: s });
      }
      return { state: s, steps };
    };
    const chosen = [
      ...realShortest().filter((p) => p.steps.length > 1),
      handPath([check, limited, check, found, close, check, upToDate]),
    ];
    it.each(chosen.map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      expect(isRealistic(p)).toBe(true);
      const { snapshot } = await replay(
        p.steps.map((s) => s.event),
        follows(p),
      );
      expect(snapshot.value).toEqual(p.state.value);
    });

    it("says '已是最新版本：{tag}' when the tag is the console's", async () => {
      const { emitted, fetch } = await replay([check, upToDate]);
      expect(fetch.calls).toHaveLength(1);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'settingsExtras.update.latest', params: { tag: 'v0.6.10' } } }]);
      expect(renderMessage('zh', emitted[0]!.message)).toBe('已是最新版本：v0.6.10');
    });
    it('a newer release is silent (the dialog speaks)', async () => {
      const { emitted, snapshot } = await replay([check, found]);
      expect(emitted).toEqual([]);
      expect(selectNewRelease(snapshot)).toEqual(newer);
    });
    it('failures are error toasts from the error catalogue', async () => {
      const net = await replay([check, offline]);
      expect(net.emitted.map((e) => [e.level, renderMessage('zh', e.message)])).toEqual([['error', '错误：Failed to fetch']]);
      const rate = await replay([check, limited]);
      expect(rate.emitted.map((e) => e.level)).toEqual(['error']);
      const bad = await replay([check, errorActor('fetchLatestRelease', decodeError('getLatestRelease', 'tag_name: expected string'))]);
      expect(bad.emitted.map((e) => e.level)).toEqual(['error']);
      const refused = await replay([check, errorActor('fetchLatestRelease', failure('getLatestRelease', 'nope'))]);
      expect(refused.emitted).toEqual([{ type: 'notify', level: 'error', message: { text: 'nope' } }]);
      for (const e of [...net.emitted, ...rate.emitted, ...bad.emitted])
        if ('key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });

  it('has no named delays (nothing to time)', () => {
    expect(Object.keys(updateCheckMachine.implementations.delays)).toEqual([]);
  });
});
