import { Component, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { ChakraProvider, Stack } from '@chakra-ui/react';
import { MemoryRouter } from 'react-router-dom';
import { fromPromise, type AnyStateMachine } from 'xstate';
import { pages } from 'virtual:bench-pages';
import { system } from '../../src/views/app/theme';
import { LangProvider } from '../../src/views/app/i18n';
import '../../src/i18n/all';
import { MachineRegistryProvider } from '../../src/views/app/machineRegistry';
import { cycles, measureCycles, measureMount, prepare, type Samples } from './probe';
import { channelRows, userRows } from './rows';
import { SharedTablePage } from './SharedTablePage';

/**
 * The page the table benchmark drives: `?list=channel|user&rows=N` mounts that list's page with
 * every machine of src/machines provided with stub actors. The list's table machine gets a
 * `fetchPage` that answers all N rows for page 0 (and nothing after), so N rows are loaded at once;
 * `&size=S` opens the list at page size S (the address bar's `?size=`).
 * When the list's real container page is not in the tree (or fails to render), the shared table
 * views over the same table machine stand in for it; `window.benchInfo.mode` says which ran.
 */

type AnyModule = Readonly<Record<string, unknown>>;

const machineModules: Readonly<Record<string, AnyModule>> = import.meta.glob('../../src/machines/*/index.ts', { eager: true });
interface ListSpec {
  readonly tableId: string;
  readonly pageExport: string;
  readonly rows: (n: number) => readonly { readonly id: number }[];
}

const lists: Readonly<Record<string, ListSpec>> = {
  channel: { tableId: 'channelTable', pageExport: 'ChannelListPage', rows: channelRows },
  user: { tableId: 'userTable', pageExport: 'UserListPage', rows: userRows },
};

const isMachine = (v: unknown): v is AnyStateMachine =>
  typeof v === 'object' && v !== null && 'provide' in v && 'implementations' in v && 'id' in v && 'config' in v;

const never = fromPromise(() => new Promise<never>(() => undefined));

/**
 * Every machine exported by src/machines, its actors replaced: the table's load, everything else
 * never answers. An invoked child machine (a page machine's `table`, ...) is kept as a machine
 * and stubbed the same way, so page machines start their real children.
 */
function stubMachines(spec: ListSpec, rows: readonly { readonly id: number }[]): AnyStateMachine[] {
  const seen = new Map<string, AnyStateMachine>();
  for (const mod of Object.values(machineModules)) for (const v of Object.values(mod)) if (isMachine(v)) seen.set(v.id, v);
  const stubbed = new Map<AnyStateMachine, AnyStateMachine>();
  const stub = (m: AnyStateMachine): AnyStateMachine => {
    const done = stubbed.get(m);
    if (done) return done;
    const given = (m.implementations as { actors?: Record<string, unknown> }).actors ?? {};
    const mine = m.id === spec.tableId;
    const actors: Record<string, unknown> = {};
    for (const [name, logic] of Object.entries(given)) {
      if (isMachine(logic)) actors[name] = stub(logic);
      else if (mine && name === 'fetchPage') actors[name] = fromPromise(({ input }: { input: { page: number } }) => Promise.resolve(input.page === 0 ? rows : []));
      else if (mine && name === 'searchRows')
        actors[name] = fromPromise(({ input }: { input: { keyword: string } }) =>
          Promise.resolve(rows.filter((r) => JSON.stringify(r).includes(input.keyword))),
        );
      else actors[name] = never;
    }
    const out = m.provide({ actors } as never) as AnyStateMachine;
    stubbed.set(m, out);
    return out;
  };
  return [...seen.values()].map(stub);
}

class Fallback extends Component<{ readonly fallback: ReactNode; readonly children: ReactNode; readonly onError: (e: unknown) => void }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    this.props.onError(error);
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

export interface BenchResult {
  readonly info: BenchInfo;
  readonly samples: Samples;
}

export interface BenchInfo {
  mode: 'page' | 'shared views';
  note: string;
}
declare global {
  interface Window {
    benchInfo: BenchInfo;
    benchRun: (repetitions: number, warmup: number) => Promise<BenchResult>;
    /** Unmounts (false) or mounts (true) the list page (bench/tables/profile.ts `mount`). */
    benchShow: (on: boolean) => void;
  }
}

const params = new URLSearchParams(location.search);
const spec = lists[params.get('list') ?? 'channel'] ?? lists.channel!;
const rows = spec.rows(Number(params.get('rows') ?? '10000'));
const machines = stubMachines(spec, rows);
const tableMachine = machines.find((m) => m.id === spec.tableId);
const RealPage = pages[spec.pageExport]?.[spec.pageExport] as ComponentType<Record<string, unknown>> | undefined;
const quotaDisplay = { displayInCurrency: true, quotaPerUnit: 500_000 };

window.benchInfo = RealPage
  ? { mode: 'page', note: `${spec.pageExport} (real container)` }
  : { mode: 'shared views', note: `${spec.pageExport} not in the tree (or not building): shared table views on the ${spec.tableId} machine` };

const shared = <SharedTablePage list={params.get('list') === 'user' ? 'user' : 'channel'} machine={tableMachine} />;

/** Whether the list page is mounted (the providers around it stay). */
let shownNow = true;
const listeners = new Set<() => void>();
const show = (on: boolean) => {
  shownNow = on;
  listeners.forEach((l) => l());
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

function Bench() {
  const shown = useSyncExternalStore(subscribe, () => shownNow);
  return (
    <ChakraProvider value={system}>
      <LangProvider value="zh">
        <MemoryRouter initialEntries={[`${params.get('list') === 'user' ? '/user' : '/channel'}${params.has('size') ? `?size=${params.get('size')}` : ''}`]}>
          <MachineRegistryProvider machines={machines}>
            <Stack p={4} gap={4}>
              {!shown ? null : RealPage ? (
                <Fallback
                  fallback={shared}
                  onError={(e) => {
                    window.benchInfo = { mode: 'shared views', note: `${spec.pageExport} failed (${String(e)}): shared table views instead` };
                  }}
                >
                  <RealPage quotaDisplay={quotaDisplay} />
                </Fallback>
              ) : (
                shared
              )}
            </Stack>
          </MachineRegistryProvider>
        </MemoryRouter>
      </LangProvider>
    </ChakraProvider>
  );
}

createRoot(document.getElementById('root')!).render(<Bench />);
window.benchShow = show;

/** `&only=a,b`: only the interactions whose name has one of these (run.ts `--only`). */
const only = params.get('only')?.split(',').filter((o) => o !== '');
const wanted = (name: string) => only === undefined || only.some((o) => name.includes(o));

window.benchRun = async (repetitions, warmup) => {
  const samples: Samples = {};
  const mount = 'first page rendered (mount)';
  await prepare();
  if (wanted(mount)) samples[mount] = await measureMount(show, repetitions, warmup);
  await prepare();
  const chosen = cycles().filter((c) => c.some((step) => step.name !== undefined && wanted(step.name)));
  await measureCycles(chosen, repetitions, warmup, samples);
  return { info: window.benchInfo, samples };
};
