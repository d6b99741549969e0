import type { FetchLike } from './client';

/**
 * The first page's early answers. index.html's inline script (vite.config.ts,
 * `firstPageRequestsScript`) sends, while the console's scripts are still loading, the GETs the
 * first page will make first (the status, a stored admin's enrolment check, a list page's first
 * page of rows: `firstPageLists`) and keeps their answers on `window[primedRequestsKey]`. Each is
 * given at most once, to the first call of that exact URL, and only while the page it was sent
 * for is shown to the stored user it was sent for (the script checks both, and drops every
 * answer once either has changed); any other call makes its own request.
 *
 * - `primedFetch` hands the early answer to the API client in place of a fetch, so it goes
 *   through the client like any answer: decoded with io-ts, a 401 signals an expired session;
 * - `takePrimed` (./primedPage.ts, loaded with the pages using it) gives a call's decoded result
 *   at once when its answer is already in and good (a list table starting with its first page's
 *   rows); an answer that is not, it leaves to the call's fetch, which then reports it as always.
 */
export const primedRequestsKey = '__firstPageRequests';

/** One early GET as the script keeps it. */
export interface EarlyAnswer {
  /** An unread copy of the answer once it is in; undefined when the request failed. */
  readonly done: Promise<Response | undefined>;
  /** The answer's status and body text, there once it is in. */
  readonly status?: number;
  readonly text?: string;
}

/** What the script keeps: the early answers by URL (absent: not asked, already taken, or dropped). */
export interface PrimedRequests {
  /** Takes the answer of `url`: no later call gets it. */
  readonly take: (url: string) => EarlyAnswer | undefined;
  /** The answer of `url`, left in place. */
  readonly peek: (url: string) => EarlyAnswer | undefined;
}

/** The early requests of this page load, if index.html's script sent any. */
export const primedRequests = (): PrimedRequests | undefined => (globalThis as { [primedRequestsKey]?: PrimedRequests })[primedRequestsKey];

/**
 * `next` that answers the first GET of a URL the first page asked early with that answer (waiting
 * for it if it is not in yet), once; a failed early request is made again with `next`.
 */
export const primedFetch =
  (next: FetchLike = (url, init) => globalThis.fetch(url, init)): FetchLike =>
  (url, init) => {
    const early = init.method === 'GET' ? primedRequests()?.take(url) : undefined;
    return early === undefined ? next(url, init) : early.done.then((response) => response ?? next(url, init));
  };
