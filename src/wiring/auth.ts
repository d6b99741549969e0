import * as E from 'fp-ts/Either';
import type { TaskEither } from 'fp-ts/TaskEither';
import { fromPromise } from 'xstate';
import { createAuthApi, type AuthApi, type OAuthResult } from '../api/authApi';
import { apiActors, fromApi as fromApiCall } from '../api/actors/fromApi';
import { copyTextActor } from '../api/actors/browser/clipboard';
import { readLocal, writeLocal } from '../api/actors/browser/storage';
import type { ApiError } from '../domain/apiError';
import { inviteCodeToUse } from '../domain/inviteCode';
import type { ExchangeCodeInput, oauthCallbackMachine } from '../machines/oauthCallback';
import type { passwordResetConfirmMachine } from '../machines/passwordResetConfirm';
import type { passwordResetRequestMachine } from '../machines/passwordResetRequest';
import { relayChildren } from '../machines/pageRelay/pageRelay';
import type { registerMachine } from '../machines/register';
import { sendCooldownWith } from '../machines/sendCooldown/sendCooldown.machine';
import { followSession } from '../machines/sessionWatch/sessionWatch';
import { implement, implementArea } from '../views/app/machineRegistry';
import type { WiringRoot } from './root';

/**
 * The OAuth callback's exchange, each code once. An OAuth code and its state are single-use (the
 * server clears the state on the first callback): a callback page mounted again (its machine
 * stopped and started anew) must not send them a second time, as that exchange would fail with a
 * state mismatch although the first signed the user in. So a code is exchanged once, with `auth`
 * over the client without an actor's abort signal (an aborted fetch may still have reached the
 * server), and a later run of the same code waits for that exchange; a failed one is forgotten,
 * so the machine's retries send it again.
 */
export function exchangesOnce(auth: Pick<AuthApi, 'oauthGitHub' | 'oauthLark'>): (input: ExchangeCodeInput) => TaskEither<ApiError, OAuthResult> {
  const exchanges = new Map<string, Promise<E.Either<ApiError, OAuthResult>>>();
  return ({ provider, code, state }) =>
    () => {
      const key = `${provider} ${code}`;
      let exchange = exchanges.get(key);
      if (exchange === undefined) {
        exchange = (provider === 'github' ? auth.oauthGitHub : auth.oauthLark)({ code, state })().then((result) => {
          if (E.isLeft(result)) exchanges.delete(key);
          return result;
        });
        exchanges.set(key, exchange);
      }
      return exchange;
    };
}

/** The sign-up, password reset and OAuth callback pages (the login page is the entry's). */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ auth: createAuthApi(c) }));
  const exchangeOnce = exchangesOnce(createAuthApi(client));
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
        exchangeCode: fromApiCall(exchangeOnce),
      },
    }),
  ]);
};
