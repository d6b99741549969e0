import * as E from 'fp-ts/Either';
import { describe, expect, it } from 'vitest';
import type { OAuthResult } from '../../../src/api/authApi';
import type { ApiError } from '../../../src/domain/apiError';
import { exchangesOnce } from '../../../src/wiring/auth';

/** An auth API whose exchanges answer when the test says, counting what was sent. */
function fakeAuth() {
  const sent: string[] = [];
  const answers: ((result: E.Either<ApiError, OAuthResult>) => void)[] = [];
  const call =
    (provider: string) =>
    ({ code, state }: { readonly code: string; readonly state: string }) =>
    () => {
      sent.push(`${provider} ${code} ${state}`);
      return new Promise<E.Either<ApiError, OAuthResult>>((resolve) => answers.push(resolve));
    };
  return { sent, answers, auth: { oauthGitHub: call('github'), oauthLark: call('lark') } };
}

const bound: OAuthResult = { bound: true };
const failure: ApiError = { kind: 'Network', call: 'GET /api/oauth/lark', message: 'offline' } as unknown as ApiError;

describe('the OAuth callback exchanges each code once (src/wiring/auth.ts)', () => {
  it('a second run of the same code (a remounted callback page) waits for the first exchange instead of sending the single-use state again', async () => {
    const { sent, answers, auth } = fakeAuth();
    const exchange = exchangesOnce(auth);
    const first = exchange({ provider: 'lark', code: 'c1', state: 's1' })();
    const second = exchange({ provider: 'lark', code: 'c1', state: 's1' })();
    expect(sent).toEqual(['lark c1 s1']);
    answers[0]!(E.right(bound));
    expect(await first).toEqual(E.right(bound));
    expect(await second).toEqual(E.right(bound));
    // after it answered too: the same answer, nothing sent
    expect(await exchange({ provider: 'lark', code: 'c1', state: 's1' })()).toEqual(E.right(bound));
    expect(sent).toEqual(['lark c1 s1']);
  });

  it('a failed exchange is forgotten: the retry sends it again', async () => {
    const { sent, answers, auth } = fakeAuth();
    const exchange = exchangesOnce(auth);
    const first = exchange({ provider: 'github', code: 'c2', state: 's2' })();
    answers[0]!(E.left(failure));
    expect(await first).toEqual(E.left(failure));
    const retry = exchange({ provider: 'github', code: 'c2', state: 's2' })();
    expect(sent).toEqual(['github c2 s2', 'github c2 s2']);
    answers[1]!(E.right(bound));
    expect(await retry).toEqual(E.right(bound));
  });

  it('another code, or the same code of the other provider, is its own exchange', () => {
    const { sent, auth } = fakeAuth();
    const exchange = exchangesOnce(auth);
    void exchange({ provider: 'lark', code: 'a', state: 's' })();
    void exchange({ provider: 'lark', code: 'b', state: 's' })();
    void exchange({ provider: 'github', code: 'a', state: 's' })();
    expect(sent).toEqual(['lark a s', 'lark b s', 'github a s']);
  });
});
