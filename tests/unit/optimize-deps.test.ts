import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vite.config';

/**
 * Every package the console imports at run time is pre-bundled up front (vite.config.ts
 * `optimizeDeps.include`). One Vite finds only while the stories run makes it re-bundle and reload
 * the browser mid-run, and the story file being loaded then fails to import.
 */

const root = new URL('../../', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The bare specifiers of a file's value imports (type-only imports vanish from the build). */
function runtimePackages(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^'.][^']*)'/gms)) found.push(match[1] ?? '');
  for (const match of text.matchAll(/import\('([^'.][^']*)'\)/g)) found.push(match[1] ?? '');
  return found;
}

describe('pre-bundled dependencies', () => {
  it('lists every package the console and its stories import (storybook/* is the runner’s own)', () => {
    const include = new Set(config.optimizeDeps?.include ?? []);
    const imported = new Set(sourceFiles(join(root, 'src')).flatMap((file) => runtimePackages(readFileSync(file, 'utf8'))));
    const missing = [...imported].filter((name) => !name.startsWith('storybook/') && !include.has(name)).sort();
    expect(missing).toEqual([]);
  });
});
