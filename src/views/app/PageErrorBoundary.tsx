import { Component, type ReactNode } from 'react';
import { Button, Center, Stack, Text } from '@chakra-ui/react';
import { useT } from './i18n';

function PageLoadFailed({ onRetry }: { readonly onRetry: () => void }) {
  const t = useT();
  return (
    <Center py={16} role="alert">
      <Stack align="center" gap={3}>
        <Text>{t('shell.loadFailed')}</Text>
        <Button onClick={onRetry} colorPalette="blue">
          {t('shell.reload')}
        </Button>
      </Stack>
    </Center>
  );
}

/**
 * A page chunk that fails to load (network gone, new deploy) shows a message with a reload
 * button instead of a blank screen. React only offers error boundaries as classes.
 */
export class PageErrorBoundary extends Component<{ readonly children: ReactNode }, { readonly failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    if (this.state.failed) return <PageLoadFailed onRetry={() => window.location.reload()} />;
    return this.props.children;
  }
}
