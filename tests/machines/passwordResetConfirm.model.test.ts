import { describe, expect, it } from 'vitest';
import { type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import { isMessageKey } from '../../src/i18n';
import {
  passwordResetConfirmMachine,
  selectCanConfirm,
  selectEmail,
  selectHasLink,
  selectIsBusy,
  selectIsDone,
  selectNeedsManualCopy,
  selectNewPassword,
  type ConfirmPasswordResetInput,
  type CopyTextInput,
  type PasswordResetConfirmInput,
} from '../../src/machines/passwordResetConfirm';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as walk } from './support/replay';

type Snap = SnapshotFrom<typeof passwordResetConfirmMachine>;

const input: PasswordResetConfirmInput = { email: 'alice@example.com', token: '0123456789abcdef0123456789abcdef' };
const newPassword = '3f9a0c1d2e4b';
const expiredLink = failure('confirmPasswordReset', '重置链接非法或已过期');

const fixtures: EventFixtures<typeof passwordResetConfirmMachine> = { 'reset.confirm': [{ type: 'reset.confirm' }] };
const answered = doneActor('confirmPasswordReset', newPassword);
const rejected = errorActor('confirmPasswordReset', expiredLink);
const copied = doneActor('copyText');
const copyFailed = errorActor('copyText', new Error('cannot copy to clipboard'));
const internal = [answered, rejected, copied, copyFailed];
const model = (i: PasswordResetConfirmInput = input) => ({ fixtures, internal, input: i });

const realShortest = () => shortestPaths(passwordResetConfirmMachine, model()).filter(isRealistic);

function journey(events: readonly AnyEventObject[], i: PasswordResetConfirmInput = input): Snap {
  return walk(passwordResetConfirmMachine, i, events);
}
const confirm = { type: 'reset.confirm' };

describe('passwordResetConfirm model', () => {
  it('reaches every state', () => {
    expect(unreachedStates(passwordResetConfirmMachine, realShortest())).toEqual([]);
  });

  it.each([
    ['a complete link', input],
    ['a link without token', { email: 'alice@example.com', token: '' }],
    ['a link without e-mail', { email: ' ', token: 'abc' }],
  ])('keeps its invariants on every simple path (%s)', (_, i) => {
    const paths = simplePaths(passwordResetConfirmMachine, model(i)).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        // the e-mail on show is the link's, read-only
        expect(selectEmail(s)).toBe(i.email.trim());
        // the password is on show from the server's answer on, and only then
        expect(selectNewPassword(s) !== null).toBe(s.matches('copying') || s.matches('done'));
        if (selectNewPassword(s) !== null) expect(selectNewPassword(s)).toBe(newPassword);
        // copied only when the clipboard took it; a refusal asks for a manual copy
        if (s.context.copied) expect(s.matches('done')).toBe(true);
        expect(selectNeedsManualCopy(s)).toBe(s.matches('done') && !s.context.copied);
        // one call at a time, and only in its state
        const children = Object.keys(s.children);
        expect(children.length).toBeLessThanOrEqual(1);
        if (s.matches('resetting')) expect(children).toEqual(['confirmPasswordReset']);
        if (s.matches('copying')) expect(children).toEqual(['copyText']);
        expect(selectIsBusy(s)).toBe(s.matches('resetting') || s.matches('copying'));
        // the button posts only from idle with a complete link; once done it stays disabled
        expect(selectCanConfirm(s)).toBe(s.matches('idle') && selectHasLink(s));
        expect(selectIsDone(s)).toBe(s.status === 'done');
        // an incomplete link never posts
        if (!selectHasLink(s)) expect(s.matches('idle')).toBe(true);
      }
    }
  });

  describe('pinned journeys', () => {
    it('post, answer, copy: done with the password shown and copied', () => {
      const s = journey([confirm, answered, copied]);
      expect(s.value).toBe('done');
      expect(s.status).toBe('done');
      expect(selectNewPassword(s)).toBe(newPassword);
      expect(selectNeedsManualCopy(s)).toBe(false);
    });
    it('the clipboard refuses: done, the password still shown, copy by hand', () => {
      const s = journey([confirm, answered, copyFailed]);
      expect(s.value).toBe('done');
      expect(selectNewPassword(s)).toBe(newPassword);
      expect(selectNeedsManualCopy(s)).toBe(true);
    });
    it('an expired link is reported and the button works again', () => {
      const s = journey([confirm, rejected]);
      expect(s.value).toBe('idle');
      expect(selectCanConfirm(s)).toBe(true);
      expect(journey([confirm, rejected, confirm, answered, copied]).value).toBe('done');
    });
    it('a link without token cannot post', () => {
      const s = journey([confirm], { email: 'alice@example.com', token: '' });
      expect(s.value).toBe('idle');
      expect(selectHasLink(s)).toBe(false);
    });
    it('done ignores further clicks', () => {
      expect(journey([confirm, answered, copied, confirm]).value).toBe('done');
    });
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      const confirmReset = controlled<string, ConfirmPasswordResetInput>();
      const copy = controlled<void, CopyTextInput>();
      const stubs = { confirmPasswordReset: confirmReset, copyText: copy };
      return { ...(await replayOn({ machine: passwordResetConfirmMachine, input, stubs }, events, check)), confirmReset, copy };
    }

    it.each(realShortest().filter((p) => p.steps.length > 1).map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      await replay(
        p.steps.map((s) => s.event),
        (i, s) => {
          expect(s.value).toEqual(p.steps[i]!.state.value);
          expect(s.context).toEqual(p.steps[i]!.state.context);
          expect(s.status).toEqual(p.steps[i]!.state.status);
        },
      );
    });

    it('posts the link, copies the answer and says so', async () => {
      const { emitted, confirmReset, copy } = await replay([confirm, answered, copied]);
      expect(confirmReset.calls).toEqual([{ email: input.email, token: input.token }]);
      expect(copy.calls).toEqual([{ text: newPassword }]);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'account.resetConfirm.copied' } }]);
    });
    it('a copy failure warns to copy by hand', async () => {
      const { emitted, snapshot } = await replay([confirm, answered, copyFailed]);
      expect(emitted).toEqual([{ type: 'notify', level: 'warning', message: { key: 'account.resetConfirm.copyFailed' } }]);
      expect(selectNewPassword(snapshot)).toBe(newPassword);
    });
    it('a server failure shows its message; an HTTP failure the catalogue one', async () => {
      expect((await replay([confirm, rejected])).emitted).toEqual([
        { type: 'notify', level: 'error', message: { text: '重置链接非法或已过期' } },
      ]);
      const http = errorActor('confirmPasswordReset', httpError('confirmPasswordReset', 429, 'Too Many Requests'));
      expect((await replay([confirm, http])).emitted).toEqual([
        { type: 'notify', level: 'error', message: { key: 'error.tooManyRequests' } },
      ]);
    });
    it('every key it emits is in the catalogue', async () => {
      const all = [
        ...(await replay([confirm, answered, copied])).emitted,
        ...(await replay([confirm, answered, copyFailed])).emitted,
      ];
      for (const e of all) if ('key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });
});
