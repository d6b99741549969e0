import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { fromPromise, type AnyStateMachine } from 'xstate';
import * as channelForm from '../../src/machines/channelForm';
import * as commandPalette from '../../src/machines/commandPalette';
import * as twoFactorSettings from '../../src/machines/twoFactorSettings';
import * as channelList from '../../src/machines/channelList';
import * as channelTags from '../../src/machines/channelTags';
import * as channelTest from '../../src/machines/channelTest';
import * as dashboard from '../../src/machines/dashboard';
import * as footer from '../../src/machines/footer';
import * as logClean from '../../src/machines/logClean';
import * as logList from '../../src/machines/logList';
import * as logListPage from '../../src/machines/logListPage';
import * as updateCheck from '../../src/machines/updateCheck';
import * as oauthCallback from '../../src/machines/oauthCallback';
import * as oauthLaunch from '../../src/machines/oauthLaunch';
import * as optionSettings from '../../src/machines/optionSettings';
import * as pageContent from '../../src/machines/pageContent';
import * as pricing from '../../src/machines/pricing';
import * as priceEditor from '../../src/machines/priceEditor';
import * as passwordResetConfirm from '../../src/machines/passwordResetConfirm';
import * as profileEdit from '../../src/machines/profileEdit';
import * as topUp from '../../src/machines/topUp';
import * as personalSettings from '../../src/machines/personalSettings';
import * as redemptionForm from '../../src/machines/redemptionForm';
import * as redemptionList from '../../src/machines/redemptionList';
import * as passwordResetRequest from '../../src/machines/passwordResetRequest';
import * as register from '../../src/machines/register';
import * as turnstile from '../../src/machines/turnstile';
import * as userForm from '../../src/machines/userForm';
import * as tokenList from '../../src/machines/tokenList';
import * as tokenForm from '../../src/machines/tokenForm';
import * as userList from '../../src/machines/userList';
import * as wechatLogin from '../../src/machines/wechatLogin';
import type { sessionMachine } from '../../src/machines/session';
import { createApiClient } from '../../src/api/client';
import { implement, implementArea, MachineRegistryProvider, useProvidedMachine, type MachineImplementation } from '../../src/views/app/machineRegistry';
import { createMachineWiring, type AreaLoaders } from '../../src/views/app/machineWiring';
import { pageMachineAreas, pageMachineIds, type LazyWiringArea } from '../../src/views/app/pageMachines';
import type { WiringRoot } from '../../src/wiring/root';

const modules = [
  channelForm,
  commandPalette,
  channelList,
  channelTags,
  channelTest,
  dashboard,
  footer,
  logClean,
  logList,
  logListPage,
  updateCheck,
  oauthCallback,
  oauthLaunch,
  optionSettings,
  pageContent,
  pricing,
  priceEditor,
  passwordResetConfirm,
  passwordResetRequest,
  profileEdit,
  topUp,
  personalSettings,
  redemptionForm,
  redemptionList,
  register,
  turnstile,
  tokenList,
  tokenForm,
  userForm,
  userList,
  wechatLogin,
  twoFactorSettings,
];
const machines = new Map<string, AnyStateMachine>(
  modules.flatMap((m) => Object.entries(m)).filter(([name]) => name.endsWith('Machine')) as [string, AnyStateMachine][],
);

const footerActors = { readStoredFooter: fromPromise(() => Promise.resolve('')) };

describe('the composition root', () => {
  it('lists every page machine by its own id, once', () => {
    expect(new Set(pageMachineIds).size).toBe(pageMachineIds.length);
    expect([...pageMachineIds].sort()).toEqual([...machines.values()].map((m) => m.id).sort());
  });

  it('the compiler checks ids and actors of implement() and the completeness of implementArea()', () => {
    const footerImplementation = implement<typeof footer.footerMachine>('footer', { actors: footerActors });
    expect(footerImplementation.id).toBe('footer');
    // @ts-expect-error -- another machine's id
    implement<typeof footer.footerMachine>('tokenForm', { actors: footerActors });
    // @ts-expect-error -- a machine id that is not in pageMachineIds
    implement<typeof sessionMachine>('session', {});
    // @ts-expect-error -- an own actor left out
    implement<typeof footer.footerMachine>('footer', { actors: {} });
    // @ts-expect-error -- the shell's other machines are missing
    implementArea('shell', [footerImplementation]);
    // @ts-expect-error -- the footer is not a machine of the token area
    implementArea('token', [footerImplementation]);
    // @ts-expect-error -- a machine made by a factory has no literal id: without naming it, its area does not compile
    implementArea('log', [implement<typeof logList.logTableMachine>('logTable', { actors: {} as never })]);
    const partial: Partial<AreaLoaders> = {};
    // @ts-expect-error -- every lazy area has its loader
    const loaders: AreaLoaders = partial;
    expect(loaders).toEqual({});
  });

  it('every lazy area module implements exactly its machines', async () => {
    const root: WiringRoot = { client: createApiClient({ fetch: () => Promise.reject(new Error('no server')) }) };
    const modules: Record<LazyWiringArea, { readonly wire: (root: WiringRoot) => { readonly area: string; readonly implementations: readonly MachineImplementation[] } }> = {
      auth: await import('../../src/wiring/auth'),
      turnstile: await import('../../src/wiring/turnstile'),
      home: await import('../../src/wiring/home'),
      channel: await import('../../src/wiring/channel'),
      token: await import('../../src/wiring/token'),
      redemption: await import('../../src/wiring/redemption'),
      user: await import('../../src/wiring/user'),
      log: await import('../../src/wiring/log'),
      dashboard: await import('../../src/wiring/dashboard'),
      pricing: await import('../../src/wiring/pricing'),
      topup: await import('../../src/wiring/topup'),
      setting: await import('../../src/wiring/setting'),
      palette: await import('../../src/wiring/palette'),
    };
    for (const [area, module] of Object.entries(modules)) {
      const wired = module.wire(root);
      expect(wired.area).toBe(area);
      expect(wired.implementations.map((i) => i.id).sort()).toEqual([...pageMachineAreas[area as LazyWiringArea]].sort());
    }
  });
});

