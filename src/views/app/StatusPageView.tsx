import { RouterLink } from './RouterLink';
import { Container, EmptyState, Heading, Link } from '@chakra-ui/react';

/** A page that only says why there is nothing to show (not found, no access) and links home. */
export function StatusPageView({ title, text, back }: { readonly title: string; readonly text: string; readonly back: string }) {
  return (
    <Container maxW="3xl" py={{ base: 8, md: 16 }}>
      <EmptyState.Root>
        <EmptyState.Content>
          <Heading as="h1" size="2xl" textAlign="center">
            {title}
          </Heading>
          <EmptyState.Description>{text}</EmptyState.Description>
          <Link asChild colorPalette="blue">
            <RouterLink to="/">{back}</RouterLink>
          </Link>
        </EmptyState.Content>
      </EmptyState.Root>
    </Container>
  );
}
