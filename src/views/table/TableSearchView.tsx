import { memo, type FormEvent } from 'react';
import { Button, Flex, Input } from '@chakra-ui/react';
import { useT } from '../app/i18n';

export interface TableSearchViewProps {
  /** The search box as typed. */
  readonly draft: string;
  /** The search in effect (trimmed): the clear button shows while there is one. */
  readonly keyword: string;
  /** The box's label and placeholder ("search by id, name or key" …). */
  readonly label: string;
  readonly disabled?: boolean;
  readonly onDraft: (text: string) => void;
  readonly onSubmit: () => void;
  readonly onClear: () => void;
}

/** The search box above a list: Enter or the button searches, the clear button goes back. */
export const TableSearchView = memo(function TableSearchView({ draft, keyword, label, disabled = false, onDraft, onSubmit, onClear }: TableSearchViewProps) {
  const t = useT();
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <form role="search" onSubmit={handleSubmit} aria-label={label} style={{ flex: '1 1 16rem', minWidth: 0 }}>
      <Flex gap={2}>
        <Input
          type="search"
          value={draft}
          placeholder={label}
          aria-label={label}
          disabled={disabled}
          onChange={(e) => onDraft(e.currentTarget.value)}
        />
        <Button type="submit" variant="outline" disabled={disabled}>
          {t('table.search.submit')}
        </Button>
        {keyword !== '' && (
          <Button variant="ghost" disabled={disabled} onClick={onClear}>
            {t('table.search.clear')}
          </Button>
        )}
      </Flex>
    </form>
  );
});
