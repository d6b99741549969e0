import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SystemStyleObject } from '@chakra-ui/react';
import { system } from '../../../src/views/app/theme';
import { cellPartsCss } from '../../../src/views/table/cellParts';
import { dataTableCss } from '../../../src/views/table/DataTableView';

/**
 * The table's kept sheets ship resolved (src/views/table/cellPartsSheet.json, dataTableSheet.json)
 * so that a list page's first render does not work them out from the recipes. Each must be what
 * the console's Chakra system resolves today: a Chakra update or a change to the rules fails here.
 * `UPDATE_SHEETS=1 npx vitest run --project unit tests/unit/views/keptSheets.test.ts` writes them again.
 */
const sheets: readonly (readonly [file: string, resolve: () => SystemStyleObject])[] = [
  ['cellPartsSheet.json', () => cellPartsCss(system)],
  ['dataTableSheet.json', () => dataTableCss(system)],
];

describe('the resolved kept sheets', () => {
  for (const [name, resolve] of sheets) {
    it(`${name} is the system’s resolution of its rules`, () => {
      const file = new URL(`../../../src/views/table/${name}`, import.meta.url);
      const resolved = resolve();
      if (process.env.UPDATE_SHEETS === '1') writeFileSync(file, `${JSON.stringify(resolved, null, 1)}\n`);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(resolved)));
    });
  }
});
