/**
 * The real gateway for end-to-end tests: a fresh SQLite file, migrations, bootstrap, the API
 * and the console (built once per run by globalSetup.ts) all on one loopback port, and Debian's
 * Chromium (launched once per run by globalSetup.ts) driven by Playwright.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { expect, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Download, type Page } from 'playwright';
import { loadConfig, type Config, type Env } from '../../../server/config';
import { bootstrap } from '../../../server/db/bootstrap';
import { openDatabase, type DatabaseHandle } from '../../../server/db/connect';
import { migrate } from '../../../server/db/migrate';
import { createServerApp } from '../../../server/http/server';
import { Client } from '../../server/support/http';
import { letToastsRunOut } from './toasts';

export interface GatewayOptions {
  /** Extra environment for the server (SMTP is an option; OAuth base URLs are env). */
  readonly env?: Env;
  /** Fields set after reading the environment (e.g. rate limits). */
  readonly config?: Partial<Config>;
}

export interface GatewayUnderTest {
  readonly url: string;
  readonly browser: Browser;
  readonly database: DatabaseHandle;
  readonly config: Config;
  /**
   * A fresh browser context (its pages work with AxeBuilder) with a desktop window by default;
   * a toast paused under the pointer runs out before the next action (`letToastsRunOut`).
   */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** An HTTP client (cookie jar) for this gateway, logged in as root (default password). */
  root(): Promise<Client>;
  /**
   * Signs `username` in once through /login in a throwaway context (landing on `landing` when
   * given) and answers the session the console then keeps (the cookie and localStorage `user`,
   * none of the window's preferences such as the colour mode): `newContext({ storageState })`
   * starts signed in.
   */
  signedIn(username: string, password: string, landing?: string): Promise<SignedIn>;
  readonly close: () => Promise<void>;
}

/** The console build the e2e globalSetup made for this run. */
export function consoleDist(): string {
  return inject('consoleDist');
}

/**
 * Connects to the run's Chromium (Debian's, with the project's flags; globalSetup.ts launches it
 * once). Each connection has its own contexts; closing it leaves the browser to the other files.
 */
export function connectChromium(): Promise<Browser> {
  return chromium.connect(inject('chromiumEndpoint'));
}

/** A signed-in console's session: its cookies and localStorage `user` (a `storageState`). */
export type SignedIn = Awaited<ReturnType<BrowserContext['storageState']>>;

/** Signs in through the /login form and waits for the account menu (and for `landing`, when given). */
export async function logInThroughForm(page: Page, url: string, username: string, password: string, landing?: string): Promise<void> {
  await page.goto(`${url}/login`);
  const form = page.getByRole('form', { name: '用户登录' });
  await form.getByLabel('用户名或邮箱').fill(username);
  await form.getByLabel('密码').fill(password);
  await form.getByRole('button', { name: '登录' }).click();
  if (landing !== undefined) await page.waitForURL(`${url}${landing}`);
  await page.getByRole('button', { name: /^账户菜单：/ }).waitFor();
}

/**
 * Chooses a menu's item the way a mouse does: onto it (the menu highlights it), then a click. Zag's
 * menu acts on the highlighted item, so a click that lands before the highlight (a pointer moved
 * and pressed within one busy frame) selects nothing and leaves the menu open.
 */
export async function chooseMenuItem(page: Page, name: string): Promise<void> {
  const item = page.getByRole('menuitem', { name });
  await item.hover();
  await expect.poll(() => item.getAttribute('data-highlighted')).toBe('');
  await item.click();
}

/**
 * The text of a download. The browser runs in another process (a browser server), where
 * `Download.path()` is not available: the file is saved to a temp folder and read back.
 */
export async function downloadedText(download: Download): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-download-'));
  try {
    const file = join(dir, download.suggestedFilename());
    await download.saveAs(file);
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startGateway(options: GatewayOptions = {}): Promise<GatewayUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-e2e-'));
  // The rate limits keep their defaults: the global web limit counts pages, not the hashed chunks
  // a cold browser loads (server/http/server.ts), so the walks stay far below it.
  const env = { SQLITE_PATH: join(dir, 'one-api.db'), SESSION_SECRET: 'e2e-secret', VERSION: 'v0.1.0' };
  const config: Config = {
    ...loadConfig({ ...env, ...options.env }),
    ...options.config,
  };
  const database = openDatabase(config);
  await migrate(database.db, database.dialect);
  await bootstrap(database.db, database.dialect, config);
  const app = createServerApp({ db: database.db, dialect: database.dialect, config }, consoleDist());
  const server = await new Promise<{ server: ServerType; port: number }>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve({ server: s, port: info.port }));
  });
  const browser = await connectChromium();
  const url = `http://127.0.0.1:${server.port}`;
  const newContext = async (contextOptions?: BrowserContextOptions) =>
    letToastsRunOut(await browser.newContext({ viewport: { width: 1280, height: 800 }, ...contextOptions }));
  return {
    url,
    browser,
    database,
    config,
    newContext,
    root: async () => {
      const client = new Client(url);
      const reply = await client.login('root', '123456');
      if (reply.body?.success !== true) throw new Error(`root login failed: ${reply.text}`);
      return client;
    },
    signedIn: async (username, password, landing) => {
      const context = await newContext();
      try {
        await logInThroughForm(await context.newPage(), url, username, password, landing);
        const state = await context.storageState();
        return { ...state, origins: state.origins.map((o) => ({ ...o, localStorage: o.localStorage.filter((e) => e.name === 'user') })) };
      } finally {
        await context.close();
      }
    },
    close: async () => {
      await browser.close();
      server.server.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Sets options through the API as root (`PUT /api/option/`), failing on the first refusal. */
export async function setOptions(root: Client, values: Readonly<Record<string, string>>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const reply = await root.request('PUT', '/api/option/', { body: { key, value } });
    if (reply.body?.success !== true) throw new Error(`option ${key}: ${reply.text}`);
  }
}
