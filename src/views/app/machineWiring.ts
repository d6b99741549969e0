import type { AreaImplementations, MachineImplementation } from './machineRegistry';
import type { LazyWiringArea } from './pageMachines';

/**
 * The composition root's loaders, one per lazy area (a missing area fails to compile): each loads
 * src/wiring/<area>.ts and builds the area's implementations from the shared API client.
 */
export type AreaLoaders = { readonly [A in LazyWiringArea]: () => Promise<AreaImplementations<A>> };

/**
 * The page machines' implementations, registered as their areas load: the entry's `shell` area at
 * once, every other area when a page needing it loads (`withWiring`), in parallel with the page's
 * chunk. The machine registry reads it (src/views/app/machineRegistry.tsx).
 */
export interface MachineWiring {
  /** Whether the composition root connected its loaders (the console) or not (stories, tests). */
  readonly connected: boolean;
  /** Registers the entry's implementations and the loaders of the others. */
  connect(shell: AreaImplementations<'shell'>, loaders: AreaLoaders): void;
  /** Loads the areas not loaded yet (each once; a failed load is tried again next time) and registers their implementations. */
  load(areas: readonly LazyWiringArea[]): Promise<void>;
  /** The registered implementation of a machine id. */
  implementationOf(id: string): MachineImplementation | undefined;
}

export function createMachineWiring(): MachineWiring {
  const registered = new Map<string, MachineImplementation>();
  const loading = new Map<LazyWiringArea, Promise<void>>();
  let loaders: AreaLoaders | undefined;
  const register = ({ implementations }: { readonly implementations: readonly MachineImplementation[] }): void => {
    for (const implementation of implementations) registered.set(implementation.id, implementation);
  };
  const loadArea = (area: LazyWiringArea, from: AreaLoaders): Promise<void> => {
    const known = loading.get(area);
    if (known !== undefined) return known;
    const started = from[area]().then(register, (error: unknown) => {
      loading.delete(area);
      throw error;
    });
    loading.set(area, started);
    return started;
  };
  return {
    get connected() {
      return loaders !== undefined;
    },
    connect(shell, areaLoaders) {
      register(shell);
      loaders = areaLoaders;
    },
    load(areas) {
      const from = loaders;
      if (from === undefined) return Promise.resolve();
      return Promise.all(areas.map((area) => loadArea(area, from))).then(() => undefined);
    },
    implementationOf: (id) => registered.get(id),
  };
}

/** The console's wiring: src/main.tsx connects it, `withWiring` loads areas into it. */
export const machineWiring: MachineWiring = createMachineWiring();

/**
 * `load` (a lazy page's or component's import) that resolves only once `areas` are wired too,
 * both requested at once (no request chain): a page never renders without its machines'
 * implementations. Without a connected composition root (stories, tests), `load` alone.
 *
 *   page(withWiring('token', () => import('../token/TokenListPage').then((m) => m.TokenListPage)), 'tokens.title')
 */
export const withWiring =
  <T>(areas: LazyWiringArea | readonly LazyWiringArea[], load: () => Promise<T>): (() => Promise<T>) =>
  () =>
    Promise.all([load(), machineWiring.load(typeof areas === 'string' ? [areas] : areas)]).then(([loaded]) => loaded);
