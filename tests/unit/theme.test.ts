import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { system } from '../../src/views/app/theme';

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
