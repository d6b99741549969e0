import { useEffect, useRef, type FormEvent } from 'react';
import { Alert, Button, Card, Field, Flex, Heading, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { firstErrorField } from '../../domain/accountRules';
import { profileFieldOrder, type ProfileBindings, type ProfileErrors, type ProfileField, type ProfileForm } from '../../machines/profileEdit';
import { useRenderMessage, useT } from '../app/i18n';

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
  /** The account's GitHub, WeChat and e-mail bindings, shown read-only. */
  readonly bindings?: ProfileBindings;
  /** The rules the last submit broke, per field (each said at its field; the first is focused). */
  readonly fieldErrors?: ProfileErrors;
  /** Leave without saving. */
  readonly onCancel?: () => void;
}

const noBindings: ProfileBindings = { github_id: '', wechat_id: '', email: '' };
const noErrors: ProfileErrors = {};

/**
 * The own-profile form (/user/edit): username, password (empty keeps it), display name, the
 * read-only GitHub, WeChat and e-mail bindings (bound from the personal settings), submit and cancel.
 */
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
  bindings = noBindings,
  fieldErrors = noErrors,
  onCancel,
}: ProfileEditPageViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const formRef = useRef<HTMLFormElement>(null);
  // a refused submit: the first field with a problem takes the focus
  useEffect(() => {
    const first = firstErrorField(fieldErrors, profileFieldOrder);
    if (first === null) return;
    const input = formRef.current?.elements.namedItem(first);
    if (input instanceof HTMLInputElement) input.focus();
  }, [fieldErrors]);
  const invalid = (name: ProfileField) => fieldErrors[name] !== undefined;
  const errorOf = (name: ProfileField) => {
    const m = fieldErrors[name];
    return m === undefined ? null : <Field.ErrorText color="red.fg">{render(m)}</Field.ErrorText>;
  };
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
            <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label={t('account.profile.title')}>
              <Stack gap={4}>
                <Field.Root required invalid={invalid('username')}>
                  <Field.Label>{t('account.profile.username')}</Field.Label>
                  <Input {...field('username')} autoComplete="username" placeholder={t('account.profile.usernamePlaceholder')} />
                  {errorOf('username')}
                </Field.Root>
                <Field.Root invalid={invalid('password')}>
                  <Field.Label>{t('account.profile.password')}</Field.Label>
                  <Input
                    {...field('password')}
                    type="password"
                    autoComplete="new-password"
                    placeholder={t('account.profile.passwordPlaceholder')}
                  />
                  {errorOf('password') ?? <Field.HelperText>{t('account.profile.passwordHint')}</Field.HelperText>}
                </Field.Root>
                <Field.Root invalid={invalid('display_name')}>
                  <Field.Label>{t('account.profile.displayName')}</Field.Label>
                  <Input {...field('display_name')} autoComplete="nickname" placeholder={t('account.profile.displayNamePlaceholder')} />
                  {errorOf('display_name')}
                </Field.Root>
                <Field.Root readOnly>
                  <Field.Label>{t('account.profile.githubId')}</Field.Label>
                  <Input name="github_id" value={bindings.github_id} readOnly placeholder={t('account.profile.bindingHint')} />
                </Field.Root>
                <Field.Root readOnly>
                  <Field.Label>{t('account.profile.wechatId')}</Field.Label>
                  <Input name="wechat_id" value={bindings.wechat_id} readOnly placeholder={t('account.profile.bindingHint')} />
                </Field.Root>
                <Field.Root readOnly>
                  <Field.Label>{t('account.profile.email')}</Field.Label>
                  <Input name="email" value={bindings.email} readOnly placeholder={t('account.profile.bindingHint')} />
                </Field.Root>
                <Flex gap={2} direction={{ base: 'column', sm: 'row' }}>
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
                <Button variant="outline" onClick={onCancel} disabled={saving}>
                  {t('account.profile.cancel')}
                </Button>
                </Flex>
              </Stack>
            </form>
          )}
        </Card.Body>
      </Card.Root>
    </Flex>
  );
}
