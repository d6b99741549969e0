import { memo } from 'react';
import { Alert, Button, CloseButton, Portal, Stack, Text } from '@chakra-ui/react';
import { Dialog } from '../app/laterComponents';
import { useT } from '../app/i18n';
import { useOpenedOnce } from './useOpenedOnce';
import { shallowSame } from './shallowSame';

export interface ConfirmDialogViewProps {
  readonly open: boolean;
  readonly title?: string;
  readonly body: string;
  /** A stronger warning under the body (a consequence the person may not expect), if any. */
  readonly warning?: string | null;
  readonly confirmLabel?: string;
  /** A destructive action: the confirm button is red. */
  readonly danger?: boolean;
  readonly busy?: boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/**
 * A confirmation (delete, delete disabled, bulk actions): says what will change; Escape cancels.
 * Closed, it is not drawn again when the page around it is (a table page changed, a row
 * selected): nothing of its props shows until it opens, and opening changes `open`. Until it
 * first opens it draws nothing at all (a closed dialog is not in the page; its state machine and
 * parts cost a list page's mount): from then on it stays, so that it can animate out.
 */
export const ConfirmDialogView = memo(function ConfirmDialogView(props: ConfirmDialogViewProps) {
  return useOpenedOnce(props.open) ? <ConfirmDialog {...props} /> : null;
}, (was, now) => (!was.open && !now.open) || shallowSame(was, now));

function ConfirmDialog({ open, title, body, warning = null, confirmLabel, danger = false, busy = false, onConfirm, onCancel }: ConfirmDialogViewProps) {
  const t = useT();
  return (
    <Dialog.Root open={open} role="alertdialog" onOpenChange={(d) => !d.open && onCancel()} placement="center" size={{ base: 'xs', sm: 'sm' }}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{title ?? t('table.confirm.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap={3}>
                <Dialog.Description asChild>
                  <Text>{body}</Text>
                </Dialog.Description>
                {warning !== null && (
                  <Alert.Root status="warning">
                    <Alert.Indicator />
                    <Alert.Description>{warning}</Alert.Description>
                  </Alert.Root>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel} disabled={busy}>
                {t('table.confirm.cancel')}
              </Button>
              <Button colorPalette={danger ? 'red' : 'blue'} onClick={onConfirm} loading={busy} loadingText={confirmLabel ?? t('table.confirm.accept')}>
                {confirmLabel ?? t('table.confirm.accept')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('table.confirm.cancel')} disabled={busy} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
