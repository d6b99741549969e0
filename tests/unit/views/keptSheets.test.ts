import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { system } from '../../../src/views/app/theme';
import { cellPartsCss } from '../../../src/views/table/cellParts';

/**
 * The table's cell parts' sheet ships resolved (src/views/table/cellPartsSheet.json) so that a
 * list page's first render does not work it out from the recipes. It must be what the console's
 * Chakra system resolves today: a Chakra update or a change to the rules fails here.
 * `UPDATE_SHEETS=1 npx vitest run --project unit tests/unit/views/keptSheets.test.ts` writes it again.
 */
describe('the resolved kept sheets', () => {
  it('the cell parts sheet is the system’s resolution of the rules', () => {
    const file = new URL('../../../src/views/table/cellPartsSheet.json', import.meta.url);
    const resolved = cellPartsCss(system);
    if (process.env.UPDATE_SHEETS === '1') writeFileSync(file, `${JSON.stringify(resolved, null, 1)}\n`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(resolved)));
  });
});
