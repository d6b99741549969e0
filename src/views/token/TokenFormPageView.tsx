import { useEffect, useMemo, useRef, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  Field,
  Fieldset,
  Flex,
  Heading,
  Input,
  Spinner,
  Stack,
  Text,
  Wrap,
} from '@chakra-ui/react';
import { Checkbox, Switch, Tag } from '../app/laterComponents';
import { quotaEquivalent, type QuotaDisplay } from '../../domain/format';
import {
  expiryPresets,
  filterModels,
  modelOptions,
  parseQuotaText,
  type ExpiryPreset,
  type TokenForm,
  type TokenFormProblem,
  type TokenTextField,
} from '../../domain/tokenForm';
import { useRenderMessage, useT } from '../app/i18n';

export interface TokenFormPageViewProps {
  /** Edit a token (/token/edit/:id) rather than create one (/token/add). */
  readonly isEdit: boolean;
  readonly form: TokenForm;
  /** The models the caller may use. */
  readonly availableModels: readonly string[];
  readonly modelFilter: string;
  /** The rule the last submit broke, shown by its field. */
  readonly problem: TokenFormProblem | null;
  readonly quotaDisplay: QuotaDisplay;
  readonly loading: boolean;
  readonly loadFailed: boolean;
  /** A call is running (or the form is done): fields and buttons are disabled. */
  readonly busy: boolean;
  readonly saving: boolean;
  readonly canSubmit: boolean;
  readonly onChange: (field: TokenTextField, value: string) => void;
  readonly onToggleModel: (model: string) => void;
  readonly onClearModels: () => void;
  readonly onFilterModels: (text: string) => void;
  readonly onQuickExpiry: (preset: ExpiryPreset) => void;
  readonly onToggleUnlimited: () => void;
  readonly onSubmit: () => void;
  readonly onRetry: () => void;
  readonly onCancel: () => void;
}

/**
 * The token form (spec §2 "Token form"): name, the models it may use (a searchable list of
 * checkboxes; none = no restriction), the IP restriction, the expiry (datetime-local with five quick
 * buttons), the quota with the unlimited switch, and the note that the account's own remaining
 * quota still limits usage.
 */
