import { useEffect, useRef, type FormEvent } from 'react';
import { Alert, Button, Card, Field, Flex, Heading, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { NativeSelect } from '../app/laterComponents';
import { quotaEquivalent, type QuotaDisplay } from '../../domain/format';
import { firstErrorField } from '../../domain/accountRules';
import type { UserForm, UserFormErrors, UserFormField } from '../../machines/userForm';
import { parseQuota, userFormFieldOrder } from '../../machines/userForm';
import { useRenderMessage, useT } from '../app/i18n';

export interface UserFormPageViewProps {
  /** Edit another user (/user/edit/:id) rather than create one (/user/add). */
  readonly isEdit: boolean;
  readonly form: UserForm;
  /** Group names of the dropdown (the user's own group is added when missing). */
  readonly groupOptions: readonly string[];
  /** The rules the last submit broke, per field (each said at its field; the first is focused). */
  readonly fieldErrors?: UserFormErrors;
  readonly quotaDisplay: QuotaDisplay;
  readonly loading: boolean;
  readonly loadFailed: boolean;
  /** A call is running (or the form is done): fields and buttons are disabled. */
  readonly busy: boolean;
  readonly saving: boolean;
  readonly canSubmit: boolean;
  readonly onChange: (field: UserFormField, value: string) => void;
  readonly onSubmit: () => void;
  readonly onRetry: () => void;
  readonly onCancel: () => void;
}

const noErrors: UserFormErrors = {};

/**
 * The admin user form (spec §2). Create: username, display name, password. Edit: username,
 * password (empty keeps it), display name, group (new groups come from the group ratio in the
 * system settings), quota (an integer) and the read-only GitHub, WeChat and e-mail bindings.
 */
export function UserFormPageView({
  isEdit,
  form,
  groupOptions,
  fieldErrors = noErrors,
  quotaDisplay,
  loading,
  loadFailed,
  busy,
  saving,
  canSubmit,
  onChange,
  onSubmit,
  onRetry,
  onCancel,
}: UserFormPageViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const title = t(isEdit ? 'users.form.editTitle' : 'users.form.createTitle');
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onSubmit();
  };
  const formRef = useRef<HTMLFormElement>(null);
  // a refused submit: the first field with a problem takes the focus
  useEffect(() => {
    const first = firstErrorField(fieldErrors, userFormFieldOrder(isEdit));
    if (first === null) return;
    const input = formRef.current?.elements.namedItem(first);
    if (input instanceof HTMLInputElement || input instanceof HTMLSelectElement) input.focus();
  }, [fieldErrors, isEdit]);
  const field = (name: UserFormField) => ({
    name,
    value: form[name],
    disabled: busy,
    onChange: (e: { currentTarget: HTMLInputElement }) => onChange(name, e.currentTarget.value),
  });
  const invalid = (name: UserFormField) => fieldErrors[name] !== undefined;
  const errorOf = (name: UserFormField) => {
    const m = fieldErrors[name];
    return m === undefined ? null : <Field.ErrorText color="red.fg">{render(m)}</Field.ErrorText>;
  };
  const quotaProblem = fieldErrors.quota ?? null;
  const groups = form.group !== '' && !groupOptions.includes(form.group) ? [form.group, ...groupOptions] : groupOptions;
  const quota = parseQuota(form.quota);
  const equivalent = quota === null ? null : quotaEquivalent(quota, quotaDisplay);

  return (
    <Flex justify="center" px={3} py={{ base: 6, md: 12 }}>
      <Card.Root w="full" maxW="lg">
        <Card.Header px={{ base: 4, sm: 6 }}>
          <Heading as="h1" size="xl">
            {title}
          </Heading>
        </Card.Header>
        <Card.Body px={{ base: 4, sm: 6 }}>
          {loading ? (
            <Flex align="center" gap={3} role="status" aria-live="polite">
              <Spinner size="sm" />
              <Text>{t('users.form.loading')}</Text>
            </Flex>
          ) : loadFailed ? (
            <Stack gap={4}>
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>{t('users.form.loadFailed')}</Alert.Title>
              </Alert.Root>
              <Flex gap={2} wrap="wrap">
                <Button variant="outline" onClick={onRetry}>
                  {t('users.form.retry')}
                </Button>
                <Button variant="ghost" onClick={onCancel}>
                  {t('users.form.cancel')}
                </Button>
              </Flex>
            </Stack>
          ) : (
            <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label={title}>
              <Stack gap={4}>
                <Field.Root required={!isEdit} invalid={invalid('username')}>
                  <Field.Label>
                    {t('users.form.username')}
                    {!isEdit && <Field.RequiredIndicator />}
                  </Field.Label>
                  <Input
                    {...field('username')}
                    autoComplete="off"
                    placeholder={t(isEdit ? 'users.form.usernameEditPlaceholder' : 'users.form.usernamePlaceholder')}
                  />
                  {errorOf('username')}
                </Field.Root>
                {isEdit ? (
                  <>
                    <Field.Root invalid={invalid('password')}>
                      <Field.Label>{t('users.form.password')}</Field.Label>
                      <Input {...field('password')} type="password" autoComplete="new-password" placeholder={t('users.form.passwordEditPlaceholder')} />
                      {errorOf('password') ?? <Field.HelperText>{t('users.form.passwordKeep')}</Field.HelperText>}
                    </Field.Root>
                    <Field.Root invalid={invalid('display_name')}>
                      <Field.Label>{t('users.form.displayName')}</Field.Label>
                      <Input {...field('display_name')} autoComplete="off" placeholder={t('users.form.displayNameEditPlaceholder')} />
                      {errorOf('display_name')}
                    </Field.Root>
                    <Field.Root invalid={invalid('group')}>
                      <Field.Label>{t('users.form.group')}</Field.Label>
                      <NativeSelect.Root disabled={busy}>
                        <NativeSelect.Field name="group" value={form.group} onChange={(e) => onChange('group', e.currentTarget.value)}>
                          {form.group === '' && <option value="">{t('users.form.groupPlaceholder')}</option>}
                          {groups.map((g) => (
                            <option key={g} value={g}>
                              {g}
                            </option>
                          ))}
                        </NativeSelect.Field>
                        <NativeSelect.Indicator />
                      </NativeSelect.Root>
                      {errorOf('group') ?? <Field.HelperText>{t('users.form.groupHint')}</Field.HelperText>}
                    </Field.Root>
                    <Field.Root invalid={quotaProblem !== null}>
                      <Field.Label>{t('users.form.quota')}</Field.Label>
                      <Input {...field('quota')} inputMode="numeric" autoComplete="off" placeholder={t('users.form.quotaPlaceholder')} />
                      {quotaProblem !== null ? (
                        <Field.ErrorText color="red.fg">{render(quotaProblem)}</Field.ErrorText>
                      ) : (
                        equivalent !== null && <Field.HelperText>{render(equivalent)}</Field.HelperText>
                      )}
                    </Field.Root>
                    <Field.Root readOnly>
                      <Field.Label>{t('users.form.githubId')}</Field.Label>
                      <Input name="github_id" value={form.github_id} readOnly placeholder={t('users.form.bindingHint')} />
                    </Field.Root>
                    <Field.Root readOnly>
                      <Field.Label>{t('users.form.wechatId')}</Field.Label>
                      <Input name="wechat_id" value={form.wechat_id} readOnly placeholder={t('users.form.bindingHint')} />
                    </Field.Root>
                    <Field.Root readOnly>
                      <Field.Label>{t('users.form.email')}</Field.Label>
                      <Input name="email" value={form.email} readOnly placeholder={t('users.form.bindingHint')} />
                    </Field.Root>
                  </>
                ) : (
                  <>
                    <Field.Root invalid={invalid('display_name')}>
                      <Field.Label>{t('users.form.displayName')}</Field.Label>
                      <Input {...field('display_name')} autoComplete="off" placeholder={t('users.form.displayNamePlaceholder')} />
                      {errorOf('display_name')}
                    </Field.Root>
                    <Field.Root required invalid={invalid('password')}>
                      <Field.Label>
                        {t('users.form.password')}
                        <Field.RequiredIndicator />
                      </Field.Label>
                      <Input {...field('password')} type="password" autoComplete="new-password" placeholder={t('users.form.passwordPlaceholder')} />
                      {errorOf('password') ?? <Field.HelperText>{t('users.form.createHint')}</Field.HelperText>}
                    </Field.Root>
                  </>
                )}
                <Flex gap={2} direction={{ base: 'column', sm: 'row' }}>
                  <Button type="submit" colorPalette="blue" loading={saving} loadingText={t('users.form.submit')} disabled={!canSubmit || busy}>
                    {t('users.form.submit')}
                  </Button>
                  <Button variant="outline" onClick={onCancel} disabled={saving}>
                    {t('users.form.cancel')}
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
