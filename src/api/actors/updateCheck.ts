import { pipe } from 'fp-ts/function';
import * as TE from 'fp-ts/TaskEither';
import type { TaskEither } from 'fp-ts/TaskEither';
import type { ApiError } from '../../domain/apiError';
import type { Release } from '../../domain/option';

/** The release as the update check machine takes it (tag, Markdown notes, page). */
export interface LatestRelease {
  readonly tag: string;
  readonly notes: string;
  readonly url: string;
}

/** Where a release's page lives (the repository the release listing reads). */
export const releasePageUrl = (tag: string): string =>
  `https://github.com/songquanpeng/one-api/releases/tag/${encodeURIComponent(tag)}`;

/** The update check's `fetchLatestRelease`: the latest release with its page. */
export const latestRelease =
  (getLatestRelease: () => TaskEither<ApiError, Release>) => (): TaskEither<ApiError, LatestRelease> =>
    pipe(
      getLatestRelease(),
      TE.map((r) => ({ tag: r.tag_name, notes: r.body, url: releasePageUrl(r.tag_name) })),
    );
