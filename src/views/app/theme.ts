import { createSystem, defaultBaseConfig, defineConfig, defineKeyframes, defineLayerStyles } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  colorSwatchRecipe,
  checkboxSlotRecipe,
  codeRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputRecipe,
  kbdRecipe,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  spinnerRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  tagSlotRecipe,
  textareaRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
  tooltipSlotRecipe,
} from '@chakra-ui/react/theme';

/**
 * The console's Chakra system: the default tokens, conditions and global styles, but only
 * the recipes of the components the console uses (the full default config would add about
 * 85 KB gzip to the first load), and only the keyframes and layer styles those recipes name.
 * Using a new Chakra component means adding its recipe here (and any keyframe or layer style it
 * names); tests/unit/theme.test.ts fails when a component in src/views has no recipe, or a
 * recipe names a style the system lacks.
 */
export const recipes = {
  badge: badgeRecipe,
  button: buttonRecipe,
  code: codeRecipe,
  colorSwatch: colorSwatchRecipe,
  container: containerRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  kbd: kbdRecipe,
  link: linkRecipe,
  separator: separatorRecipe,
  skeleton: skeletonRecipe,
  spinner: spinnerRecipe,
  textarea: textareaRecipe,
};

export const slotRecipes = {
  alert: alertSlotRecipe,
  card: cardSlotRecipe,
  checkbox: checkboxSlotRecipe,
  dataList: dataListSlotRecipe,
  dialog: dialogSlotRecipe,
  drawer: drawerSlotRecipe,
  emptyState: emptyStateSlotRecipe,
  field: fieldSlotRecipe,
  list: listSlotRecipe,
  menu: menuSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
  progress: progressSlotRecipe,
  switch: switchSlotRecipe,
  table: tableSlotRecipe,
  tabs: tabsSlotRecipe,
  tag: tagSlotRecipe,
  toast: toastSlotRecipe,
  tooltip: tooltipSlotRecipe,
};

/**
 * The keyframes the registered recipes and animation styles name (spinner, skeleton, progress,
 * dialog, drawer, menu, tooltip, toast), as Chakra defines them. Chakra's full set adds ping,
 * bounce, circular progress, collapse and marquee ones nothing here uses.
 */
const keyframes = defineKeyframes({
  spin: { '0%': { transform: 'rotate(0deg)' }, '100%': { transform: 'rotate(360deg)' } },
  pulse: { '50%': { opacity: '0.5' } },
  'bg-position': {
    from: { backgroundPosition: 'var(--animate-from, 1rem) 0' },
    to: { backgroundPosition: 'var(--animate-to, 0) 0' },
  },
  position: {
    from: { insetInlineStart: 'var(--animate-from-x)', insetBlockStart: 'var(--animate-from-y)' },
    to: { insetInlineStart: 'var(--animate-to-x)', insetBlockStart: 'var(--animate-to-y)' },
  },
  'fade-in': { from: { opacity: 0 }, to: { opacity: 1 } },
  'fade-out': { from: { opacity: 1 }, to: { opacity: 0 } },
  'slide-from-left-full': { from: { translate: '-100% 0' }, to: { translate: '0 0' } },
  'slide-from-right-full': { from: { translate: '100% 0' }, to: { translate: '0 0' } },
  'slide-from-top-full': { from: { translate: '0 -100%' }, to: { translate: '0 0' } },
  'slide-from-bottom-full': { from: { translate: '0 100%' }, to: { translate: '0 0' } },
  'slide-to-left-full': { from: { translate: '0 0' }, to: { translate: '-100% 0' } },
  'slide-to-right-full': { from: { translate: '0 0' }, to: { translate: '100% 0' } },
  'slide-to-top-full': { from: { translate: '0 0' }, to: { translate: '0 -100%' } },
  'slide-to-bottom-full': { from: { translate: '0 0' }, to: { translate: '0 100%' } },
  'slide-from-top': { '0%': { translate: '0 calc(var(--slide-from-top-distance, 0.5rem) * -1)' }, to: { translate: '0' } },
  'slide-from-bottom': { '0%': { translate: '0 var(--slide-from-bottom-distance, 0.5rem)' }, to: { translate: '0' } },
  'slide-from-left': { '0%': { translate: 'calc(var(--slide-from-left-distance, 0.5rem) * -1) 0' }, to: { translate: '0' } },
  'slide-from-right': { '0%': { translate: 'var(--slide-from-right-distance, 0.5rem) 0' }, to: { translate: '0' } },
  'slide-to-top': { '0%': { translate: '0' }, to: { translate: '0 calc(var(--slide-to-top-distance, 0.5rem) * -1)' } },
  'slide-to-bottom': { '0%': { translate: '0' }, to: { translate: '0 var(--slide-to-bottom-distance, 0.5rem)' } },
  'slide-to-left': { '0%': { translate: '0' }, to: { translate: 'calc(var(--slide-to-left-distance, 0.5rem) * -1) 0' } },
  'slide-to-right': { '0%': { translate: '0' }, to: { translate: 'var(--slide-to-right-distance, 0.5rem) 0' } },
  'scale-in': { from: { scale: '0.95' }, to: { scale: '1' } },
  'scale-out': { from: { scale: '1' }, to: { scale: '0.95' } },
});

/**
 * The layer styles the registered recipes name (disabled buttons, inputs, switches ...; the
 * tabs' line indicator), as Chakra defines them. The views name none; Chakra's fill, outline
 * and other indicator styles are unused.
 */
const layerStyles = defineLayerStyles({
  'indicator.bottom': {
    value: {
      position: 'relative',
      '--indicator-color-fallback': 'colors.colorPalette.solid',
      _before: {
        content: `""`,
        position: 'absolute',
        bottom: 'var(--indicator-offset-y, 0)',
        insetInline: 'var(--indicator-offset-x, 0)',
        height: 'var(--indicator-thickness, 2px)',
        background: 'var(--indicator-color, var(--indicator-color-fallback))',
      },
    },
  },
  'indicator.end': {
    value: {
      position: 'relative',
      '--indicator-color-fallback': 'colors.colorPalette.solid',
      _before: {
        content: `""`,
        position: 'absolute',
        insetInlineEnd: 'var(--indicator-offset-x, 0)',
        insetBlock: 'var(--indicator-offset-y, 0)',
        width: 'var(--indicator-thickness, 2px)',
        background: 'var(--indicator-color, var(--indicator-color-fallback))',
      },
    },
  },
  disabled: { value: { opacity: '0.5', cursor: 'not-allowed' } },
});

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

