import type { FormEvent } from 'react';
import { Alert, Button, Card, Field, Flex, Heading, Input, Stack } from '@chakra-ui/react';
import { useT } from '../app/i18n';

export interface PasswordResetConfirmPageViewProps {
  /** The link's e-mail (read-only). */
  readonly email: string;
  /** The link carries both an e-mail and a token. */
  readonly hasLink: boolean;
  readonly busy: boolean;
  /** Finished: the button reads 'password reset done' and stays disabled. */
  readonly done: boolean;
  /** The new password once the server answered. */
  readonly password: string | null;
  /** The clipboard refused: ask to copy the password by hand. */
  readonly needsManualCopy: boolean;
  readonly onConfirm: () => void;
}

/** The /user/reset page: the link's e-mail, the button, then the new password in a box. */
export function PasswordResetConfirmPageView({
  email,
  hasLink,
  busy,
  done,
  password,
  needsManualCopy,
  onConfirm,
}: PasswordResetConfirmPageViewProps) {
  const t = useT();
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onConfirm();
  };
  return (
    <Flex justify="center" px={3} py={{ base: 6, md: 12 }}>
      <Card.Root w="full" maxW="md">
        <Card.Header px={{ base: 4, sm: 6 }}>
          <Heading as="h1" size="xl">
            {t('account.resetConfirm.title')}
          </Heading>
        </Card.Header>
        <Card.Body px={{ base: 4, sm: 6 }}>
          <form onSubmit={handleSubmit} noValidate aria-label={t('account.resetConfirm.title')}>
            <Stack gap={4}>
              {!hasLink && (
                <Alert.Root status="warning">
                  <Alert.Indicator />
                  <Alert.Title>{t('account.resetConfirm.incompleteLink')}</Alert.Title>
                </Alert.Root>
              )}
              <Field.Root readOnly>
                <Field.Label>{t('account.resetConfirm.email')}</Field.Label>
                <Input name="email" type="email" value={email} readOnly />
              </Field.Root>
              {password !== null && (
                <Field.Root readOnly>
                  <Field.Label>{t('account.resetConfirm.newPassword')}</Field.Label>
                  <Input
                    name="new_password"
                    value={password}
                    readOnly
                    fontFamily="mono"
                    autoComplete="off"
                    spellCheck={false}
                    onFocus={(e) => e.currentTarget.select()}
                  />
                  {done && !needsManualCopy && <Field.HelperText>{t('account.resetConfirm.keepIt')}</Field.HelperText>}
                </Field.Root>
              )}
              {needsManualCopy && (
                <Alert.Root status="warning">
                  <Alert.Indicator />
                  <Alert.Title>{t('account.resetConfirm.copyByHand')}</Alert.Title>
                </Alert.Root>
              )}
              <Button
                type="submit"
                colorPalette="blue"
                w="full"
                loading={busy}
                loadingText={t('account.resetConfirm.submit')}
                disabled={done || !hasLink}
              >
                {done ? t('account.resetConfirm.done') : t('account.resetConfirm.submit')}
              </Button>
            </Stack>
          </form>
        </Card.Body>
      </Card.Root>
    </Flex>
  );
}
