import { RouterLink } from './RouterLink';
import { Button, Portal } from '@chakra-ui/react';
import { Menu } from './laterComponents';
import { useT } from './i18n';
import { ChevronDownIcon } from './icons';
import type { MenuItem } from './menu';

/** The menu entries that do not fit on the header's row, behind a "More" button (arrow keys, Enter, Escape). */
export function NavMore({ items, active }: { readonly items: readonly MenuItem[]; readonly active: string | null }) {
  const t = useT();
  const holdsActive = items.some((item) => item.to === active);
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button size="sm" variant="ghost" whiteSpace="nowrap" fontWeight={holdsActive ? 'semibold' : 'normal'} bg={holdsActive ? 'bg.emphasized' : undefined}>
          {t('shell.nav.more')}
          <ChevronDownIcon />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content zIndex="calc(var(--chakra-z-index-toast) + 1)">
            {items.map((item) => (
              <Menu.Item key={item.to} value={item.to} asChild fontWeight={item.to === active ? 'semibold' : 'normal'}>
                <RouterLink to={item.to} aria-current={item.to === active ? 'page' : undefined}>
                  {t(item.labelKey)}
                </RouterLink>
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
