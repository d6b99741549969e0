import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { createSystem } from '@chakra-ui/react';
import { animationStyles, globalCss, semanticTokens, tokens } from '@chakra-ui/react/theme';
import { chakraTokenCssEdits } from '../../vite.config';
import { contrastRatio, minTextContrast } from '../../src/views/app/contrast';
import { toastLook } from '../../src/views/app/toastLook';
import { recipes, saveButtonLook, slotRecipes, system } from '../../src/views/app/theme';
import { laterRecipes, laterSlotRecipes } from '../../src/views/app/laterComponents';

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

/** The names a file imports from '@chakra-ui/react' (values and types). */
function chakraImportsOf(text: string): string[] {
  return [...text.matchAll(/import\s*\{([^}]+)\}\s*from\s*'@chakra-ui\/react'/g)].flatMap((m) =>
    m[1]!.split(',').flatMap((part) => {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!;
      return name === '' ? [] : [name];
    }),
  );
}

/** The names the views import from '@chakra-ui/react' or from laterComponents.ts. */
function chakraImports(): Set<string> {
  const names = new Set<string>();
  for (const file of files('src/views')) {
    const text = readFileSync(file, 'utf8');
    for (const name of chakraImportsOf(text)) names.add(name);
    for (const m of text.matchAll(/import\s*\{([^}]+)\}\s*from\s*'[./]+(app\/)?laterComponents'/g)) {
      for (const part of m[1]!.split(',')) if (part.trim() !== '') names.add(part.trim());
    }
  }
  return names;
}

const laterKeys = new Set([...Object.keys(laterRecipes), ...Object.keys(laterSlotRecipes)]);

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
  it('registers at first only the recipes of what the shell and the signed-out pages draw', () => {
    for (const key of laterKeys) expect(key in recipes || key in slotRecipes, key).toBe(false);
  });
  it('views take the components of later recipes from laterComponents.ts, which adds their recipes', () => {
    // A component rendered before its recipe is added stays unstyled for good (Chakra keeps the
    // recipe it found, none, per key): importing it from laterComponents.ts adds the recipe first.
    const laterComponents = Object.entries(recipeOf).filter(([, key]) => laterKeys.has(key)).map(([name]) => name);
    expect(laterComponents).toContain('Dialog');
    const offending = files('src/views').flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const direct = chakraImportsOf(text).filter((name) => laterComponents.includes(name) || name === 'Toaster');
      // a recipe looked up by its key (useSlotRecipe({ key: 'table' })) needs the module too
      const byKey = [...text.matchAll(/\bkey: '(\w+)'/g)].map((m) => m[1]!).filter((key) => laterKeys.has(key));
      const importsLater = /from '[./]+(app\/)?laterComponents'|import '[./]+(app\/)?laterComponents'/.test(text);
      return [...direct.map((name) => `${file}: ${name} from '@chakra-ui/react'`), ...(byKey.length > 0 && !importsLater ? [`${file}: key ${byKey.join(', ')}`] : [])];
    });
    expect(offending).toEqual([]);
  });
  it('styles a component whose recipe was added after the system was created', () => {
    // what laterComponents.ts relies on: the system looks a recipe up in its config at first use
    const dialog = system.getSlotRecipeFn('dialog') as { classNameMap: Record<string, string>; variantKeys: string[] };
    expect(dialog.classNameMap).toMatchObject({ backdrop: 'chakra-dialog__backdrop', content: 'chakra-dialog__content' });
    expect(dialog.variantKeys).toEqual(expect.arrayContaining(['size', 'placement']));
    const badge = system.getRecipeFn('badge') as { variantKeys: string[] };
    expect(badge.variantKeys).toEqual(expect.arrayContaining(['variant', 'size']));
    expect(system.isSlotRecipe('table') && system.isRecipe('badge')).toBe(true);
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
  const styles = [recipes, slotRecipes, laterRecipes, laterSlotRecipes, animationStyles, globalCss];
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

/** The .ts and .tsx files under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(path) && !path.endsWith('.stories.tsx') ? [path] : [];
  });
}

describe('the colours the source names', () => {
  // A colour token or palette missing from the system renders nothing (no CSS variable): a guard
  // for trimming the theme's tokens to what the console uses.
  const colourProps = String.raw`(?:color|bg|background|borderColor|colorPalette|fill|stroke|outlineColor|accentColor|caretColor|border(?:Top|Bottom|Start|End)Color|focusRingColor)`;
  const named = new RegExp(String.raw`\b(${colourProps})(?:=\{?|:\s*)['"]([^'"]+)['"]`, 'g');
  const palettes = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'cyan', 'purple', 'pink'];
  const files = [...sources('src/views'), ...sources('src/domain')];
  const uses = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(named)].map((m) => ({ file, prop: m[1]!, value: m[2]! })));
  const isToken = (name: string) => system.tokens.getByName(name) !== undefined;

  it('every colour a view or a domain module names as a style value is a token of the system', () => {
    expect(uses.length).toBeGreaterThan(50);
    const missing = uses
      // a bare palette name (`color: 'green'` in a domain table) is a palette: the next test
      .filter(({ prop, value }) => prop !== 'colorPalette' && !palettes.includes(value))
      .filter(({ value }) => !/^(#|rgb|hsl|var\(|none$|inherit$|currentColor$|transparent$)/.test(value))
      .filter(({ value }) => !isToken(`colors.${value}`))
      .map(({ file, prop, value }) => `${file}: ${prop} ${value}`);
    expect(missing).toEqual([]);
  });
  it('every colour palette a view or a domain module names has its palette tokens', () => {
    // colorPalette props, and palette names handed around as values (a status's colour)
    const named = new Set(uses.filter(({ prop }) => prop === 'colorPalette').map(({ value }) => value));
    for (const file of files) for (const m of readFileSync(file, 'utf8').matchAll(/['"]([a-z]+)['"]/g)) if (palettes.includes(m[1]!)) named.add(m[1]!);
    expect(named.size).toBeGreaterThan(3);
    const missing = [...named].filter((p) => !['solid', 'fg', 'subtle', 'muted', 'contrast', 'focusRing', 'emphasized', 'border'].every((k) => isToken(`colors.${p}.${k}`)));
    expect(missing).toEqual([]);
  });
});

describe('the sizes the theme leaves out', () => {
  it('drops only the 25 fractional sizes, which no view, domain module, recipe or Chakra component names', () => {
    const all = Object.keys(tokens.sizes);
    const left = all.filter((name) => system.tokens.getByName(`sizes.${name}`) === undefined);
    expect(left).toHaveLength(25);
    expect(left.every((name) => /^\d+\/\d+$/.test(name))).toBe(true);
    expect(system.tokens.getByName('sizes.md')).toBeDefined();
    expect(system.tokens.getByName('sizes.4')).toBeDefined();
    // any quoted fraction in the console's sources, in Chakra's recipes (first and later) or in its components
    const fraction = /['"`]\d{1,2}\/\d{1,2}['"`]/;
    const chakra = 'node_modules/@chakra-ui/react/dist/esm';
    const chakraFiles = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? chakraFiles(path) : path.endsWith('.js') && !path.endsWith('theme/tokens/sizes.js') ? [path] : [];
      });
    const naming = [...sources('src'), ...chakraFiles(chakra)].filter((file) => fraction.test(readFileSync(file, 'utf8')));
    expect(naming).toEqual([]);
    expect(JSON.stringify([recipes, slotRecipes, laterRecipes, laterSlotRecipes])).not.toMatch(/"\d{1,2}\/\d{1,2}"/);
  });
});

describe("the build's edit of Chakra's token CSS (vite.config.ts)", () => {
  it('gives the same global styles as Chakra unedited', async () => {
    // Chakra's styled-system and utils, copied beside the project's node_modules (so that their
    // package imports resolve), with the edit applied to system.js.
    const from = 'node_modules/@chakra-ui/react/dist/esm';
    const to = 'test-results/chakra-token-css';
    rmSync(to, { recursive: true, force: true });
    for (const dir of ['styled-system', 'utils']) cpSync(join(from, dir), join(to, dir), { recursive: true });
    let code = readFileSync(join(to, 'styled-system/system.js'), 'utf8');
    for (const [before, after] of chakraTokenCssEdits) {
      expect(code).toContain(before);
      code = code.replace(before, after);
    }
    writeFileSync(join(to, 'styled-system/system.js'), code);
    const edited = (await import(/* @vite-ignore */ pathToFileURL(resolve(to, 'styled-system/system.js')).href)) as { createSystem: typeof createSystem };
    const reference = createSystem(system._config);
    const fast = edited.createSystem(system._config);
    expect(JSON.stringify(fast._global)).toBe(JSON.stringify(reference._global));
    expect(JSON.stringify(fast._global)).toBe(JSON.stringify(system._global));
    expect(JSON.stringify(fast.getTokenCss()).length).toBeGreaterThan(10_000);
  });
});

