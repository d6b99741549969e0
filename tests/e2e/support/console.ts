/**
 * End-to-end support: serves the console build of this run (globalSetup.ts) with `vite preview`
 * on a free loopback port (its /api proxy points at `gateway`), and drives the run's Chromium
 * (see gateway.ts) with Playwright. With `gateway` a closed port, the console must behave like a
 * console whose server is down.
 */
import { preview, type PreviewServer } from 'vite';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright';
import { connectChromium, consoleDist } from './gateway';
import { letToastsRunOut } from './toasts';

export interface ConsoleUnderTest {
  readonly url: string;
  readonly browser: Browser;
  /** A fresh browser context whose toasts paused under the pointer run out (`letToastsRunOut`). */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  readonly close: () => Promise<void>;
}

export async function startConsole(gateway: string): Promise<ConsoleUnderTest> {
  const outDir = consoleDist();
  const proxy = {
    '/api': { target: gateway, changeOrigin: true },
    '/v1': { target: gateway, changeOrigin: true },
  };
  const server: PreviewServer = await preview({
    // The closed gateway makes every proxied call fail; the console reports it, the log need not.
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, proxy },
  });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('preview server has no port');
  const browser = await connectChromium();
  return {
    url: `http://127.0.0.1:${address.port}`,
    browser,
    newContext: async (options) => letToastsRunOut(await browser.newContext(options)),
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
