import type { Token } from '../../domain/token';
import { createCopyListPageMachine } from '../listPage';
import { tokenKeyCopyMachine, tokenTableMachine } from '../tokenList';

/**
 * The token list page (/token): invokes the token table and the token key copier; a copy the
 * clipboard refused fills the table's search box with the copied text (src/machines/listPage).
 */
export const tokenListPageMachine = createCopyListPageMachine<Token>({
  id: 'tokenListPage',
  table: tokenTableMachine,
  keyCopy: tokenKeyCopyMachine,
});
