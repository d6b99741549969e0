import { Box, Button, Collapsible, Flex, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { Badge, List, Progress } from '../app/laterComponents';
import type { ChannelTestRunSummary } from '../../machines/channelTest';
import { useT } from '../app/i18n';

/** One failed channel of the run. */
export interface ChannelTestFailure {
  readonly channelId: number;
  readonly message: string;
}

export interface ChannelTestProgressViewProps {
  /** The run shown; null (and not preparing) renders nothing. */
  readonly run: ChannelTestRunSummary | null;
  /** A start is on its way and no run is known yet. */
  readonly preparing: boolean;
  readonly running: boolean;
  readonly cancelling: boolean;
  /** Progress is no longer followed (polls failed). */
  readonly pollFailed: boolean;
  /** The page tests the channels itself (the server has no test runs). */
  readonly localMode: boolean;
  readonly passed: number;
  readonly failed: number;
  /** 0..100. */
  readonly percent: number;
  readonly failures: readonly ChannelTestFailure[];
  /** Channel names by id, when the list knows them. */
  readonly channelNames?: Readonly<Record<number, string>>;
  readonly canCancel: boolean;
  readonly canRetryFailed: boolean;
  readonly canDismiss: boolean;
  readonly onCancel: () => void;
  readonly onRetryFailed: () => void;
  readonly onDismiss: () => void;
}

/** The live progress of a channel test run: bar, counts, actions, and the failures. */
export function ChannelTestProgressView({
  run,
  preparing,
  running,
  cancelling,
  pollFailed,
  localMode,
  passed,
  failed,
  percent,
  failures,
  channelNames,
  canCancel,
  canRetryFailed,
  canDismiss,
  onCancel,
  onRetryFailed,
  onDismiss,
}: ChannelTestProgressViewProps) {
  const t = useT();
  if (run === null && !preparing) return null;
  const title = t('channelTest.title');
  const channelLabel = (id: number) => {
    const name = channelNames?.[id];
    return name !== undefined && name !== '' ? t('channelTest.channelNamed', { name, id }) : t('channelTest.channel', { id });
  };
  const statusText =
    run === null
      ? t('channelTest.preparing')
      : pollFailed
        ? t('channelTest.status.lost')
        : cancelling
          ? t('channelTest.cancelling')
          : t(`channelTest.status.${run.status}`);

  return (
    <Box
      as="section"
      aria-label={title}
      borderWidth="1px"
      borderColor={pollFailed ? 'border.error' : 'border'}
      borderRadius="md"
      bg="bg.panel"
      p={{ base: 3, sm: 4 }}
      w="full"
      minW={0}
    >
      <Stack gap={3}>
        <Flex align="center" gap={2} wrap="wrap">
          <Heading as="h2" size="sm">
            {title}
          </Heading>
          {run !== null && (
            <Badge variant="subtle" colorPalette="blue">
              {t(`channelTest.scope.${run.scope}`)}
            </Badge>
          )}
          <Flex align="center" gap={2} role="status" aria-live="polite">
            {(running || preparing) && <Spinner size="xs" aria-hidden="true" />}
            <Text textStyle="sm" color={pollFailed ? 'red.fg' : 'fg.muted'}>
              {statusText}
            </Text>
          </Flex>
        </Flex>

        {localMode && running && (
          <Text textStyle="sm" color="fg.muted">
            {t('channelTest.localMode')}
          </Text>
        )}

        {run !== null && (
          <>
            <Progress.Root value={percent} max={100} colorPalette={failed > 0 ? 'orange' : 'green'} size="sm">
              <Progress.Track aria-label={t('channelTest.progressLabel')} aria-valuetext={`${percent}%`}>
                <Progress.Range />
              </Progress.Track>
            </Progress.Root>
            <Flex gap={{ base: 3, sm: 4 }} wrap="wrap" textStyle="sm" aria-live="polite" aria-atomic="true">
              <Text fontWeight="medium">{t('channelTest.progress', { done: run.done, total: run.total })}</Text>
              <Text color="green.fg">{t('channelTest.passed', { count: passed })}</Text>
              <Text color="red.fg">{t('channelTest.failed', { count: failed })}</Text>
            </Flex>
          </>
        )}

        {(running || canRetryFailed || canDismiss) && (
          <Flex gap={2} wrap="wrap">
            {running && (
              <Button size="sm" variant="outline" colorPalette="red" onClick={onCancel} disabled={!canCancel} loading={cancelling} loadingText={t('channelTest.cancelling')}>
                {t('channelTest.cancel')}
              </Button>
            )}
            {canRetryFailed && (
              <Button size="sm" colorPalette="blue" onClick={onRetryFailed}>
                {t('channelTest.retryFailed')}
              </Button>
            )}
            {canDismiss && (
              <Button size="sm" variant="ghost" onClick={onDismiss}>
                {t('channelTest.dismiss')}
              </Button>
            )}
          </Flex>
        )}

        {failures.length > 0 && (
          <Collapsible.Root>
            <Collapsible.Trigger asChild>
              <Button size="xs" variant="plain" px={0} color="red.fg">
                {t('channelTest.failures', { count: failures.length })}
              </Button>
            </Collapsible.Trigger>
            <Collapsible.Content>
              <List.Root as="ul" gap={2} mt={2} ps={0} listStyleType="none" maxH="60" overflowY="auto">
                {failures.map((f) => (
                  <List.Item key={f.channelId} textStyle="sm" minW={0}>
                    <Text as="span" fontWeight="medium">
                      {channelLabel(f.channelId)}
                    </Text>
                    <Text as="span" color="fg.muted" wordBreak="break-word">
                      {' '}
                      {f.message}
                    </Text>
                  </List.Item>
                ))}
              </List.Root>
            </Collapsible.Content>
          </Collapsible.Root>
        )}
      </Stack>
    </Box>
  );
}
