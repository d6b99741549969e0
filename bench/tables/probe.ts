/**
 * The in-page side of the table benchmark: each interaction is timed from the moment its event
 * is dispatched to the first paint after the change is in the DOM (a requestAnimationFrame that
 * sees the change, then a message posted from it, which runs once that frame is painted). The
 * time of the last DOM mutation before that paint is kept too (script + commit, without paint).
 * Controls are found by role and accessible name, as a person would find them.
 *
 * "All rows drawn" means every row that the viewport must show is in the DOM: for a table that
 * draws every row of its page, all of the page's rows; for a windowed table (one that says its
 * row count with `aria-rowcount` and draws only the rows near the viewport, spacer rows standing
 * for the others), the page's row count is right and no spacer row lies in the viewport. Each
 * sample also keeps how many body rows were in the DOM at that paint.
 */

export interface Sample {
  /** Until the first paint that shows the change (with the rows drawn in that frame). */
  readonly paint: number;
  /**
   * Until the first paint with every row of the page drawn: the table not marked busy
   * (`aria-busy` on the table or around it), so rows a table draws in a later frame are counted.
   */
  readonly all: number;
  /** Until the last DOM mutation seen before the paint (-1 when the change mutated nothing). */
  readonly commit: number;
  /** Body rows in the DOM at the all-rows paint (spacer rows of a windowed table not counted). */
  readonly rows: number;
}

/** One step of a cycle: timed under `name`, or untimed (getting back to where the cycle starts). */
export interface Step {
  readonly name?: string;
  readonly act: () => void;
  readonly done: () => boolean;
}

/** Steps that end where they start, so a cycle can be repeated. */
export type Cycle = readonly Step[];

/** Samples by step name, or the reason a cycle could not run. */
export type Samples = Record<string, Sample[] | { readonly error: string }>;

const maxWait = 20_000;

/**
 * Every row that the viewport must show is drawn: no busy mark on the table or around it, a page
 * followed by another (its "next" button enabled) holds as many rows as the page size says
 * (`pageRows`), and, in a windowed table, no spacer row (standing for rows not drawn) is in the
 * viewport.
 */
const allDrawn = (): boolean => {
  const t = findTable();
  if (t === null) return true;
  if (t.closest('[aria-busy="true"]') !== null) return false;
  const next = byLabel<HTMLButtonElement>('button', '下一页');
  const size = byLabel<HTMLSelectElement>('select', '每页条数');
  if (!(next === null || next.disabled || size === null || pageRows() === Number(size.value))) return false;
  return spacers().every((r) => {
    const box = r.getBoundingClientRect();
    return box.height < 1 || box.bottom <= 0 || box.top >= innerHeight;
  });
};

/**
 * Resolves after the first painted frame in which `done()` holds, with the time of that paint and
 * of the first paint in which all rows are drawn too (`allDrawn`): the same when that frame had them.
 */
