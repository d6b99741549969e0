import { Link as RouterLink } from 'react-router-dom';
import { Container, EmptyState, Heading, Link } from '@chakra-ui/react';
import { useT } from './i18n';

/** The 403 page: a signed-in viewer below admin on an admin route ('无权访问此页面', a link home). */
export function ForbiddenView() {
  const t = useT();
  return (
    <Container maxW="3xl" py={{ base: 8, md: 16 }}>
      <EmptyState.Root>
        <EmptyState.Content>
          <Heading as="h1" size="2xl" textAlign="center">
            {t('shell.forbidden.title')}
          </Heading>
          <EmptyState.Description>{t('shell.forbidden.text')}</EmptyState.Description>
          <Link asChild colorPalette="blue">
            <RouterLink to="/">{t('shell.forbidden.back')}</RouterLink>
          </Link>
        </EmptyState.Content>
      </EmptyState.Root>
    </Container>
  );
}
