import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { animationStyles, globalCss, semanticTokens, tokens } from '@chakra-ui/react/theme';
import { contrastRatio, minTextContrast } from '../../src/views/app/contrast';
import { toastLook } from '../../src/views/app/toastLook';
import { recipes, saveButtonLook, slotRecipes, system } from '../../src/views/app/theme';

/** Chakra components and the recipe each one styles itself with. */
const recipeOf: Readonly<Record<string, string>> = {
  Alert: 'alert',
  Badge: 'badge',
  Button: 'button',
  IconButton: 'button',
  CloseButton: 'button',
  Card: 'card',
  Checkbox: 'checkbox',
  Code: 'code',
  Container: 'container',
  DataList: 'dataList',
  Dialog: 'dialog',
  Drawer: 'drawer',
  EmptyState: 'emptyState',
  Field: 'field',
  Heading: 'heading',
  Icon: 'icon',
  Input: 'input',
  Kbd: 'kbd',
  Link: 'link',
  Menu: 'menu',
  NativeSelect: 'nativeSelect',
  NumberInput: 'numberInput',
  Popover: 'popover',
  Select: 'select',
  Separator: 'separator',
  Skeleton: 'skeleton',
  Spinner: 'spinner',
  Switch: 'switch',
  Table: 'table',
  Tabs: 'tabs',
  Tag: 'tag',
  Textarea: 'textarea',
  Toast: 'toast',
  Tooltip: 'tooltip',
  Pagination: 'pagination',
  Progress: 'progress',
  Combobox: 'combobox',
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.tsx') ? [path] : [];
  });
}

function chakraImports(): Set<string> {
  const names = new Set<string>();
  for (const file of files('src/views')) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/import\s*\{([^}]+)\}\s*from\s*'@chakra-ui\/react'/g)) {
      for (const part of m[1]!.split(',')) {
        const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!;
        if (name !== '') names.add(name);
      }
    }
  }
  return names;
}

describe('the slim Chakra system', () => {
  it('has a recipe for every Chakra component the views use', () => {
    const used = [...chakraImports()].filter((n) => n in recipeOf);
    expect(used.length).toBeGreaterThan(5);
    const missing = used.filter((n) => {
      const key = recipeOf[n]!;
      return !system.isRecipe(key) && !system.isSlotRecipe(key);
    });
    expect(missing).toEqual([]);
  });
  it('keeps the default tokens and the dark condition', () => {
    expect(system.token('colors.blue.500')).toBeDefined();
    expect(system.conditions.has('_dark')).toBe(true);
  });
});

/** Every value of `key` anywhere in the style objects (recipes, animation styles, global CSS). */
function valuesOf(tree: unknown, key: string): string[] {
  if (typeof tree !== 'object' || tree === null) return [];
  return Object.entries(tree).flatMap(([k, v]) => (k === key && typeof v === 'string' ? [v] : valuesOf(v, key)));
}

describe('the trimmed theme', () => {
  const styles = [recipes, slotRecipes, animationStyles, globalCss];
  const named = (key: string) => [...new Set(styles.flatMap((s) => valuesOf(s, key)))];
  it('keeps every layer, text and animation style a registered recipe names', () => {
    expect(named('layerStyle').filter((n) => !system.query.layerStyles.list().includes(n))).toEqual([]);
    expect(named('textStyle').filter((n) => !system.query.textStyles.list().includes(n))).toEqual([]);
    expect(named('animationStyle').filter((n) => !system.query.animationStyles.list().includes(n))).toEqual([]);
  });
  it('keeps every keyframe a recipe, an animation style or an animation token names', () => {
    const keyframes = system.query.keyframes.list();
    const animationToken = (name: string) => (lookup(tokens.animations, name) as { value: string } | undefined)?.value ?? name;
    const names = [
      ...named('animationName').flatMap((v) => v.split(',')),
      ...named('animation').map((v) => animationToken(v.trim().split(/\s+/)[0]!).split(/\s+/)[0]!),
    ]
      .map((n) => n.trim())
      .filter((n) => n !== 'none' && !n.startsWith('var('));
    expect(names.length).toBeGreaterThan(10);
    expect([...new Set(names)].filter((n) => !keyframes.includes(n))).toEqual([]);
  });
});

const lookup = (tree: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);

/** A colour token (`blue.solid`, `fg.muted`, `gray.400`, `white`) as a hex colour in one mode. */
function colourOf(name: string, mode: '_light' | '_dark'): string {
  if (name.startsWith('#')) return name;
  if (name === 'white') return '#ffffff';
  if (name === 'black') return '#000000';
  const semantic = lookup(semanticTokens.colors, name) as { value?: unknown; DEFAULT?: { value: unknown } } | undefined;
  const entry = semantic?.value ?? semantic?.DEFAULT?.value;
  if (entry !== undefined) {
    const v = typeof entry === 'object' && entry !== null ? (entry as Record<string, string>)[mode] ?? (entry as Record<string, string>).base : (entry as string);
    return colourOf(String(v).replace(/^\{colors\.(.+)\}$/, '$1'), mode);
  }
  const plain = lookup(tokens.colors, name) as { value: string } | undefined;
  if (plain === undefined) throw new Error(`unknown colour token ${name}`);
  return colourOf(plain.value, mode);
}

describe('contrast', () => {
  it('is 21 for black on white, 1 for a colour on itself, symmetric', () => {
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#2563eb', '#2563eb')).toBe(1);
    expect(contrastRatio('#2563eb', '#ffffff')).toBeCloseTo(contrastRatio('#ffffff', '#2563eb'), 10);
    expect(contrastRatio('#2563eb', '#ffffff')).toBeCloseTo(5.17, 2);
  });
  it('the token resolver follows semantic tokens to the palette', () => {
    expect(colourOf('fg.muted', '_light').toLowerCase()).toBe('#52525b');
    expect(colourOf('fg.muted', '_dark').toLowerCase()).toBe('#a1a1aa');
  });
  it.each(['_light', '_dark'] as const)('coloured toasts keep a text contrast of at least 4.5:1 (%s)', (mode) => {
    for (const [type, look] of Object.entries(toastLook)) {
      const ratio = contrastRatio(colourOf(look.color, mode), colourOf(look.bg, mode));
      expect(ratio, `${type} ${mode}`).toBeGreaterThanOrEqual(minTextContrast);
    }
    // Chakra's own success toast (white on green.solid) does not: why toastLook exists
    expect(contrastRatio(colourOf('green.contrast', mode), colourOf('green.solid', mode))).toBeLessThan(minTextContrast);
  });
  it.each(['_light', '_dark'] as const)('save buttons keep a text contrast of at least 4.5:1 (%s)', (mode) => {
    for (const [state, look] of Object.entries(saveButtonLook)) {
      const ratio = contrastRatio(colourOf(look.color, mode), colourOf(look.bg, mode));
      expect(ratio, `${state} ${mode}`).toBeGreaterThanOrEqual(minTextContrast);
    }
  });
});
