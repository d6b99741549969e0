import {
  badgeRecipe,
  checkboxSlotRecipe,
  codeRecipe,
  colorSwatchRecipe,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  kbdRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  skeletonRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  tagSlotRecipe,
  textareaRecipe,
  toastSlotRecipe,
  tooltipSlotRecipe,
} from '@chakra-ui/react/theme';
import { addRecipes } from './theme';

/**
 * The Chakra components that the shell and the signed-out pages never draw at first paint (tables,
 * dialogs, menus, toasts...), with their recipes: the system gets these recipes when this module
 * is evaluated, so before any of these components can render, and they load with the first chunk
 * that uses them instead of with every page. Views import these components from here, never from
 * '@chakra-ui/react' (tests/unit/theme.test.ts checks it), and so does a view that looks one of
 * these recipes up by its key (`useSlotRecipe({ key: 'table' })`).
 */
export const laterRecipes = {
  badge: badgeRecipe,
  code: codeRecipe,
  colorSwatch: colorSwatchRecipe,
  kbd: kbdRecipe,
  skeleton: skeletonRecipe,
  textarea: textareaRecipe,
};

export const laterSlotRecipes = {
  checkbox: checkboxSlotRecipe,
  dataList: dataListSlotRecipe,
  dialog: dialogSlotRecipe,
  drawer: drawerSlotRecipe,
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

addRecipes({ recipes: laterRecipes, slotRecipes: laterSlotRecipes });

export {
  Badge,
  Checkbox,
  Code,
  ColorSwatch,
  DataList,
  Dialog,
  Drawer,
  Kbd,
  List,
  Menu,
  NativeSelect,
  Progress,
  Skeleton,
  Switch,
  Table,
  Tabs,
  Tag,
  Textarea,
  Toast,
  Toaster,
  Tooltip,
} from '@chakra-ui/react';
