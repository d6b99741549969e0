import { Box, CloseButton, IconButton, Portal, type SystemStyleObject } from '@chakra-ui/react';
import { Drawer } from './laterComponents';
import { NavLinks } from './HeaderView';
import { useT } from './i18n';
import { MenuIcon } from './icons';
import type { MenuItem } from './menu';

/** The collapsed menu of narrow screens: a button opening a drawer with the menu entries. */
export function MobileNav({
  items,
  pathname,
  triggerCss,
}: {
  readonly items: readonly MenuItem[];
  readonly pathname: string;
  readonly triggerCss: SystemStyleObject;
}) {
  const t = useT();
  return (
    <Drawer.Root placement="start" size="xs">
      <Drawer.Trigger asChild>
        <IconButton aria-label={t('shell.nav.openMenu')} variant="ghost" css={triggerCss}>
          <MenuIcon />
        </IconButton>
      </Drawer.Trigger>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{t('shell.nav.menuTitle')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <nav aria-label={t('shell.nav.label')}>
                <Drawer.Context>
                  {(drawer) => (
                    <Box
                      onClick={(e) => {
                        if ((e.target as HTMLElement).closest('a') !== null) drawer.setOpen(false);
                      }}
                    >
                      <NavLinks items={items} pathname={pathname} direction="column" />
                    </Box>
                  )}
                </Drawer.Context>
              </nav>
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('shell.nav.closeMenu')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
