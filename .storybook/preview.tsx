import type { Preview } from '@storybook/react-vite';
import { ChakraProvider } from '@chakra-ui/react';
import { MemoryRouter } from 'react-router-dom';
import { system } from '../src/views/app/theme';
import { LangProvider } from '../src/views/app/i18n';
import type { Lang } from '../src/i18n';

/**
 * Every story renders inside the app's providers: the Chakra system, the language
 * (`parameters.lang`, default zh) and a memory router (`parameters.route`, default '/').
 * Containers get their machines (stub actors, seeded snapshots) from a MachineRegistryProvider
 * in the story itself. Emitted notify/navigate events go nowhere unless a story provides
 * an EffectsProvider to observe them.
 */
const preview: Preview = {
  decorators: [
    (Story, { parameters }) => {
      const lang = (parameters.lang as Lang | undefined) ?? 'zh';
      const route = (parameters.route as string | undefined) ?? '/';
      return (
        <ChakraProvider value={system}>
          <LangProvider value={lang}>
            <MemoryRouter initialEntries={[route]}>
              <Story />
            </MemoryRouter>
          </LangProvider>
        </ChakraProvider>
      );
    },
  ],
  parameters: { a11y: { test: 'error' } },
};
export default preview;
