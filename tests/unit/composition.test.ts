import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import * as channelForm from '../../src/machines/channelForm';
import * as channelList from '../../src/machines/channelList';
import * as channelTest from '../../src/machines/channelTest';
import * as dashboard from '../../src/machines/dashboard';
import * as footer from '../../src/machines/footer';
import * as logClean from '../../src/machines/logClean';
import * as logList from '../../src/machines/logList';
import * as updateCheck from '../../src/machines/updateCheck';
import * as oauthCallback from '../../src/machines/oauthCallback';
import * as oauthLaunch from '../../src/machines/oauthLaunch';
import * as optionSettings from '../../src/machines/optionSettings';
import * as pageContent from '../../src/machines/pageContent';
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

const modules = [
  channelForm,
  channelList,
  channelTest,
  dashboard,
  footer,
  logClean,
  logList,
  updateCheck,
  oauthCallback,
  oauthLaunch,
  optionSettings,
  pageContent,
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
];
const machines = new Map<string, AnyStateMachine>(
  modules.flatMap((m) => Object.entries(m)).filter(([name]) => name.endsWith('Machine')) as [string, AnyStateMachine][],
);

describe('the composition root', () => {
  const main = readFileSync('src/main.tsx', 'utf8');
  const wired = [...main.matchAll(/implement<typeof (\w+)>\('(\w+)'/g)].map((m) => ({ name: m[1]!, id: m[2]! }));

  it('names every page machine by its own id', () => {
    expect(wired.length).toBe(machines.size);
    for (const { name, id } of wired) expect(machines.get(name)?.id, name).toBe(id);
  });

  it('provides every actor a page machine declares', () => {
    for (const { name } of wired) {
      const machine = machines.get(name)!;
      const actors = machine.implementations.actors as Record<string, object>;
      const block = main.slice(main.indexOf(`implement<typeof ${name}>`));
      const next = block.indexOf('\n  implement<');
      const body = next === -1 ? block : block.slice(0, next);
      // child machines (e.g. the resend cooldown) come with the machine itself
      const own = Object.keys(actors).filter((a) => !('config' in actors[a]!));
      for (const actor of own) expect(body, `${name}.${actor}`).toMatch(new RegExp(`\\b${actor}\\b`));
    }
  });
});
