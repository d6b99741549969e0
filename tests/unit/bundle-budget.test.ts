import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetFile, measureBuild } from '../../bench/bundle/sizes.mjs';

/**
 * The bundle-size budget: per route of the console, the gzip bytes of its first load (the entry
 * with its CSS and static imports, plus the route's lazy chunk) stay within bench/bundle/budget.json
 * (today's figures plus 1 %). A route that grows past it fails here; when the growth is wanted,
 * `npm run bench -- --write-budget` writes the new figures, and the commit shows them.
 */

const root = new URL('../../', import.meta.url).pathname;
const budget = JSON.parse(readFileSync(join(root, budgetFile), 'utf8')) as Record<string, number>;

describe('bundle budget', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bundle-budget-'));
  let measured: ReturnType<typeof measureBuild>;

  beforeAll(() => {
    // A production build as `npm run build` makes it, in its own process: Vitest sets
    // NODE_ENV=test, which would select React's development build (about 70 KB gzip more).
    const env = { ...process.env, NODE_ENV: 'production' };
    const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
    const result = spawnSync(process.execPath, [vite, 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: root,
      env,
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    measured = measureBuild(dir);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every route has a budget, and every budget a route', () => {
    expect(measured.routes.map((r) => r.route).sort()).toEqual(Object.keys(budget).sort());
  });

  it('no route loads more gzip bytes first than its budget', () => {
    const over = measured.routes
      .filter((r) => r.firstLoad.gzip > (budget[r.route] ?? 0))
      .map((r) => `${r.route}: ${r.firstLoad.gzip} bytes gzip, budget ${budget[r.route]}`);
    expect(over).toEqual([]);
  });
});
