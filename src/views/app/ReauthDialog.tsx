import { selectIsReauthSigningIn, selectReauth, selectReauthUsername } from '../../machines/session/session.selectors';
import { ReauthDialogView } from './ReauthDialogView';
import { SessionContext } from './sessionContext';

/**
 * The session's sign-in dialog (states `reauthenticating` / `reauthSigningIn`): loaded on demand
 * by the shell when a save met an expired session. The same user signing in lets the waiting
 * forms save again; Cancel, Escape and "sign in as someone else" end the session (the login page).
 */
export function ReauthDialog() {
  const session = SessionContext.useActorRef();
  const reauth = SessionContext.useSelector(selectReauth);
  const username = SessionContext.useSelector(selectReauthUsername);
  const signingIn = SessionContext.useSelector(selectIsReauthSigningIn);
  return (
    <ReauthDialogView
      open={reauth !== null}
      username={username}
      error={reauth?.error ?? null}
      signingIn={signingIn}
      onSubmit={(password) => session.send({ type: 'reauth.submit', password })}
      onCancel={() => session.send({ type: 'reauth.cancel' })}
      onOtherUser={() => session.send({ type: 'reauth.cancel' })}
    />
  );
}
