import * as t from 'io-ts';
import type { TaskEither } from 'fp-ts/TaskEither';
import type { ApiError } from '../domain/apiError';
import { OptionEntry, Release } from '../domain/option';
import { readData, readNoData, readPlain, type ApiClient } from './client';
import { listOf } from './lists';

/** The public release listing the update check reads (spec §7 "Options"; address not in the spec). */
export const LATEST_RELEASE_URL = 'https://api.github.com/repos/songquanpeng/one-api/releases/latest';

/** GitHub's release object has many more fields: keep tag_name and body. */
const releaseOnly = t.exact(Release);

/** Settings (spec §7 "Options", contract §2.11). */
export interface OptionApi {
  /** GET /api/option/ (root): every option as {key, value}. */
  readonly listOptions: () => TaskEither<ApiError, OptionEntry[]>;
  /** PUT /api/option/ {key, value}: values are always strings ('true'/'false' for booleans). */
  readonly updateOption: (key: string, value: string) => TaskEither<ApiError, void>;
  /** GET LATEST_RELEASE_URL (no credentials): tag_name and body of the latest release (other fields dropped). */
  readonly getLatestRelease: () => TaskEither<ApiError, Release>;
}

export const createOptionApi = (client: ApiClient): OptionApi => ({
  listOptions: () => client.request({ method: 'GET', path: '/api/option/', read: readData(listOf(OptionEntry)) }),
  updateOption: (key, value) =>
    client.request({ method: 'PUT', path: '/api/option/', body: { key, value }, read: readNoData }),
  getLatestRelease: () =>
    client.request({ method: 'GET', path: LATEST_RELEASE_URL, credentials: 'omit', read: readPlain(releaseOnly) }),
});