function paintedWhen(done: () => boolean, t0: number, all: () => boolean = () => true): Promise<{ readonly first: number; readonly all: number }> {
  return new Promise((resolve, reject) => {
    const painted = (then: (t: number) => void) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => then(performance.now());
      channel.port2.postMessage(0);
    };
    let first = -1;
    let seen = false;
    const tick = () => {
      let ok: boolean;
      let whole: boolean;
      try {
        ok = seen || done();
        whole = ok && all();
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      if (ok && !seen) {
        seen = true;
        painted((t) => {
          first = t;
          if (whole) resolve({ first: t, all: t });
        });
        if (!whole) requestAnimationFrame(tick);
      } else if (whole) painted((t) => resolve({ first: first < 0 ? t : first, all: t }));
      else if (performance.now() - t0 > maxWait) reject(new Error(ok ? 'the rows were not all drawn' : 'the page did not change'));
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

const settle = () => paintedWhen(allDrawn, performance.now());

async function time(act: () => void, done: () => boolean): Promise<Sample> {
  await settle();
  let last = -1;
  const observer = new MutationObserver(() => {
    last = performance.now();
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  const t0 = performance.now();
  act();
  const t1 = await paintedWhen(done, t0, allDrawn);
  observer.takeRecords();
  observer.disconnect();
  return { paint: t1.first - t0, all: t1.all - t0, commit: last < 0 ? -1 : last - t0, rows: bodyRows().length };
}

// ---- the page, found as a person finds it ----

const must = <E>(e: E | null, what: string): E => {
  if (e === null) throw new Error(`not found: ${what}`);
  return e;
};

const findTable = (): HTMLTableElement | null =>
  [...document.querySelectorAll('table')].sort((a, b) => (b.tBodies[0]?.rows.length ?? 0) - (a.tBodies[0]?.rows.length ?? 0))[0] ?? null;
const table = (): HTMLTableElement => must(findTable(), 'a table');
const allBodyRows = (): HTMLTableRowElement[] => [...(findTable()?.tBodies[0]?.rows ?? [])];
/** The body rows drawn (a windowed table's spacer rows, hidden from assistive technology, left out). */
const bodyRows = (): HTMLTableRowElement[] => allBodyRows().filter((r) => r.getAttribute('aria-hidden') !== 'true');
const spacers = (): HTMLTableRowElement[] => allBodyRows().filter((r) => r.getAttribute('aria-hidden') === 'true');
/** The page's rows: the table's `aria-rowcount` less the header row when it says it (windowed), else the rows drawn. */
const pageRows = (): number => {
  const count = findTable()?.getAttribute('aria-rowcount');
  return count === null || count === undefined ? bodyRows().length : Number(count) - 1;
};
const loaded = (): boolean => {
  const rows = bodyRows();
  return rows.length > 0 && rows[0]!.cells.length > 1;
};
const signature = (): string => {
  const rows = bodyRows();
  return `${rows.length}|${rows[0]?.textContent ?? ''}|${rows[rows.length - 1]?.textContent ?? ''}`;
};
const byLabel = <E extends Element>(selector: string, label: string | RegExp): E | null =>
  ([...document.querySelectorAll<E>(selector)].find((e) => {
    const name = e.getAttribute('aria-label') ?? '';
    return typeof label === 'string' ? name === label : label.test(name);
  }) ?? null);
const pager = () => must(byLabel<HTMLElement>('nav', '分页'), 'the pager');
const pageButtons = () => [...pager().querySelectorAll<HTMLButtonElement>('button')].filter((b) => /^第 \d+ 页$/.test(b.getAttribute('aria-label') ?? ''));
const currentPage = () => pager().querySelector('[aria-current="page"]')?.getAttribute('aria-label') ?? '';
const sortable = () => [...table().querySelectorAll<HTMLTableCellElement>('thead th[aria-sort]')];
const sortHeader = (prefer: RegExp, fallback: number): HTMLTableCellElement => {
  const all = sortable();
  return must(all.find((th) => prefer.test(th.textContent)) ?? all[fallback] ?? null, 'a sortable column');
};
const pageBox = () => byLabel<HTMLInputElement>('input[type="checkbox"]', '选择本页全部');
const rowBoxes = () => bodyRows().flatMap((r) => [...r.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].slice(0, 1));
const sizeSelect = () => must(byLabel<HTMLSelectElement>('select', '每页条数'), 'the page size');
/** A client-side filter of the list: a select other than the page size and a server order (first one with choices). */
const filterSelect = () =>
  [...document.querySelectorAll<HTMLSelectElement>('select')].find(
    (s) => !/每页条数|排序/.test(s.getAttribute('aria-label') ?? '') && s.options.length > 2,
  ) ?? null;
const searchBox = () => document.querySelector<HTMLInputElement>('input[type="search"]');

const choose = (select: HTMLSelectElement, value: string) => {
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
};
const typeInto = (input: HTMLInputElement, text: string) => {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
};
/** Runs `act` (not timed) and waits until `done` is painted. */
const untimed = async (act: () => void, done: () => boolean) => {
  act();
  await paintedWhen(done, performance.now(), allDrawn);
};

const goFirst = () =>
  untimed(
    () => {
      if (currentPage() !== '第 1 页') must(byLabel<HTMLButtonElement>('button', '第 1 页'), 'page 1').click();
    },
    () => currentPage() === '第 1 页',
  );

/** The cycles measured on a mounted list; those whose control the page lacks are left out. */
export function cycles(): Cycle[] {
  const list: Cycle[] = [];
  const a = () => sortHeader(/名称|用户名/, 1);
  const b = () => sortHeader(/^ID/, 0);
  const click = (th: HTMLTableCellElement) => th.querySelector('button')!.click();
  list.push([
    { act: () => click(b()), done: () => a().getAttribute('aria-sort') === 'none' && b().getAttribute('aria-sort') !== 'none' },
    { name: 'sort by a column', act: () => click(a()), done: () => a().getAttribute('aria-sort') === 'ascending' },
    { name: 'reverse the sort', act: () => click(a()), done: () => a().getAttribute('aria-sort') === 'descending' },
  ]);
  const isLast = () => currentPage() === pageButtons().at(-1)?.getAttribute('aria-label') && currentPage() !== '第 1 页';
  list.push([
    {
      name: 'next page',
      act: () => must(byLabel<HTMLButtonElement>('button', '下一页'), 'next').click(),
      done: () => currentPage() === '第 2 页',
    },
    { name: 'jump to the last page', act: () => pageButtons().at(-1)!.click(), done: isLast },
    { name: 'back to the first page', act: () => must(byLabel<HTMLButtonElement>('button', '第 1 页'), 'page 1').click(), done: () => currentPage() === '第 1 页' },
  ]);
  // from the page size the list opened with to the other of 10 and 100, and back
  const from = Number(sizeSelect().value);
  const to = from === 10 ? 100 : 10;
  list.push([
    { name: `page size ${from} -> ${to}`, act: () => choose(sizeSelect(), String(to)), done: () => Number(sizeSelect().value) === to && (to > from ? pageRows() > from : pageRows() === to) },
    { name: `page size ${to} -> ${from}`, act: () => choose(sizeSelect(), String(from)), done: () => Number(sizeSelect().value) === from && (from > to ? pageRows() > to : pageRows() === from) },
  ]);
  if (searchBox()) {
    list.push([
      { name: 'type one key in the search box', act: () => typeInto(searchBox()!, 'a'), done: () => searchBox()!.value === 'a' },
      { act: () => typeInto(searchBox()!, ''), done: () => searchBox()!.value === '' },
    ]);
  }
  const filter = filterSelect();
  if (filter) {
    let sig = '';
    list.push([
      {
        name: 'client-side filter (select)',
        act: () => {
          sig = signature();
          const s = filterSelect()!;
          choose(s, s.options[s.options.length - 1]!.value);
        },
        done: () => signature() !== sig,
      },
      {
        name: 'clear that filter',
        act: () => {
          sig = signature();
          choose(filterSelect()!, '');
        },
        done: () => signature() !== sig,
      },
    ]);
  }
  if (pageBox()) {
    list.push([
      { name: 'select all on the page', act: () => pageBox()!.click(), done: () => rowBoxes().length > 0 && rowBoxes().every((x) => x.checked) },
      { name: 'unselect the page', act: () => pageBox()!.click(), done: () => rowBoxes().every((x) => !x.checked) },
    ]);
  }
  return list;
}

/** Ready to measure: rows shown; the "load more" page fetched once, so every row is in the pager. */
export async function prepare(): Promise<void> {
  await paintedWhen(loaded, performance.now(), allDrawn);
  const more = byLabel<HTMLButtonElement>('button', /加载更多/);
  if (more) {
    await untimed(() => more.click(), () => byLabel('button', /加载更多/) === null && loaded());
    await goFirst();
  }
}

/** Runs each cycle warmup + repetitions times; a cycle that fails leaves its error instead. */
export async function measureCycles(list: readonly Cycle[], repetitions: number, warmup: number, into: Samples): Promise<void> {
  for (const cycle of list) {
    const named = cycle.flatMap((s) => (s.name ? [s.name] : []));
    console.info(`bench: ${named.join(', ')}`);
    const got: Record<string, Sample[]> = Object.fromEntries(named.map((n) => [n, []]));
    try {
      for (let i = 0; i < warmup + repetitions; i++) {
        for (const step of cycle) {
          if (step.name === undefined) await untimed(step.act, step.done);
          else {
            const s = await time(step.act, step.done);
            if (i >= warmup) got[step.name]!.push(s);
          }
        }
      }
      Object.assign(into, got);
    } catch (e) {
      for (const n of named) into[n] = { error: e instanceof Error ? e.message : String(e) };
      await goFirst().catch(() => undefined);
    }
  }
}

/** Showing the page until its first page of rows is painted (a fresh actor each time). */
export async function measureMount(show: (on: boolean) => void, repetitions: number, warmup: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < warmup + repetitions; i++) {
    await untimed(() => show(false), () => findTable() === null);
    const s = await time(() => show(true), loaded);
    if (i >= warmup) samples.push(s);
  }
  return samples;
}
