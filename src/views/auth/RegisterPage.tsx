import { useSearchParams } from 'react-router-dom';
import { inviteCodeOf } from '../../domain/inviteCode';
import { selectStatus } from '../../machines/session/session.selectors';
import { SessionContext } from '../app/sessionContext';
import { RegisterPageContainer } from './RegisterPageContainer';
import { turnstileSettings } from './Turnstile';

/**
 * Route page for /register: the app session (the register machine watches its status for the
 * server's flags: e-mail verification, bot check), the bot check's site key, and the inviter
 * code from `?aff=` (the register machine remembers it).
 */
export function RegisterPage() {
  const session = SessionContext.useActorRef();
  const siteKey = turnstileSettings(SessionContext.useSelector(selectStatus)).siteKey;
  const [params] = useSearchParams();
  return <RegisterPageContainer session={session} turnstileSiteKey={siteKey} affCode={inviteCodeOf(params.toString())} />;
}
