import { describe, expect, it } from 'vitest';
import { planChunks, type BuiltChunk, type PlanInput } from '../../scripts/chunkPlan';

/** A chunk of `size` bytes holding one module named after it, importing `imports`. */
const chunk = (fileName: string, size: number, imports: readonly string[] = [], facade = false): BuiltChunk => ({
  fileName,
  imports,
  moduleIds: [`/src/${fileName}.ts`],
  facadeModuleId: facade ? `/src/${fileName}.ts` : null,
  size,
});
const route = (name: string, files: readonly string[]) => ({ name, files: new Set(files) });
const input = (over: Partial<PlanInput> & Pick<PlanInput, 'chunks' | 'routes'>): PlanInput => ({
  entryFiles: new Set(),
  others: [],
  kept: new Set(),
  allowance: () => 0,
  ...over,
});
/** The plan as groups of chunk files (each module is named after its chunk). */
const groupsOf = (plan: Map<string, string>): string[][] => {
  const groups = new Map<string, string[]>();
  for (const [id, name] of plan) groups.set(name, [...(groups.get(name) ?? []), id.replace(/^\/src\/(.*)\.ts$/, '$1')]);
  return [...groups.values()].map((g) => g.sort()).sort((a, b) => a[0]!.localeCompare(b[0]!));
};

describe('planChunks: fewer chunks for the first-paint routes, within what each may load for nothing', () => {
  it('merges chunks loaded by the same routes, at no cost', () => {
    const chunks = [chunk('page', 100, ['a', 'b', 'c'], true), chunk('a', 10), chunk('b', 20), chunk('c', 30)];
    const plan = planChunks(input({ chunks, routes: [route('page', ['page', 'a', 'b', 'c'])] }));
    expect(groupsOf(plan)).toEqual([['a', 'b', 'c']]);
  });

  it('never merges an entry of any kind, the entry closure, or a kept chunk (another group)', () => {
    const chunks = [chunk('page', 100, ['a', 'shared', 'login1'], true), chunk('wiring', 5, [], true), chunk('a', 10), chunk('shared', 10), chunk('login1', 10)];
    const plan = planChunks(
      input({
        chunks,
        entryFiles: new Set(['shared']),
        kept: new Set(['login1']),
        routes: [route('page', ['page', 'wiring', 'a', 'login1'])],
      }),
    );
    // only one unit is left ('a'): a group of one is no merge
    expect(plan.size).toBe(0);
  });

  it("merges chunks of different routes only within each route's allowance", () => {
    // x: loaded by both routes; y by r1 only; merging them makes r2 load y (400 bytes)
    const chunks = [chunk('p1', 100, ['x', 'y'], true), chunk('p2', 100, ['x'], true), chunk('x', 1000), chunk('y', 400)];
    const routes = [route('p1', ['p1', 'x', 'y']), route('p2', ['p2', 'x'])];
    expect(groupsOf(planChunks(input({ chunks, routes, allowance: () => 399 })))).toEqual([]);
    expect(groupsOf(planChunks(input({ chunks, routes, allowance: () => 400 })))).toEqual([['x', 'y']]);
  });

  it('counts what the other chunk imports: a route loads all of it', () => {
    // merging x and y makes r2 load y and z (y imports z): 400 + 600 bytes
    const chunks = [chunk('p1', 100, ['x', 'y'], true), chunk('p2', 100, ['x'], true), chunk('x', 1000), chunk('y', 400, ['z']), chunk('z', 600)];
    const routes = [route('p1', ['p1', 'x', 'y', 'z']), route('p2', ['p2', 'x'])];
    const plan = groupsOf(planChunks(input({ chunks, routes, allowance: () => 999 })));
    expect(plan.some((g) => g.includes('x') && g.includes('y'))).toBe(false);
    expect(groupsOf(planChunks(input({ chunks, routes, allowance: () => 1000 })))).toEqual([['x', 'y', 'z']]);
  });

  it('holds a lazily loaded module (a dialog) to its allowance too', () => {
    // the dialog loads y only: merging y into x would make it load x's 1000 bytes
    const chunks = [chunk('p1', 100, ['x', 'y'], true), chunk('dialog', 50, ['y'], true), chunk('x', 1000), chunk('y', 400)];
    const routes = [route('p1', ['p1', 'x', 'y'])];
    const others = [route('dialog', ['dialog', 'y'])];
    expect(groupsOf(planChunks(input({ chunks, routes, others, allowance: ({ bytes }) => (bytes > 1000 ? 10_000 : 0) })))).toEqual([]);
    expect(groupsOf(planChunks(input({ chunks, routes, others: [], allowance: () => 0 })))).toEqual([['x', 'y']]);
  });

  it('merges the chunks of a page held to no extra code only with each other (the login page)', () => {
    // login loads l1 and l2; the list page loads l1 and x: l1 may join l2 (login loads both), never x
    const chunks = [chunk('login', 10, ['l1', 'l2'], true), chunk('list', 10, ['l1', 'x'], true), chunk('l1', 100), chunk('l2', 100), chunk('x', 100)];
    const routes = [route('login', ['login', 'l1', 'l2']), route('list', ['list', 'l1', 'x'])];
    const plan = planChunks(input({ chunks, routes, allowance: ({ name }) => (name === 'login' ? 0 : 1000) }));
    expect(groupsOf(plan)).toEqual([['l1', 'l2']]);
  });

  it('refuses a merge that would make chunks import each other in a circle', () => {
    // a imports k (kept), k imports b: a group of a and b would import k, which imports it
    const chunks = [chunk('page', 100, ['a', 'b', 'k'], true), chunk('a', 10, ['k']), chunk('k', 10, ['b']), chunk('b', 10)];
    const plan = planChunks(input({ chunks, kept: new Set(['k']), routes: [route('page', ['page', 'a', 'k', 'b'])] }));
    expect(plan.size).toBe(0);
  });

  it('prefers merges that spare more files per byte, and is the same for the same input', () => {
    // r1 and r2 both load s1 and s2 (free to merge); r3 loads s3 with s1, which r1 and r2 would pay for
    const chunks = [
      chunk('p1', 1, ['s1', 's2'], true),
      chunk('p2', 1, ['s1', 's2'], true),
      chunk('p3', 1, ['s1', 's3'], true),
      chunk('s1', 100),
      chunk('s2', 100),
      chunk('s3', 5000),
    ];
    const routes = [route('p1', ['p1', 's1', 's2']), route('p2', ['p2', 's1', 's2']), route('p3', ['p3', 's1', 's3'])];
    const once = planChunks(input({ chunks, routes, allowance: () => 100 }));
    expect(groupsOf(once)).toEqual([['s1', 's2']]);
    expect(planChunks(input({ chunks, routes, allowance: () => 100 }))).toEqual(once);
  });
});