describe("the ring and filter parts registered instead of declared on every element", () => {
  type Registration = { name: string; syntax: string; inherits: boolean; initialValue?: string };
  async function themeWith(registerProperty: (definition: Registration) => void) {
    vi.resetModules();
    vi.stubGlobal('CSS', { registerProperty });
    try {
      return await import('../../src/views/app/theme');
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  }

  it("registers each non-alias custom property of Chakra's `*` rule, non-inherited, with Chakra's value (empty for the empty ones)", async () => {
    const registrations: Registration[] = [];
    const theme = await themeWith((definition) => void registrations.push(definition));
    const everyElement = globalCss['*'] as unknown as Record<string, string>;
    const parts = Object.keys(everyElement).filter((name) => name.startsWith('--') && !name.startsWith('--global-'));
    expect(parts).toHaveLength(23);
    expect(registrations).toEqual(
      parts.map((name) => ({ name, syntax: '*', inherits: false, initialValue: everyElement[name] === 'var(--chakra-empty, )' ? '' : everyElement[name] })),
    );
    // the `*` rule keeps the rest as it was, in order; the other global rules are Chakra's, in order
    const { '*': kept, ...others } = theme.globalCss;
    expect(Object.entries(kept ?? {})).toEqual(Object.entries(everyElement).filter(([name]) => !parts.includes(name)));
    expect(Object.keys(kept ?? {})).toEqual(['fontFeatureSettings', '--global-font-mono', '--global-font-body', '--global-color-border']);
    const { '*': _, ...chakraOthers } = globalCss;
    expect(JSON.stringify(others)).toBe(JSON.stringify(chakraOthers));
    expect(Object.keys(theme.globalCss)).toEqual(Object.keys(globalCss));
  });

  it("keeps Chakra's `*` rule whole where the browser refuses a registration or has none", async () => {
    const refused = await themeWith(() => {
      throw new DOMException('taken', 'InvalidModificationError');
    });
    expect(refused.globalCss).toBe(globalCss);
    const { globalCss: here } = await import('../../src/views/app/theme');
    expect(here).toBe(globalCss);
  });
});
