/**
 * The composition root (conventions §1): builds the one API client, provides every machine
 * with its real actors and effects (the rules they follow live in src/domain), reads the stored
 * session and preferences, and mounts the console. The only module that wires src/api into machines.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { pipe } from 'fp-ts/function';
import * as TE from 'fp-ts/TaskEither';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { createApi, createApiClient } from './api';
import {
  apiActors,
  copyTextActor,
  createUnauthorizedSignal,
  defaultStorage,
  downloadTextActor,
  openWindow,
  readLocal,
  readStoredFooter,
  readStoredStatus,
  readStoredUser,
  watchSession,
  writeLocal,
} from './api/actors';
import { channelRowAction } from './api/actors/channelRows';
import { listAllChannels, testChannelActor } from './api/actors/channelTests';
import { redemptionExportActor, redemptionRowAction, saveRedemption } from './api/actors/redemptionRows';
import { loadTurnstile } from './api/actors/turnstile';
import { createTransactionIdActor, loadSelfActor, redeemCodeActor, sendBindCodeActor } from './api/actors/account';
import { saveUser, searchUserRows, userRowAction } from './api/actors/userRows';
import { downloadBlob } from './api/actors/browser/downloads';
import { downloadLogs, fetchLogPage, fetchLogStat } from './api/actors/logRows';
import type { logExportMachine, logStatMachine, logTableMachine } from './machines/logList';
import type { logListPageMachine } from './machines/logListPage';
import type { Log } from './domain/log';
import { searchPaletteEntities } from './api/actors/commandPalette';
import type { commandPaletteMachine } from './machines/commandPalette';
import { latestRelease } from './api/actors/updateCheck';
import { fetchTokenPage, tokenRowAction } from './api/actors/tokenRows';
import { loadDashboard, searchDashboardUsers } from './api/actors/dashboard';
import type { Message } from './domain/message';
import type { Redemption } from './domain/redemption';
import type { ExportRowsInput, FetchPageInput, SearchRowsInput } from './domain/rowAction';
import { documentAppearanceOf, initialPreferences } from './domain/documentPreferences';
import { inviteCodeToUse } from './domain/inviteCode';
import type { ChannelRow, ChannelTagCount } from './domain/channel';
import type { channelListActionsMachine, channelTableMachine } from './machines/channelList';
import type { channelFormMachine, SaveChannelInput } from './machines/channelForm';
import type { channelTagsMachine, UpdateChannelsByTagInput } from './machines/channelTags';
import type { channelTestMachine } from './machines/channelTest';
import type { dashboardMachine } from './machines/dashboard';
import type { pricingMachine } from './machines/pricing';
import type { footerMachine } from './machines/footer';
import type { logCleanMachine } from './machines/logClean';
import type { priceEditorMachine, SavePriceOptionInput } from './machines/priceEditor';
import type { updateCheckMachine } from './machines/updateCheck';
import type { redemptionFormMachine } from './machines/redemptionForm';
import type { redemptionKeyCopyMachine, redemptionTableMachine } from './machines/redemptionList';
import type { oauthCallbackMachine } from './machines/oauthCallback';
import type { FetchContentInput, pageContentMachine } from './machines/pageContent';
import type { oauthLaunchMachine } from './machines/oauthLaunch';
import type { optionSettingsMachine, SaveOptionInput } from './machines/optionSettings';
import { relayChildren } from './machines/pageRelay/pageRelay';
import { sendCooldownWith } from './machines/sendCooldown/sendCooldown.machine';
import { followSession } from './machines/sessionWatch/sessionWatch';
import { awaitSession } from './machines/sessionWatch/awaitSession';
import type { profileEditMachine } from './machines/profileEdit';
import type { topUpMachine } from './machines/topUp';
import type {
  emailBindMachine,
  personalSettingsMachine,
  selfDeleteMachine,
  wechatBindMachine,
} from './machines/personalSettings';
import type { passwordResetConfirmMachine } from './machines/passwordResetConfirm';
import type { passwordResetRequestMachine } from './machines/passwordResetRequest';
import { preferencesMachine, type PreferencesChanged } from './machines/preferences';
import type { registerMachine } from './machines/register';
import { sessionMachine } from './machines/session';
import type { turnstileMachine } from './machines/turnstile';
import type { userFormMachine } from './machines/userForm';
import type { userTableMachine } from './machines/userList';
import type { tokenKeyCopyMachine, tokenTableMachine } from './machines/tokenList';
import type { SaveTokenInput, tokenFormMachine } from './machines/tokenForm';
import type { Token } from './domain/token';
import type { twoFactorSettingsMachine } from './machines/twoFactorSettings';
import type { wechatLoginMachine } from './machines/wechatLogin';
import type { User } from './domain/user';
import { loadCatalogue } from './i18n';
import { App } from './views/app/App';
import { implement, implementAll } from './views/app/machineRegistry';

const unauthorized = createUnauthorizedSignal();
const client = createApiClient({
  baseUrl: import.meta.env.VITE_SERVER_ADDRESS,
  onUnauthorized: unauthorized.notify,
  // the server's messages in the console's language (html lang follows the preference)
  language: () => document.documentElement.lang,
});
// every API actor calls the server with its own abort signal: a stopped actor cancels its requests
const fromApi = apiActors(client);
const apiFor = (signal: AbortSignal) => createApi(client.withSignal(signal));

const session = sessionMachine.provide({
  actors: {
    loadStatus: fromApi((api) => () => api.status.getStatus()),
    logIn: fromApi((api) => api.auth.login),
    verifySecondFactor: fromApi((api) => api.auth.loginSecondFactor),
    logOut: fromApi((api) => () => api.auth.logout()),
    watchSession: watchSession({ unauthorized }),
  },
});

/** The preferences machine's effect: stores the preferences and shows them on the page (src/domain/documentPreferences). */
const applyPreferences = fromCallback<EventObject>(({ receive }) => {
  receive((event) => {
    const { lang, colorMode } = event as PreferencesChanged;
    writeLocal('lang', lang);
    writeLocal('color_mode', colorMode);
    const look = documentAppearanceOf({ lang, colorMode });
    const html = document.documentElement;
    html.lang = look.lang;
    html.classList.remove('dark', 'light');
    html.classList.add(look.className);
    html.style.colorScheme = look.colorScheme;
  });
});

