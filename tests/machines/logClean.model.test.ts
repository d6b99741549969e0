import { describe, expect, it } from 'vitest';
import { transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { decodeError, failure, httpError, networkError } from '../../src/domain/apiError';
import { defaultLogCleanTarget, parseDateTime, toDateTimeLocal } from '../../src/domain/format';
import { isMessageKey, renderMessage } from '../../src/i18n';
import {
  failureText,
  logCleanMachine,
  selectHasValidTarget,
  selectIsClearing,
  selectIsConfirming,
  selectLastCount,
  selectTarget,
  type ClearLogsInput,
  type LogCleanEvent,
  type LogCleanInput,
} from '../../src/machines/logClean';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { journey as walk, pathOf, replay, replayPath } from './support/replay';

type Snap = SnapshotFrom<typeof logCleanMachine>;

const now = 1_750_000_000;
const input: LogCleanInput = { now };
const defaultTarget = toDateTimeLocal(defaultLogCleanTarget(now));

const picked = '2025-01-02T03:04';
const change = (value: string): Extract<LogCleanEvent, { type: 'target.change' }> => ({ type: 'target.change', value });
const pick = change(picked);
const clearField = change('');
const garbage = change('2025-02-30T10:00');
const request = { type: 'clean.request' } as const;
const accept = { type: 'confirm.accept' } as const;
const cancel = { type: 'confirm.cancel' } as const;

const fixtures: EventFixtures<typeof logCleanMachine> = {
  'target.change': [pick, clearField, garbage],
  'clean.request': [request],
  'confirm.accept': [accept],
  'confirm.cancel': [cancel],
};
const cleared = doneActor('clearLogs', 42);
const serverMessage = '无权进行此操作，权限不足';
const refused = errorActor('clearLogs', failure('clearLogs', serverMessage));
const internal = [cleared, refused];
const model = { fixtures, internal, input };

const journey = (events: readonly AnyEventObject[]): Snap => walk(logCleanMachine, input, events);
const realShortest = () => shortestPaths(logCleanMachine, model).filter(isRealistic);

/** The input the (unstarted) clear actor of a snapshot was created with. */
const clearInput = (s: Snap): ClearLogsInput | undefined => {
  const child = (s.children as Record<string, { getSnapshot(): { input?: unknown } } | undefined>).clearLogs;
  return child?.getSnapshot().input as ClearLogsInput | undefined;
};

describe('logClean model', () => {
  it('starts with the target 30 days (2592000 s) before now', () => {
    const s = journey([]);
    expect(s.value).toBe('idle');
    expect(selectTarget(s)).toBe(defaultTarget);
    expect(now - parseDateTime(defaultTarget)!).toBeGreaterThanOrEqual(2592000);
    expect(now - parseDateTime(defaultTarget)!).toBeLessThan(2592000 + 60);
    expect(selectLastCount(s)).toBeNull();
  });

  it('reaches every state', () => {
    const paths = realShortest();
    expect(unreachedStates(logCleanMachine, paths)).toEqual([]);
    const clearing = paths.find((p) => p.state.matches('clearing'))!;
    expect(describePath(clearing)).toBe('xstate.init → clean.request → confirm.accept');
  });

  it('keeps its invariants on every simple path', () => {
    const few: EventFixtures<typeof logCleanMachine> = { ...fixtures, 'target.change': [pick, clearField] };
    const paths = simplePaths(logCleanMachine, { fixtures: few, internal, input }).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(10);
    for (const p of paths) {
      const snaps = snapshotsOf(p);
      for (const [i, s] of snaps.entries()) {
        expect(s.status).toBe('active');
        // the call runs only while clearing; busy, the selectors and the states agree
        expect((s.children as Record<string, unknown>).clearLogs !== undefined).toBe(s.matches('clearing'));
        expect(selectIsClearing(s)).toBe(s.matches('clearing'));
        expect(selectIsConfirming(s)).toBe(s.matches('confirming'));
        expect(s.can(request)).toBe(s.matches('idle'));
        // nothing is asked or cleared without a valid target
        if (!s.matches('idle')) expect(selectHasValidTarget(s)).toBe(true);
        if (i === 0) continue;
        const prev = snaps[i - 1]!;
        const e = p.steps[i]!.event;
        // the target changes only in idle, to what was typed
        if (selectTarget(s) !== selectTarget(prev)) {
          expect(prev.matches('idle')).toBe(true);
          expect(e).toEqual(change(selectTarget(s)));
        }
        // the count changes only with the server's answer
        if (selectLastCount(s) !== selectLastCount(prev)) expect(e.type).toBe(cleared.type);
        // clearing starts only from the confirmation, with the target in Unix seconds
        if (s.matches('clearing') && !prev.matches('clearing')) {
          expect(prev.matches('confirming')).toBe(true);
          expect(e).toEqual(accept);
          const [next] = transition(logCleanMachine, prev, e);
          expect(clearInput(next)).toEqual({ targetTimestamp: parseDateTime(selectTarget(prev)) });
        }
        if (s.matches('confirming') && !prev.matches('confirming')) expect(e).toEqual(request);
      }
    }
  });

  describe('pinned journeys', () => {
    it('request, confirm, cleared: back to idle with the count', () => {
      const asking = journey([request]);
      expect(asking.value).toBe('confirming');
      const busy = journey([request, accept]);
      expect(busy.value).toBe('clearing');
      expect(clearInput(busy)).toEqual({ targetTimestamp: parseDateTime(defaultTarget) });
      const done = journey([request, accept, cleared]);
      expect(done.value).toBe('idle');
      expect(selectLastCount(done)).toBe(42);
    });
    it('a picked target is the one sent', () => {
      const s = journey([pick, request, accept]);
      expect(clearInput(s)).toEqual({ targetTimestamp: parseDateTime(picked) });
    });
    it('cancelling the confirmation changes nothing', () => {
      const s = journey([pick, request, cancel]);
      expect(s.value).toBe('idle');
      expect(selectTarget(s)).toBe(picked);
      expect(selectLastCount(s)).toBeNull();
    });
    it('an empty or impossible target asks nothing', () => {
      for (const e of [clearField, garbage]) {
        const s = journey([e, request]);
        expect(s.value).toBe('idle');
        expect(selectHasValidTarget(s)).toBe(false);
      }
    });
    it('a failure returns to idle and keeps the previous count', () => {
      const s = journey([request, accept, cleared, request, accept, refused]);
      expect(s.value).toBe('idle');
      expect(selectLastCount(s)).toBe(42);
    });
    it('typing while confirming or clearing is ignored', () => {
      expect(selectTarget(journey([request, pick]))).toBe(defaultTarget);
      expect(selectTarget(journey([request, accept, pick]))).toBe(defaultTarget);
      expect(journey([request, accept, cancel]).value).toBe('clearing');
    });
  });

  describe('replay on a real actor with stub actors', () => {
    const run = async (events: readonly AnyEventObject[]) => {
      const clear = controlled<number, ClearLogsInput>();
      return { ...(await replay({ machine: logCleanMachine, input, stubs: { clearLogs: clear } }, events)), clear };
    };
    const chosen = [
      ...realShortest().filter((p) => p.steps.length > 1),
      pathOf(logCleanMachine, input, [clearField, request, pick, request, cancel, request, accept, refused, request, accept, cleared]),
    ];
    it.each(chosen.map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      expect(isRealistic(p)).toBe(true);
      await replayPath({ machine: logCleanMachine, input, stubs: { clearLogs: controlled<number, ClearLogsInput>() } }, p);
    });

    it("says '{count} logs cleared!' with the server's count", async () => {
      const { emitted, clear } = await run([pick, request, accept, cleared]);
      expect(clear.calls).toEqual([{ targetTimestamp: parseDateTime(picked) }]);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'settingsExtras.logClean.cleared', params: { count: 42 } } }]);
      expect(renderMessage('zh', emitted[0]!.message)).toBe('42 条日志已清理！');
      expect(renderMessage('en', emitted[0]!.message)).toBe('42 logs cleared!');
    });
    it("says 'log cleanup failed: {message}' with the server's message", async () => {
      const { emitted } = await run([request, accept, refused]);
      expect(emitted.map((e) => e.level)).toEqual(['error']);
      expect(renderMessage('zh', emitted[0]!.message)).toBe(`日志清理失败：${serverMessage}`);
      expect(renderMessage('en', emitted[0]!.message)).toBe(`log cleanup failed: ${serverMessage}`);
    });
    it('an invalid target is an error toast and sends nothing', async () => {
      const { emitted, clear } = await run([garbage, request]);
      expect(clear.calls).toEqual([]);
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { key: 'settingsExtras.logClean.invalidTarget' } }]);
    });
    it('every catalogue key it emits exists', async () => {
      const all = [
        ...(await run([request, accept, cleared])).emitted,
        ...(await run([request, accept, refused])).emitted,
        ...(await run([clearField, request])).emitted,
      ];
      for (const e of all) if ('key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });

  it('names what went wrong for every kind of failure', () => {
    expect(failureText(failure('clearLogs', 'x'))).toBe('x');
    expect(failureText(networkError('clearLogs', 'Failed to fetch'))).toBe('Failed to fetch');
    expect(failureText(httpError('clearLogs', 403, 'Forbidden'))).toBe('403 Forbidden');
    expect(failureText(decodeError('clearLogs', 'data: expected number'))).toBe('data: expected number');
    expect(failureText(new Error('boom'))).toBe('boom');
  });

  it('has no named delays (nothing to time)', () => {
    expect(Object.keys(logCleanMachine.implementations.delays)).toEqual([]);
  });
});
