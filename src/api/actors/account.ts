import { fromPromise, type PromiseActorLogic } from 'xstate';
import type { User } from '../../domain/user';
import type { Api } from '../index';
import type { ApiActors } from './fromApi';

/*
 * Actors of the account screens (top-up page, personal settings tab) for the composition root.
 */

interface CryptoLike {
  readonly randomUUID?: () => string;
  readonly getRandomValues?: <T extends ArrayBufferView | null>(array: T) => T;
}

/**
 * A random transaction id for the external top-up link (contract §2.6: a random UUID):
 * crypto.randomUUID, else a v4 UUID from getRandomValues.
 */
export function randomTransactionId(crypto: CryptoLike | undefined = (globalThis as { crypto?: CryptoLike }).crypto): string {
  if (crypto?.randomUUID !== undefined) return crypto.randomUUID();
  if (crypto?.getRandomValues === undefined) throw new Error('no random source');
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `createTransactionId` of the top-up machine. */
export const createTransactionIdActor: PromiseActorLogic<string> = fromPromise(() => Promise.resolve(randomTransactionId()));

/** `loadSelf`: GET /api/user/self (the account with its quota and bindings). */
export const loadSelfActor = (fromApi: ApiActors<Pick<Api, 'user'>>): PromiseActorLogic<User> => fromApi((api) => () => api.user.getSelf());

/** `redeemCode`: POST /api/user/topup {key}; the quota added. */
export const redeemCodeActor = (fromApi: ApiActors<Pick<Api, 'user'>>): PromiseActorLogic<number, { readonly key: string }> =>
  fromApi((api) => ({ key }: { readonly key: string }) => api.user.topUp(key));

/** `sendVerificationCode` of the e-mail binding: GET /api/verification?email=&turnstile=. */
export const sendBindCodeActor = (fromApi: ApiActors<Pick<Api, 'auth'>>): PromiseActorLogic<void, { readonly email: string; readonly turnstile: string }> =>
  fromApi(
    (api) =>
      ({ email, turnstile }: { readonly email: string; readonly turnstile: string }) =>
        api.auth.sendVerificationCode(email, turnstile),
  );
