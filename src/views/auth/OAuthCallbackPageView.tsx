import { Alert, Card, Flex, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import type { Message } from '../../domain/message';
import type { OAuthCallbackPhase, OAuthProvider } from '../../machines/oauthCallback';
import { useRenderMessage, useT } from '../app/i18n';

export interface OAuthCallbackPageViewProps {
  readonly provider: OAuthProvider;
  readonly phase: OAuthCallbackPhase;
  /** Failed exchanges so far (the retry counter). */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** The wait before the next try, while retrying. */
  readonly retryInSeconds: number;
  readonly lastError: Message | null;
}

/** The /oauth/github and /oauth/lark page: what the code exchange is doing. */
export function OAuthCallbackPageView({
  provider,
  phase,
  attempt,
  maxAttempts: max,
  retryInSeconds,
  lastError,
}: OAuthCallbackPageViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const busy = phase === 'processing' || phase === 'retrying';
  return (
    <Flex justify="center" px={4} py={{ base: 6, md: 12 }}>
      <Card.Root w="full" maxW="md">
        <Card.Header>
          <Heading as="h1" size="lg">
            {t(provider === 'github' ? 'signIn.oauth.title.github' : 'signIn.oauth.title.lark')}
          </Heading>
        </Card.Header>
        <Card.Body>
          <Stack gap={4} aria-busy={busy}>
            {busy && (
              <Flex align="center" gap={3} role="status">
                <Spinner size="md" colorPalette="blue" color="colorPalette.solid" />
                <Text fontWeight="medium">{t('signIn.oauth.processing')}</Text>
              </Flex>
            )}
            {phase === 'retrying' && (
              <Alert.Root status="warning">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>{t('signIn.oauth.retrying', { attempt, seconds: retryInSeconds })}</Alert.Title>
                  {lastError !== null && <Alert.Description>{render(lastError)}</Alert.Description>}
                </Alert.Content>
              </Alert.Root>
            )}
            {(phase === 'bound' || phase === 'signedIn') && (
              <Alert.Root status="success" role="status">
                <Alert.Indicator />
                <Alert.Title>{t(phase === 'bound' ? 'signIn.oauth.bound' : 'signIn.loggedIn')}</Alert.Title>
              </Alert.Root>
            )}
            {phase === 'failed' && (
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>{t('signIn.oauth.giveUp')}</Alert.Title>
                  {lastError !== null && <Alert.Description>{render(lastError)}</Alert.Description>}
                </Alert.Content>
              </Alert.Root>
            )}
            {attempt > 0 && (
              <Text fontSize="sm" color="fg.muted">
                {t('signIn.oauth.attempt', { attempt, max })}
              </Text>
            )}
          </Stack>
        </Card.Body>
      </Card.Root>
    </Flex>
  );
}
