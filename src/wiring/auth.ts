import { fromPromise } from 'xstate';
import { createAuthApi } from '../api/authApi';
import { apiActors } from '../api/actors/fromApi';
import { copyTextActor } from '../api/actors/browser/clipboard';
import { readLocal, writeLocal } from '../api/actors/browser/storage';
import { inviteCodeToUse } from '../domain/inviteCode';
import type { oauthCallbackMachine } from '../machines/oauthCallback';
import type { passwordResetConfirmMachine } from '../machines/passwordResetConfirm';
import type { passwordResetRequestMachine } from '../machines/passwordResetRequest';
import { relayChildren } from '../machines/pageRelay/pageRelay';
import type { registerMachine } from '../machines/register';
import { sendCooldownWith } from '../machines/sendCooldown/sendCooldown.machine';
import { followSession } from '../machines/sessionWatch/sessionWatch';
import { implement, implementArea } from '../views/app/machineRegistry';
import type { WiringRoot } from './root';

/** The sign-up, password reset and OAuth callback pages (the login page is the entry's). */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ auth: createAuthApi(c) }));
  return implementArea('auth', [
    implement<typeof registerMachine>('register', {
      actors: {
        followSession,
        registerUser: fromApi((api) => ({ payload, turnstile }) => api.auth.register(payload, turnstile)),
        sendVerificationCode: sendCooldownWith(fromApi((api) => ({ email, turnstile }) => api.auth.sendVerificationCode(email, turnstile))),
        relayChildren,
        rememberAffCode: fromPromise(({ input }) => {
          const { code, remember } = inviteCodeToUse(input.affCode, readLocal('aff'));
          if (remember) writeLocal('aff', code);
          return Promise.resolve(code);
        }),
      },
    }),
    implement<typeof passwordResetRequestMachine>('passwordResetRequest', {
      actors: {
        sendPasswordReset: sendCooldownWith(fromApi((api) => ({ email, turnstile }) => api.auth.sendPasswordReset(email, turnstile))),
        relayChildren,
      },
    }),
    implement<typeof passwordResetConfirmMachine>('passwordResetConfirm', {
      actors: { confirmPasswordReset: fromApi((api) => api.auth.confirmPasswordReset), copyText: copyTextActor },
    }),
    implement<typeof oauthCallbackMachine>('oauthCallback', {
      actors: {
        exchangeCode: fromApi((api) => ({ provider, code, state }) =>
          provider === 'github' ? api.auth.oauthGitHub({ code, state }) : api.auth.oauthLark({ code, state }),
        ),
      },
    }),
  ]);
};
