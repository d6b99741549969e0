import { Button, CloseButton, HStack, Portal, Text } from '@chakra-ui/react';
import { Dialog } from '../app/laterComponents';
import type { LatestRelease } from '../../machines/updateCheck';
import { useT } from '../app/i18n';
import { MarkdownBlock } from '../home/PageContentView';

export interface UpdateCheckViewProps {
  /** The console's own version. */
  readonly currentVersion: string;
  readonly checking: boolean;
  /** A newer release to show, or null (dialog closed). */
  readonly release: LatestRelease | null;
  readonly onCheck: () => void;
  readonly onClose: () => void;
}

/** Personalisation settings → check for updates: the button and the new-release dialog. */
export function UpdateCheckView({ currentVersion, checking, release, onCheck, onClose }: UpdateCheckViewProps) {
  const t = useT();
  return (
    <>
      <HStack gap={3} wrap="wrap">
        <Button variant="outline" onClick={onCheck} loading={checking} loadingText={t('settingsExtras.update.check')}>
          {t('settingsExtras.update.check')}
        </Button>
        {currentVersion !== '' && (
          <Text fontSize="sm" color="fg.muted">
            {t('settingsExtras.update.current', { version: currentVersion })}
          </Text>
        )}
      </HStack>
      <Dialog.Root
        open={release !== null}
        onOpenChange={(d) => !d.open && onClose()}
        placement="center"
        size={{ base: 'xs', sm: 'md', md: 'lg' }}
        scrollBehavior="inside"
      >
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              <Dialog.Header>
                <Dialog.Title>{t('settingsExtras.update.dialogTitle', { tag: release?.tag ?? '' })}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                {release !== null && release.notes.trim() !== '' ? (
                  <MarkdownBlock markdown={release.notes} />
                ) : (
                  <Text color="fg.muted">{t('settingsExtras.update.noNotes')}</Text>
                )}
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose}>
                  {t('settingsExtras.update.close')}
                </Button>
                {release !== null && (
                  <Button asChild colorPalette="blue">
                    <a href={release.url} target="_blank" rel="noopener noreferrer">
                      {t('settingsExtras.update.open')}
                    </a>
                  </Button>
                )}
              </Dialog.Footer>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('settingsExtras.update.close')} />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </>
  );
}
