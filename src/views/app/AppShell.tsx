import { lazy, Suspense, useEffect, useMemo, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import {
  selectChatLink,
  selectDisplayName,
  selectIsAdmin,
  selectIsSignedIn,
  selectIsAccessPending,
  selectIsSigningOut,
  selectIsReauthOpen,
  selectLogo,
  selectMustEnrol,
  selectRole,
  selectServerVersion,
  selectSystemName,
} from '../../machines/session/session.selectors';
import { selectColorMode, selectLang } from '../../machines/preferences/preferences.selectors';
import { twoFactorEnrolment } from '../../machines/session/session.machine';
import { loadAfterPage } from './afterPage';
import { AppShellView, EnrolmentBanner } from './AppShellView';
import { HeaderView } from './HeaderView';
import { routeAccessOf, routeAudienceOf } from '../../domain/shellRules';
import { withMessages } from '../../i18n';
import { useT } from './i18n';
import { withWiring } from './machineWiring';
import { documentTitleOf, menuItems, pageTitleKeyOf } from './menu';
import { PreferencesContext, SessionContext } from './sessionContext';

// The footer (and the HTML sanitiser it needs) loads after the first page is drawn (./afterPage).
const Footer = lazy(loadAfterPage(() => import('./Footer').then((m) => ({ default: m.Footer }))));
// The command palette (machine, dialog, search actors' results) loads after the first page, signed in
// only, with its wiring and its messages.
const CommandPalette = lazy(
  loadAfterPage(
    withMessages('palette', withWiring('palette', () => import('../palette/CommandPalette').then((m) => ({ default: m.CommandPalette })))),
  ),
);

// The sign-in dialog over an expired session loads only when a waiting save opens it.
const ReauthDialog = lazy(() => import('./ReauthDialog').then((m) => ({ default: m.ReauthDialog })));

/** The shell container: the session and preferences actors drawn as header and footer. */
export function AppShell({ children }: { readonly children: ReactNode }) {
  const t = useT();
  const session = SessionContext.useActorRef();
  const preferences = PreferencesContext.useActorRef();
  const isAdmin = SessionContext.useSelector(selectIsAdmin);
  const chatLink = SessionContext.useSelector(selectChatLink);
  const signedIn = SessionContext.useSelector(selectIsSignedIn);
  const displayName = SessionContext.useSelector(selectDisplayName);
  const signingOut = SessionContext.useSelector(selectIsSigningOut);
  const reauthOpen = SessionContext.useSelector(selectIsReauthOpen);
  const systemName = SessionContext.useSelector(selectSystemName) || t('shell.defaultSystemName');
  const logo = SessionContext.useSelector(selectLogo) || '/logo.png';
  const version = SessionContext.useSelector(selectServerVersion);
  const lang = PreferencesContext.useSelector(selectLang);
  const colorMode = PreferencesContext.useSelector(selectColorMode);
  const { pathname } = useLocation();
  // TwoFactorRequiredForAdmins: an admin without 2FA is held at the enrolment (the server refuses the rest).
  const mustEnrol = SessionContext.useSelector(selectMustEnrol);
  const heldAway = mustEnrol && pathname !== twoFactorEnrolment;
  const items = useMemo(() => menuItems({ signedIn, isAdmin, chatLink }), [signedIn, isAdmin, chatLink]);
  const role = SessionContext.useSelector(selectRole);
  const pending = SessionContext.useSelector(selectIsAccessPending);
  const pageKey = pageTitleKeyOf(pathname, routeAccessOf(routeAudienceOf(pathname), { role, pending }));
  const title = documentTitleOf(pageKey === null ? null : t(pageKey), systemName);
  // The tab title follows the status's system name and the page (the DOM's, not a machine's state).
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <AppShellView
      banner={mustEnrol ? <EnrolmentBanner /> : null}
      header={
        <HeaderView
          systemName={systemName}
          logo={logo}
          items={items}
          pathname={pathname}
          userName={signedIn ? displayName : null}
          signingOut={signingOut}
          lang={lang}
          colorMode={colorMode}
          onLangChange={(next) => preferences.send({ type: 'lang.set', lang: next })}
          onToggleColorMode={() => preferences.send({ type: 'colorMode.toggle' })}
          onLogout={() => session.send({ type: 'logout.request' })}
          commandPalette={
            signedIn ? (
              <Suspense fallback={null}>
                <CommandPalette />
              </Suspense>
            ) : null
          }
        />
      }
      footer={
        <Suspense fallback={null}>
          <Footer systemName={systemName} version={version} />
        </Suspense>
      }
    >
      {heldAway ? <Navigate to={twoFactorEnrolment} replace /> : children}
      {reauthOpen && (
        <Suspense fallback={null}>
          <ReauthDialog />
        </Suspense>
      )}
    </AppShellView>
  );
}
