import type { ReactNode } from 'react';
import { Alert, Box, Flex, Link } from '@chakra-ui/react';
import { useT } from './i18n';

/** Why an admin is held at the personal settings: two-factor sign-in is required and not on yet. */
export function EnrolmentBanner() {
  const t = useT();
  return (
    <Alert.Root status="warning" role="status" mb={4} data-enrolment-banner="">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t('twoFactor.enrolment.title')}</Alert.Title>
        <Alert.Description>{t('twoFactor.enrolment.body')}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/** The page frame: skip link, header, an optional banner over the routed page, footer. */
export function AppShellView({
  header,
  footer,
  banner = null,
  children,
}: {
  readonly header: ReactNode;
  readonly footer: ReactNode;
  readonly banner?: ReactNode;
  readonly children: ReactNode;
}) {
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
        {banner}
        {children}
      </Box>
      {footer}
    </Flex>
  );
}
