import type { FormEvent, ReactNode } from 'react';
import { RouterLink } from '../app/RouterLink';
import { Alert, Button, Card, Field, Flex, Heading, Input, Link, Separator, Stack, Text } from '@chakra-ui/react';
import type { LoginOffer } from '../../domain/loginMethods';
import { useT } from '../app/i18n';

export interface Credentials {
  readonly username: string;
  readonly password: string;
}

export interface LoginPageViewProps {
  /** `?expired=true`: the session ran out. */
  readonly expired: boolean;
  readonly signingIn: boolean;
  /** Both fields as typed; the session checks that both are filled. */
  readonly onSubmit: (credentials: Credentials) => void;
  /** The alternate logins the server enables, if any. */
  readonly alternate?: ReactNode;
  /**
   * What the server offers (loginOffer): the password form (default), only the alternate logins
   * below it, or nothing at all (a message says to contact the administrator).
   */
  readonly offer?: LoginOffer;
}

const text = (data: FormData, name: string): string => {
  const v = data.get(name);
  return typeof v === 'string' ? v : '';
};

/** The /login form: username (or e-mail) and password, read on submit. */
export function LoginPageView({ expired, signingIn, onSubmit, alternate, offer = 'password' }: LoginPageViewProps) {
  const t = useT();
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    onSubmit({ username: text(data, 'username'), password: text(data, 'password') });
  };
  return (
    <Flex justify="center" px={4} py={{ base: 6, md: 12 }}>
      <Card.Root w="full" maxW="md">
        <Card.Header>
          <Heading as="h1" size="xl">
            {t('signIn.login.title')}
          </Heading>
        </Card.Header>
        <Card.Body>
          <Stack gap={5}>
            {expired && (
              <Alert.Root status="warning">
                <Alert.Indicator />
                <Alert.Title>{t('signIn.login.expired')}</Alert.Title>
              </Alert.Root>
            )}
            {offer === 'alternateOnly' && (
              <Alert.Root status="info">
                <Alert.Indicator />
                <Alert.Title>{t('settingsExtras.login.passwordDisabled')}</Alert.Title>
              </Alert.Root>
            )}
            {offer === 'none' && (
              <Alert.Root status="warning" role="alert">
                <Alert.Indicator />
                <Alert.Title>{t('settingsExtras.login.noMethod')}</Alert.Title>
              </Alert.Root>
            )}
            {offer === 'password' && (
              <form onSubmit={handleSubmit} noValidate aria-label={t('signIn.login.title')}>
                <Stack gap={4}>
                  <Field.Root>
                    <Field.Label>{t('signIn.login.username')}</Field.Label>
                    <Input
                      name="username"
                      autoComplete="username"
                      aria-required="true"
                      placeholder={t('signIn.login.usernamePlaceholder')}
                    />
                  </Field.Root>
                  <Field.Root>
                    <Field.Label>{t('signIn.login.password')}</Field.Label>
                    <Input
                      name="password"
                      type="password"
                      autoComplete="current-password"
                      aria-required="true"
                      placeholder={t('signIn.login.passwordPlaceholder')}
                    />
                  </Field.Root>
                  <Button
                    type="submit"
                    colorPalette="blue"
                    w="full"
                    loading={signingIn}
                    loadingText={t('signIn.login.submit')}
                  >
                    {t('signIn.login.submit')}
                  </Button>
                </Stack>
              </form>
            )}
            <Stack gap={1} fontSize="sm">
              <Text>
                {t('signIn.login.forgot')}{' '}
                <Link asChild colorPalette="blue" color="colorPalette.fg" textDecoration="underline">
                  <RouterLink to="/reset">{t('signIn.login.reset')}</RouterLink>
                </Link>
              </Text>
              <Text>
                {t('signIn.login.noAccount')}{' '}
                <Link asChild colorPalette="blue" color="colorPalette.fg" textDecoration="underline">
                  <RouterLink to="/register">{t('signIn.login.register')}</RouterLink>
                </Link>
              </Text>
            </Stack>
            {alternate !== undefined && alternate !== null && (
              <Stack gap={3}>
                <Flex align="center" gap={3}>
                  <Separator flex="1" />
                  <Text fontSize="sm" color="fg.muted" flexShrink={0}>
                    {t('signIn.login.alternate')}
                  </Text>
                  <Separator flex="1" />
                </Flex>
                {alternate}
              </Stack>
            )}
          </Stack>
        </Card.Body>
      </Card.Root>
    </Flex>
  );
}