export function TokenFormPageView(props: TokenFormPageViewProps) {
  const { isEdit, form, availableModels, modelFilter, problem, quotaDisplay, loading, loadFailed, busy, saving, canSubmit } = props;
  const t = useT();
  const render = useRenderMessage();
  const title = t(isEdit ? 'tokenForm.titleEdit' : 'tokenForm.titleAdd');
  const options = useMemo(() => modelOptions(availableModels, form.models), [availableModels, form.models]);
  const shown = useMemo(() => filterModels(options, modelFilter), [options, modelFilter]);
  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    props.onSubmit();
  };
  const text = (name: TokenTextField) => ({
    name,
    value: form[name],
    disabled: busy,
    onChange: (e: { currentTarget: HTMLInputElement }) => props.onChange(name, e.currentTarget.value),
  });
  const formRef = useRef<HTMLFormElement>(null);
  /** A refused submit moves the focus to the field it names (once per refusal); no toast repeats it. */
  useEffect(() => {
    if (problem === null) return;
    formRef.current?.querySelector<HTMLElement>(`[name="${problem.field}"]`)?.focus();
  }, [problem]);
  const problemAt = (field: TokenTextField) =>
    problem !== null && problem.field === field ? <Field.ErrorText color="red.fg">{render(problem.message)}</Field.ErrorText> : null;
  const quota = parseQuotaText(form.remainQuota);
  const equivalent = form.unlimited || quota === null ? null : quotaEquivalent(quota, quotaDisplay);

  return (
    <Flex justify="center" px={3} py={{ base: 6, md: 12 }}>
      <Card.Root w="full" maxW="2xl" minW={0}>
        <Card.Header px={{ base: 4, sm: 6 }}>
          <Heading as="h1" size="xl">
            {title}
          </Heading>
        </Card.Header>
        <Card.Body px={{ base: 4, sm: 6 }}>
          {loading ? (
            <Flex align="center" gap={3} role="status" aria-live="polite">
              <Spinner size="sm" />
              <Text>{t('tokenForm.loading')}</Text>
            </Flex>
          ) : loadFailed ? (
            <Stack gap={4}>
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>{t('tokenForm.loadFailed')}</Alert.Title>
              </Alert.Root>
              <Flex gap={2} wrap="wrap">
                <Button variant="outline" onClick={props.onRetry}>
                  {t('tokenForm.retry')}
                </Button>
                <Button variant="ghost" onClick={props.onCancel}>
                  {t('tokenForm.cancel')}
                </Button>
              </Flex>
            </Stack>
          ) : (
            <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label={title}>
              <Stack gap={5}>
                <Field.Root required={!isEdit} invalid={problem?.field === 'name'}>
                  <Field.Label>
                    {t('tokenForm.name')}
                    {!isEdit && <Field.RequiredIndicator />}
                  </Field.Label>
                  <Input {...text('name')} autoComplete="off" placeholder={t('tokenForm.namePlaceholder')} />
                  {problemAt('name')}
                </Field.Root>

                <Fieldset.Root disabled={busy} minW={0}>
                  <Fieldset.Legend>{t('tokenForm.models')}</Fieldset.Legend>
                  <Fieldset.HelperText>{t('tokenForm.modelsHint')}</Fieldset.HelperText>
                  <Stack gap={3} minW={0}>
                    <Flex align="center" gap={2} wrap="wrap">
                      <Text fontSize="sm" aria-live="polite" flex="1">
                        {form.models.length === 0 ? t('tokenForm.modelsAll') : t('tokenForm.modelsCount', { count: form.models.length })}
                      </Text>
                      {form.models.length > 0 && (
                        <Button size="xs" variant="outline" onClick={props.onClearModels} disabled={busy}>
                          {t('tokenForm.modelsClear')}
                        </Button>
                      )}
                    </Flex>
                    {form.models.length > 0 && (
                      <Wrap gap={2} as="ul" listStyleType="none" aria-label={t('tokenForm.modelsSelected')} maxH="40" overflowY="auto">
                        {form.models.map((m) => (
                          <Box as="li" key={m} maxW="full">
                            <Tag.Root size="lg" variant="surface" maxW="full">
                              <Tag.Label>{m}</Tag.Label>
                              <Tag.EndElement>
                                <Tag.CloseTrigger
                                  aria-label={t('tokenForm.removeModel', { model: m })}
                                  disabled={busy}
                                  onClick={() => props.onToggleModel(m)}
                                />
                              </Tag.EndElement>
                            </Tag.Root>
                          </Box>
                        ))}
                      </Wrap>
                    )}
                    {options.length === 0 ? (
                      <Text fontSize="sm" color="fg.muted">
                        {t('tokenForm.modelsNone')}
                      </Text>
                    ) : (
                      <>
                        <Field.Root>
                          <Field.Label>{t('tokenForm.modelsSearch')}</Field.Label>
                          <Input
                            type="search"
                            name="model_filter"
                            value={modelFilter}
                            disabled={busy}
                            autoComplete="off"
                            placeholder={t('tokenForm.modelsSearchPlaceholder')}
                            onChange={(e) => props.onFilterModels(e.currentTarget.value)}
                          />
                        </Field.Root>
                        {shown.length === 0 ? (
                          <Text fontSize="sm" color="fg.muted">
                            {t('tokenForm.modelsNoMatch')}
                          </Text>
                        ) : (
                          <Stack
                            as="ul"
                            role="list"
                            aria-label={t('tokenForm.modelsList')}
                            listStyleType="none"
                            gap={1}
                            maxH="60"
                            overflowY="auto"
                            borderWidth="1px"
                            borderRadius="md"
                            p={2}
                          >
                            {shown.map((m) => (
                              <Box as="li" key={m} minW={0}>
                                <Checkbox.Root checked={form.models.includes(m)} onCheckedChange={() => props.onToggleModel(m)} disabled={busy}>
                                  <Checkbox.HiddenInput />
                                  <Checkbox.Control />
                                  <Checkbox.Label wordBreak="break-all">{m}</Checkbox.Label>
                                </Checkbox.Root>
                              </Box>
                            ))}
                          </Stack>
                        )}
                      </>
                    )}
                  </Stack>
                </Fieldset.Root>

                <Field.Root invalid={problem?.field === 'subnet'}>
                  <Field.Label>{t('tokenForm.subnet')}</Field.Label>
                  <Input {...text('subnet')} autoComplete="off" placeholder={t('tokenForm.subnetPlaceholder')} />
                  {problemAt('subnet') ?? <Field.HelperText>{t('tokenForm.subnetHint')}</Field.HelperText>}
                </Field.Root>

                <Field.Root invalid={problem?.field === 'expiry'}>
                  <Field.Label>{t('tokenForm.expiry')}</Field.Label>
                  <Input {...text('expiry')} type="datetime-local" step={1} />
                  {problemAt('expiry') ?? <Field.HelperText>{t('tokenForm.expiryHint')}</Field.HelperText>}
                </Field.Root>
                <Wrap gap={2} role="group" aria-label={t('tokenForm.expiryQuick')}>
                  {expiryPresets.map((preset) => (
                    <Button key={preset} size="sm" variant="outline" disabled={busy} onClick={() => props.onQuickExpiry(preset)}>
                      {t(`tokenForm.expiry.${preset}`)}
                    </Button>
                  ))}
                </Wrap>

                <Alert.Root status="info">
                  <Alert.Indicator />
                  <Alert.Description>{t('tokenForm.note')}</Alert.Description>
                </Alert.Root>

                <Field.Root invalid={problem?.field === 'remainQuota'} disabled={busy || form.unlimited}>
                  <Field.Label>{t('tokenForm.quota')}</Field.Label>
                  <Input {...text('remainQuota')} disabled={busy || form.unlimited} inputMode="numeric" autoComplete="off" placeholder={t('tokenForm.quotaPlaceholder')} />
                  {problemAt('remainQuota') ??
                    (form.unlimited ? (
                      <Field.HelperText>{t('tokenForm.unlimitedHint')}</Field.HelperText>
                    ) : (
                      equivalent !== null && <Field.HelperText>{render(equivalent)}</Field.HelperText>
                    ))}
                </Field.Root>
                <Switch.Root checked={form.unlimited} disabled={busy} onCheckedChange={props.onToggleUnlimited}>
                  <Switch.HiddenInput name="unlimited_quota" />
                  <Switch.Control />
                  <Switch.Label>{t('tokenForm.unlimited')}</Switch.Label>
                </Switch.Root>

                <Flex gap={2} direction={{ base: 'column', sm: 'row' }}>
                  <Button type="submit" colorPalette="blue" loading={saving} loadingText={t('tokenForm.submit')} disabled={!canSubmit || busy}>
                    {t('tokenForm.submit')}
                  </Button>
                  <Button variant="outline" onClick={props.onCancel} disabled={saving}>
                    {t('tokenForm.cancel')}
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
