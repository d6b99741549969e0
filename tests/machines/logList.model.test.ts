import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, networkError } from '../../src/domain/apiError';
import type { Log } from '../../src/domain/log';
import { logFilterOf, logFormOf, logParamsOf, numberLogRows } from '../../src/domain/logQuery';
import type { NotifyEvent } from '../../src/domain/message';
import { formatTableQuery, parseTableQuery } from '../../src/domain/tableQuery';
import { isMessageKey } from '../../src/i18n';
import {
  logExportMachine,
  logQuerySchema,
  logStatMachine,
  logTableMachine,
  selectIsExporting,
  selectIsStatLoading,
  selectStatParams,
  selectStatQuota,
  selectStatQuotaFor,
  type LogCallInput,
} from '../../src/machines/logList';
import type { FetchPageInput } from '../../src/machines/table';
import { doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';

/*
 * The log page's machines: the title's consumed-quota stat and the CSV export (the list is the
 * table machine, covered by table.model.test.ts; its log instance is checked here for the
 * server parameters and the scope).
 */

const gpt = { model_name: 'gpt-4o', username: 'alice' };
const claude = { model_name: 'claude-3', type: '2', start_timestamp: '1763900000' };

// ---- the stat ----

type StatSnap = SnapshotFrom<typeof logStatMachine>;
const statFixtures: EventFixtures<typeof logStatMachine> = {
  'stat.load': [
    { type: 'stat.load', params: gpt },
    { type: 'stat.load', params: claude },
  ],
};
const statDone = doneActor('fetchLogStat', 2713);
const statFailed = errorActor('fetchLogStat', failure('GET /api/log/stat', '无权进行此操作，权限不足'));
const statModel = { fixtures: statFixtures, internal: [statDone, statFailed], input: { scope: 'admin' } };

// ---- the export ----

type ExportSnap = SnapshotFrom<typeof logExportMachine>;
const exportFixtures: EventFixtures<typeof logExportMachine> = {
  'export.request': [
    { type: 'export.request', params: gpt },
    { type: 'export.request', params: {} },
  ],
};
const exported = doneActor('downloadLogs', 'logs-20261123-100000.csv');
const exportRefused = errorActor('downloadLogs', failure('GET /api/log/export', '无效的参数'));
const exportOffline = errorActor('downloadLogs', networkError('GET /api/log/export', 'Failed to fetch'));
const exportModel = { fixtures: exportFixtures, internal: [exported, exportRefused, exportOffline], input: { scope: 'self' } };

type ActionLike = readonly { readonly type: string; readonly params?: unknown }[];
const emittedOf = (actions: ActionLike) =>
  actions.filter((a) => a.type === 'xstate.emit').map((a) => (a.params as { event: NotifyEvent }).event);
const startedOf = (actions: ActionLike) =>
  actions.filter((a) => a.type === 'xstate.spawnChild').map((a) => a.params as { id: string; input: unknown });

function run<M extends typeof logStatMachine | typeof logExportMachine>(machine: M, input: { scope: 'admin' | 'self' }, events: readonly AnyEventObject[]) {
  let [s, actions] = initialTransition(machine as typeof logStatMachine, input);
  const emitted: NotifyEvent[] = [...emittedOf(actions)];
  const started = [...startedOf(actions)];
  for (const e of events) {
    [s, actions] = transition(machine as typeof logStatMachine, s, e as never);
    emitted.push(...emittedOf(actions));
    started.push(...startedOf(actions));
  }
  return { s, emitted, started };
}

describe('logStat model', () => {
  it('reaches every state', () => {
    expect(unreachedStates(logStatMachine, shortestPaths(logStatMachine, statModel))).toEqual([]);
  });

  it('keeps its invariants on every simple path', () => {
    const paths = simplePaths(logStatMachine, { ...statModel, limit: 2000 });
    expect(paths.length).toBeGreaterThan(3);
    for (const p of paths) {
      for (const s of [p.state, ...p.steps.map((step) => step.state)] as StatSnap[]) {
        const loading = s.matches('loading');
        expect(selectIsStatLoading(s)).toBe(loading);
        expect(s.children.fetchLogStat !== undefined).toBe(loading);
        // a quota only once loaded, and it answers the filters asked for
        expect(selectStatQuota(s) !== null).toBe(s.matches('ready'));
        if (!s.matches('ready')) expect(s.context.quota).toBeNull();
        expect(selectStatQuotaFor(selectStatParams(s))(s)).toBe(selectStatQuota(s));
        expect(s.context.scope).toBe('admin');
      }
    }
  });

  it('loads with the filters of the click, and another click reloads with the new ones', () => {
    const first = run(logStatMachine, { scope: 'admin' }, [statFixtures['stat.load'][0]!, statDone]);
    expect(first.s.value).toBe('ready');
    expect(selectStatQuota(first.s)).toBe(2713);
    expect(first.started.map((a) => a.input)).toEqual([{ filter: { model_name: 'gpt-4o', username: 'alice' }, scope: 'admin' }]);
    const again = run(logStatMachine, { scope: 'admin' }, [statFixtures['stat.load'][0]!, statDone, statFixtures['stat.load'][1]!]);
    expect(again.s.value).toBe('loading');
    expect(selectStatQuota(again.s)).toBeNull();
    expect(again.started.at(-1)!.input).toEqual({ filter: { model_name: 'claude-3', type: 2, start_timestamp: 1763900000 }, scope: 'admin' });
    expect(selectStatQuotaFor(gpt)(again.s)).toBeNull();
  });

  it('a self stat drops the admin-only filters; a failure is an error toast', () => {
    const self = run(logStatMachine, { scope: 'self' }, [statFixtures['stat.load'][0]!, statFailed]);
    expect(self.started[0]!.input).toEqual({ filter: { model_name: 'gpt-4o' }, scope: 'self' });
    expect(self.s.value).toBe('failed');
    expect(self.emitted).toEqual([{ type: 'notify', level: 'error', message: { text: '无权进行此操作，权限不足' } }]);
  });

  it('replays on a real actor', async () => {
    const calls: LogCallInput[] = [];
    const actor = createActor(
      logStatMachine.provide({
        actors: {
          fetchLogStat: fromPromise<number, LogCallInput>(({ input }) => {
            calls.push(input);
            return Promise.resolve(42);
          }),
        },
      }),
      { input: { scope: 'self' } },
    );
    actor.start();
    actor.send({ type: 'stat.load', params: claude });
    expect(selectIsStatLoading(actor.getSnapshot())).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(selectStatQuota(actor.getSnapshot())).toBe(42);
    expect(calls).toEqual([{ filter: { model_name: 'claude-3', type: 2, start_timestamp: 1763900000 }, scope: 'self' }]);
    actor.stop();
  });
});

describe('logExport model', () => {
  it('reaches every state', () => {
    expect(unreachedStates(logExportMachine, shortestPaths(logExportMachine, exportModel))).toEqual([]);
  });

  it('keeps its invariants on every simple path', () => {
    const paths = simplePaths(logExportMachine, { ...exportModel, limit: 2000 });
    expect(paths.length).toBeGreaterThan(3);
    for (const p of paths) {
      for (const s of [p.state, ...p.steps.map((step) => step.state)] as ExportSnap[]) {
        const exporting = s.matches('exporting');
        expect(selectIsExporting(s)).toBe(exporting);
        expect(s.children.downloadLogs !== undefined).toBe(exporting);
        // one export at a time: a request while exporting is ignored
        expect(s.can(exportFixtures['export.request'][0]!)).toBe(!exporting);
      }
    }
  });

  it('downloads the filtered result and says the file name', () => {
    const { s, emitted, started } = run(logExportMachine as never, { scope: 'self' }, [exportFixtures['export.request'][0]!, exported]);
    expect((s as unknown as ExportSnap).value).toBe('idle');
    expect(started.map((a) => a.input)).toEqual([{ filter: { model_name: 'gpt-4o' }, scope: 'self' }]);
    expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'logs.exported', params: { name: 'logs-20261123-100000.csv' } } }]);
    expect(isMessageKey('logs.exported')).toBe(true);
  });

  it('the server’s refusal and a network failure become error toasts', () => {
    const refused = run(logExportMachine as never, { scope: 'admin' }, [exportFixtures['export.request'][1]!, exportRefused]);
    expect(refused.emitted).toEqual([{ type: 'notify', level: 'error', message: { text: '无效的参数' } }]);
    const offline = run(logExportMachine as never, { scope: 'admin' }, [exportFixtures['export.request'][1]!, exportOffline]);
    expect(offline.emitted).toHaveLength(1);
    expect(offline.emitted[0]!.level).toBe('error');
  });

  it('replays on a real actor', async () => {
    const calls: LogCallInput[] = [];
    const actor = createActor(
      logExportMachine.provide({
        actors: {
          downloadLogs: fromPromise<string, LogCallInput>(({ input }) => {
            calls.push(input);
            return Promise.resolve('logs.csv');
          }),
        },
      }),
      { input: { scope: 'admin' } },
    );
    const emitted: NotifyEvent[] = [];
    actor.on('notify', (e) => emitted.push(e));
    actor.start();
    actor.send({ type: 'export.request', params: gpt });
    actor.send({ type: 'export.request', params: claude });
    expect(selectIsExporting(actor.getSnapshot())).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toEqual([{ filter: { model_name: 'gpt-4o', username: 'alice' }, scope: 'admin' }]);
    expect(emitted.map((e) => e.level)).toEqual(['success']);
    actor.stop();
  });
});

