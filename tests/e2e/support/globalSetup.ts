/**
 * Global setup of the e2e project, once per run: builds the console into a temp folder and
 * launches Debian's Chromium (the project's flags) as a browser server, meanwhile. Every test file
 * serves that build (`inject('consoleDist')`) and connects to that browser
 * (`inject('chromiumEndpoint')`) instead of launching its own; both go at the end of the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import { chromiumArgs } from '../../../vitest.config';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The console's production build (vite build output) shared by every e2e file. */
    consoleDist: string;
    /** The WebSocket endpoint of the run's Chromium (playwright `chromium.connect`). */
    chromiumEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'console-build-'));
  const dist = join(dir, 'dist');
  const [, server] = await Promise.all([
    build({ logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } }),
    chromium.launchServer({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs }),
  ]);
  project.provide('consoleDist', dist);
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  };
}
