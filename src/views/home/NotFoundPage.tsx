import { Link as RouterLink } from 'react-router-dom';
import { Container, EmptyState, Heading, Link } from '@chakra-ui/react';
import { useT } from '../app/i18n';

/** The `*` route: '页面不存在' and a hint to check the address (spec §2, §8). */
export function NotFoundPage() {
  const t = useT();
  return (
    <Container maxW="3xl" py={{ base: 8, md: 16 }}>
      <EmptyState.Root>
        <EmptyState.Content>
          <Heading as="h1" size="2xl" textAlign="center">
            {t('home.notFound.title')}
          </Heading>
          <EmptyState.Description>{t('home.notFound.text')}</EmptyState.Description>
          <Link asChild colorPalette="blue">
            <RouterLink to="/">{t('home.notFound.back')}</RouterLink>
          </Link>
        </EmptyState.Content>
      </EmptyState.Root>
    </Container>
  );
}
