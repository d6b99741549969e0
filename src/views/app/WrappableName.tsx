import { Fragment } from 'react';
import { Text } from '@chakra-ui/react';
import { wrapParts } from '../../domain/format';

/**
 * A long identifier (a model name) that wraps only after '-', '/', '.', ':' or '_' (a <wbr> at
 * each), never inside a word; a single part wider than the cell still breaks as a last resort.
 */
export function WrappableName({ name }: { readonly name: string }) {
  return (
    <Text as="span" data-wrap-name="" wordBreak="normal" overflowWrap="break-word">
      {wrapParts(name).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </Text>
  );
}
