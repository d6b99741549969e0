import type { FormEvent } from 'react';
import { Button, Card, Field, Flex, Heading, Input, Stack, Text } from '@chakra-ui/react';
import type { Message } from '../../domain/message';
import { useRenderMessage, useT } from '../app/i18n';

export interface SecondFactorViewProps {
  /** A recovery code is asked instead of the TOTP code. */
  readonly recovery: boolean;
  readonly error: Message | null;
  readonly verifying: boolean;
  /** The code as typed; the session checks that it is filled. */
  readonly onSubmit: (code: string) => void;
  readonly onToggleMode: () => void;
  readonly onCancel: () => void;
}

/** The login's second step: a TOTP code from the authenticator, or a recovery code. */
export function SecondFactorView({ recovery, error, verifying, onSubmit, onToggleMode, onCancel }: SecondFactorViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const value = new FormData(e.currentTarget).get('code');
    onSubmit(typeof value === 'string' ? value : '');
  };
  const label = recovery ? t('twoFactor.field.recovery') : t('twoFactor.field.code');
  return (
    <Flex justify="center" px={4} py={{ base: 6, md: 12 }}>
      <Card.Root w="full" maxW="md">
        <Card.Header>
          <Heading as="h1" size="xl">
            {t('twoFactor.login.title')}
          </Heading>
        </Card.Header>
        <Card.Body>
          <form onSubmit={handleSubmit} noValidate aria-label={t('twoFactor.login.title')}>
            <Stack gap={4}>
              <Text>{recovery ? t('twoFactor.login.recoveryHint') : t('twoFactor.login.hint')}</Text>
              <Field.Root invalid={error !== null}>
                <Field.Label>{label}</Field.Label>
                <Input
                  key={recovery ? 'recovery' : 'totp'}
                  name="code"
                  autoFocus
                  aria-required="true"
                  inputMode={recovery ? 'text' : 'numeric'}
                  autoComplete="one-time-code"
                />
                {error !== null && <Field.ErrorText color="red.fg">{render(error)}</Field.ErrorText>}
              </Field.Root>
              <Button type="submit" colorPalette="blue" w="full" loading={verifying} loadingText={t('twoFactor.login.submit')}>
                {t('twoFactor.login.submit')}
              </Button>
              <Flex justify="space-between" gap={2} wrap="wrap">
                <Button variant="ghost" size="sm" onClick={onToggleMode} disabled={verifying}>
                  {recovery ? t('twoFactor.login.useCode') : t('twoFactor.login.useRecovery')}
                </Button>
                <Button variant="ghost" size="sm" onClick={onCancel} disabled={verifying}>
                  {t('twoFactor.login.back')}
                </Button>
              </Flex>
            </Stack>
          </form>
        </Card.Body>
      </Card.Root>
    </Flex>
  );
}
