import { Container, EmptyState, Heading } from '@chakra-ui/react';
import { useT } from '../app/i18n';
import { ContentFrame } from './PageContentView';

export interface ChatPageViewProps {
  /** The configured chat link (status `chat_link`); '' when none is set. */
  readonly chatLink: string;
}

/** `/chat`: the configured chat web app framed (contract §5.4: 85% of the viewport high). */
export function ChatPageView({ chatLink }: ChatPageViewProps) {
  const t = useT();
  const link = chatLink.trim();
  if (link === '') {
    return (
      <Container maxW="3xl" py={{ base: 8, md: 16 }}>
        <EmptyState.Root>
          <EmptyState.Content>
            <Heading as="h1" size="lg" textAlign="center">
              {t('home.chat.unconfigured.title')}
            </Heading>
            <EmptyState.Description>{t('home.chat.unconfigured.text')}</EmptyState.Description>
          </EmptyState.Content>
        </EmptyState.Root>
      </Container>
    );
  }
  return <ContentFrame url={link} title={t('home.chat.frameTitle')} height="85vh" loadingPage="shell.page.chat" />;
}
