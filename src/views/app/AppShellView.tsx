import type { ReactNode } from 'react';
import { Box, Flex, Link } from '@chakra-ui/react';
import { useT } from './i18n';

/** The page frame: skip link, header, the routed page, footer. */
export function AppShellView({ header, footer, children }: { readonly header: ReactNode; readonly footer: ReactNode; readonly children: ReactNode }) {
  const t = useT();
  return (
    <Flex direction="column" minH="100dvh" bg="bg" color="fg">
      <Link
        href="#main-content"
        position="absolute"
        left="-9999px"
        _focus={{ left: 2, top: 2, zIndex: 'skipLink', bg: 'bg.panel', p: 2, rounded: 'md' }}
      >
        {t('shell.skipToContent')}
      </Link>
      {header}
      <Box as="main" id="main-content" tabIndex={-1} flex="1" w="full" maxW="7xl" mx="auto" px={{ base: 2, md: 4 }} py={4} outline="none">
        {children}
      </Box>
      {footer}
    </Flex>
  );
}
