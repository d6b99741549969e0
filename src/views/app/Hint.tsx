import type { ReactNode } from 'react';
import { Portal, Tooltip } from '@chakra-ui/react';
import { popupDelayMs } from '../../domain/constants';

/** A hover / focus hint (tooltip) on a small inline element; the hint is also its accessible description. */
export function Hint({ text, children }: { readonly text: string; readonly children: ReactNode }) {
  return (
    <Tooltip.Root openDelay={popupDelayMs.open} closeDelay={popupDelayMs.close}>
      <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
      <Portal>
        <Tooltip.Positioner>
          <Tooltip.Content maxW="sm">{text}</Tooltip.Content>
        </Tooltip.Positioner>
      </Portal>
    </Tooltip.Root>
  );
}
