import { createApiClient, type ApiClient, type ApiClientOptions } from './client';
import { createAuthApi, type AuthApi } from './authApi';
import { createChannelApi, type ChannelApi } from './channelApi';
import { createLogApi, type LogApi } from './logApi';
import { createOptionApi, type OptionApi } from './optionApi';
import { createRedemptionApi, type RedemptionApi } from './redemptionApi';
import { createRelayApi, type RelayApi } from './relayApi';
import { createStatusApi, type StatusApi } from './statusApi';
import { createTokenApi, type TokenApi } from './tokenApi';
import { createUserApi, type UserApi } from './userApi';

/** Every server call of the console, grouped by resource (one module each, mirroring spec §7). */
export interface Api {
  readonly status: StatusApi;
  readonly auth: AuthApi;
  readonly user: UserApi;
  readonly option: OptionApi;
  readonly channel: ChannelApi;
  readonly token: TokenApi;
  readonly redemption: RedemptionApi;
  readonly log: LogApi;
  /** The relay (/v1) called with a token's key (the token list's 'test'). */
  readonly relay: RelayApi;
}

export const createApi = (client: ApiClient): Api => ({
  status: createStatusApi(client),
  auth: createAuthApi(client),
  user: createUserApi(client),
  option: createOptionApi(client),
  channel: createChannelApi(client),
  token: createTokenApi(client),
  redemption: createRedemptionApi(client),
  log: createLogApi(client),
  relay: createRelayApi(client),
});

export { createApiClient };
export type { ApiClient, ApiClientOptions };
export type { OAuthCallback, OAuthResult } from './authApi';
export type { ChannelTestScope } from './channelApi';
export type { TokenOrder } from './tokenApi';
export type { UserOrder } from './userApi';
export { LATEST_RELEASE_URL } from './optionApi';
export type { AuthApi, ChannelApi, LogApi, OptionApi, RedemptionApi, RelayApi, StatusApi, TokenApi, UserApi };
