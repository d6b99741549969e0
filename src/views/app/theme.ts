import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  globalCss as chakraGlobalCss,
  headingRecipe,
  iconRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  semanticTokens,
  separatorRecipe,
  spinnerRecipe,
  textStyles,
  tokens as chakraTokens,
} from '@chakra-ui/react/theme';

/**
 * The console's Chakra system: the default tokens, conditions and global styles, but only the
 * recipes of the components the shell and the signed-out pages draw (the full default config
 * would add about 85 KB gzip to the first load). The recipes of the components only signed-in
 * pages, dialogs, menus and toasts draw come later with those components
 * (src/views/app/laterComponents.ts adds them with `addRecipes` when its chunk loads), about
 * 6.5 KB gzip less for /login. tests/unit/theme.test.ts fails when a component in src/views
 * has no recipe, or takes a later one without its module.
 */
export const recipes = {
  button: buttonRecipe,
  container: containerRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  link: linkRecipe,
  separator: separatorRecipe,
  spinner: spinnerRecipe,
};

export const slotRecipes = {
  alert: alertSlotRecipe,
  card: cardSlotRecipe,
  emptyState: emptyStateSlotRecipe,
  field: fieldSlotRecipe,
};

/**
 * The parts of Chakra's ring, filter and backdrop-filter utilities: 23 custom properties (17 of
 * them empty) that Chakra's global `*` rule declares on every element, so that an element that
 * sets none of them reads its default and one that sets them does not pass them on. Registered
 * in the browser as non-inherited custom properties with those defaults as initial values, they
 * behave the same without being declared on every element: each element no longer carries 23
 * custom properties of its own, which every restyle of the page (a colour-mode switch, a class on
 * the root) resolved again for each element. Registered with `CSS.registerProperty` rather than
 * `@property` rules because the global styles' serialiser drops an empty initial value. Where the
 * browser has no `CSS.registerProperty` or refuses a registration (an empty initial value is
 * recent; a module evaluated again finds its names taken), the `*` rule keeps them as Chakra has
 * it. The `--global-*` aliases and the font features stay in `*`. tests/unit/theme.test.ts proves
 * the same names and values, moved.
 */
const { '*': everyElement = {}, ...otherGlobalCss } = chakraGlobalCss;

/** Chakra's `*` rule without the parts, once they are registered; undefined if the browser did not take them all. */
function registerParts(): typeof everyElement | undefined {
  const kept: Record<string, unknown> = {};
  // the entries of Chakra's own object, in its order
  try {
    for (const [name, value] of Object.entries(everyElement))
      if (/^--(?!global-)/.test(name)) CSS.registerProperty({ name, syntax: '*', inherits: false, initialValue: value === 'var(--chakra-empty, )' ? '' : String(value) });
      else kept[name] = value;
    return kept as typeof everyElement;
  } catch {
    return undefined;
  }
}

const everyElementLeft = registerParts();
export const globalCss: typeof chakraGlobalCss = everyElementLeft ? { '*': everyElementLeft, ...otherGlobalCss } : chakraGlobalCss;

/**
 * Chakra's tokens without its 25 fractional sizes (1/2, 5/12 and so on: percentages under a size's
 * name): neither the console nor any Chakra recipe or component names one, and each token costs
 * createSystem its dictionary entry and the root its custom property, on every boot.
 * tests/unit/theme.test.ts fails when a view, a domain module or a recipe names one.
 */
export const tokens = {
  ...chakraTokens,
  sizes: Object.fromEntries(Object.entries(chakraTokens.sizes ?? {}).filter(([name]) => !name.includes('/'))),
};

export const system = createSystem(
  defaultBaseConfig,
  defineConfig({
    preflight: true,
    cssVarsPrefix,
    cssVarsRoot,
    globalCss,
    theme: { breakpoints, keyframes, tokens, semanticTokens, recipes, slotRecipes, textStyles, layerStyles, animationStyles },
  }),
);

type RecipeMap = NonNullable<NonNullable<(typeof system)['_config']['theme']>['recipes']>;
type SlotRecipeMap = NonNullable<NonNullable<(typeof system)['_config']['theme']>['slotRecipes']>;

/**
 * Gives the system more recipes after it was created, without a new system (which would re-render
 * the whole tree and re-inject every global style). Chakra looks a recipe up by its key in the
 * system's config when the first component of that kind renders, and keeps the compiled recipe
 * per key from then on; so a recipe must be added before any component that uses it renders:
 * the module that exports such components adds them when it is evaluated (laterComponents.ts).
 * Chakra does not document adding recipes to a created system; tests/unit/theme.test.ts proves
 * that a recipe added this way styles its component, so a Chakra update that changes the lookup fails there.
 */
export function addRecipes(more: { recipes?: RecipeMap; slotRecipes?: SlotRecipeMap }): void {
  const theme = system._config.theme;
  if (theme === undefined) throw new Error('the Chakra system has no theme');
  theme.recipes = Object.assign(theme.recipes ?? {}, more.recipes);
  theme.slotRecipes = Object.assign(theme.slotRecipes ?? {}, more.slotRecipes);
}

/**
 * How a section's save button looks (semantic colour tokens, text on background). With unsaved
 * changes: solid blue. With nothing to save: an outline button at full opacity with muted text on
 * the card, instead of a half-transparent solid one (too pale to read in dark mode). Both keep a
 * text contrast of at least 4.5:1 in light and dark mode (tests/unit/theme.test.ts).
 */
export const saveButtonLook = {
  pending: { color: 'blue.contrast', bg: 'blue.solid' },
  idle: { color: 'fg.muted', bg: 'bg.panel' },
} as const;

