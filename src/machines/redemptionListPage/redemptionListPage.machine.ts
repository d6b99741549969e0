import type { Redemption } from '../../domain/redemption';
import { createCopyListPageMachine } from '../listPage';
import { redemptionKeyCopyMachine, redemptionTableMachine } from '../redemptionList';

/**
 * The redemption list page (/redemption): invokes the code table and the key copier; a key the
 * clipboard refused fills the table's search box (src/machines/listPage).
 */
export const redemptionListPageMachine = createCopyListPageMachine<Redemption>({
  id: 'redemptionListPage',
  table: redemptionTableMachine,
  keyCopy: redemptionKeyCopyMachine,
});