describe('the log table and its filters', () => {
  const rows: Log[] = [0, 1, 2].map((i) => ({
    id: 0,
    created_at: 1763900000 + i,
    type: 2,
    content: '',
    username: 'alice',
    token_name: 'default',
    model_name: 'gpt-4o',
    quota: 10 * i,
    prompt_tokens: 1,
    completion_tokens: 2,
  }));

  it('fetches with the scope and the filters from the address, and params.set reloads from page 0', () => {
    const query = parseTableQuery('?p.model_name=gpt-4o&p.username=alice&page=1', logQuerySchema);
    const [s0, a0] = initialTransition(logTableMachine, { query, baseParams: { scope: 'self' } });
    expect(s0.value).toBe('loading');
    expect(startedOf(a0).map((a) => a.input)).toEqual([{ page: 0, order: '', params: { scope: 'self', model_name: 'gpt-4o', username: 'alice' } }]);
    const [s1] = transition(logTableMachine, s0, doneActor('fetchPage', numberLogRows(rows, 0, 10, 'self')) as never);
    expect(s1.matches('ready')).toBe(true);
    const [s2, a2] = transition(logTableMachine, s1, { type: 'params.set', params: { model_name: 'claude-3', type: '1' } });
    expect(s2.value).toBe('loading');
    expect(startedOf(a2).map((a) => a.input as FetchPageInput)).toEqual([{ page: 0, order: '', params: { scope: 'self', model_name: 'claude-3', type: '1' } }]);
    expect(formatTableQuery(s2.context.query)).toBe('?p.model_name=claude-3&p.type=1');
  });

  it('numbers self rows uniquely over pages; admin rows keep their ids', () => {
    expect(numberLogRows(rows, 2, 10, 'self').map((r) => r.id)).toEqual([21, 22, 23]);
    const admin = rows.map((r, i) => ({ ...r, id: 90 + i }));
    expect(numberLogRows(admin, 2, 10, 'admin')).toBe(admin);
  });

  it('turns the form into parameters and back (default end one hour ahead)', () => {
    const now = 1763900000;
    const form = logFormOf({}, now, 0);
    expect(form).toEqual({ token_name: '', model_name: '', start: '', end: '2025-11-23T13:13', type: '0', channel: '', username: '' });
    const params = logParamsOf({ ...form, model_name: ' gpt-4o ', start: '2025-11-23T10:00', type: '2', channel: '7', username: 'bob' }, 'admin', 0);
    expect(params).toEqual({ model_name: 'gpt-4o', start_timestamp: '1763892000', end_timestamp: String(now + 3600 - 20), type: '2', channel: '7', username: 'bob' });
    expect(logParamsOf({ ...form, channel: '7', username: 'bob' }, 'self', 0)).toEqual({ end_timestamp: String(now + 3600 - 20) });
    expect(logFormOf(params, now, 0)).toMatchObject({ model_name: 'gpt-4o', start: '2025-11-23T10:00', type: '2', channel: '7', username: 'bob' });
    expect(logFilterOf({ type: '0', channel: 'x', start_timestamp: '-1', token_name: ' t ' }, 'admin')).toEqual({ token_name: 't' });
  });
});
