import { describe, expect, it } from 'vitest';
import { fromPromise, type AnyStateMachine } from 'xstate';
import * as channelForm from '../../src/machines/channelForm';
import * as commandPalette from '../../src/machines/commandPalette';
import * as twoFactorSettings from '../../src/machines/twoFactorSettings';
import * as channelList from '../../src/machines/channelList';
import * as channelTags from '../../src/machines/channelTags';
import * as channelTest from '../../src/machines/channelTest';
import * as dashboard from '../../src/machines/dashboard';
import * as footer from '../../src/machines/footer';
import * as logClean from '../../src/machines/logClean';
import * as logList from '../../src/machines/logList';
import * as logListPage from '../../src/machines/logListPage';
import * as updateCheck from '../../src/machines/updateCheck';
import * as oauthCallback from '../../src/machines/oauthCallback';
import * as oauthLaunch from '../../src/machines/oauthLaunch';
import * as optionSettings from '../../src/machines/optionSettings';
import * as pageContent from '../../src/machines/pageContent';
import * as pricing from '../../src/machines/pricing';
import * as priceEditor from '../../src/machines/priceEditor';
import * as passwordResetConfirm from '../../src/machines/passwordResetConfirm';
import * as profileEdit from '../../src/machines/profileEdit';
import * as topUp from '../../src/machines/topUp';
import * as personalSettings from '../../src/machines/personalSettings';
import * as redemptionForm from '../../src/machines/redemptionForm';
import * as redemptionList from '../../src/machines/redemptionList';
import * as passwordResetRequest from '../../src/machines/passwordResetRequest';
import * as register from '../../src/machines/register';
import * as turnstile from '../../src/machines/turnstile';
import * as userForm from '../../src/machines/userForm';
import * as tokenList from '../../src/machines/tokenList';
import * as tokenForm from '../../src/machines/tokenForm';
import * as userList from '../../src/machines/userList';
import * as wechatLogin from '../../src/machines/wechatLogin';
import type { sessionMachine } from '../../src/machines/session';
import { implement, implementAll } from '../../src/views/app/machineRegistry';
import { pageMachineIds } from '../../src/views/app/pageMachines';

const modules = [
  channelForm,
  commandPalette,
  channelList,
  channelTags,
  channelTest,
  dashboard,
  footer,
  logClean,
  logList,
  logListPage,
  updateCheck,
  oauthCallback,
  oauthLaunch,
  optionSettings,
  pageContent,
  pricing,
  priceEditor,
  passwordResetConfirm,
  passwordResetRequest,
  profileEdit,
  topUp,
  personalSettings,
  redemptionForm,
  redemptionList,
  register,
  turnstile,
  tokenList,
  tokenForm,
  userForm,
  userList,
  wechatLogin,
  twoFactorSettings,
];
const machines = new Map<string, AnyStateMachine>(
  modules.flatMap((m) => Object.entries(m)).filter(([name]) => name.endsWith('Machine')) as [string, AnyStateMachine][],
);

const footerActors = { readStoredFooter: fromPromise(() => Promise.resolve('')) };

describe('the composition root', () => {
  it('lists every page machine by its own id, once', () => {
    expect(new Set(pageMachineIds).size).toBe(pageMachineIds.length);
    expect([...pageMachineIds].sort()).toEqual([...machines.values()].map((m) => m.id).sort());
  });

  it('the compiler checks ids and actors of implement() and the completeness of implementAll()', () => {
    const footerImplementation = implement<typeof footer.footerMachine>('footer', { actors: footerActors });
    expect(footerImplementation.id).toBe('footer');
    // @ts-expect-error -- another machine's id
    implement<typeof footer.footerMachine>('tokenForm', { actors: footerActors });
    // @ts-expect-error -- a machine id that is not in pageMachineIds
    implement<typeof sessionMachine>('session', {});
    // @ts-expect-error -- an own actor left out
    implement<typeof footer.footerMachine>('footer', { actors: {} });
    // @ts-expect-error -- every page machine but the footer is missing
    implementAll([footerImplementation]);
  });
});
