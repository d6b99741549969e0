import * as A from 'fp-ts/Array';
import { pipe } from 'fp-ts/function';
import * as TE from 'fp-ts/TaskEither';
import type { TaskEither } from 'fp-ts/TaskEither';
import type { ApiError } from '../../domain/apiError';
import type { PaletteEntities, PaletteEntity } from '../../domain/commandPalette';
import type { Api } from '../index';

const none: TaskEither<ApiError, readonly PaletteEntity[]> = TE.right([]);

/**
 * The command palette's `searchEntities`: the channel, token and user search APIs at once (channels
 * and users only for admins; the server refuses them to others), each answer reduced to id and name.
 */
export const searchPaletteEntities =
  (api: Pick<Api, 'channel' | 'token' | 'user'>) =>
  ({ keyword, isAdmin }: { readonly keyword: string; readonly isAdmin: boolean }): TaskEither<ApiError, PaletteEntities> =>
    pipe(
      A.sequence(TE.ApplicativePar)([
        isAdmin ? pipe(api.channel.search(keyword), TE.map((list) => list.map(({ id, name }) => ({ id, name })))) : none,
        pipe(api.token.search(keyword), TE.map((list) => list.map(({ id, name }) => ({ id, name })))),
        isAdmin ? pipe(api.user.searchUsers(keyword), TE.map((list) => list.map(({ id, username }) => ({ id, name: username })))) : none,
      ]),
      TE.map(([channels = [], tokens = [], users = []]) => ({ channels, tokens, users })),
    );
