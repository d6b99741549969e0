import { Center, Spinner, Stack, Text } from '@chakra-ui/react';
import type { MessageKey } from '../../i18n';
import { useT } from './i18n';

/** The on-demand page placeholder: '加载{page}中...' (default subject '页面'). */
export function PageLoading({ page = 'shell.loading.default' }: { readonly page?: MessageKey }) {
  const t = useT();
  return (
    <Center py={16} role="status" aria-live="polite">
      <Stack align="center" gap={3}>
        <Spinner size="lg" color="blue.solid" />
        <Text color="fg.muted">{t('shell.loading', { page: t(page) })}</Text>
      </Stack>
    </Center>
  );
}
