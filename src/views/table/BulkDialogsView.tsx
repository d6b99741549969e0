import { memo } from 'react';
import { Button, Portal, Stack, Text } from '@chakra-ui/react';
import { Dialog, List, Progress } from '../app/laterComponents';
import type { BulkRun } from '../../machines/table';
import { useRenderMessage, useT } from '../app/i18n';
import { ConfirmDialogView } from './ConfirmDialogView';
import { useOpenedOnce } from './useOpenedOnce';
import { shallowSame } from './shallowSame';

export interface BulkDialogsViewProps {
  readonly toConfirm: BulkRun | null;
  readonly running: BulkRun | null;
  readonly report: BulkRun | null;
  /** The action's name as the person saw it on the button ("Disable", "Set priority to 5" …). */
  readonly actionLabel: (run: BulkRun) => string;
  /** How a row is named in the failure list ("#12 openai-main"). */
  readonly rowLabel: (id: number) => string;
  /** Whether the action destroys (the confirm button is red). */
  readonly isDanger: (action: string) => boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly onStop: () => void;
  readonly onRetry: () => void;
  readonly onDismiss: () => void;
}

/**
 * The three steps of a bulk action: the confirmation that says how many rows change, the
 * progress of the run (stoppable), and the report with every failure and "retry failed".
 * While none is open it is not drawn again when the page around it is: its labels and callbacks
 * are read only by an open step, and opening one changes `toConfirm`, `running` or `report`.
 */
export const BulkDialogsView = memo(function BulkDialogsView(props: BulkDialogsViewProps) {
  // nothing drawn until a step first opens (see `ConfirmDialogView`)
  return useOpenedOnce(!closed(props)) ? <BulkDialogs {...props} /> : null;
}, (was, now) => (closed(was) && closed(now)) || shallowSame(was, now));

function BulkDialogs({
  toConfirm,
  running,
  report,
  actionLabel,
  rowLabel,
  isDanger,
  onConfirm,
  onCancel,
  onStop,
  onRetry,
  onDismiss,
}: BulkDialogsViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const progress = running ?? report;
  return (
    <>
      <ConfirmDialogView
        open={toConfirm !== null}
        body={toConfirm ? t('table.bulk.confirm', { count: toConfirm.ids.length, action: actionLabel(toConfirm) }) : ''}
        danger={toConfirm ? isDanger(toConfirm.action) : false}
        onConfirm={onConfirm}
        onCancel={onCancel}
      />
      <Dialog.Root
        open={progress !== null}
        role="alertdialog"
        closeOnEscape={report !== null}
        closeOnInteractOutside={false}
        onOpenChange={(d) => !d.open && report !== null && onDismiss()}
        placement="center"
        size={{ base: 'xs', sm: 'md' }}
      >
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              {progress && (
                <>
                  <Dialog.Header>
                    <Dialog.Title>
                      {report
                        ? t('table.bulk.reportTitle', { action: actionLabel(progress) })
                        : t('table.bulk.running', { action: actionLabel(progress), done: progress.done, total: progress.ids.length })}
                    </Dialog.Title>
                  </Dialog.Header>
                  <Dialog.Body>
                    <Stack gap={3}>
                      <Progress.Root
                        value={progress.ids.length === 0 ? 100 : Math.round((progress.done / progress.ids.length) * 100)}
                        colorPalette={progress.failures.length > 0 ? 'orange' : 'green'}
                      >
                        <Progress.Label>{t('table.bulk.running', { action: actionLabel(progress), done: progress.done, total: progress.ids.length })}</Progress.Label>
                        <Progress.Track>
                          <Progress.Range />
                        </Progress.Track>
                      </Progress.Root>
                      <Text aria-live="polite">
                        {t('table.bulk.reportSummary', { ok: progress.succeeded.length, failed: progress.failures.length })}
                      </Text>
                      {report && report.cancelled && report.done < report.ids.length && (
                        <Text color="orange.fg">{t('table.bulk.notRun', { count: report.ids.length - report.done })}</Text>
                      )}
                      {progress.failures.length > 0 && (
                        <Stack gap={1}>
                          <Text fontWeight="semibold">{t('table.bulk.failuresCaption')}</Text>
                          <List.Root ps={4} maxH="60" overflowY="auto" fontSize="sm">
                            {progress.failures.map((f) => (
                              <List.Item key={f.id}>
                                {rowLabel(f.id)}: {render(f.message)}
                              </List.Item>
                            ))}
                          </List.Root>
                        </Stack>
                      )}
                    </Stack>
                  </Dialog.Body>
                  <Dialog.Footer>
                    {running && (
                      <Button variant="outline" onClick={onStop} disabled={running.cancelled}>
                        {t('table.bulk.stop')}
                      </Button>
                    )}
                    {report && report.failures.length > 0 && (
                      <Button variant="outline" colorPalette="orange" onClick={onRetry}>
                        {t('table.bulk.retry')}
                      </Button>
                    )}
                    {report && (
                      <Button colorPalette="blue" onClick={onDismiss}>
                        {t('table.bulk.close')}
                      </Button>
                    )}
                  </Dialog.Footer>
                </>
              )}
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </>
  );
}

const closed = (p: BulkDialogsViewProps): boolean => p.toConfirm === null && p.running === null && p.report === null;
