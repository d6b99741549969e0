import { describe, expect, it } from 'vitest';
import { type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, networkError } from '../../src/domain/apiError';
import type { RecoveryCodes, TwoFactorDisableBody, TwoFactorSetup, TwoFactorStatus } from '../../src/domain/twoFactor';
import { isMessageKey } from '../../src/i18n';
import {
  selectIsTwoFactorBusy,
  selectRecoveryCodes,
  selectTwoFactorError,
  selectTwoFactorPanel,
  selectTwoFactorSetup,
  twoFactorSettingsMachine,
} from '../../src/machines/twoFactorSettings';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { journey, replay, replayPath } from './support/replay';
import { controlled } from './support/stubs';
import { fakeSession } from './support/fakeSession';

const off: TwoFactorStatus = { enabled: false, recovery_codes_left: 0, required: false };
const on: TwoFactorStatus = { enabled: true, recovery_codes_left: 10, required: false };
const setupAnswer: TwoFactorSetup = { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', uri: 'otpauth://totp/One%20API:alice?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' };
const codes: RecoveryCodes = { recovery_codes: Array.from({ length: 10 }, (_, i) => `abcde-fgh${String(i).padStart(2, '0')}`) };
const refusedText = '验证码错误或已使用，请输入验证器当前显示的 6 位数字';
const refused = failure('twoFactorEnable', refusedText);

const fixtures: EventFixtures<typeof twoFactorSettingsMachine> = {
  'status.reload': [{ type: 'status.reload' }],
  'setup.start': [{ type: 'setup.start' }],
  'setup.confirm': [{ type: 'setup.confirm' }],
  'disable.open': [{ type: 'disable.open' }],
  'disable.confirm': [{ type: 'disable.confirm' }],
  'regenerate.open': [{ type: 'regenerate.open' }],
  'regenerate.confirm': [{ type: 'regenerate.confirm' }],
  'form.cancel': [{ type: 'form.cancel' }],
  'code.change': [{ type: 'code.change', value: ' 123456 ' }],
  'password.change': [{ type: 'password.change', value: 'secret123' }],
  'codes.copy': [{ type: 'codes.copy' }],
  'codes.dismiss': [{ type: 'codes.dismiss' }],
};
const ev = <K extends keyof typeof fixtures>(k: K) => fixtures[k][0]! as AnyEventObject;

const loadedOff = doneActor('loadTwoFactorStatus', off);
const loadedOn = doneActor('loadTwoFactorStatus', on);
const loadFailed = errorActor('loadTwoFactorStatus', networkError('twoFactorStatus', 'Failed to fetch'));
const setupMade = doneActor('startTwoFactorSetup', setupAnswer);
const setupFailed = errorActor('startTwoFactorSetup', failure('twoFactorSetup', '两步验证已经开启'));
const enabled = doneActor('enableTwoFactor', codes);
const enableRefused = errorActor('enableTwoFactor', refused);
const disabled = doneActor('disableTwoFactor');
const disableRefused = errorActor('disableTwoFactor', failure('twoFactorDisable', '当前密码错误'));
const regenerated = doneActor('regenerateRecoveryCodes', codes);
const regenerateRefused = errorActor('regenerateRecoveryCodes', refused);
const copied = doneActor('copyText');
const copyFailed = errorActor('copyText', new Error('denied'));

const internal = [
  loadedOff, loadedOn, loadFailed, setupMade, setupFailed, enabled, enableRefused, disabled, disableRefused, regenerated,
  regenerateRefused, copied, copyFailed,
];
type Snap = SnapshotFrom<typeof twoFactorSettingsMachine>;
const serializeState = (s: Snap) => JSON.stringify([s.value, s.context, s.status]);
const model = { fixtures, internal, input: {}, serializeState, limit: 50_000 };

describe('twoFactorSettings model', () => {
  it('reaches every state', () => {
    const paths = shortestPaths(twoFactorSettingsMachine, model).filter(isRealistic);
    expect(unreachedStates(twoFactorSettingsMachine, paths)).toEqual([]);
  });

  it('keeps its invariants on every simple path', () => {
    const small: EventFixtures<typeof twoFactorSettingsMachine> = { ...fixtures, 'status.reload': [], 'password.change': [] };
    const paths = simplePaths(twoFactorSettingsMachine, {
      fixtures: small,
      internal: [loadedOff, loadedOn, setupMade, enabled, enableRefused, disabled, regenerated, copied],
      input: {},
      serializeState,
      limit: 50_000,
    }).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(20);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        // the secret shows only while the setup is confirmed
        expect(s.context.setup !== null).toBe(s.matches('confirmingSetup') || s.matches('enabling'));
        // the recovery codes show only on their panel
        expect(s.context.recoveryCodes.length > 0).toBe(s.matches('showingCodes') || s.matches('copyingCodes'));
        expect(selectIsTwoFactorBusy(s)).toBe((['loading', 'startingSetup', 'enabling', 'disabling', 'regenerating'] as const).some((v) => s.matches(v)));
        const error = selectTwoFactorError(s);
        if (error !== null && 'key' in error) expect(isMessageKey(error.key)).toBe(true);
      }
    }
  });

  describe('pinned journeys', () => {
    it('enrols: the secret once, an empty code named, a refusal kept, the codes once', () => {
      const asked = journey(twoFactorSettingsMachine, {}, [loadedOff, ev('setup.start'), setupMade]);
      expect(selectTwoFactorPanel(asked)).toBe('setup');
      expect(selectTwoFactorSetup(asked)).toEqual(setupAnswer);
      const empty = journey(twoFactorSettingsMachine, {}, [loadedOff, ev('setup.start'), setupMade, ev('setup.confirm')]);
      expect(selectTwoFactorError(empty)).toEqual({ key: 'twoFactor.error.codeRequired' });
      expect(empty.matches('confirmingSetup')).toBe(true);
      const wrong = journey(twoFactorSettingsMachine, {}, [
        loadedOff, ev('setup.start'), setupMade, ev('code.change'), ev('setup.confirm'), enableRefused,
      ]);
      expect(selectTwoFactorError(wrong)).toEqual({ text: refusedText });
      const done = journey(twoFactorSettingsMachine, {}, [loadedOff, ev('setup.start'), setupMade, ev('code.change'), ev('setup.confirm'), enabled]);
      expect(selectTwoFactorPanel(done)).toBe('codes');
      expect(selectRecoveryCodes(done)).toEqual(codes.recovery_codes);
      expect(selectTwoFactorSetup(done)).toBeNull();
      const dismissed = journey(twoFactorSettingsMachine, {}, [
        loadedOff, ev('setup.start'), setupMade, ev('code.change'), ev('setup.confirm'), enabled, ev('codes.dismiss'),
      ]);
      expect(selectRecoveryCodes(dismissed)).toEqual([]);
      expect(selectTwoFactorPanel(dismissed)).toBe('loading');
    });
    it('disable needs a code or the password', () => {
      const empty = journey(twoFactorSettingsMachine, {}, [loadedOn, ev('disable.open'), ev('disable.confirm')]);
      expect(selectTwoFactorError(empty)).toEqual({ key: 'twoFactor.error.proofRequired' });
      const sent = journey(twoFactorSettingsMachine, {}, [loadedOn, ev('disable.open'), ev('password.change'), ev('disable.confirm')]);
      expect(sent.matches('disabling')).toBe(true);
    });
  });

  describe('replay on a real actor with stub actors', () => {
    const stubsOf = () => ({
      loadTwoFactorStatus: controlled<TwoFactorStatus, unknown>(),
      startTwoFactorSetup: controlled<TwoFactorSetup, unknown>(),
      enableTwoFactor: controlled<RecoveryCodes, { code: string }>(),
      disableTwoFactor: controlled<void, TwoFactorDisableBody>(),
      regenerateRecoveryCodes: controlled<RecoveryCodes, { code: string }>(),
      copyText: controlled<void, { text: string }>(),
    });
    const chosen = shortestPaths(twoFactorSettingsMachine, model)
      .filter(isRealistic)
      .filter((p) => p.steps.length > 3)
      .slice(0, 40);
    it.each(chosen.map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      await replayPath({ machine: twoFactorSettingsMachine, stubs: stubsOf() }, p);
    });

    it('tells the session once two-factor sign-in is on (the shell stops holding an admin at the enrolment), and nothing else', async () => {
      const session = fakeSession();
      await replay({ machine: twoFactorSettingsMachine, input: { session }, stubs: stubsOf() }, [
        { type: 'xstate.init' }, loadedOff, ev('setup.start'), setupMade, ev('code.change'), ev('setup.confirm'), enableRefused,
      ]);
      expect(session.getSnapshot().context.received).toEqual([]);
      await replay({ machine: twoFactorSettingsMachine, input: { session }, stubs: stubsOf() }, [
        { type: 'xstate.init' }, loadedOff, ev('setup.start'), setupMade, ev('code.change'), ev('setup.confirm'), enabled, ev('codes.dismiss'),
      ]);
      expect(session.getSnapshot().context.received).toEqual([{ type: 'session.enrolled' }]);
    });

    it('sends the trimmed code, the password only without a code, and copies the codes one per line', async () => {
      const stubs = stubsOf();
      const r = await replay({ machine: twoFactorSettingsMachine, stubs }, [
        { type: 'xstate.init' }, loadedOff, ev('setup.start'), setupMade, ev('code.change'), ev('setup.confirm'), enabled,
        ev('codes.copy'), copied, ev('codes.dismiss'), loadedOn, ev('disable.open'), ev('password.change'), ev('disable.confirm'), disabled,
      ]);
      expect(stubs.enableTwoFactor.calls).toEqual([{ code: '123456' }]);
      expect(stubs.copyText.calls).toEqual([{ text: codes.recovery_codes.join('\n') }]);
      expect(stubs.disableTwoFactor.calls).toEqual([{ password: 'secret123' }]);
      expect(r.emitted.map((e) => ('message' in e ? e.message : null))).toEqual([
        { key: 'twoFactor.enabled.toast' },
        { key: 'twoFactor.codes.copied' },
        { key: 'twoFactor.disabled.toast' },
      ]);
    });
  });
});
