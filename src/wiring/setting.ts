import { createAuthApi } from '../api/authApi';
import { createLogApi } from '../api/logApi';
import { createOptionApi } from '../api/optionApi';
import { createUserApi } from '../api/userApi';
import { apiActors } from '../api/actors/fromApi';
import { loadSelfActor, sendBindCodeActor } from '../api/actors/account';
import { copyTextActor } from '../api/actors/browser/clipboard';
import { latestRelease } from '../api/actors/updateCheck';
import type { logCleanMachine } from '../machines/logClean';
import type { optionSettingsMachine, SaveOptionInput } from '../machines/optionSettings';
import { relayChildren, relayEmitted } from '../machines/pageRelay/pageRelay';
import type { emailBindMachine, personalSettingsMachine, selfDeleteMachine, wechatBindMachine } from '../machines/personalSettings';
import type { priceEditorMachine, SavePriceOptionInput } from '../machines/priceEditor';
import { sendCooldownWith } from '../machines/sendCooldown/sendCooldown.machine';
import { followSession } from '../machines/sessionWatch/sessionWatch';
import type { twoFactorSettingsMachine } from '../machines/twoFactorSettings';
import type { updateCheckMachine } from '../machines/updateCheck';
import { implement, implementArea } from '../views/app/machineRegistry';
import type { WiringRoot } from './root';

/** The settings page: the options, the price editor, the personal tab (bindings, 2FA), log cleaning, the update check. */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ option: createOptionApi(c), user: createUserApi(c), auth: createAuthApi(c), log: createLogApi(c) }));
  return implementArea('setting', [
    implement<typeof optionSettingsMachine>('optionSettings', {
      actors: {
        listOptions: fromApi((api) => () => api.option.listOptions()),
        saveOption: fromApi((api) => ({ key, value }: SaveOptionInput) => api.option.updateOption(key, value)),
        followSession,
        relayEmitted,
      },
    }),
    implement<typeof priceEditorMachine>('priceEditor', {
      actors: {
        listOptions: fromApi((api) => () => api.option.listOptions()),
        saveOption: fromApi((api) => ({ key, value }: SavePriceOptionInput) => api.option.updateOption(key, value)),
      },
    }),
    implement<typeof personalSettingsMachine>('personalSettings', {
      actors: {
        loadSelf: loadSelfActor(fromApi),
        generateAccessToken: fromApi((api) => () => api.user.generateAccessToken()),
        fetchAffCode: fromApi((api) => () => api.user.getAffCode()),
        copyText: copyTextActor,
      },
    }),
    implement<typeof selfDeleteMachine>('selfDelete', { actors: { deleteSelf: fromApi((api) => () => api.user.deleteSelf()) } }),
    implement<typeof wechatBindMachine>('wechatBind', { actors: { bindWeChat: fromApi((api) => ({ code }) => api.auth.wechatBind(code)) } }),
    implement<typeof emailBindMachine>('emailBind', {
      actors: { sendVerificationCode: sendCooldownWith(sendBindCodeActor(fromApi)), bindEmail: fromApi((api) => api.auth.emailBind), relayChildren },
    }),
    implement<typeof twoFactorSettingsMachine>('twoFactorSettings', {
      actors: {
        loadTwoFactorStatus: fromApi((api) => () => api.auth.twoFactorStatus()),
        startTwoFactorSetup: fromApi((api) => () => api.auth.twoFactorSetup()),
        enableTwoFactor: fromApi((api) => api.auth.twoFactorEnable),
        disableTwoFactor: fromApi((api) => api.auth.twoFactorDisable),
        regenerateRecoveryCodes: fromApi((api) => api.auth.twoFactorRecoveryCodes),
        copyText: copyTextActor,
      },
    }),
    implement<typeof logCleanMachine>('logClean', {
      actors: { clearLogs: fromApi((api) => ({ targetTimestamp }) => api.log.clear(targetTimestamp)) },
    }),
    implement<typeof updateCheckMachine>('updateCheck', {
      actors: { fetchLatestRelease: fromApi((api) => latestRelease(api.option.getLatestRelease)) },
    }),
  ]);
};
