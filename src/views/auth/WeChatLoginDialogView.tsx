import type { FormEvent } from 'react';
import { Alert, Button, CloseButton, Field, Image, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { Dialog } from '../app/laterComponents';
import type { Message } from '../../domain/message';
import { useRenderMessage, useT } from '../app/i18n';

export interface WeChatLoginDialogViewProps {
  readonly open: boolean;
  readonly submitting: boolean;
  /** The last failure (the server's message), shown in the dialog. */
  readonly error: Message | null;
  /** status.wechat_qrcode: the official account's QR image ("" when not set). */
  readonly qrCodeUrl: string;
  readonly onOpen: () => void;
  readonly onClose: () => void;
  readonly onSubmit: (code: string) => void;
}

const formId = 'wechat-login-form';

/** The WeChat button and its code dialog (QR image, code input). The code is read on submit. */
export function WeChatLoginDialogView({
  open,
  submitting,
  error,
  qrCodeUrl,
  onOpen,
  onClose,
  onSubmit,
}: WeChatLoginDialogViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = new FormData(e.currentTarget).get('code');
    onSubmit(typeof code === 'string' ? code : '');
  };
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => (d.open ? onOpen() : onClose())}
      placement="center"
      size={{ base: 'full', sm: 'sm' }}
    >
      <Dialog.Trigger asChild>
        <Button variant="outline" colorPalette="green" aria-label={t('signIn.wechat.buttonLabel')}>
          {t('signIn.wechat.button')}
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t('signIn.wechat.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap={4}>
                <Dialog.Description>{t('signIn.wechat.hint')}</Dialog.Description>
                {qrCodeUrl !== '' ? (
                  <Image src={qrCodeUrl} alt={t('signIn.wechat.qrAlt')} maxW="200px" mx="auto" />
                ) : (
                  <Text color="fg.muted">{t('signIn.wechat.noQr')}</Text>
                )}
                <form id={formId} onSubmit={handleSubmit} noValidate>
                  <Field.Root invalid={error !== null}>
                    <Field.Label>{t('signIn.wechat.code')}</Field.Label>
                    <Input
                      name="code"
                      autoComplete="one-time-code"
                      inputMode="numeric"
                      placeholder={t('signIn.wechat.codePlaceholder')}
                    />
                  </Field.Root>
                </form>
                {error !== null && (
                  <Alert.Root status="error">
                    <Alert.Indicator />
                    <Alert.Title>{render(error)}</Alert.Title>
                  </Alert.Root>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" disabled={submitting}>
                  {t('signIn.wechat.cancel')}
                </Button>
              </Dialog.ActionTrigger>
              <Button
                type="submit"
                form={formId}
                colorPalette="blue"
                loading={submitting}
                loadingText={t('signIn.wechat.submit')}
              >
                {t('signIn.wechat.submit')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('signIn.wechat.close')} disabled={submitting} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
