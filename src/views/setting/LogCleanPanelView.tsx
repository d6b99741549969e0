import { Button, Field, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { formatTimestamp, parseDateTime } from '../../domain/format';
import { useT } from '../app/i18n';
import { ConfirmDialogView } from '../table/ConfirmDialogView';

export interface LogCleanPanelViewProps {
  /** The target as the datetime-local field shows it ('YYYY-MM-DDTHH:mm'). */
  readonly target: string;
  readonly confirming: boolean;
  readonly clearing: boolean;
  /** Rows the last clean removed (null before the first). */
  readonly lastCount: number | null;
  readonly onTargetChange: (value: string) => void;
  readonly onRequest: () => void;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/** Operation settings → clear history logs: the target time, the button and its confirmation. */
export function LogCleanPanelView({
  target,
  confirming,
  clearing,
  lastCount,
  onTargetChange,
  onRequest,
  onConfirm,
  onCancel,
}: LogCleanPanelViewProps) {
  const t = useT();
  const seconds = parseDateTime(target);
  return (
    <Stack as="section" gap={3} aria-labelledby="log-clean-title" maxW="md">
      <Heading as="h2" size="md" id="log-clean-title">
        {t('settingsExtras.logClean.title')}
      </Heading>
      <Field.Root>
        <Field.Label>{t('settingsExtras.logClean.target')}</Field.Label>
        <Input
          type="datetime-local"
          name="log_clean_target"
          value={target}
          disabled={clearing}
          onChange={(e) => onTargetChange(e.currentTarget.value)}
        />
        <Field.HelperText>{t('settingsExtras.logClean.hint')}</Field.HelperText>
      </Field.Root>
      <Button alignSelf="flex-start" colorPalette="red" variant="outline" onClick={onRequest} loading={clearing}>
        {t('settingsExtras.logClean.submit')}
      </Button>
      {lastCount !== null && (
        <Text fontSize="sm" color="fg.muted" role="status">
          {t('settingsExtras.logClean.lastCount', { count: lastCount })}
        </Text>
      )}
      <ConfirmDialogView
        open={confirming || clearing}
        title={t('settingsExtras.logClean.confirmTitle')}
        body={t('settingsExtras.logClean.confirmBody', { time: seconds === null ? target : formatTimestamp(seconds) })}
        confirmLabel={t('settingsExtras.logClean.confirmAccept')}
        danger
        busy={clearing}
        onConfirm={onConfirm}
        onCancel={onCancel}
      />
    </Stack>
  );
}
