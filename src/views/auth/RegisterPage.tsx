import { useSearchParams } from 'react-router-dom';
import { selectStatus } from '../../machines/session/session.selectors';
import { SessionContext } from '../app/sessionContext';
import { RegisterPageContainer } from './RegisterPageContainer';
import { turnstileSettings } from './Turnstile';

/**
 * Route page for /register: the server's flags (e-mail verification, bot check) from the app
 * session's status, and the inviter code from `?aff=` (the register machine remembers it).
 * The workflow starts again when the flags change (the status arrived after the page).
 */
export function RegisterPage() {
  const status = SessionContext.useSelector(selectStatus);
  const [params] = useSearchParams();
  const emailVerification = status?.email_verification ?? false;
  const bot = turnstileSettings(status);
  return (
    <RegisterPageContainer
      key={`${emailVerification}-${bot.enabled}-${bot.siteKey}`}
      emailVerification={emailVerification}
      turnstileEnabled={bot.enabled}
      turnstileSiteKey={bot.siteKey}
      affCode={params.get('aff') ?? ''}
    />
  );
}
