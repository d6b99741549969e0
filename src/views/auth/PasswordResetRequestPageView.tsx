import type { FormEvent, ReactNode } from 'react';
import { RouterLink } from '../app/RouterLink';
import { Button, Card, Field, Flex, Heading, Input, Link, Stack, Text } from '@chakra-ui/react';
import { useT } from '../app/i18n';

export interface PasswordResetRequestPageViewProps {
  readonly sending: boolean;
  /** The button may be pressed (not sending, not cooling down). */
  readonly canRequest: boolean;
  /** Seconds until the request can be sent again (0: it can). */
  readonly secondsLeft: number;
  /** The bot-check widget, when the server asks for one. */
  readonly turnstile?: ReactNode;
  /** The e-mail as typed; the workflow checks it. */
  readonly onRequest: (email: string) => void;
}

/** The /reset form: one e-mail field read on submit; the button counts down after a send. */
export function PasswordResetRequestPageView({ sending, canRequest, secondsLeft, turnstile, onRequest }: PasswordResetRequestPageViewProps) {
  const t = useT();
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const email = new FormData(e.currentTarget).get('email');
    onRequest(typeof email === 'string' ? email : '');
  };
  const coolingDown = secondsLeft > 0;
  return (
    <Flex justify="center" px={3} py={{ base: 6, md: 12 }}>
      <Card.Root w="full" maxW="md">
        <Card.Header px={{ base: 4, sm: 6 }}>
          <Heading as="h1" size="xl">
            {t('account.reset.title')}
          </Heading>
        </Card.Header>
        <Card.Body px={{ base: 4, sm: 6 }}>
          <Stack gap={5}>
            <form onSubmit={handleSubmit} noValidate aria-label={t('account.reset.title')}>
              <Stack gap={4}>
                <Field.Root required>
                  <Field.Label>{t('account.reset.email')}</Field.Label>
                  <Input name="email" type="email" autoComplete="email" placeholder={t('account.reset.emailPlaceholder')} />
                </Field.Root>
                {turnstile}
                <Button
                  type="submit"
                  colorPalette="blue"
                  w="full"
                  loading={sending}
                  loadingText={t('account.reset.submit')}
                  disabled={!canRequest}
                >
                  {coolingDown ? t('account.reset.retryIn', { seconds: secondsLeft }) : t('account.reset.submit')}
                </Button>
              </Stack>
            </form>
            <Text fontSize="sm">
              <Link asChild colorPalette="blue" color="colorPalette.fg" textDecoration="underline">
                <RouterLink to="/login">{t('account.reset.backToLogin')}</RouterLink>
              </Link>
            </Text>
          </Stack>
        </Card.Body>
      </Card.Root>
    </Flex>
  );
}
