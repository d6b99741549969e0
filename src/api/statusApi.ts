import * as t from 'io-ts';
import type { TaskEither } from 'fp-ts/TaskEither';
import type { ApiError } from '../domain/apiError';
import { ChannelTypeModels } from '../domain/channelTypeModels';
import { Status } from '../domain/status';
import { readData, type ApiClient } from './client';

/** Public and system calls (spec §7 "Status and session", contract §2.2). */
export interface StatusApi {
  /** GET /api/status: the server status object. */
  readonly getStatus: () => TaskEither<ApiError, Status>;
  /** GET /api/models: channel type (string key) to its default model names. */
  readonly getModels: () => TaskEither<ApiError, ChannelTypeModels>;
  /** GET /api/notice: the Notice option (Markdown). */
  readonly getNotice: () => TaskEither<ApiError, string>;
  /** GET /api/about: the About option. */
  readonly getAbout: () => TaskEither<ApiError, string>;
  /** GET /api/home_page_content: the HomePageContent option. */
  readonly getHomePageContent: () => TaskEither<ApiError, string>;
}

export const createStatusApi = (client: ApiClient): StatusApi => ({
  getStatus: () => client.request({ method: 'GET', path: '/api/status', read: readData(Status) }),
  getModels: () => client.request({ method: 'GET', path: '/api/models', read: readData(ChannelTypeModels) }),
  getNotice: () => client.request({ method: 'GET', path: '/api/notice', read: readData(t.string) }),
  getAbout: () => client.request({ method: 'GET', path: '/api/about', read: readData(t.string) }),
  getHomePageContent: () => client.request({ method: 'GET', path: '/api/home_page_content', read: readData(t.string) }),
});
