import { selectStatus } from '../../machines/session/session.selectors';
import { SessionContext } from '../app/sessionContext';
import { PasswordResetRequestPageContainer } from './PasswordResetRequestPageContainer';
import { turnstileSettings } from './Turnstile';

/**
 * Route page for /reset: the bot-check flag from the app session's status. The workflow
 * starts again when the flag changes (the status arrived after the page).
 */
export function PasswordResetRequestPage() {
  const bot = turnstileSettings(SessionContext.useSelector(selectStatus));
  return (
    <PasswordResetRequestPageContainer
      key={`${bot.enabled}-${bot.siteKey}`}
      turnstileEnabled={bot.enabled}
      turnstileSiteKey={bot.siteKey}
    />
  );
}
