import type { FormEvent } from 'react';
import { Alert, Button, Card, Field, Flex, Heading, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ProfileField, ProfileForm } from '../../machines/profileEdit';
import { useT } from '../app/i18n';

export interface ProfileEditPageViewProps {
  readonly form: ProfileForm;
  /** The account is being loaded. */
  readonly loading: boolean;
  /** The account could not be loaded. */
  readonly loadFailed: boolean;
  /** A call is running: fields and button are disabled. */
  readonly busy: boolean;
  /** The save is running: the button shows its spinner. */
  readonly saving: boolean;
  readonly canSubmit: boolean;
  readonly onChange: (field: ProfileField, value: string) => void;
  readonly onSubmit: () => void;
  readonly onRetry: () => void;
}

/** The own-profile form (/user/edit): username, password (empty keeps it), display name. */
export function ProfileEditPageView({
  form,
  loading,
  loadFailed,
  busy,
  saving,
  canSubmit,
  onChange,
  onSubmit,
  onRetry,
}: ProfileEditPageViewProps) {
  const t = useT();
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onSubmit();
  };
  const field = (name: ProfileField) => ({
    name,
    value: form[name],
    disabled: busy,
    onChange: (e: { currentTarget: HTMLInputElement }) => onChange(name, e.currentTarget.value),
  });
  return (
    <Flex justify="center" px={3} py={{ base: 6, md: 12 }}>
      <Card.Root w="full" maxW="lg">
        <Card.Header px={{ base: 4, sm: 6 }}>
          <Heading as="h1" size="xl">
            {t('account.profile.title')}
          </Heading>
        </Card.Header>
        <Card.Body px={{ base: 4, sm: 6 }}>
          {loading ? (
            <Flex align="center" gap={3} role="status" aria-live="polite">
              <Spinner size="sm" />
              <Text>{t('account.profile.loading')}</Text>
            </Flex>
          ) : loadFailed ? (
            <Stack gap={4}>
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>{t('account.profile.loadFailed')}</Alert.Title>
              </Alert.Root>
              <Button alignSelf="start" variant="outline" onClick={onRetry}>
                {t('account.profile.retry')}
              </Button>
            </Stack>
          ) : (
            <form onSubmit={handleSubmit} noValidate aria-label={t('account.profile.title')}>
              <Stack gap={4}>
                <Field.Root required>
                  <Field.Label>{t('account.profile.username')}</Field.Label>
                  <Input {...field('username')} autoComplete="username" placeholder={t('account.profile.usernamePlaceholder')} />
                </Field.Root>
                <Field.Root>
                  <Field.Label>{t('account.profile.password')}</Field.Label>
                  <Input
                    {...field('password')}
                    type="password"
                    autoComplete="new-password"
                    placeholder={t('account.profile.passwordPlaceholder')}
                  />
                  <Field.HelperText>{t('account.profile.passwordHint')}</Field.HelperText>
                </Field.Root>
                <Field.Root>
                  <Field.Label>{t('account.profile.displayName')}</Field.Label>
                  <Input {...field('display_name')} autoComplete="nickname" placeholder={t('account.profile.displayNamePlaceholder')} />
                </Field.Root>
                <Button
                  type="submit"
                  colorPalette="blue"
                  alignSelf={{ base: 'stretch', sm: 'start' }}
                  loading={saving}
                  loadingText={t('account.profile.submit')}
                  disabled={!canSubmit}
                >
                  {t('account.profile.submit')}
                </Button>
              </Stack>
            </form>
          )}
        </Card.Body>
      </Card.Root>
    </Flex>
  );
}
