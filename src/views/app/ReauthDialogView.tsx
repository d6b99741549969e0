import { useRef, type FormEvent } from 'react';
import { Button, Field, Input, Link, Portal, Stack } from '@chakra-ui/react';
import { Dialog } from './laterComponents';
import type { Message } from '../../domain/message';
import { useRenderMessage, useT } from './i18n';

export interface ReauthDialogViewProps {
  readonly open: boolean;
  /** The signed-out user's name, shown read-only. */
  readonly username: string;
  /** The login's refusal or the empty password, said inline. */
  readonly error: Message | null;
  /** The dialog's login is in flight (spinner, nothing else can be sent). */
  readonly signingIn: boolean;
  readonly onSubmit: (password: string) => void;
  /** Cancel, Escape: the session ends as before (the login page). */
  readonly onCancel: () => void;
  /** "Sign in as someone else": the full login page. */
  readonly onOtherUser: () => void;
}

const formId = 'reauth-form';

/**
 * The sign-in dialog over a page whose save met an expired session: modal, the focus in the
 * password box, the user name read-only, the refusal inline, a spinner while signing in;
 * Escape and Cancel give up. The password is read from the form on submit.
 */
export function ReauthDialogView({ open, username, error, signingIn, onSubmit, onCancel, onOtherUser }: ReauthDialogViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const passwordRef = useRef<HTMLInputElement>(null);
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const password = new FormData(e.currentTarget).get('password');
    onSubmit(typeof password === 'string' ? password : '');
  };
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => {
        if (!d.open) onCancel();
      }}
      role="alertdialog"
      placement="center"
      size={{ base: 'full', sm: 'sm' }}
      closeOnInteractOutside={false}
      initialFocusEl={() => passwordRef.current}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t('reauth.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap={4}>
                <Dialog.Description>{t('reauth.hint')}</Dialog.Description>
                <form id={formId} onSubmit={handleSubmit} noValidate aria-label={t('reauth.title')}>
                  <Stack gap={3}>
                    <Field.Root readOnly>
                      <Field.Label>{t('reauth.username')}</Field.Label>
                      <Input name="username" value={username} readOnly autoComplete="username" />
                    </Field.Root>
                    <Field.Root invalid={error !== null}>
                      <Field.Label>{t('reauth.password')}</Field.Label>
                      <Input ref={passwordRef} name="password" type="password" autoComplete="current-password" disabled={signingIn} />
                      {error !== null && <Field.ErrorText color="red.fg">{render(error)}</Field.ErrorText>}
                    </Field.Root>
                  </Stack>
                </form>
                <Link asChild alignSelf="start" colorPalette="blue">
                  <button type="button" onClick={onOtherUser} disabled={signingIn}>
                    {t('reauth.otherUser')}
                  </button>
                </Link>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel} disabled={signingIn}>
                {t('reauth.cancel')}
              </Button>
              <Button type="submit" form={formId} colorPalette="blue" loading={signingIn} loadingText={t('reauth.signingIn')}>
                {t('reauth.submit')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
