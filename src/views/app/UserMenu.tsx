import { useEffect, useState } from 'react';
import { Button, Portal, Text } from '@chakra-ui/react';
import { accountMenu } from './HeaderView';
import { Menu } from './laterComponents';
import { useT } from './i18n';
import { ChevronDownIcon } from './icons';

/** The signed-in viewer's account dropdown (logout). */
export function UserMenu({
  userName,
  signingOut,
  onLogout,
}: {
  readonly userName: string;
  readonly signingOut: boolean;
  readonly onLogout: () => void;
}) {
  const t = useT();
  // comes open when its placeholder was pressed before it had loaded (HeaderView)
  const [defaultOpen] = useState(() => accountMenu.pressed);
  // once: a later mount (signed out and in again) starts closed
  useEffect(() => {
    accountMenu.pressed = false;
  }, []);
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }} defaultOpen={defaultOpen}>
      <Menu.Trigger asChild>
        <Button size="sm" variant="outline" aria-label={t('shell.account.menu', { name: userName })} loading={signingOut}>
          <Text as="span" truncate maxW={{ base: '5rem', md: '10rem' }}>
            {userName}
          </Text>
          <ChevronDownIcon />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          {/* Above the toasts, which show under the header where this menu opens. */}
          <Menu.Content zIndex="calc(var(--chakra-z-index-toast) + 1)">
            <Menu.Item value="logout" onSelect={onLogout}>
              {t('shell.account.logout')}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
