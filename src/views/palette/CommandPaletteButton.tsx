import { Button, Text } from '@chakra-ui/react';
import { Kbd } from '../app/laterComponents';
import { useT } from '../app/i18n';
import { SearchIcon } from './SearchIcon';

/** The header's palette button: opens the command palette and shows its shortcut (hidden text on narrow screens). */
export function CommandPaletteButton({
  shortcut,
  onOpen,
  disabled = false,
}: {
  /** 'Ctrl K', or '⌘ K' on macOS. */
  readonly shortcut: string;
  readonly onOpen?: () => void;
  readonly disabled?: boolean;
}) {
  const t = useT();
  return (
    <Button
      variant="outline"
      size="sm"
      aria-keyshortcuts={shortcut === '⌘ K' ? 'Meta+K' : 'Control+K'}
      aria-haspopup="dialog"
      onClick={onOpen}
      disabled={disabled}
      color="fg.muted"
    >
      <SearchIcon />
      <Text as="span" srOnly>
        {t('palette.open')}
      </Text>
      <Kbd size="sm" display={{ base: 'none', md: 'inline-flex' }}>
        {shortcut}
      </Kbd>
    </Button>
  );
}

/** The shortcut as this platform writes it. */
export const platformShortcut = (platform: string): string => (/mac|iphone|ipad|ipod/i.test(platform) ? '⌘ K' : 'Ctrl K');
