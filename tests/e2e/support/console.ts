/**
 * End-to-end support: builds the console once, serves it with `vite preview` on a free
 * loopback port (its /api proxy points at `gateway`), and drives Debian's Chromium with
 * Playwright. Until the gateway server lands, `gateway` is a closed port: the console must
 * behave like a console whose server is down.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview, type PreviewServer } from 'vite';
import { chromium, type Browser } from 'playwright';
import { chromiumArgs } from '../../../vitest.config';

export interface ConsoleUnderTest {
  readonly url: string;
  readonly browser: Browser;
  readonly close: () => Promise<void>;
}

export async function startConsole(gateway: string): Promise<ConsoleUnderTest> {
  const outDir = mkdtempSync(join(tmpdir(), 'console-e2e-'));
  const proxy = {
    '/api': { target: gateway, changeOrigin: true },
    '/v1': { target: gateway, changeOrigin: true },
  };
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server: PreviewServer = await preview({
    // The closed gateway makes every proxied call fail; the console reports it, the log need not.
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, proxy },
  });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('preview server has no port');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  return {
    url: `http://127.0.0.1:${address.port}`,
    browser,
    close: async () => {
      await browser.close();
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
