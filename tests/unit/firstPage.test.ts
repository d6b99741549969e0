import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { firstPages, preloadFirstPage } from '../../src/views/app/AppRoutes';
import { firstPaintRoutes } from '../../vite.config';

const routesSource = readFileSync(new URL('../../src/views/app/AppRoutes.tsx', import.meta.url), 'utf8');

/** The module each on-demand page constant of AppRoutes.tsx imports (`const X = page(... import('../a/B') ...`). */
function moduleOfPage(name: string): string | undefined {
  const declared = new RegExp(`const ${name} = page\\(([\\s\\S]*?)\\);\\n`).exec(routesSource)?.[1];
  const imported = declared === undefined ? undefined : /import\('\.\.\/([^']+)'\)/.exec(declared)?.[1];
  return imported === undefined ? undefined : `src/views/${imported}.tsx`;
}

describe('the first page loaded before the first render', () => {
  it("lists the page of each of vite.config.ts's firstPaintRoutes, in their order (index.html names it by its place)", () => {
    const listed = /export const firstPages = \[([\s\S]*?)\];/.exec(routesSource)?.[1] ?? '';
    const names = listed.split(',').map((n) => n.trim()).filter((n) => n !== '');
    expect(names).toHaveLength(firstPages.length);
    expect(names.map(moduleOfPage)).toEqual(firstPaintRoutes.map(([, module]) => module));
  });

  it('gives every place its own on-demand page', () => {
    for (const page of firstPages) expect(typeof page.preload).toBe('function');
    expect(new Set(firstPages).size).toBe(firstPages.length);
  });

  it('loads nothing without a mark or for a mark no page has, and never fails', async () => {
    await expect(preloadFirstPage(undefined)).resolves.toBeUndefined();
    await expect(preloadFirstPage('99')).resolves.toBeUndefined();
    await expect(preloadFirstPage('x')).resolves.toBeUndefined();
  });
});
