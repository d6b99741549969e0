import { Button } from '@chakra-ui/react';
import { channelBulkActions, channelBulkLabelKey, channelBulkValueActions, type ChannelBulkAction, type ChannelBulkValueAction } from '../../domain/channel';
import { useT } from '../app/i18n';
import { SelectionBarView } from '../table/SelectionBarView';

export interface ChannelBulkBarProps {
  readonly selectedCount: number;
  readonly shownCount: number;
  readonly complete: boolean;
  readonly disabled: boolean;
  readonly onSelectAllMatching: () => void;
  readonly onClear: () => void;
  /** A bulk action without a value (the table confirms it). */
  readonly onBulk: (action: ChannelBulkAction) => void;
  /** A bulk action that asks for its value first. */
  readonly onBulkValue: (action: ChannelBulkValueAction) => void;
}

/** The selection bar of the channel list with its bulk actions. */
export function ChannelBulkBar({ selectedCount, shownCount, complete, disabled, onSelectAllMatching, onClear, onBulk, onBulkValue }: ChannelBulkBarProps) {
  const t = useT();
  const plain = [
    { action: channelBulkActions.enable, palette: 'green' },
    { action: channelBulkActions.disable, palette: 'orange' },
    { action: channelBulkActions.remove, palette: 'red' },
  ] as const;
  return (
    <SelectionBarView
      selectedCount={selectedCount}
      shownCount={shownCount}
      complete={complete}
      disabled={disabled}
      onSelectAllMatching={onSelectAllMatching}
      onClear={onClear}
    >
      {plain.map(({ action, palette }) => (
        <Button key={action} size="xs" variant="outline" colorPalette={palette} disabled={disabled} onClick={() => onBulk(action)}>
          {t(channelBulkLabelKey(action))}
        </Button>
      ))}
      {channelBulkValueActions.map((a) => (
        <Button key={a} size="xs" variant="outline" disabled={disabled} onClick={() => onBulkValue(a)}>
          {t(channelBulkLabelKey(a))}
        </Button>
      ))}
    </SelectionBarView>
  );
}
