import { Alert, Box, Card, CloseButton, Container, Heading, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Badge, DataList } from '../app/laterComponents';
import { formatTimestamp } from '../../domain/format';
import type { Message } from '../../domain/message';
import type { Status } from '../../domain/status';
import type { ContentKind } from '../../machines/pageContent';
import { useT } from '../app/i18n';
import { MarkdownBlock, PageContentView } from './PageContentView';

/** Where the default home's "source" entry points (contract §5.4). */
export const projectSourceUrl = 'https://github.com/songquanpeng/one-api';

export interface HomePageViewProps {
  readonly contentKind: ContentKind;
  /** HomePageContent: Markdown, or an https:// address to frame. */
  readonly content: string;
  readonly loading: boolean;
  readonly cachedCopy: boolean;
  readonly error: Message | null;
  /** A new notice (Markdown) to show once, else null. */
  readonly notice: string | null;
  /** The server status for the default home; null while it is unknown. */
  readonly status: Status | null;
  readonly onRetry: () => void;
  readonly onDismissNotice: () => void;
}

function Toggle({ on }: { readonly on: boolean }) {
  const t = useT();
  return (
    <Badge colorPalette={on ? 'green' : 'gray'} variant="subtle">
      {t(on ? 'home.status.enabled' : 'home.status.disabled')}
    </Badge>
  );
}

/** The built-in home when HomePageContent is empty: a welcome and the system status. */
function DefaultHome({ status }: { readonly status: Status | null }) {
  const t = useT();
  const systemName = status?.system_name ?? '';
  return (
    <Container maxW="5xl" py={{ base: 6, md: 10 }}>
      <Stack gap={6}>
        <Card.Root>
          <Card.Header>
            <Heading as="h1" size="2xl">
              {systemName === '' ? t('home.status.title') : t('home.welcome.title', { systemName })}
            </Heading>
          </Card.Header>
          <Card.Body>
            <Stack gap={3}>
              {systemName !== '' && <Text>{t('home.welcome.text', { systemName })}</Text>}
              <Text color="fg.muted">{t('home.welcome.customise')}</Text>
            </Stack>
          </Card.Body>
        </Card.Root>
        <Card.Root>
          <Card.Header>
            <Heading as="h2" size="lg">
              {t('home.status.title')}
            </Heading>
          </Card.Header>
          <Card.Body>
            {status === null ? (
              <Text color="fg.muted">{t('home.status.unavailable')}</Text>
            ) : (
              <SimpleGrid columns={{ base: 1, md: 2 }} gap={6}>
                <Stack gap={3}>
                  <Heading as="h3" size="md">
                    {t('home.status.info')}
                  </Heading>
                  <DataList.Root orientation="horizontal">
                    <DataList.Item>
                      <DataList.ItemLabel>{t('home.status.name')}</DataList.ItemLabel>
                      <DataList.ItemValue>{status.system_name}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('home.status.version')}</DataList.ItemLabel>
                      <DataList.ItemValue>{status.version}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('home.status.source')}</DataList.ItemLabel>
                      <DataList.ItemValue>
                        <Link href={projectSourceUrl} target="_blank" rel="noopener noreferrer" colorPalette="blue">
                          {t('home.status.sourceLink')}
                        </Link>
                      </DataList.ItemValue>
                    </DataList.Item>
                    {status.start_time !== undefined && (
                      <DataList.Item>
                        <DataList.ItemLabel>{t('home.status.startTime')}</DataList.ItemLabel>
                        <DataList.ItemValue>{formatTimestamp(status.start_time)}</DataList.ItemValue>
                      </DataList.Item>
                    )}
                  </DataList.Root>
                </Stack>
                <Stack gap={3}>
                  <Heading as="h3" size="md">
                    {t('home.status.config')}
                  </Heading>
                  <DataList.Root orientation="horizontal">
                    <DataList.Item>
                      <DataList.ItemLabel>{t('home.status.emailVerification')}</DataList.ItemLabel>
                      <DataList.ItemValue>
                        <Toggle on={status.email_verification} />
                      </DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('home.status.githubOAuth')}</DataList.ItemLabel>
                      <DataList.ItemValue>
                        <Toggle on={status.github_oauth} />
                      </DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('home.status.wechatLogin')}</DataList.ItemLabel>
                      <DataList.ItemValue>
                        <Toggle on={status.wechat_login} />
                      </DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('home.status.turnstile')}</DataList.ItemLabel>
                      <DataList.ItemValue>
                        <Toggle on={status.turnstile_check} />
                      </DataList.ItemValue>
                    </DataList.Item>
                  </DataList.Root>
                </Stack>
              </SimpleGrid>
            )}
          </Card.Body>
        </Card.Root>
      </Stack>
    </Container>
  );
}

/** The notice the administrator posted, shown once per change (contract §5.4). */
function NoticeAlert({ notice, onDismiss }: { readonly notice: string; readonly onDismiss: () => void }) {
  const t = useT();
  return (
    <Box px={4} pt={4}>
      <Alert.Root status="info" role="region" aria-label={t('home.notice.title')}>
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{t('home.notice.title')}</Alert.Title>
          <Alert.Description>
            <MarkdownBlock markdown={notice} />
          </Alert.Description>
        </Alert.Content>
        <CloseButton size="sm" aria-label={t('home.notice.dismiss')} onClick={onDismiss} />
      </Alert.Root>
    </Box>
  );
}

/** `/`: the notice, then HomePageContent (framed, Markdown, or the built-in default home). */
export function HomePageView({
  contentKind,
  content,
  loading,
  cachedCopy,
  error,
  notice,
  status,
  onRetry,
  onDismissNotice,
}: HomePageViewProps) {
  const t = useT();
  return (
    <Box>
      {notice !== null && <NoticeAlert notice={notice} onDismiss={onDismissNotice} />}
      <PageContentView
        contentKind={contentKind}
        content={content}
        frameTitle={t('home.frameTitle')}
        loading={loading}
        cachedCopy={cachedCopy}
        error={error}
        onRetry={onRetry}
        wrapMarkdown={(markdown) => (
          <Container maxW="5xl" py={{ base: 6, md: 10 }} fontSize="lg">
            {markdown}
          </Container>
        )}
        renderEmpty={() => <DefaultHome status={status} />}
      />
    </Box>
  );
}