const preferences = preferencesMachine.provide({
  actors: {
    applyPreferences,
    // another language's catalogue chunk, loaded before the console switches to it
    loadCatalogue: fromPromise(({ input }) => loadCatalogue(input.lang)),
  },
});

const implementations = implementAll([
  implement<typeof registerMachine>('register', {
    actors: {
      followSession,
      registerUser: fromApi((api) => ({ payload, turnstile }) => api.auth.register(payload, turnstile)),
      sendVerificationCode: sendCooldownWith(fromApi((api) => ({ email, turnstile }) => api.auth.sendVerificationCode(email, turnstile))),
      relayChildren,
      rememberAffCode: fromPromise(({ input }) => {
        const { code, remember } = inviteCodeToUse(input.affCode, readLocal('aff'));
        if (remember) writeLocal('aff', code);
        return Promise.resolve(code);
      }),
    },
  }),
  implement<typeof passwordResetRequestMachine>('passwordResetRequest', {
    actors: {
      sendPasswordReset: sendCooldownWith(fromApi((api) => ({ email, turnstile }) => api.auth.sendPasswordReset(email, turnstile))),
      relayChildren,
    },
  }),
  implement<typeof passwordResetConfirmMachine>('passwordResetConfirm', {
    actors: { confirmPasswordReset: fromApi((api) => api.auth.confirmPasswordReset), copyText: copyTextActor },
  }),
  implement<typeof oauthLaunchMachine>('oauthLaunch', {
    actors: { fetchOAuthState: fromApi((api) => () => api.auth.getOAuthState()) },
    actions: { openWindow: (_, { url }) => openWindow(url) },
  }),
  implement<typeof oauthCallbackMachine>('oauthCallback', {
    actors: {
      exchangeCode: fromApi((api) => ({ provider, code, state }) =>
        provider === 'github' ? api.auth.oauthGitHub({ code, state }) : api.auth.oauthLark({ code, state }),
      ),
    },
  }),
  implement<typeof profileEditMachine>('profileEdit', {
    actors: { loadSelf: fromApi((api) => () => api.user.getSelf()), saveSelf: fromApi((api) => api.user.updateSelf), awaitSession },
  }),
  implement<typeof wechatLoginMachine>('wechatLogin', { actors: { loginWithWeChat: fromApi((api) => api.auth.wechatLogin) } }),
  implement<typeof turnstileMachine>('turnstile', { actors: { loadTurnstile } }),
  implement<typeof pageContentMachine>('pageContent', {
    actors: {
      readCachedContent: fromPromise(({ input }) => Promise.resolve(readLocal(input.key))),
      writeCachedContent: fromPromise(({ input }) => {
        writeLocal(input.key, input.value);
        return Promise.resolve();
      }),
      fetchContent: fromApi((api) => ({ kind }: FetchContentInput) =>
        kind === 'home' ? api.status.getHomePageContent() : api.status.getAbout(),
      ),
      readSeenNotice: fromPromise(() => Promise.resolve(readLocal('notice'))),
      fetchNotice: fromApi((api) => () => api.status.getNotice()),
      writeSeenNotice: fromPromise(({ input }) => {
        writeLocal('notice', input.notice);
        return Promise.resolve();
      }),
    },
  }),
  implement<typeof channelTableMachine>('channelTable', {
    actors: {
      fetchPage: fromApi<readonly ChannelRow[], FetchPageInput>((api) => ({ page }) => api.channel.list(page)),
      searchRows: fromApi<readonly ChannelRow[], SearchRowsInput>((api) => ({ keyword }) => api.channel.search(keyword)),
      runRowAction: fromApi((api) => channelRowAction(api.channel)),
      exportRows: fromPromise<Message | null, ExportRowsInput<ChannelRow>>(() => Promise.resolve(null)),
    },
  }),
  implement<typeof channelListActionsMachine>('channelListActions', {
    actors: {
      loadListPrefs: fromPromise(() =>
        Promise.resolve({ showDetail: readLocal('show_detail') === 'true', noticeDismissed: readLocal('prompt-channel-notice') === 'true' }),
      ),
      deleteDisabledChannels: fromApi((api) => () => api.channel.removeDisabled()),
      fetchGroups: fromApi<readonly string[], unknown>((api) => () => api.user.listGroups()),
    },
    actions: {
      storeShowDetail: (_, { show }) => void writeLocal('show_detail', String(show)),
      storeNoticeDismissed: () => void writeLocal('prompt-channel-notice', 'true'),
    },
  }),
  implement<typeof channelTagsMachine>('channelTags', {
    actors: {
      fetchTags: fromApi<readonly ChannelTagCount[], unknown>((api) => () => api.channel.tags()),
      updateChannelsByTag: fromApi((api) => ({ edit }: UpdateChannelsByTagInput) => api.channel.updateByTag(edit)),
    },
  }),
  implement<typeof redemptionTableMachine>('redemptionTable', {
    actors: {
      fetchPage: fromApi<readonly Redemption[], FetchPageInput>((api) => ({ page }) => api.redemption.list(page)),
      searchRows: fromApi<readonly Redemption[], SearchRowsInput>((api) => ({ keyword }) => api.redemption.search(keyword)),
      runRowAction: fromApi((api) => redemptionRowAction(api.redemption)),
      exportRows: redemptionExportActor,
    },
  }),
  implement<typeof redemptionKeyCopyMachine>('redemptionKeyCopy', { actors: { copyText: copyTextActor } }),
  implement<typeof redemptionFormMachine>('redemptionForm', {
    actors: {
      loadRedemption: fromApi((api) => ({ id }: { readonly id: number }) => api.redemption.get(id)),
      saveRedemption: fromApi((api) => saveRedemption(api.redemption)),
      downloadKeys: downloadTextActor,
      copyText: copyTextActor,
      awaitSession,
    },
  }),
  implement<typeof channelFormMachine>('channelForm', {
    actors: {
      loadChannel: fromApi((api) => ({ id }: { readonly id: number }) => api.channel.get(id)),
      loadGroups: fromApi<readonly string[], unknown>((api) => () => api.user.listGroups()),
      loadTypeModels: fromApi((api) => () => api.status.getModels()),
      loadCatalogue: fromApi<readonly string[], unknown>((api) => () => pipe(api.channel.catalogue(), TE.map((c) => c.data.map((m) => m.id)))),
      saveChannel: fromApi((api) => ({ id, payload }: SaveChannelInput) =>
        id === null ? api.channel.create(payload) : pipe(api.channel.update({ ...payload, id }), TE.map(() => undefined)),
      ),
      awaitSession,
    },
  }),
  implement<typeof channelTestMachine>('channelTest', {
    actors: {
      fetchCurrentRun: fromApi((api) => () => api.channel.currentTestRun()),
      startTestRun: fromApi((api) => api.channel.startTestRun),
      fetchTestRun: fromApi((api) => ({ id, after }) => api.channel.getTestRun(id, after)),
      cancelTestRun: fromApi((api) => ({ id }) => api.channel.cancelTestRun(id)),
      listAllChannels: fromApi((api) => () => listAllChannels(api.channel.list)),
      testChannel: testChannelActor((id, model, signal) => apiFor(signal).channel.test(id, model)),
    },
  }),
  implement<typeof userTableMachine>('userTable', {
    actors: {
      fetchPage: fromApi<readonly User[], FetchPageInput>((api) => ({ page, order }) =>
        api.user.listUsers(page, order === 'quota' || order === 'used_quota' || order === 'request_count' ? order : ''),
      ),
      searchRows: fromApi<readonly User[], SearchRowsInput>((api) => searchUserRows(api.user)),
      runRowAction: fromApi((api) => userRowAction(api.user)),
      exportRows: fromPromise<Message | null, ExportRowsInput<User>>(() => Promise.resolve(null)),
    },
  }),
  implement<typeof userFormMachine>('userForm', {
    actors: {
      loadUser: fromApi((api) => ({ id }: { readonly id: number }) => api.user.getUser(id)),
      loadGroups: fromApi<readonly string[], unknown>((api) => () => api.user.listGroups()),
      saveUser: fromApi((api) => saveUser(api.user)),
      awaitSession,
    },
  }),
  implement<typeof dashboardMachine>('dashboard', {
    actors: { loadDashboard: fromApi((api) => loadDashboard(api.user)), searchUsers: fromApi((api) => searchDashboardUsers(api.user)) },
  }),
  implement<typeof pricingMachine>('pricing', {
    actors: { loadPricing: fromApi((api) => () => api.user.getPricing()) },
  }),
  implement<typeof optionSettingsMachine>('optionSettings', {
    actors: {
      listOptions: fromApi((api) => () => api.option.listOptions()),
      saveOption: fromApi((api) => ({ key, value }: SaveOptionInput) => api.option.updateOption(key, value)),
      followSession,
    },
  }),
  implement<typeof tokenTableMachine>('tokenTable', {
    actors: {
      fetchPage: fromApi<readonly Token[], FetchPageInput>((api) => fetchTokenPage(api.token)),
      searchRows: fromApi<readonly Token[], SearchRowsInput>((api) => ({ keyword }) => api.token.search(keyword)),
      runRowAction: fromApi((api) => tokenRowAction(api.token, api.relay)),
      exportRows: fromPromise<Message | null, ExportRowsInput<Token>>(() => Promise.resolve(null)),
    },
  }),
  implement<typeof tokenKeyCopyMachine>('tokenKeyCopy', { actors: { copyText: copyTextActor } }),
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
  implement<typeof tokenFormMachine>('tokenForm', {
    actors: {
      loadToken: fromApi((api) => ({ id }: { readonly id: number }) => api.token.get(id)),
      loadAvailableModels: fromApi<readonly string[], unknown>((api) => () => api.user.getAvailableModels()),
      saveToken: fromApi<void, SaveTokenInput>((api) => ({ id, payload }) =>
        pipe(id === null ? api.token.create(payload) : api.token.update({ ...payload, id }), TE.map(() => undefined)),
      ),
      awaitSession,
    },
  }),
  implement<typeof topUpMachine>('topUp', {
    actors: { loadSelf: loadSelfActor(fromApi), redeemCode: redeemCodeActor(fromApi), createTransactionId: createTransactionIdActor, followSession },
    actions: { openWindow: (_, { url }) => openWindow(url) },
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
  implement<typeof priceEditorMachine>('priceEditor', {
    actors: {
      listOptions: fromApi((api) => () => api.option.listOptions()),
      saveOption: fromApi((api) => ({ key, value }: SavePriceOptionInput) => api.option.updateOption(key, value)),
    },
  }),
  implement<typeof logCleanMachine>('logClean', {
    actors: { clearLogs: fromApi((api) => ({ targetTimestamp }) => api.log.clear(targetTimestamp)) },
  }),
  implement<typeof updateCheckMachine>('updateCheck', {
    actors: { fetchLatestRelease: fromApi((api) => latestRelease(api.option.getLatestRelease)) },
  }),
  implement<typeof logTableMachine>('logTable', {
    actors: {
      fetchPage: fromApi<readonly Log[], FetchPageInput>((api) => fetchLogPage(api.log)),
      searchRows: fromPromise<readonly Log[], SearchRowsInput>(() => Promise.resolve([])),
      runRowAction: fromPromise(() => Promise.reject(new Error('log rows have no actions'))),
      exportRows: fromPromise<Message | null, ExportRowsInput<Log>>(() => Promise.resolve(null)),
    },
  }),
  implement<typeof logListPageMachine>('logListPage', {
    actors: { readClock: fromPromise(() => Promise.resolve(Math.floor(Date.now() / 1000))), followSession, relayChildren },
  }),
  implement<typeof logStatMachine>('logStat', { actors: { fetchLogStat: fromApi((api) => fetchLogStat(api.log)) } }),
  implement<typeof logExportMachine>('logExport', {
    actors: { downloadLogs: fromApi((api) => downloadLogs(api.log, (file) => downloadBlob(file.name, file.blob))) },
  }),
  implement<typeof footerMachine>('footer', { actors: { readStoredFooter: fromPromise(() => Promise.resolve(readStoredFooter())) } }),
  implement<typeof commandPaletteMachine>('commandPalette', {
    actors: {
      searchEntities: fromApi((api) => searchPaletteEntities(api)),
      testAllChannels: fromApi((api) => () => api.channel.testAll('all')),
    },
  }),
]);

const storage = defaultStorage();
const rootElement = document.getElementById('root');
if (rootElement === null) throw new Error('index.html has no #root element');
const preferencesInput = initialPreferences(
  { lang: readLocal('lang', storage), colorMode: readLocal('color_mode', storage) },
  window.matchMedia('(prefers-color-scheme: dark)').matches,
);
// Only the active language's catalogue, and before the first render (index.html preloads it).
await loadCatalogue(preferencesInput.lang);

createRoot(rootElement).render(
  <StrictMode>
    <App
      session={session}
      sessionInput={{
        user: readStoredUser(storage),
        status: readStoredStatus(storage),
        buildVersion: import.meta.env.VITE_APP_VERSION,
      }}
      preferences={preferences}
      preferencesInput={preferencesInput}
      implementations={implementations}
    />
  </StrictMode>,
);
