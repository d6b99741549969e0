import { lazy, Suspense } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { alternateLogins, hasAlternateLogins, loginOffer } from '../../domain/loginMethods';
import {
  selectIsSigningIn,
  selectIsVerifyingSecondFactor,
  selectSecondFactor,
  selectStatus,
} from '../../machines/session/session.selectors';
import { SessionContext } from '../app/sessionContext';
import { LoginPageView } from './LoginPageView';
import { OAuthButtons } from './OAuthButtons';
import { SecondFactorView } from './SecondFactorView';

// The WeChat code dialog (dialog and focus-trap code) loads only where the server enables it.
const WeChatLoginDialog = lazy(() => import('./WeChatLoginDialog').then((m) => ({ default: m.WeChatLoginDialog })));

/** Where the login guard came from: `location.state.from` (a path, or a location object). */
export function originFrom(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('from' in state)) return undefined;
  const from: unknown = state.from;
  if (typeof from === 'string') return from === '' ? undefined : from;
  if (typeof from === 'object' && from !== null && 'pathname' in from && typeof from.pathname === 'string') {
    const search = 'search' in from && typeof from.search === 'string' ? from.search : '';
    const hash = 'hash' in from && typeof from.hash === 'string' ? from.hash : '';
    return `${from.pathname}${search}${hash}`;
  }
  return undefined;
}

/**
 * Route page for /login. The password login is the app session's: the form sends
 * `login.submit` (the session checks both fields, signs in and navigates to the origin or
 * /token). The alternate logins appear only when the status enables them. When the account has
 * two-factor sign-in on, the session asks for the code next and this page shows that step.
 */
export function LoginPage() {
  const session = SessionContext.useActorRef();
  const signingIn = SessionContext.useSelector(selectIsSigningIn);
  const status = SessionContext.useSelector(selectStatus);
  const [params] = useSearchParams();
  const location = useLocation();
  const methods = alternateLogins(status);
  const secondFactor = SessionContext.useSelector(selectSecondFactor);
  const verifying = SessionContext.useSelector(selectIsVerifyingSecondFactor);
  if (secondFactor !== null) {
    return (
      <SecondFactorView
        recovery={secondFactor.recovery}
        error={secondFactor.error}
        verifying={verifying}
        onSubmit={(code) => session.send({ type: 'secondFactor.submit', code })}
        onToggleMode={() => session.send({ type: 'secondFactor.modeToggle' })}
        onCancel={() => session.send({ type: 'secondFactor.cancel' })}
      />
    );
  }
  return (
    <LoginPageView
      expired={params.get('expired') === 'true'}
      signingIn={signingIn}
      offer={loginOffer(status)}
      onSubmit={({ username, password }) => {
        const from = originFrom(location.state);
        session.send(
          from === undefined
            ? { type: 'login.submit', username, password }
            : { type: 'login.submit', username, password, from },
        );
      }}
      alternate={
        hasAlternateLogins(methods) ? (
          <OAuthButtons methods={methods}>
            {methods.wechat !== null && (
              <Suspense fallback={null}>
                <WeChatLoginDialog qrCodeUrl={methods.wechat} />
              </Suspense>
            )}
          </OAuthButtons>
        ) : undefined
      }
    />
  );
}
