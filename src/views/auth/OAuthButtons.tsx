import type { ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { Status } from '../../domain/status';
import { oauthLaunchMachine, selectLaunching } from '../../machines/oauthLaunch';
import { useMachineActor } from '../app/machineRegistry';
import { OAuthButtonsView } from './OAuthButtonsView';

/** The alternate logins the server enables (contract §5.7); null = not offered. */
export interface AlternateLogins {
  /** status.github_oauth -> github_client_id. */
  readonly github: string | null;
  /** status.lark_client_id when non-empty (Lark has no enable flag). */
  readonly lark: string | null;
  /** status.wechat_login -> wechat_qrcode. */
  readonly wechat: string | null;
}

export function alternateLogins(status: Status | null): AlternateLogins {
  if (status === null) return { github: null, lark: null, wechat: null };
  return {
    github: status.github_oauth ? status.github_client_id : null,
    lark: status.lark_client_id !== undefined && status.lark_client_id !== '' ? status.lark_client_id : null,
    wechat: status.wechat_login ? status.wechat_qrcode : null,
  };
}

export const hasAlternateLogins = (m: AlternateLogins): boolean => m.github !== null || m.lark !== null || m.wechat !== null;

/**
 * The login page's GitHub and Lark buttons: each opens the provider's page in a new window
 * (oauthLaunch machine). `children` (the WeChat dialog, when offered) sits beside them.
 */
export function OAuthButtons({ methods, children }: { readonly methods: AlternateLogins; readonly children?: ReactNode }) {
  const actorRef = useMachineActor(oauthLaunchMachine, { origin: window.location.origin });
  const launching = useSelector(actorRef, selectLaunching);
  const { github, lark } = methods;
  return (
    <OAuthButtonsView
      github={github !== null}
      lark={lark !== null}
      launching={launching}
      onLaunch={(provider) => {
        const clientId = provider === 'github' ? github : lark;
        if (clientId !== null) actorRef.send({ type: 'oauth.launch', provider, clientId });
      }}
    >
      {children}
    </OAuthButtonsView>
  );
}
