// The compressed bytes each route of the console loads first, read from a `vite build` folder
// (its .vite/manifest.json): the entry (shell, shared code, CSS) with its static imports and the
// default language's shell messages, plus the route's lazy chunk with its own static imports and
// its area of the messages (src/i18n/pageAreas.json), which loads with it. Used by `npm run bench` (figures) and by
// tests/unit/bundle-budget.test.ts (the budget in budget.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

/** @typedef {{ raw: number, gzip: number, brotli: number }} Size */

/** The budget: per route, the most gzip bytes its first load may take (`npm run bench -- --write-budget` writes it). */
export const budgetFile = 'bench/bundle/budget.json';

/** The wiring areas each lazy page loads beside itself (src/views/app/AppRoutes.tsx, `withWiring`). */
const wiringAreasFile = new URL('../../src/wiring/pageAreas.json', import.meta.url);

/** The default language's messages (zh; en is about the same size) by area: the shell's load before anything renders. */
const areaModule = (area) => `src/i18n/zh/areas/${area}.ts`;
/** @type {Record<string, string>} each lazy module's area, loaded in parallel with it */
const pageAreas = JSON.parse(readFileSync(new URL('../../src/i18n/pageAreas.json', import.meta.url), 'utf8'));

/** The budget of a first load of `gzip` bytes: 1 % more, rounded up to 100 bytes (a small change fits, a new library does not). */
export const budgetFor = (gzip) => Math.ceil((gzip * 1.01) / 100) * 100;

/**
 * The sizes of a build in `dist`.
 * @param {string} dist
 */
export function measureBuild(dist) {
  /** @type {Record<string, { file: string, css?: string[], imports?: string[], isEntry?: boolean, isDynamicEntry?: boolean }>} */
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  /** @type {Map<string, Size>} */
  const sizes = new Map();
  /** @param {string} file @returns {Size} */
  function size(file) {
    let known = sizes.get(file);
    if (known === undefined) {
      const buf = readFileSync(join(dist, file));
      known = {
        raw: buf.length,
        gzip: gzipSync(buf, { level: 9 }).length,
        brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      };
      sizes.set(file, known);
    }
    return known;
  }
  /** The files a manifest entry pulls in synchronously: itself, its static imports, their CSS. @param {string} key @param {Set<string>} seen */
  function closure(key, seen = new Set()) {
    const entry = manifest[key];
    if (!entry || seen.has(entry.file)) return seen;
    seen.add(entry.file);
    for (const css of entry.css ?? []) seen.add(css);
    for (const imp of entry.imports ?? []) closure(imp, seen);
    return seen;
  }
  /** @param {Iterable<string>} files @returns {Size} */
  const total = (files) =>
    [...files].reduce((acc, f) => {
      const s = size(f);
      return { raw: acc.raw + s.raw, gzip: acc.gzip + s.gzip, brotli: acc.brotli + s.brotli };
    }, { raw: 0, gzip: 0, brotli: 0 });

  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry === true);
  if (entryKey === undefined) throw new Error(`no entry in ${dist}/.vite/manifest.json`);
  const entryFiles = closure(entryKey);
  // src/main.tsx awaits the active language's shell area (its own chunk) before the first render.
  if (manifest[areaModule('shell')] !== undefined) closure(areaModule('shell'), entryFiles);
  /** @type {Record<string, string[]>} */
  const wiringAreas = JSON.parse(readFileSync(wiringAreasFile, 'utf8'));
  const routeKeys = Object.keys(manifest)
    .filter((k) => manifest[k]?.isDynamicEntry === true && k.startsWith('src/views/'))
    .sort();
  return {
    entry: total(entryFiles),
    /**
     * Per lazy chunk (`auth/LoginPage.tsx`, ...): `own` is its code and messages beyond the entry,
     * with the wiring of its areas (src/wiring/<area>.ts, loaded beside it), `firstLoad` entry + own.
     */
    routes: routeKeys.map((key) => {
      // the page renders once its chunk, its wiring and its area of the messages are all there
      const area = pageAreas[key];
      if (area === undefined) throw new Error(`${key} has no area in src/i18n/pageAreas.json`);
      const files = closure(key);
      for (const wiring of wiringAreas[key] ?? []) closure(`src/wiring/${wiring}.ts`, files);
      if (manifest[areaModule(area)] !== undefined) closure(areaModule(area), files);
      const own = [...files].filter((f) => !entryFiles.has(f));
      return { route: key.replace('src/views/', ''), own: total(own), firstLoad: total(new Set([...entryFiles, ...own])) };
    }),
  };
}
