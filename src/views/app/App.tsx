import { lazy, Suspense, useCallback, useMemo, type ReactNode } from 'react';
import { BrowserRouter, useNavigate } from 'react-router-dom';
import { ChakraProvider } from '@chakra-ui/react';
import type { PaletteCommandEvent } from '../../domain/commandPalette';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { preferencesMachine, PreferencesInput } from '../../machines/preferences/preferences.machine';
import { selectLang } from '../../machines/preferences/preferences.selectors';
import type { sessionMachine, SessionInput } from '../../machines/session/session.machine';
import { loadAfterPage, openDeferred } from './afterPage';
import { AppRoutes } from './AppRoutes';
import { AppShell } from './AppShell';
import { LangProvider, useRenderMessage } from './i18n';
import {
  EffectsProvider,
  MachineRegistryProvider,
  useMachineEffects,
  type EffectHandlers,
} from './machineRegistry';
import type { MachineWiring } from './machineWiring';
import { PreferencesContext, SessionContext } from './sessionContext';
import { system } from './theme';

/**
 * The toaster (Chakra's toast machinery) is not needed to draw a page: it mounts after the first
 * page (./afterPage), and a toast asked for before it is there opens that gate and shows once the
 * toaster is there (in order).
 */
const loadToaster = () => import('./toaster');
const Toaster = lazy(loadAfterPage(() => loadToaster().then((m) => ({ default: m.Toaster }))));
const showToast = (event: NotifyEvent, text: string): void => {
  openDeferred();
  void loadToaster().then((m) => m.showToast(event, text));
};

export interface AppProps {
  /** The session machine with its actors provided (src/main.tsx). */
  readonly session: typeof sessionMachine;
  readonly sessionInput: SessionInput;
  readonly preferences: typeof preferencesMachine;
  readonly preferencesInput: PreferencesInput;
  /** Every page machine's actors, by machine id, registered area by area as the pages load (the machines load with their pages). */
  readonly wiring: MachineWiring;
}

function LangFromPreferences({ children }: { readonly children: ReactNode }) {
  const lang = PreferencesContext.useSelector(selectLang);
  return <LangProvider value={lang}>{children}</LangProvider>;
}

/** Turns machines' emitted notify/navigate/status.reload events into toasts, route changes and a status reload. */
export function ShellEffects({ children }: { readonly children: ReactNode }) {
  const navigateTo = useNavigate();
  const render = useRenderMessage();
  const notify = useCallback((e: NotifyEvent) => showToast(e, render(e.message)), [render]);
  const navigate = useCallback(
    (e: NavigateEvent) => {
      void navigateTo(e.to, { replace: e.replace === true });
    },
    [navigateTo],
  );
  const session = SessionContext.useActorRef();
  const reloadStatus = useCallback(() => session.send({ type: 'status.reload' }), [session]);
  const preferences = PreferencesContext.useActorRef();
  const command = useCallback(
    ({ command }: PaletteCommandEvent) => {
      if (command === 'theme.toggle') preferences.send({ type: 'colorMode.toggle' });
      else if (command === 'lang.toggle') preferences.send({ type: 'lang.set', lang: selectLang(preferences.getSnapshot()) === 'zh' ? 'en' : 'zh' });
      else session.send({ type: 'logout.request' });
    },
    [preferences, session],
  );
  const handlers = useMemo<EffectHandlers>(() => ({ notify, navigate, reloadStatus, command }), [notify, navigate, reloadStatus, command]);
  return (
    <EffectsProvider value={handlers}>
      <SessionEffects />
      <PreferencesEffects />
      {children}
    </EffectsProvider>
  );
}

function SessionEffects() {
  useMachineEffects(SessionContext.useActorRef());
  return null;
}

/** A language that failed to load says so in a toast. */
function PreferencesEffects() {
  useMachineEffects(PreferencesContext.useActorRef());
  return null;
}

/** The whole console: providers, router, shell, routes, the one toaster. */
export function App({ session, sessionInput, preferences, preferencesInput, wiring }: AppProps) {
  return (
    <ChakraProvider value={system}>
      <PreferencesContext.Provider logic={preferences} options={{ input: preferencesInput }}>
        <LangFromPreferences>
          <SessionContext.Provider logic={session} options={{ input: sessionInput }}>
            <MachineRegistryProvider wiring={wiring}>
              {/* Route changes render with the session state they come with (no transition): a
                  401 sends /login?expired=true before the login guard could send plain /login. */}
              <BrowserRouter useTransitions={false}>
                <ShellEffects>
                  <AppShell>
                    <AppRoutes />
                  </AppShell>
                </ShellEffects>
              </BrowserRouter>
              <Suspense fallback={null}>
                <Toaster />
              </Suspense>
            </MachineRegistryProvider>
          </SessionContext.Provider>
        </LangFromPreferences>
      </PreferencesContext.Provider>
    </ChakraProvider>
  );
}
