import type { Preview } from '@storybook/react-vite';
import { useLayoutEffect, type ReactNode } from 'react';
import { Box, ChakraProvider } from '@chakra-ui/react';
import { MemoryRouter } from 'react-router-dom';
import { configure } from 'storybook/test';
import { system } from '../src/views/app/theme';
import { LangProvider } from '../src/views/app/i18n';
import type { Lang } from '../src/i18n';
// Both catalogues, loaded up front: a story renders either language synchronously.
import '../src/i18n/all';
import { openDeferred } from '../src/views/app/afterPage';

// The shell's parts that wait for the first page (footer, account menu, drawer...) load at once.
openDeferred();

/**
 * Every story renders inside the app's providers: the Chakra system, the language and a memory
 * router (`parameters.route`, default '/'). The toolbar switches the language (zh, the default, or
 * en) and the colour mode (light or dark) for every story; a story that is about one of them pins it
 * with `parameters.lang` or `parameters.colorMode: 'dark'` (the a11y check then covers dark
 * contrast), which wins over the toolbar. Containers get their machines (stub actors, seeded
 * snapshots) from a MachineRegistryProvider in the story itself. Emitted notify/navigate events go
 * nowhere unless a story provides an EffectsProvider to observe them.
 */
/** Puts the page in the story's colour mode the way the app does: a class on <html>. */
function ColorModeRoot({ dark, children }: { readonly dark: boolean; readonly children: ReactNode }) {
  useLayoutEffect(() => {
    const html = document.documentElement;
    html.classList.toggle('dark', dark);
    html.classList.toggle('light', !dark);
    html.style.colorScheme = dark ? 'dark' : 'light';
  }, [dark]);
  return (
    <Box bg="bg" color="fg" p={dark ? 2 : 0}>
      {children}
    </Box>
  );
}

// findBy*/waitFor give up after 1 s by default; a slower CI machine needs more headroom.
configure({ asyncUtilTimeout: 5000 });

/** True when the stories run as tests (Vitest browser mode), not in the Storybook UI. */
const underTest = '__vitest_browser__' in globalThis;

/*
 * Under test, motion is off: Chakra's enter/exit animations and transitions take no time, so a
 * dialog or toast is there (or gone) as soon as its state says so, and no play function waits on a
 * fade. Zag's presence unmounts at once when the animation duration is 0s. The Storybook UI keeps
 * its motion. No story asserts on an animation.
 */
if (underTest) {
  const noMotion = document.createElement('style');
  noMotion.dataset.storyTests = 'no-motion';
  noMotion.textContent = [
    '*, *::before, *::after {',
    '  animation-duration: 0s !important;',
    '  animation-delay: 0s !important;',
    '  transition-duration: 0s !important;',
    '  transition-delay: 0s !important;',
    '}',
  ].join('\n');
  document.head.appendChild(noMotion);
}

const preview: Preview = {
  // Each view gets a docs page listing its state stories (interaction stories opt out).
  tags: ['autodocs'],
  globalTypes: {
    lang: {
      description: 'Language of the console',
      toolbar: {
        title: 'Language',
        icon: 'globe',
        items: [
          { value: 'zh', title: '中文' },
          { value: 'en', title: 'English' },
        ],
        dynamicTitle: true,
      },
    },
    colorMode: {
      description: 'Colour mode',
      toolbar: {
        title: 'Colour mode',
        icon: 'mirror',
        items: [
          { value: 'light', icon: 'sun', title: 'Light' },
          { value: 'dark', icon: 'moon', title: 'Dark' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { lang: 'zh', colorMode: 'light' },
  decorators: [
    (Story, { parameters, globals }) => {
      const lang = (parameters.lang as Lang | undefined) ?? (globals.lang === 'en' ? 'en' : 'zh');
      const route = (parameters.route as string | undefined) ?? '/';
      const dark = ((parameters.colorMode as string | undefined) ?? globals.colorMode) === 'dark';
      return (
        <ChakraProvider value={system}>
          <LangProvider value={lang}>
            <MemoryRouter initialEntries={[route]}>
              <ColorModeRoot dark={dark}>
                <Story />
              </ColorModeRoot>
            </MemoryRouter>
          </LangProvider>
        </ChakraProvider>
      );
    },
  ],
  parameters: {
    // On a docs page each story renders in its own frame: its colour mode (a class on <html>) and
    // its open dialogs (portals over the whole page) stay inside it.
    docs: { story: { inline: false, iframeHeight: 480 } },
    a11y: {
      test: 'error',
      // Every rule still runs on every node and every violation is reported in full; under test
      // the passes and incompletes are cut to one example each, which spares building their
      // selectors and shipping them to the runner (the UI panel keeps the full lists).
      ...(underTest ? { options: { resultTypes: ['violations'] } } : {}),
    },
  },
};
export default preview;
