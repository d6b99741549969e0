/**
 * Fewer, larger chunks for the pages a first load shows, planned from a first build's chunks.
 *
 * The bundler's automatic split gives every set of lazy entries (pages, wiring areas, catalogues,
 * dialogs and menus loaded later) that shares modules a chunk of its own: a list page's first
 * paint loaded about 50 files, most of them under 2 KB, each a request on one of the browser's six
 * connections to the server (the early API requests queue behind them), a module record and its
 * tasks. The planner merges those shared chunks, a merge going through only while everything that
 * loads them stays within its allowance of code it does not use:
 *
 * - a unit is a chunk of the first build that is not an entry of any kind (pages, wiring areas and
 *   catalogues stay files of their own, found by module id), not in the entry's closure and not
 *   another group's chunk;
 * - two groups merge when a route loads both (the file it spares); what a merge costs is, for
 *   everything (a route or a lazily loaded module) that loads one of the two, the bytes of the
 *   other and of all it imports that it did not load yet; the merges that spare the most files
 *   per byte loaded for nothing go first (merges of groups loaded by the same routes cost nothing);
 * - a merge that would make chunks import each other in a circle is refused.
 *
 * The result maps each module of a merged group to the group's name, for the second build's
 * `codeSplitting` group (vite.config.ts, `chunkPlanning`). Modules outside the plan split as before.
 */

/** A chunk of the first build, as the bundler reports it. */
export interface BuiltChunk {
  readonly fileName: string;
  /** The chunks it imports statically. */
  readonly imports: readonly string[];
  readonly moduleIds: readonly string[];
  /** Set for the chunk of an entry (the page's script, a lazily imported module). */
  readonly facadeModuleId: string | null;
  /** Its code's size in bytes. */
  readonly size: number;
}

export interface PlanInput {
  readonly chunks: readonly BuiltChunk[];
  /** The files of the entry's static closure (loaded before any page). */
  readonly entryFiles: ReadonlySet<string>;
  /** The files each first-paint route loads beyond the entry. */
  readonly routes: readonly { readonly name: string; readonly files: ReadonlySet<string> }[];
  /**
   * The files every other lazily loaded module (a dialog, a menu, the footer) loads beyond the
   * entry: a merge may not make them load more than their allowance either.
   */
  readonly others: readonly { readonly name: string; readonly files: ReadonlySet<string> }[];
  /** Files never merged: the chunks of other groups. */
  readonly kept: ReadonlySet<string>;
  /** The bytes of code a route or a lazily loaded module may load that it does not use, given its name and its own bytes. */
  readonly allowance: (consumer: { readonly name: string; readonly bytes: number }) => number;
}

interface Group {
  readonly units: string[];
}

