import { memo, type ReactNode } from 'react';
import { shallowSame } from './shallowSame';
import { Button, Flex, Text } from '@chakra-ui/react';
import { useT } from '../app/i18n';

export interface SelectionBarViewProps {
  readonly selectedCount: number;
  /** Rows matching the view that are loaded. */
  readonly shownCount: number;
  /** Every row is loaded (else "select all matching" loads the rest first). */
  readonly complete: boolean;
  readonly disabled?: boolean;
  readonly onSelectAllMatching: () => void;
  readonly onClear: () => void;
  /** The bulk action buttons of the list. */
  readonly children: ReactNode;
}

/**
 * Appears while rows are selected: the count, select all matching, clear, and the bulk actions.
 * Hidden (nothing selected), it is not drawn again when the page around it is.
 */
export const SelectionBarView = memo(function SelectionBarView({
  selectedCount,
  shownCount,
  complete,
  disabled = false,
  onSelectAllMatching,
  onClear,
  children,
}: SelectionBarViewProps) {
  const t = useT();
  if (selectedCount === 0) return null;
  return (
    <Flex
      role="region"
      aria-label={t('table.selection.count', { count: selectedCount })}
      gap={2}
      wrap="wrap"
      align="center"
      p={2}
      borderWidth="1px"
      borderRadius="md"
      bg="bg.muted"
    >
      <Text fontWeight="semibold" aria-live="polite">
        {t('table.selection.count', { count: selectedCount })}
      </Text>
      {!(complete && selectedCount === shownCount) && (
        <Button size="xs" variant="ghost" disabled={disabled} onClick={onSelectAllMatching}>
          {complete ? t('table.selection.allLoaded', { count: shownCount }) : t('table.selection.allMatching')}
        </Button>
      )}
      <Button size="xs" variant="ghost" disabled={disabled} onClick={onClear}>
        {t('table.selection.clear')}
      </Button>
      <Flex gap={2} wrap="wrap" ms={{ base: 0, md: 'auto' }}>
        {children}
      </Flex>
    </Flex>
  );
}, (was, now) => (was.selectedCount === 0 && now.selectedCount === 0) || shallowSame(was, now));
