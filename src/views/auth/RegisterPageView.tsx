import { useEffect, useRef, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import { RouterLink } from '../app/RouterLink';
import { Button, Card, Field, Flex, Group, Heading, Input, Link, Stack, Text } from '@chakra-ui/react';
import { firstErrorField, registrationFieldOrder, type FieldErrors, type RegistrationField } from '../../domain/accountRules';
import type { RegistrationValues } from '../../machines/register';
import { useRenderMessage, useT } from '../app/i18n';

export interface RegisterPageViewProps {
  /** status.email_verification: the e-mail and code fields and the send-code button. */
  readonly emailVerification: boolean;
  readonly submitting: boolean;
  /** Registered: the form stays disabled while the shell moves to /login. */
  readonly registered: boolean;
  readonly sendingCode: boolean;
  /** "Send code" may be pressed (not sending, not cooling down). */
  readonly canSendCode: boolean;
  /** Seconds until the code can be sent again (0: it can). */
  readonly codeSecondsLeft: number;
  /** The rules the last submit broke, per field (shown under each field; the first is focused). */
  readonly fieldErrors?: FieldErrors<RegistrationField>;
  /** A field was typed into (its message goes away). */
  readonly onFieldEdit?: (field: RegistrationField) => void;
  /** The bot-check widget, when the server asks for one. */
  readonly turnstile?: ReactNode;
  /** The fields as typed; the workflow checks them. */
  readonly onSubmit: (values: RegistrationValues) => void;
  /** "Send code" with the e-mail field's current value. */
  readonly onSendCode: (email: string) => void;
}

const text = (data: FormData, name: string): string => {
  const v = data.get(name);
  return typeof v === 'string' ? v : '';
};

const noErrors: FieldErrors<RegistrationField> = {};

/** The /register form: fields are read on submit (uncontrolled). */
export function RegisterPageView({
  emailVerification,
  submitting,
  registered,
  sendingCode,
  canSendCode,
  codeSecondsLeft,
  turnstile,
  fieldErrors = noErrors,
  onFieldEdit,
  onSubmit,
  onSendCode,
}: RegisterPageViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const formRef = useRef<HTMLFormElement>(null);
  // a refused submit: the first field with a problem takes the focus
  useEffect(() => {
    const first = firstErrorField(fieldErrors, registrationFieldOrder);
    if (first === null) return;
    const input = formRef.current?.elements.namedItem(first);
    if (input instanceof HTMLInputElement) input.focus();
  }, [fieldErrors]);
  const errorOf = (field: RegistrationField) => {
    const m = fieldErrors[field];
    return m === undefined ? null : <Field.ErrorText color="red.fg">{render(m)}</Field.ErrorText>;
  };
  const invalid = (field: RegistrationField) => fieldErrors[field] !== undefined;
  const edited = (field: RegistrationField) => () => {
    if (invalid(field)) onFieldEdit?.(field);
  };
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    onSubmit({
      username: text(data, 'username'),
      password: text(data, 'password'),
      password2: text(data, 'password2'),
      email: text(data, 'email'),
      verification_code: text(data, 'verification_code'),
    });
  };
  const handleSendCode = (e: MouseEvent<HTMLButtonElement>) => {
    const form = e.currentTarget.form;
    onSendCode(form === null ? '' : text(new FormData(form), 'email'));
  };
  const coolingDown = codeSecondsLeft > 0;
  return (
    <Flex justify="center" px={3} py={{ base: 6, md: 12 }}>
      <Card.Root w="full" maxW="md">
        <Card.Header px={{ base: 4, sm: 6 }}>
          <Heading as="h1" size="xl">
            {t('account.register.title')}
          </Heading>
        </Card.Header>
        <Card.Body px={{ base: 4, sm: 6 }}>
          <Stack gap={5}>
            <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label={t('account.register.title')}>
              <Stack gap={4}>
                <Field.Root required invalid={invalid('username')}>
                  <Field.Label>{t('account.register.username')}</Field.Label>
                  <Input
                    name="username"
                    autoComplete="username"
                    placeholder={t('account.register.usernamePlaceholder')}
                    onInput={edited('username')}
                  />
                  {errorOf('username') ?? <Field.HelperText>{t('account.register.usernameHint')}</Field.HelperText>}
                </Field.Root>
                <Field.Root required invalid={invalid('password')}>
                  <Field.Label>{t('account.register.password')}</Field.Label>
                  <Input
                    name="password"
                    type="password"
                    autoComplete="new-password"
                    placeholder={t('account.register.passwordPlaceholder')}
                    onInput={edited('password')}
                  />
                  {errorOf('password') ?? <Field.HelperText>{t('account.register.passwordHint')}</Field.HelperText>}
                </Field.Root>
                <Field.Root required invalid={invalid('password2')}>
                  <Field.Label>{t('account.register.password2')}</Field.Label>
                  <Input
                    name="password2"
                    type="password"
                    autoComplete="new-password"
                    placeholder={t('account.register.password2Placeholder')}
                    onInput={edited('password2')}
                  />
                  {errorOf('password2')}
                </Field.Root>
                {emailVerification && (
                  <>
                    <Field.Root required invalid={invalid('email')}>
                      <Field.Label>{t('account.register.email')}</Field.Label>
                      <Group attached w="full">
                        <Input
                          name="email"
                          type="email"
                          autoComplete="email"
                          placeholder={t('account.register.emailPlaceholder')}
                          flex="1"
                          minW={0}
                          onInput={edited('email')}
                        />
                        <Button
                          type="button"
                          variant="outline"
                          flexShrink={0}
                          onClick={handleSendCode}
                          disabled={!canSendCode}
                          loading={sendingCode}
                          loadingText={t('account.register.sendCode')}
                        >
                          {coolingDown
                            ? t('account.register.resendIn', { seconds: codeSecondsLeft })
                            : t('account.register.sendCode')}
                        </Button>
                      </Group>
                      {errorOf('email')}
                    </Field.Root>
                    <Field.Root required invalid={invalid('verification_code')}>
                      <Field.Label>{t('account.register.code')}</Field.Label>
                      <Input
                        name="verification_code"
                        autoComplete="one-time-code"
                        placeholder={t('account.register.codePlaceholder')}
                        onInput={edited('verification_code')}
                      />
                      {errorOf('verification_code')}
                    </Field.Root>
                  </>
                )}
                {turnstile}
                <Button
                  type="submit"
                  colorPalette="blue"
                  w="full"
                  loading={submitting}
                  loadingText={t('account.register.submit')}
                  disabled={registered}
                >
                  {t('account.register.submit')}
                </Button>
              </Stack>
            </form>
            <Text fontSize="sm">
              {t('account.register.haveAccount')}{' '}
              <Link asChild colorPalette="blue" color="colorPalette.fg" textDecoration="underline">
                <RouterLink to="/login">{t('account.register.login')}</RouterLink>
              </Link>
            </Text>
          </Stack>
        </Card.Body>
      </Card.Root>
    </Flex>
  );
}
