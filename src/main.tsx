/**
 * The composition root (conventions §1): builds the one API client, provides every machine
 * with its real actors, reads the stored session and preferences, and mounts the console.
 * The only module that wires src/api into machines.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { createApi, createApiClient } from './api';
import {
  copyTextActor,
  createUnauthorizedSignal,
  defaultStorage,
  fromApi,
  openWindow,
  readLocal,
  readStoredFooter,
  readStoredStatus,
  readStoredUser,
  watchSession,
  writeLocal,
} from './api/actors';
import { loadTurnstile } from './api/actors/turnstile';
import { defaultLang, parseColorMode, parseLang } from './domain/preferences';
import type { footerMachine } from './machines/footer';
import type { oauthCallbackMachine } from './machines/oauthCallback';
import type { FetchContentInput, pageContentMachine } from './machines/pageContent';
import type { oauthLaunchMachine } from './machines/oauthLaunch';
import type { profileEditMachine } from './machines/profileEdit';
import type { passwordResetConfirmMachine } from './machines/passwordResetConfirm';
import type { passwordResetRequestMachine } from './machines/passwordResetRequest';
import { preferencesMachine, type PreferencesChanged } from './machines/preferences';
import type { registerMachine } from './machines/register';
import { sessionMachine } from './machines/session';
import type { turnstileMachine } from './machines/turnstile';
import type { wechatLoginMachine } from './machines/wechatLogin';
import { App } from './views/app/App';
import { implement } from './views/app/machineRegistry';

const unauthorized = createUnauthorizedSignal();
const api = createApi(
  createApiClient({ baseUrl: import.meta.env.VITE_SERVER_ADDRESS, onUnauthorized: unauthorized.notify }),
);

const session = sessionMachine.provide({
  actors: {
    loadStatus: fromApi(() => api.status.getStatus()),
    logIn: fromApi(api.auth.login),
    logOut: fromApi(() => api.auth.logout()),
    watchSession: watchSession({ unauthorized }),
  },
});

/** Stores the preferences and applies them to the page: html lang and Chakra's dark class. */
const applyPreferences = fromCallback<EventObject>(({ receive }) => {
  receive((event) => {
    const { lang, colorMode } = event as PreferencesChanged;
    writeLocal('lang', lang);
    writeLocal('color_mode', colorMode);
    const html = document.documentElement;
    html.lang = lang === 'zh' ? 'zh-CN' : 'en';
    html.classList.toggle('dark', colorMode === 'dark');
    html.classList.toggle('light', colorMode === 'light');
    html.style.colorScheme = colorMode;
  });
});

const preferences = preferencesMachine.provide({ actors: { applyPreferences } });

const implementations = [
  implement<typeof registerMachine>('register', {
    actors: {
      registerUser: fromApi(({ payload, turnstile }) => api.auth.register(payload, turnstile)),
      sendVerificationCode: fromApi(({ email, turnstile }) => api.auth.sendVerificationCode(email, turnstile)),
      rememberAffCode: fromPromise(({ input }) => {
        if (input.affCode !== '') {
          writeLocal('aff', input.affCode);
          return Promise.resolve(input.affCode);
        }
        return Promise.resolve(readLocal('aff') ?? '');
      }),
    },
  }),
  implement<typeof passwordResetRequestMachine>('passwordResetRequest', {
    actors: { sendPasswordReset: fromApi(({ email, turnstile }) => api.auth.sendPasswordReset(email, turnstile)) },
  }),
  implement<typeof passwordResetConfirmMachine>('passwordResetConfirm', {
    actors: { confirmPasswordReset: fromApi(api.auth.confirmPasswordReset), copyText: copyTextActor },
  }),
  implement<typeof oauthLaunchMachine>('oauthLaunch', {
    actors: { fetchOAuthState: fromApi(() => api.auth.getOAuthState()) },
    actions: { openWindow: (_, { url }) => openWindow(url) },
  }),
  implement<typeof oauthCallbackMachine>('oauthCallback', {
    actors: {
      exchangeCode: fromApi(({ provider, code, state }) =>
        provider === 'github' ? api.auth.oauthGitHub({ code, state }) : api.auth.oauthLark({ code, state }),
      ),
    },
  }),
  implement<typeof profileEditMachine>('profileEdit', {
    actors: { loadSelf: fromApi(() => api.user.getSelf()), saveSelf: fromApi(api.user.updateSelf) },
  }),
  implement<typeof wechatLoginMachine>('wechatLogin', { actors: { loginWithWeChat: fromApi(api.auth.wechatLogin) } }),
  implement<typeof turnstileMachine>('turnstile', { actors: { loadTurnstile } }),
  implement<typeof pageContentMachine>('pageContent', {
    actors: {
      readCachedContent: fromPromise(({ input }) => Promise.resolve(readLocal(input.key))),
      writeCachedContent: fromPromise(({ input }) => {
        writeLocal(input.key, input.value);
        return Promise.resolve();
      }),
      fetchContent: fromApi(({ kind }: FetchContentInput) =>
        kind === 'home' ? api.status.getHomePageContent() : api.status.getAbout(),
      ),
      readSeenNotice: fromPromise(() => Promise.resolve(readLocal('notice'))),
      fetchNotice: fromApi(() => api.status.getNotice()),
      writeSeenNotice: fromPromise(({ input }) => {
        writeLocal('notice', input.notice);
        return Promise.resolve();
      }),
    },
  }),
  implement<typeof footerMachine>('footer', { actors: { readStoredFooter: fromPromise(() => Promise.resolve(readStoredFooter())) } }),
];

const storage = defaultStorage();
const rootElement = document.getElementById('root');
if (rootElement === null) throw new Error('index.html has no #root element');

createRoot(rootElement).render(
  <StrictMode>
    <App
      session={session}
      sessionInput={{
        user: readStoredUser(storage),
        status: readStoredStatus(storage),
        buildVersion: import.meta.env.VITE_APP_VERSION,
      }}
      preferences={preferences}
      preferencesInput={{
        lang: parseLang(readLocal('lang', storage)) ?? defaultLang,
        colorMode:
          parseColorMode(readLocal('color_mode', storage)) ??
          (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'),
      }}
      implementations={implementations}
    />
  </StrictMode>,
);
