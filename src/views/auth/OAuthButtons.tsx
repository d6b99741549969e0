import type { ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { AlternateLogins } from '../../domain/loginMethods';
import { oauthLaunchMachine, selectLaunching } from '../../machines/oauthLaunch';
import { useMachineActor } from '../app/machineRegistry';
import { OAuthButtonsView } from './OAuthButtonsView';

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
