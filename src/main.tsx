/**
 * The composition root (conventions §1): builds the one API client, provides every machine
 * with its real actors and effects (the rules they follow live in src/domain), reads the stored
 * session and preferences, and mounts the console. The only module that wires src/api into
 * machines: itself for the session, the preferences, the shell and the login page, and through
 * the area modules of src/wiring for the rest, each loaded beside the pages needing it.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { createAuthApi } from './api/authApi';
import { createApiClient } from './api/client';
import { createStatusApi } from './api/statusApi';
import { primedFetch, primedRequests } from './api/primed';
import { apiActors } from './api/actors/fromApi';
import { openWindow } from './api/actors/browser/windows';
import { createUnauthorizedSignal, watchSession } from './api/actors/browser/sessionWatch';
import { defaultStorage, readLocal, readStoredFooter, readStoredStatus, readStoredUser, writeLocal } from './api/actors/browser/storage';
import { documentAppearanceOf, initialPreferences } from './domain/documentPreferences';
import type { footerMachine } from './machines/footer';
import type { oauthLaunchMachine } from './machines/oauthLaunch';
import { preferencesMachine, type PreferencesChanged } from './machines/preferences';
import { sessionMachine } from './machines/session';
import type { wechatLoginMachine } from './machines/wechatLogin';
import { loadCatalogue } from './i18n';
import { App } from './views/app/App';
import { preloadFirstPage } from './views/app/AppRoutes';
import { implement, implementArea } from './views/app/machineRegistry';
import { machineWiring } from './views/app/machineWiring';
import type { WiringRoot } from './wiring/root';

const unauthorized = createUnauthorizedSignal();
const client = createApiClient({
  baseUrl: import.meta.env.VITE_SERVER_ADDRESS,
  // the first page's GETs that index.html's script sent early are answered from there (once)
  fetch: primedFetch(),
  onUnauthorized: unauthorized.notify,
  // the server's messages in the console's language (html lang follows the preference)
  language: () => document.documentElement.lang,
});
// every API actor calls the server with its own abort signal: a stopped actor cancels its requests
const fromApi = apiActors(client, (c) => ({ status: createStatusApi(c), auth: createAuthApi(c) }));

const session = sessionMachine.provide({
  actors: {
    loadStatus: fromApi((api) => () => api.status.getStatus()),
    logIn: fromApi((api) => api.auth.login),
    verifySecondFactor: fromApi((api) => api.auth.loginSecondFactor),
    logOut: fromApi((api) => () => api.auth.logout()),
    checkEnrolment: fromApi((api) => () => api.auth.enrolmentRequired()),
    watchSession: watchSession({ unauthorized }),
  },
});

/** The preferences machine's effect: stores the preferences and shows them on the page (src/domain/documentPreferences). */
const applyPreferences = fromCallback<EventObject>(({ receive }) => {
  receive((event) => {
    const { lang, colorMode } = event as PreferencesChanged;
    writeLocal('lang', lang);
    writeLocal('color_mode', colorMode);
    const look = documentAppearanceOf({ lang, colorMode });
    const html = document.documentElement;
    html.lang = look.lang;
    html.classList.remove('dark', 'light');
    html.classList.add(look.className);
    html.style.colorScheme = look.colorScheme;
  });
});

const preferences = preferencesMachine.provide({
  actors: {
    applyPreferences,
    // another language's catalogue chunk, loaded before the console switches to it
    loadCatalogue: fromPromise(({ input }) => loadCatalogue(input.lang)),
  },
});

// The entry wires the shell and the login page; every other area loads beside its pages (withWiring).
const root: WiringRoot = { client };
machineWiring.connect(
  implementArea('shell', [
    implement<typeof footerMachine>('footer', { actors: { readStoredFooter: fromPromise(() => Promise.resolve(readStoredFooter())) } }),
    implement<typeof oauthLaunchMachine>('oauthLaunch', {
      actors: { fetchOAuthState: fromApi((api) => () => api.auth.getOAuthState()) },
      actions: { openWindow: (_, { url }) => openWindow(url) },
    }),
    implement<typeof wechatLoginMachine>('wechatLogin', { actors: { loginWithWeChat: fromApi((api) => api.auth.wechatLogin) } }),
  ]),
  {
    auth: () => import('./wiring/auth').then((m) => m.wire(root)),
    turnstile: () => import('./wiring/turnstile').then((m) => m.wire()),
    home: () => import('./wiring/home').then((m) => m.wire(root)),
    channel: () => import('./wiring/channel').then((m) => m.wire(root)),
    token: () => import('./wiring/token').then((m) => m.wire(root)),
    redemption: () => import('./wiring/redemption').then((m) => m.wire(root)),
    user: () => import('./wiring/user').then((m) => m.wire(root)),
    log: () => import('./wiring/log').then((m) => m.wire(root)),
    dashboard: () => import('./wiring/dashboard').then((m) => m.wire(root)),
    pricing: () => import('./wiring/pricing').then((m) => m.wire(root)),
    topup: () => import('./wiring/topup').then((m) => m.wire(root)),
    setting: () => import('./wiring/setting').then((m) => m.wire(root)),
    palette: () => import('./wiring/palette').then((m) => m.wire(root)),
  },
);

const storage = defaultStorage();
const rootElement = document.getElementById('root');
if (rootElement === null) throw new Error('index.html has no #root element');
const preferencesInput = initialPreferences(
  { lang: readLocal('lang', storage), colorMode: readLocal('color_mode', storage) },
  window.matchMedia('(prefers-color-scheme: dark)').matches,
);
// Only the active language's catalogue, and before the first render (index.html preloads it).
await loadCatalogue(preferencesInput.lang);

// A restored admin's enrolment, when index.html's script asked for it early and it is in by the
// time the first page has loaded: the admin page the address shows then draws with it instead of
// waiting for the check. The first render never waits for it (a slow answer leaves the check to
// the session machine, which shows the page-loading placeholder meanwhile).
let enrolmentRequired: boolean | undefined;
if (primedRequests()?.peek('/api/user/2fa/status'))
  void createAuthApi(client)
    .enrolmentRequired()()
    .then((answer) => {
      if (answer._tag === 'Right') enrolmentRequired = answer.right;
    });

// The page the address shows (preloaded too) is loaded before the first render, which then draws
// it without a placeholder; not awaited here: its modules import this one's chunk, which is done
// only once this module has run (a top-level await of them would wait for itself).
void preloadFirstPage(document.documentElement.dataset.firstPage).then(() =>
  createRoot(rootElement).render(
    <StrictMode>
      <App
        session={session}
        sessionInput={{
          user: readStoredUser(storage),
          status: readStoredStatus(storage),
          buildVersion: import.meta.env.VITE_APP_VERSION,
          enrolmentRequired,
        }}
        preferences={preferences}
        preferencesInput={preferencesInput}
        wiring={machineWiring}
      />
    </StrictMode>,
  ),
);
