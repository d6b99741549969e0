import type { FormEvent } from 'react';
import { Alert, Button, Card, Field, Flex, Heading, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { Code, List } from '../app/laterComponents';
import { RouterLink } from '../app/RouterLink';
import { quotaEquivalent, type QuotaDisplay } from '../../domain/format';
import type { Message } from '../../domain/message';
import type { RedemptionField, RedemptionForm } from '../../machines/redemptionForm';
import { maxRedemptionCount } from '../../machines/redemptionForm';
import { useRenderMessage, useT } from '../app/i18n';

export interface RedemptionFormPageViewProps {
  readonly form: RedemptionForm;
  /** Editing an existing code: no count field. */
  readonly isEdit: boolean;
  readonly loading: boolean;
  readonly loadFailed: boolean;
  /** A call runs: fields and buttons are disabled. */
  readonly busy: boolean;
  readonly saving: boolean;
  readonly problem: { readonly field: RedemptionField; readonly message: Message } | null;
  /** The keys of the batch just created (empty before). */
  readonly keys: readonly string[];
  /** The file they downloaded to. */
  readonly keysFile: string;
  readonly copying: boolean;
  readonly quotaDisplay: QuotaDisplay;
  readonly onChange: (field: RedemptionField, value: string) => void;
  readonly onSubmit: () => void;
  readonly onRetry: () => void;
  readonly onCopyAll: () => void;
  readonly onDownload: () => void;
  readonly onAgain: () => void;
}

/**
 * The redemption form (/redemption/add, /redemption/edit/:id): name, quota, and on create the
 * number of codes. After a create the generated codes are listed with copy-all and download.
 */
export function RedemptionFormPageView(props: RedemptionFormPageViewProps) {
  const { form, isEdit, loading, loadFailed, busy, saving, problem, keys, keysFile, copying, quotaDisplay } = props;
  const t = useT();
  const render = useRenderMessage();
  const title = t(isEdit ? 'redemptions.form.titleEdit' : 'redemptions.form.titleAdd');
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    props.onSubmit();
  };
  const field = (name: RedemptionField) => ({
    name,
    value: form[name],
    disabled: busy,
    onChange: (e: { currentTarget: HTMLInputElement }) => props.onChange(name, e.currentTarget.value),
  });
  const invalid = (name: RedemptionField) => problem !== null && problem.field === name;
  const quotaNumber = Number(form.quota);
  const equivalent = Number.isFinite(quotaNumber) ? quotaEquivalent(quotaNumber, quotaDisplay) : null;

  return (
    <Flex justify="center" px={3} py={{ base: 6, md: 10 }}>
      <Card.Root w="full" maxW="xl">
        <Card.Header px={{ base: 4, sm: 6 }}>
          <Heading as="h1" size="xl">
            {title}
          </Heading>
        </Card.Header>
        <Card.Body px={{ base: 4, sm: 6 }}>
          {loading ? (
            <Flex align="center" gap={3} role="status" aria-live="polite">
              <Spinner size="sm" />
              <Text>{t('redemptions.form.loading')}</Text>
            </Flex>
          ) : loadFailed ? (
            <Stack gap={4}>
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>{t('redemptions.form.loadFailed')}</Alert.Title>
              </Alert.Root>
              <Flex gap={2} wrap="wrap">
                <Button variant="outline" onClick={props.onRetry}>
                  {t('redemptions.form.retry')}
                </Button>
                <Button variant="ghost" asChild>
                  <RouterLink to="/redemption">{t('redemptions.form.back')}</RouterLink>
                </Button>
              </Flex>
            </Stack>
          ) : keys.length > 0 ? (
            <Stack gap={4}>
              <Alert.Root status="success">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>{t('redemptions.form.keysTitle', { count: keys.length })}</Alert.Title>
                  <Alert.Description>{t('redemptions.form.keysHint', { file: keysFile })}</Alert.Description>
                </Alert.Content>
              </Alert.Root>
              <List.Root
                aria-label={t('redemptions.form.keysLabel')}
                listStyleType="none"
                maxH="72"
                overflowY="auto"
                borderWidth="1px"
                borderRadius="md"
                p={2}
                gap={1}
              >
                {keys.map((key) => (
                  <List.Item key={key}>
                    <Code wordBreak="break-all" data-testid="redemption-key">
                      {key}
                    </Code>
                  </List.Item>
                ))}
              </List.Root>
              <Flex gap={2} wrap="wrap">
                <Button colorPalette="blue" onClick={props.onCopyAll} loading={copying} loadingText={t('redemptions.form.copyAll')} disabled={busy}>
                  {t('redemptions.form.copyAll')}
                </Button>
                <Button variant="outline" onClick={props.onDownload} disabled={busy}>
                  {t('redemptions.form.downloadAgain')}
                </Button>
                <Button variant="outline" onClick={props.onAgain} disabled={busy}>
                  {t('redemptions.form.again')}
                </Button>
                <Button variant="ghost" asChild>
                  <RouterLink to="/redemption">{t('redemptions.form.back')}</RouterLink>
                </Button>
              </Flex>
            </Stack>
          ) : (
            <form onSubmit={handleSubmit} noValidate aria-label={title}>
              <Stack gap={4}>
                <Field.Root required={!isEdit} invalid={invalid('name')}>
                  <Field.Label>
                    {t('redemptions.form.name')}
                    {!isEdit && <Field.RequiredIndicator />}
                  </Field.Label>
                  <Input {...field('name')} autoComplete="off" placeholder={t('redemptions.form.namePlaceholder')} />
                  {invalid('name') && problem && <Field.ErrorText color="red.fg">{render(problem.message)}</Field.ErrorText>}
                </Field.Root>
                <Field.Root invalid={invalid('quota')}>
                  <Field.Label>{t('redemptions.form.quota')}</Field.Label>
                  <Input {...field('quota')} type="number" inputMode="numeric" placeholder={t('redemptions.form.quotaPlaceholder')} />
                  {equivalent && <Field.HelperText>{render(equivalent)}</Field.HelperText>}
                  {invalid('quota') && problem && <Field.ErrorText color="red.fg">{render(problem.message)}</Field.ErrorText>}
                </Field.Root>
                {!isEdit && (
                  <Field.Root invalid={invalid('count')}>
                    <Field.Label>{t('redemptions.form.count')}</Field.Label>
                    <Input
                      {...field('count')}
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={maxRedemptionCount}
                      placeholder={t('redemptions.form.countPlaceholder')}
                    />
                    <Field.HelperText>{t('redemptions.form.countHint', { max: maxRedemptionCount })}</Field.HelperText>
                    {invalid('count') && problem && <Field.ErrorText color="red.fg">{render(problem.message)}</Field.ErrorText>}
                  </Field.Root>
                )}
                <Flex gap={2} wrap="wrap">
                  <Button type="submit" colorPalette="blue" loading={saving} loadingText={t('redemptions.form.submit')} disabled={busy}>
                    {t('redemptions.form.submit')}
                  </Button>
                  <Button variant="ghost" asChild>
                    <RouterLink to="/redemption">{t('redemptions.form.back')}</RouterLink>
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
