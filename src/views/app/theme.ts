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
  globalCss,
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
  tokens,
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