/** Module id -> group name, for the modules of the chunks that merge (groups of one unit are left out). */
export function planChunks(input: PlanInput): Map<string, string> {
  const byFile = new Map(input.chunks.map((c) => [c.fileName, c]));
  const sizeOf = (file: string): number => byFile.get(file)?.size ?? 0;
  // the routes first, then the other lazily loaded modules: a merge spares the routes' files, and
  // holds only while every one of them stays within its allowance
  const consumers = [...input.routes, ...input.others];
  const routeCount = input.routes.length;
  const loads = consumers.map((c) => new Set(c.files));
  const allowance = loads.map((files, r) => input.allowance({ name: consumers[r]!.name, bytes: [...files].reduce((sum, f) => sum + sizeOf(f), 0) }));
  const spent = consumers.map(() => 0);

  const units = input.chunks
    .filter((c) => c.facadeModuleId === null && !input.entryFiles.has(c.fileName) && !input.kept.has(c.fileName) && loads.some((l) => l.has(c.fileName)))
    .map((c) => c.fileName)
    .sort();
  // every unit its own group to start with, in a stable order (by file name)
  const groups = new Map<string, Group>(units.map((file) => [file, { units: [file] }]));
  const groupOf = new Map(units.map((file) => [file, file]));
  const nodeOf = (file: string): string => groupOf.get(file) ?? file;
  const filesOfNode = (node: string): readonly string[] => groups.get(node)?.units ?? [node];

  /** The files loading a group loads: its units and everything they import, a group's units all at once. */
  const closureOf = (node: string): Set<string> => {
    const files = new Set<string>();
    const seen = new Set<string>();
    const stack = [node];
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (seen.has(at)) continue;
      seen.add(at);
      for (const file of filesOfNode(at)) {
        files.add(file);
        for (const imported of byFile.get(file)?.imports ?? []) if (!input.entryFiles.has(imported)) stack.push(nodeOf(imported));
      }
    }
    return files;
  };
  /** Whether `to` is reachable from `from` through chunk imports (the entry's files import no lazy chunk). */
  const reaches = (from: string, to: string): boolean => {
    const reached = closureOf(from);
    return filesOfNode(to).some((file) => reached.has(file));
  };
  /** Merging a and b makes a cycle when one reaches the other through a third node. */
  const wouldCycle = (a: string, b: string): boolean => {
    const through = (from: string, to: string) =>
      filesOfNode(from).some((file) =>
        (byFile.get(file)?.imports ?? []).some((imported) => {
          const next = nodeOf(imported);
          return next !== to && next !== from && reaches(next, to);
        }),
      );
    return through(a, b) || through(b, a);
  };

  // the files spared per byte loaded for nothing (merges that cost nothing first), then the most files spared
  const better = (x: { saved: number; bytes: number }, y: { saved: number; bytes: number }): boolean =>
    x.saved * (y.bytes + 1) > y.saved * (x.bytes + 1) || (x.saved * (y.bytes + 1) === y.saved * (x.bytes + 1) && x.saved > y.saved);
  const refused = new Set<string>();
  for (;;) {
    const names = [...groups.keys()];
    const closures = new Map(names.map((name) => [name, closureOf(name)]));
    // per group: who loads it (a consumer's files hold whole closures, so its first unit tells),
    // and what a consumer not loading it yet would add with it
    const users = new Map(names.map((name) => [name, new Set(loads.flatMap((l, r) => (l.has(groups.get(name)!.units[0]!) ? [r] : [])))]));
    const missing = (name: string, r: number): number => {
      let bytes = 0;
      for (const file of closures.get(name)!) if (!loads[r]!.has(file)) bytes += sizeOf(file);
      return bytes;
    };
    let best: { a: string; b: string; saved: number; bytes: number; cost: Map<number, number> } | undefined;
    for (let i = 0; i < names.length; i++) {
      const usersA = users.get(names[i]!)!;
      for (let j = i + 1; j < names.length; j++) {
        const usersB = users.get(names[j]!)!;
        let saved = 0;
        for (const r of usersA) if (r < routeCount && usersB.has(r)) saved++;
        if (saved === 0 || refused.has(`${names[i]}|${names[j]}`)) continue;
        const cost = new Map<number, number>();
        let bytes = 0;
        let fits = true;
        for (const [from, to, other] of [
          [usersA, usersB, names[j]!],
          [usersB, usersA, names[i]!],
        ] as const) {
          for (const r of from) {
            if (to.has(r)) continue;
            const extra = missing(other, r);
            if (spent[r]! + extra > allowance[r]!) fits = false;
            cost.set(r, extra);
            bytes += extra;
          }
          if (!fits) break;
        }
        if (!fits) continue;
        if (best === undefined || better({ saved, bytes }, best)) best = { a: names[i]!, b: names[j]!, saved, bytes, cost };
      }
    }
    if (best === undefined) break;
    if (wouldCycle(best.a, best.b)) {
      refused.add(`${best.a}|${best.b}`);
      continue;
    }
    const a = groups.get(best.a)!;
    const b = groups.get(best.b)!;
    for (const [r, bytes] of best.cost) spent[r]! += bytes;
    a.units.push(...b.units);
    groups.delete(best.b);
    for (const file of b.units) groupOf.set(file, best.a);
    const merged = closureOf(best.a);
    for (const l of loads) if (a.units.some((file) => l.has(file))) for (const file of merged) l.add(file);
    // a refusal may no longer hold once either side has changed
    for (const key of [...refused]) if (key.split('|').some((name) => name === best.a || name === best.b)) refused.delete(key);
  }

  const plan = new Map<string, string>();
  let n = 0;
  for (const group of groups.values()) {
    if (group.units.length < 2) continue;
    const name = `pages-${n++}`;
    for (const file of group.units) for (const id of byFile.get(file)!.moduleIds) plan.set(id, name);
  }
  return plan;
}
