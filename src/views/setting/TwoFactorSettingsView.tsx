import type { FormEvent } from 'react';
import { Alert, Box, Button, Card, Field, Heading, HStack, Input, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import { Code } from '../app/laterComponents';
import type { Message } from '../../domain/message';
import type { TwoFactorSetup, TwoFactorStatus } from '../../domain/twoFactor';
import type { TwoFactorPanel } from '../../machines/twoFactorSettings/twoFactorSettings.selectors';
import { useRenderMessage, useT } from '../app/i18n';

export interface TwoFactorSettingsViewProps {
  readonly panel: TwoFactorPanel;
  readonly status: TwoFactorStatus | null;
  readonly setup: TwoFactorSetup | null;
  readonly recoveryCodes: readonly string[];
  readonly code: string;
  readonly password: string;
  readonly error: Message | null;
  readonly busy: boolean;
  readonly onReload: () => void;
  readonly onSetup: () => void;
  readonly onConfirmSetup: () => void;
  readonly onDisableOpen: () => void;
  readonly onDisableConfirm: () => void;
  readonly onRegenerateOpen: () => void;
  readonly onRegenerateConfirm: () => void;
  readonly onCancel: () => void;
  readonly onCodeChange: (value: string) => void;
  readonly onPasswordChange: (value: string) => void;
  readonly onCopyCodes: () => void;
  readonly onDismissCodes: () => void;
}

/** The recovery codes as a text file's data: URL (the download link; nothing is fetched). */
const codesFile = (codes: readonly string[]): string => `data:text/plain;charset=utf-8,${encodeURIComponent(`${codes.join('\n')}\n`)}`;

/** The two-factor section of the personal settings: status, enrolment, recovery codes, disable. */
export function TwoFactorSettingsView(props: TwoFactorSettingsViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const { panel, status, setup, recoveryCodes, code, password, error, busy } = props;
  const submit = (action: () => void) => (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    action();
  };
  const codeField = (
    <Field.Root invalid={error !== null}>
      <Field.Label>{t('twoFactor.field.code')}</Field.Label>
      <Input
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => props.onCodeChange(e.target.value)}
      />
      {error !== null && <Field.ErrorText color="red.fg">{render(error)}</Field.ErrorText>}
    </Field.Root>
  );
  return (
    <Card.Root aria-label={t('twoFactor.title')} role="region">
      <Card.Header>
        <Heading as="h2" size="md">
          {t('twoFactor.title')}
        </Heading>
      </Card.Header>
      <Card.Body>
        {panel === 'loading' && <Spinner />}
        {panel === 'failed' && (
          <Stack gap={3} align="start">
            <Text>{t('twoFactor.loaded.failed')}</Text>
            <Button size="sm" variant="outline" onClick={props.onReload}>
              {t('twoFactor.action.retry')}
            </Button>
          </Stack>
        )}
        {panel === 'status' && status !== null && (
          <Stack gap={3} align="start">
            {status.required && (
              <Alert.Root status="warning">
                <Alert.Indicator />
                <Alert.Title>{t('twoFactor.status.required')}</Alert.Title>
              </Alert.Root>
            )}
            <Text>
              {status.enabled ? t('twoFactor.status.enabled', { left: status.recovery_codes_left }) : t('twoFactor.status.disabled')}
            </Text>
            {status.enabled ? (
              <HStack gap={2} wrap="wrap">
                <Button size="sm" variant="outline" onClick={props.onRegenerateOpen}>
                  {t('twoFactor.action.regenerate')}
                </Button>
                <Button size="sm" colorPalette="red" variant="outline" onClick={props.onDisableOpen}>
                  {t('twoFactor.action.disable')}
                </Button>
              </HStack>
            ) : (
              <Button size="sm" colorPalette="blue" loading={busy} loadingText={t('twoFactor.action.setup')} onClick={props.onSetup}>
                {t('twoFactor.action.setup')}
              </Button>
            )}
          </Stack>
        )}
        {panel === 'status' && status === null && busy && <Spinner />}
        {panel === 'setup' && setup !== null && (
          <form onSubmit={submit(props.onConfirmSetup)} noValidate aria-label={t('twoFactor.action.setup')}>
            <Stack gap={3}>
              <Text>{t('twoFactor.setup.hint')}</Text>
              <Box>
                <Text fontWeight="semibold">{t('twoFactor.setup.secret')}</Text>
                <Code data-testid="totp-secret" wordBreak="break-all">
                  {setup.secret}
                </Code>
              </Box>
              <Box>
                <Text fontWeight="semibold">{t('twoFactor.setup.uri')}</Text>
                <Link href={setup.uri} wordBreak="break-all" fontSize="sm">
                  {setup.uri}
                </Link>
              </Box>
              {codeField}
              <HStack gap={2}>
                <Button type="submit" colorPalette="blue" loading={busy} loadingText={t('twoFactor.action.enable')}>
                  {t('twoFactor.action.enable')}
                </Button>
                <Button variant="ghost" onClick={props.onCancel} disabled={busy}>
                  {t('twoFactor.action.cancel')}
                </Button>
              </HStack>
            </Stack>
          </form>
        )}
        {panel === 'codes' && (
          <Stack gap={3} align="start">
            <Alert.Root status="info">
              <Alert.Indicator />
              <Alert.Title>{t('twoFactor.codes.hint')}</Alert.Title>
            </Alert.Root>
            <Box as="ul" aria-label={t('twoFactor.field.recovery')} fontFamily="mono" listStyleType="none">
              {recoveryCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </Box>
            <HStack gap={2} wrap="wrap">
              <Button size="sm" variant="outline" onClick={props.onCopyCodes}>
                {t('twoFactor.action.copy')}
              </Button>
              <Button size="sm" variant="outline" asChild>
                <a href={codesFile(recoveryCodes)} download="recovery-codes.txt">
                  {t('twoFactor.action.download')}
                </a>
              </Button>
              <Button size="sm" colorPalette="blue" onClick={props.onDismissCodes}>
                {t('twoFactor.action.done')}
              </Button>
            </HStack>
          </Stack>
        )}
        {panel === 'disable' && (
          <form onSubmit={submit(props.onDisableConfirm)} noValidate aria-label={t('twoFactor.action.disable')}>
            <Stack gap={3}>
              <Field.Root invalid={error !== null}>
                <Field.Label>{t('twoFactor.field.code')}</Field.Label>
                <Input name="code" autoComplete="one-time-code" value={code} onChange={(e) => props.onCodeChange(e.target.value)} />
              </Field.Root>
              <Field.Root invalid={error !== null}>
                <Field.Label>{t('signIn.login.password')}</Field.Label>
                <Input
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => props.onPasswordChange(e.target.value)}
                />
                {error !== null && <Field.ErrorText color="red.fg">{render(error)}</Field.ErrorText>}
              </Field.Root>
              <HStack gap={2}>
                <Button type="submit" colorPalette="red" loading={busy} loadingText={t('twoFactor.action.disable')}>
                  {t('twoFactor.action.disable')}
                </Button>
                <Button variant="ghost" onClick={props.onCancel} disabled={busy}>
                  {t('twoFactor.action.cancel')}
                </Button>
              </HStack>
            </Stack>
          </form>
        )}
        {panel === 'regenerate' && (
          <form onSubmit={submit(props.onRegenerateConfirm)} noValidate aria-label={t('twoFactor.action.regenerate')}>
            <Stack gap={3}>
              {codeField}
              <HStack gap={2}>
                <Button type="submit" colorPalette="blue" loading={busy} loadingText={t('twoFactor.action.regenerate')}>
                  {t('twoFactor.action.regenerate')}
                </Button>
                <Button variant="ghost" onClick={props.onCancel} disabled={busy}>
                  {t('twoFactor.action.cancel')}
                </Button>
              </HStack>
            </Stack>
          </form>
        )}
      </Card.Body>
    </Card.Root>
  );
}
