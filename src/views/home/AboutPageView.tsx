import { Card, Container, Heading, Link, Stack, Text } from '@chakra-ui/react';
import type { Message } from '../../domain/message';
import type { ContentKind } from '../../machines/pageContent';
import { useT } from '../app/i18n';
import { projectSourceUrl } from './HomePageView';
import { PageContentView } from './PageContentView';

export interface AboutPageViewProps {
  readonly contentKind: ContentKind;
  /** The About option: Markdown, or an https:// address to frame. */
  readonly content: string;
  readonly loading: boolean;
  readonly cachedCopy: boolean;
  readonly error: Message | null;
  readonly onRetry: () => void;
}

/** `/about`: the About option framed or as Markdown in a card; empty -> how to set it. */
export function AboutPageView({ contentKind, content, loading, cachedCopy, error, onRetry }: AboutPageViewProps) {
  const t = useT();
  return (
    <PageContentView
      contentKind={contentKind}
      content={content}
      frameTitle={t('home.about.frameTitle')}
      loading={loading}
      cachedCopy={cachedCopy}
      error={error}
      onRetry={onRetry}
      wrapMarkdown={(markdown) => (
        <Container maxW="5xl" py={{ base: 6, md: 10 }}>
          <Card.Root>
            <Card.Body>{markdown}</Card.Body>
          </Card.Root>
        </Container>
      )}
      renderEmpty={() => (
        <Container maxW="5xl" py={{ base: 6, md: 10 }}>
          <Card.Root>
            <Card.Header>
              <Heading as="h1" size="xl">
                {t('home.about.title')}
              </Heading>
            </Card.Header>
            <Card.Body>
              <Stack gap={3}>
                <Text>{t('home.about.empty')}</Text>
                <Text>
                  {t('home.about.repository')}
                  <Link href={projectSourceUrl} target="_blank" rel="noopener noreferrer" colorPalette="blue">
                    {projectSourceUrl}
                  </Link>
                </Text>
              </Stack>
            </Card.Body>
          </Card.Root>
        </Container>
      )}
    />
  );
}
