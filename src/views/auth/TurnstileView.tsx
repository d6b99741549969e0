import { useCallback } from 'react';
import { Alert, Box, Button, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import type { TurnstilePhase } from '../../machines/turnstile';
import { useLang, useT } from '../app/i18n';

/** The part of Cloudflare's `window.turnstile` the widget uses (explicit rendering). */
interface TurnstileProvider {
  render(
    container: HTMLElement,
    options: {
      readonly sitekey: string;
      readonly language?: string;
      readonly size?: 'normal' | 'compact' | 'flexible';
      readonly callback: (token: string) => void;
      readonly 'expired-callback': () => void;
      readonly 'timeout-callback': () => void;
      readonly 'error-callback': () => void;
    },
  ): string | null | undefined;
  remove(widgetId: string): void;
}

/** The provider's API once its script ran (the turnstile machine's `loadTurnstile` waits for it). */
const provider = (): TurnstileProvider | undefined => (window as { turnstile?: TurnstileProvider }).turnstile;

export interface TurnstileViewProps {
  readonly siteKey: string;
  readonly phase: TurnstilePhase;
  /** The widget's box is on the page (the script may load now). */
  readonly onMounted: () => void;
  readonly onToken: (token: string) => void;
  readonly onExpired: () => void;
  readonly onChallengeError: () => void;
  readonly onRetry: () => void;
}

/**
 * The bot check: a box the provider renders its challenge into (once its script is ready),
 * a loading line while the script loads, and 'Failed to load Turnstile.' with a retry when it
 * does not. Pass stable callbacks: a new callback re-renders the provider's widget.
 */
export function TurnstileView({ siteKey, phase, onMounted, onToken, onExpired, onChallengeError, onRetry }: TurnstileViewProps) {
  const t = useT();
  const lang = useLang();
  const rendered = phase === 'ready' || phase === 'solved';
  // The provider owns the DOM inside this box: it is rendered when the box is attached and the
  // script is ready, and removed when the box goes (React 19 ref cleanup).
  const widgetRef = useCallback(
    (box: HTMLDivElement | null) => {
      if (box === null) return;
      onMounted();
      const api = provider();
      if (!rendered || api === undefined) return;
      const id = api.render(box, {
        sitekey: siteKey,
        language: lang === 'zh' ? 'zh-cn' : 'en',
        size: 'flexible',
        callback: onToken,
        'expired-callback': onExpired,
        'timeout-callback': onExpired,
        'error-callback': onChallengeError,
      });
      return () => {
        if (typeof id === 'string') api.remove(id);
      };
    },
    [rendered, siteKey, lang, onMounted, onToken, onExpired, onChallengeError],
  );

  return (
    <Stack gap={2} role="group" aria-label={t('account.turnstile.label')} aria-busy={phase === 'loading'}>
      {phase === 'loading' && (
        <HStack gap={2} color="fg.muted" fontSize="sm">
          <Spinner size="sm" />
          <Text>{t('account.turnstile.loading')}</Text>
        </HStack>
      )}
      {phase === 'failed' && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title flex="1">{t('account.turnstile.loadFailed')}</Alert.Title>
          <Button size="xs" variant="outline" onClick={onRetry}>
            {t('account.turnstile.retry')}
          </Button>
        </Alert.Root>
      )}
      <Box ref={widgetRef} minH={rendered ? '65px' : undefined} maxW="full" data-turnstile-phase={phase} />
    </Stack>
  );
}
