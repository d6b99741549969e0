import { useSelector } from '@xstate/react';
import {
  selectAccount,
  selectCanSendCode,
  selectCodeSecondsLeft,
  selectDeleteConfirmation,
  selectDeleteOpen,
  selectEmailCode,
  selectEmailOpen,
  selectEmailValue,
  selectIsBindingEmail,
  selectIsBindingWeChat,
  selectIsCopyingInvite,
  selectIsDeleting,
  selectIsGeneratingToken,
  selectIsLoadingAccount,
  selectIsSendingCode,
  selectIsSettingsBusy,
  selectShownSecret,
  selectWeChatOpen,
} from '../../machines/personalSettings';
import { selectLaunching } from '../../machines/oauthLaunch';
import { personalSettingsPageMachine } from '../../machines/personalSettingsPage';
import { selectStatus, selectUser } from '../../machines/session/session.selectors';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { alternateLogins } from '../../domain/loginMethods';
import { Turnstile, turnstileSettings, useTurnstile } from '../auth/Turnstile';
import { PersonalSettingsView } from './PersonalSettingsView';
import { TwoFactorSettings } from './TwoFactorSettings';
import { Stack } from '@chakra-ui/react';

/**
 * The personal settings tab of /setting (no props: it reads the session). Five small workflows:
 * the tab itself (account, access token, invite link), the deletion dialog, the WeChat and
 * e-mail binding dialogs, and the GitHub / Lark launch (oauthLaunch; the callback page binds),
 * all children of the page actor (src/machines/personalSettingsPage), which reloads the account
 * after a binding and signs a deleted account out.
 */
export function PersonalSettings() {
  const session = SessionContext.useActorRef();
  const user = SessionContext.useSelector(selectUser);
  const status = SessionContext.useSelector(selectStatus);
  const origin = window.location.origin;
  const methods = alternateLogins(status);
  const bot = turnstileSettings(status);

  const page = useMachineActor(personalSettingsPageMachine, {
    session,
    origin,
    username: user?.username ?? '',
    turnstileEnabled: bot.enabled,
  });
  // the children are invoked for as long as the page lives: they are there from the first snapshot
  const settings = useSelector(page, (s) => s.children.personalSettings)!;
  const deletion = useSelector(page, (s) => s.children.selfDelete)!;
  const wechat = useSelector(page, (s) => s.children.wechatBind)!;
  const email = useSelector(page, (s) => s.children.emailBind)!;
  const oauth = useSelector(page, (s) => s.children.oauthLaunch)!;
  const turnstile = useTurnstile();

  const account = useSelector(settings, selectAccount);
  const loadingAccount = useSelector(settings, selectIsLoadingAccount);
  const generatingToken = useSelector(settings, selectIsGeneratingToken);
  const copyingInvite = useSelector(settings, selectIsCopyingInvite);
  const busy = useSelector(settings, selectIsSettingsBusy);
  const shown = useSelector(settings, selectShownSecret);
  const launching = useSelector(oauth, selectLaunching);
  const deleteOpen = useSelector(deletion, selectDeleteOpen);
  const deleting = useSelector(deletion, selectIsDeleting);
  const confirmation = useSelector(deletion, selectDeleteConfirmation);
  const wechatOpen = useSelector(wechat, selectWeChatOpen);
  const bindingWeChat = useSelector(wechat, selectIsBindingWeChat);
  const emailOpen = useSelector(email, selectEmailOpen);
  const bindingEmail = useSelector(email, selectIsBindingEmail);
  const emailValue = useSelector(email, selectEmailValue);
  const emailCode = useSelector(email, selectEmailCode);
  const sendingCode = useSelector(email, selectIsSendingCode);
  const canSendCode = useSelector(email, selectCanSendCode);
  const codeSecondsLeft = useSelector(email, selectCodeSecondsLeft);

  return (
    <Stack gap={6}>
      <PersonalSettingsView
        account={account}
        loadingAccount={loadingAccount}
        generatingToken={generatingToken}
        copyingInvite={copyingInvite}
        busy={busy}
        shown={shown}
        providers={{ wechat: methods.wechat !== null, github: methods.github !== null, lark: methods.lark !== null }}
        launching={launching !== null}
        onGenerateToken={() => settings.send({ type: 'token.generate' })}
        onCopyInvite={() => settings.send({ type: 'invite.copy' })}
        onDismissShown={() => settings.send({ type: 'secret.dismiss' })}
        onOAuthBind={(provider) => {
          const clientId = provider === 'github' ? methods.github : methods.lark;
          if (clientId !== null) oauth.send({ type: 'oauth.launch', provider, clientId });
        }}
        selfDelete={{
          open: deleteOpen,
          deleting,
          username: user?.username ?? '',
          confirmation,
          onOpen: () => deletion.send({ type: 'delete.open' }),
          onCancel: () => deletion.send({ type: 'delete.cancel' }),
          onConfirmationChange: (value) => deletion.send({ type: 'confirmation.change', value }),
          onConfirm: () => deletion.send({ type: 'delete.confirm' }),
        }}
        wechat={{
          open: wechatOpen,
          binding: bindingWeChat,
          qrCodeUrl: status?.wechat_qrcode ?? '',
          onOpen: () => wechat.send({ type: 'wechat.open' }),
          onCancel: () => wechat.send({ type: 'wechat.cancel' }),
          onSubmit: (code) => wechat.send({ type: 'wechat.submit', code }),
        }}
        email={{
          open: emailOpen,
          binding: bindingEmail,
          email: emailValue,
          code: emailCode,
          sendingCode,
          canSendCode,
          codeSecondsLeft,
          turnstile: bot.enabled ? <Turnstile actorRef={turnstile.actorRef} siteKey={bot.siteKey} /> : undefined,
          onOpen: () => email.send({ type: 'email.open' }),
          onCancel: () => email.send({ type: 'email.cancel' }),
          onChange: (field, value) => email.send({ type: 'field.change', field, value }),
          onSendCode: () => email.send({ type: 'code.send', turnstileToken: turnstile.token }),
          onSubmit: () => email.send({ type: 'email.submit' }),
        }}
      />
      <TwoFactorSettings />
    </Stack>
  );
}
