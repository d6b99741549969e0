import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import {
  emailBindMachine,
  personalSettingsMachine,
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
  selfDeleteMachine,
  wechatBindMachine,
} from '../../machines/personalSettings';
import { oauthLaunchMachine, selectLaunching } from '../../machines/oauthLaunch';
import { selectStatus, selectUser } from '../../machines/session/session.selectors';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { alternateLogins } from '../auth/OAuthButtons';
import { Turnstile, turnstileSettings, useTurnstile } from '../auth/Turnstile';
import { PersonalSettingsView } from './PersonalSettingsView';

/**
 * The personal settings tab of /setting (no props: it reads the session). Five small workflows:
 * the tab itself (account, access token, invite link), the deletion dialog, the WeChat and
 * e-mail binding dialogs, and the GitHub / Lark launch (oauthLaunch; the callback page binds).
 * A binding reloads the account; a deleted account logs out.
 */
export function PersonalSettings() {
  const session = SessionContext.useActorRef();
  const user = SessionContext.useSelector(selectUser);
  const status = SessionContext.useSelector(selectStatus);
  const origin = window.location.origin;
  const methods = alternateLogins(status);
  const bot = turnstileSettings(status);

  const settings = useMachineActor(personalSettingsMachine, { origin });
  const deletion = useMachineActor(selfDeleteMachine, { username: user?.username ?? '' });
  const wechat = useMachineActor(wechatBindMachine);
  const email = useMachineActor(emailBindMachine, { turnstileEnabled: bot.enabled });
  const oauth = useMachineActor(oauthLaunchMachine, { origin });
  const turnstile = useTurnstile();

  useEffect(() => {
    const reload = () => settings.send({ type: 'account.reload' });
    const subs = [wechat.on('account.bound', reload), email.on('account.bound', reload)];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [settings, wechat, email]);
  useEffect(() => {
    const sub = deletion.on('account.deleted', () => session.send({ type: 'logout.request' }));
    return () => sub.unsubscribe();
  }, [deletion, session]);

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
  );
}
