/**
 * Global setup of the e2e project: builds the console once per run into a temp folder and hands
 * its path to every test file (`inject('consoleDist')`); the folder is removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The console's production build (vite build output) shared by every e2e file. */
    consoleDist: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'console-build-'));
  const dist = join(dir, 'dist');
  await build({ logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
  project.provide('consoleDist', dist);
  return () => {
    rmSync(dir, { recursive: true, force: true });
  };
}
