import { createChannelApi } from '../api/channelApi';
import { createTokenApi } from '../api/tokenApi';
import { createUserApi } from '../api/userApi';
import { apiActors } from '../api/actors/fromApi';
import { searchPaletteEntities } from '../api/actors/commandPalette';
import type { commandPaletteMachine } from '../machines/commandPalette';
import { implement, implementArea } from '../views/app/machineRegistry';
import type { WiringRoot } from './root';

/** The command palette (loaded after the first paint, signed in): its entity search and "test all channels". */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ channel: createChannelApi(c), token: createTokenApi(c), user: createUserApi(c) }));
  return implementArea('palette', [
    implement<typeof commandPaletteMachine>('commandPalette', {
      actors: {
        searchEntities: fromApi((api) => searchPaletteEntities(api)),
        testAllChannels: fromApi((api) => () => api.channel.testAll('all')),
      },
    }),
  ]);
};
