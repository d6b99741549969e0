import { memo, useMemo } from 'react';
import { Global } from '@emotion/react';
import { useChakraContext, type SystemStyleObject } from '@chakra-ui/react';

/**
 * Writes `styles` (resolved by the Chakra system: tokens, conditions, colour palettes) once, as a
 * global sheet under `.className`; written again only when `styles` changes identity. A Chakra
 * `css` prop (or style props) would resolve, hash and serialize the whole object for every
 * element on every render: parts that repeat (a table's cells, the menu's entries) set only the
 * class name and `data-*` attributes instead.
 */
export const ScopedStyles = memo(function ScopedStyles({ className, styles }: { readonly className: string; readonly styles: SystemStyleObject }) {
  const { css } = useChakraContext();
  const global = useMemo(() => ({ [`.${className}`]: css(styles) }), [css, className, styles]);
  return <Global styles={global} />;
});