describe('the machine wiring', () => {
  it('src/wiring/pageAreas.json (the first-paint preload, the bundle figures) names the areas each page loads with withWiring', () => {
    const root = new URL('../../', import.meta.url);
    const declared = JSON.parse(readFileSync(new URL('src/wiring/pageAreas.json', root), 'utf8')) as Record<string, string[]>;
    const used: Record<string, string[]> = {};
    for (const file of ['src/views/app/AppRoutes.tsx', 'src/views/app/AppShell.tsx']) {
      const source = readFileSync(new URL(file, root), 'utf8');
      for (const [, areas = '', module = ''] of source.matchAll(/withWiring\(\s*(\[[^\]]*\]|'[^']*'),\s*\(\) => import\('\.\.\/([^']+)'\)/g)) {
        used[`src/views/${module}.tsx`] = [...areas.matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '');
      }
    }
    expect(Object.keys(used).length).toBeGreaterThan(15);
    expect(used).toEqual(declared);
  });

  const footerImplementation = implement<typeof footer.footerMachine>('footer', { actors: footerActors });
  const shell = { area: 'shell', implementations: [footerImplementation] } as const;
  const area = <A extends LazyWiringArea>(name: A): { readonly area: A; readonly implementations: readonly MachineImplementation<never>[] } => ({
    area: name,
    implementations: pageMachineAreas[name].map((id) => ({ id, implementation: {} }) as MachineImplementation<never>),
  });
  const loadersCounting = (calls: string[], fail: Set<string> = new Set()): AreaLoaders =>
    Object.fromEntries(
      (Object.keys(pageMachineAreas) as (keyof typeof pageMachineAreas)[])
        .filter((name): name is LazyWiringArea => name !== 'shell')
        .map((name) => [
          name,
          () => {
            calls.push(name);
            return fail.has(name) ? Promise.reject(new Error(`chunk ${name} failed`)) : Promise.resolve(area(name));
          },
        ]),
    ) as unknown as AreaLoaders;

  it('registers the shell at once and an area when it is loaded, each area once', async () => {
    const wiring = createMachineWiring();
    expect(wiring.connected).toBe(false);
    await wiring.load(['token']); // not connected (stories, tests): nothing to load
    const calls: string[] = [];
    wiring.connect(shell, loadersCounting(calls));
    expect(wiring.connected).toBe(true);
    expect(wiring.implementationOf('footer')).toBe(footerImplementation);
    expect(wiring.implementationOf('tokenTable')).toBeUndefined();
    await Promise.all([wiring.load(['token']), wiring.load(['token', 'turnstile'])]);
    expect(calls).toEqual(['token', 'turnstile']);
    expect(wiring.implementationOf('tokenTable')?.id).toBe('tokenTable');
    expect(wiring.implementationOf('turnstile')?.id).toBe('turnstile');
    expect(wiring.implementationOf('channelTable')).toBeUndefined();
  });

  it('a failed area load rejects and is tried again next time', async () => {
    const wiring = createMachineWiring();
    const calls: string[] = [];
    const fail = new Set(['log']);
    wiring.connect(shell, loadersCounting(calls, fail));
    await expect(wiring.load(['log'])).rejects.toThrow('chunk log failed');
    fail.clear();
    await wiring.load(['log']);
    expect(calls).toEqual(['log', 'log']);
    expect(wiring.implementationOf('logTable')?.id).toBe('logTable');
  });

  it('in development, a page machine rendered before its area is wired fails at once; a wired one is provided', () => {
    const wiring = createMachineWiring();
    wiring.connect(shell, loadersCounting([]));
    const Page = ({ machine }: { readonly machine: AnyStateMachine }) => {
      const provided = useProvidedMachine(machine);
      return createElement('p', null, provided === machine ? 'bare' : 'provided');
    };
    const render = (machine: AnyStateMachine) =>
      renderToString(createElement(MachineRegistryProvider, { wiring, children: createElement(Page, { machine }) }));
    expect(render(footer.footerMachine)).toContain('provided');
    expect(() => render(tokenList.tokenTableMachine)).toThrow("machine 'tokenTable' rendered without its implementation");
  });
});
