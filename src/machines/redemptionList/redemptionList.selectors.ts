/*
 * The list itself reads the table selectors (src/machines/table); the key copier's come from the
 * shared key copier (src/machines/keyCopy).
 */
export { selectIsCopying } from '../keyCopy';
