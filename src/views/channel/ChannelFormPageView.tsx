import { useEffect, useRef, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import {
  Alert,
  CloseButton,
  HStack,
  Box,
  Button,
  Card,
  Field,
  Fieldset,
  Flex,
  Heading,
  Input,
  Link,
  Spinner,
  Stack,
  Text,
  Wrap,
} from '@chakra-ui/react';
import { Badge, Checkbox, NativeSelect, Tag, Textarea } from '../app/laterComponents';
import type { ChannelForm, ChannelFormField, ChannelFormProblem, ChannelProblemField } from '../../domain/channelForm';
import {
  channelExtraFields,
  channelFormNoteKey,
  channelKeyHintKey,
  channelTypeByValue,
  channelTypeHasModels,
  channelTypeLabel,
  channelTypes,
  isRelayableChannelType,
  relaySupportHintKey,
  relaySupportKey,
  relaySupportOf,
  type ChannelExtraField,
} from '../../domain/channelTypes';
import { msg } from '../../domain/message';
import { useRenderMessage, useT } from '../app/i18n';

export interface ChannelFormPageViewProps {
  readonly form: ChannelForm;
  /** Editing a stored channel (/channel/edit/:id); otherwise creating. */
  readonly isEdit: boolean;
  /** Creating a copy of a stored channel (/channel/clone/:id): the key must be entered again. */
  readonly isClone?: boolean;
  /** The channel and option lists are being loaded. */
  readonly loading: boolean;
  /** The channel could not be loaded. */
  readonly loadFailed: boolean;
  /** A call is running: fields and buttons are disabled. */
  readonly busy: boolean;
  /** The save is running: the submit button spins. */
  readonly saving: boolean;
  readonly canSubmit: boolean;
  /** The batch option is offered (creating, not type 33). */
  readonly canBatch: boolean;
  /** Group names from the server. */
  readonly groupOptions: readonly string[];
  /** Model names of the catalogue. */
  readonly catalogue: readonly string[];
  /** The rule the last submit broke and its field (shown there once, and focused). */
  readonly problem: ChannelFormProblem | null;
  readonly onChange: (field: ChannelFormField, value: string) => void;
  readonly onTypeChange: (type: number) => void;
  readonly onAddModel: (model: string) => void;
  readonly onRemoveModel: (model: string) => void;
  readonly onFillRelated: () => void;
  readonly onFillAll: () => void;
  readonly onClearModels: () => void;
  readonly onAddCustom: () => void;
  readonly onGroupsChange: (groups: readonly string[]) => void;
  /** Turns the typed tags into chips. */
  readonly onAddTags: () => void;
  readonly onRemoveTag: (tag: string) => void;
  readonly onBatchToggle: () => void;
  readonly onSubmit: () => void;
  readonly onCancel: () => void;
  readonly onRetry: () => void;
}

/** Types whose key is assembled from their extra fields (33: ak|sk|region; 42: region|project|credentials). */
const keyFromParts = (type: number): boolean => type === 33 || type === 42;

const modelMappingExample = JSON.stringify(
  { 'gpt-3.5-turbo-0301': 'gpt-3.5-turbo', 'gpt-4-0314': 'gpt-4', 'gpt-4-32k-0314': 'gpt-4-32k' },
  null,
  2,
);

/** Hints under a label: smaller and quieter than the label they explain. */
const hintStyle = { fontSize: 'xs', color: 'fg.muted' } as const;
/** Group legends (分组, 模型) match the field labels. */
const legendStyle = { fontSize: 'sm', fontWeight: 'medium' } as const;

const valueOf = (form: ChannelForm, target: ChannelExtraField['target']): string =>
  target.startsWith('config.') ? form.config[target.slice('config.'.length) as keyof ChannelForm['config']] : form[target as 'base_url' | 'other'];

/** The channel form (/channel/add, /channel/edit/:id): type, name, key, type-specific fields, groups, models. */
export function ChannelFormPageView(props: ChannelFormPageViewProps) {
  const { form, isEdit, loading, loadFailed, busy, saving, canSubmit, canBatch, groupOptions, catalogue, problem } = props;
  const isClone = props.isClone === true;
  const t = useT();
  const say = useRenderMessage();
  const title = t(isClone ? 'channelForm.title.clone' : isEdit ? 'channelForm.title.edit' : 'channelForm.title.create');
  const formRef = useRef<HTMLFormElement>(null);
  /** A refused submit moves the focus to the field it points at (once per refusal). */
  useEffect(() => {
    if (problem === null) return;
    const root = formRef.current;
    const target =
      root?.querySelector<HTMLElement>(`[name="${problem.field}"]`) ??
      root?.querySelector<HTMLElement>(`[data-field="${problem.field}"] :is(input, button, select, textarea):not(:disabled)`);
    target?.focus();
  }, [problem]);
  const invalid = (field: ChannelProblemField): boolean => problem?.field === field;
  const errorOf = (field: ChannelProblemField): ReactNode =>
    problem !== null && problem.field === field ? <Field.ErrorText color="red.fg">{say(problem.message)}</Field.ErrorText> : null;
  const type = channelTypeByValue(form.type);
  const note = channelFormNoteKey(form.type);
  const extras = channelExtraFields(form.type);
  const hasModels = channelTypeHasModels(form.type);
  const relayable = isRelayableChannelType(form.type);
  /** A picker entry: the provider, and how it is relayed unless it simply speaks OpenAI's API. */
  const typeOption = (value: number) => {
    const name = say(channelTypeLabel(value));
    return relaySupportOf(value) === 'openai' ? name : t('channelForm.typeOption', { name, support: say(msg(relaySupportKey(value))) });
  };
  const groups = [...new Set([...groupOptions, ...form.groups])];
  const pickable = catalogue.filter((m) => !form.models.includes(m));

  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    props.onSubmit();
  };
  const text = (field: ChannelFormField, value: string) => ({
    name: field,
    value,
    disabled: busy,
    onChange: (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => props.onChange(field, e.currentTarget.value),
  });
  const tagKeys = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      props.onAddTags();
    } else if (e.key === 'Backspace' && e.currentTarget.value === '' && form.tags.length > 0) {
      props.onRemoveTag(form.tags[form.tags.length - 1]!);
    }
  };
  const addCustomOnEnter = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      props.onAddCustom();
    }
  };
  const toggleGroup = (group: string, checked: boolean) =>
    props.onGroupsChange(checked ? [...form.groups, group] : form.groups.filter((g) => g !== group));

  return (
    <Flex justify="center" px={{ base: 2, sm: 3 }} py={{ base: 4, md: 8 }}>
      <Card.Root w="full" maxW="3xl">
        <Card.Header px={{ base: 4, sm: 6 }}>
          <Heading as="h1" size="xl">
            {title}
          </Heading>
        </Card.Header>
        <Card.Body px={{ base: 4, sm: 6 }}>
          {loading ? (
            <Flex align="center" gap={3} role="status" aria-live="polite">
              <Spinner size="sm" />
              <Text>{t('channelForm.loading')}</Text>
            </Flex>
          ) : loadFailed ? (
            <Stack gap={4}>
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>{t('channelForm.loadFailed')}</Alert.Title>
              </Alert.Root>
              <Wrap gap={3}>
                <Button variant="outline" onClick={props.onRetry}>
                  {t('channelForm.retry')}
                </Button>
                <Button variant="ghost" onClick={props.onCancel}>
                  {t('channelForm.cancel')}
                </Button>
              </Wrap>
            </Stack>
          ) : (
            <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label={title}>
              <Stack gap={5}>
                <Field.Root>
                  <Field.Label>{t('channelForm.type')}</Field.Label>
                  <NativeSelect.Root disabled={busy}>
                    <NativeSelect.Field
                      name="type"
                      value={String(form.type)}
                      onChange={(e) => props.onTypeChange(Number(e.currentTarget.value))}
                    >
                      {channelTypes.map((ct) => (
                        <option key={ct.value} value={ct.value}>
                          {typeOption(ct.value)}
                        </option>
                      ))}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                  {type.descriptionKey !== undefined && <Field.HelperText {...hintStyle}>{say(msg(type.descriptionKey))}</Field.HelperText>}
                  {relayable && <Field.HelperText {...hintStyle}>{say(msg(relaySupportHintKey(form.type)))}</Field.HelperText>}
                </Field.Root>

                {!relayable && (
                  <Alert.Root status="warning" role="status" data-relay-support="none">
                    <Alert.Indicator />
                    <Alert.Content>
                      <Alert.Title>{say(msg(relaySupportKey(form.type)))}</Alert.Title>
                      <Alert.Description>{say(msg(relaySupportHintKey(form.type)))}</Alert.Description>
                    </Alert.Content>
                  </Alert.Root>
                )}

                {type.tipKey !== undefined && (
                  <Alert.Root status="info">
                    <Alert.Indicator />
                    <Alert.Description>
                      {say(msg(type.tipKey))}
                      {type.tipUrl !== undefined && (
                        <>
                          {' '}
                          <Link href={type.tipUrl} target="_blank" rel="noreferrer" textDecoration="underline">
                            {t('channelForm.tipLink')}
                          </Link>
                        </>
                      )}
                    </Alert.Description>
                  </Alert.Root>
                )}

                <Field.Root required={!isEdit} invalid={invalid('name')}>
                  <Field.Label>
                    {t('channelForm.name')}
                    {!isEdit && <Field.RequiredIndicator />}
                  </Field.Label>
                  <Input {...text('name', form.name)} placeholder={t('channelForm.namePlaceholder')} autoComplete="off" />
                  {errorOf('name')}
                </Field.Root>

                {extras.map((f) => (
                  <Field.Root key={`${f.target}-${f.labelKey}`} invalid={invalid(f.target)}>
                    <Field.Label>{say(msg(f.labelKey))}</Field.Label>
                    {f.multiline === true ? (
                      <Textarea {...text(f.target, valueOf(form, f.target))} rows={5} fontFamily="mono" autoresize />
                    ) : (
                      <Input
                        {...text(f.target, valueOf(form, f.target))}
                        {...(f.target === 'base_url' ? { type: 'url', inputMode: 'url' as const } : {})}
                        placeholder={f.placeholderKey === undefined ? undefined : say(msg(f.placeholderKey))}
                        autoComplete="off"
                      />
                    )}
                    {errorOf(f.target)}
                  </Field.Root>
                ))}

                {note !== null && (
                  <Alert.Root status="warning">
                    <Alert.Indicator />
                    <Alert.Description>{say(msg(note))}</Alert.Description>
                  </Alert.Root>
                )}

                {keyFromParts(form.type) ? (
                  <Text {...hintStyle}>
                    {t('channelForm.partsKeyHint')}
                    {isClone && ` ${t('channelForm.keyCloneHint')}`}
                  </Text>
                ) : (
                  <Field.Root required={!isEdit} invalid={invalid('key')}>
                    <Field.Label>
                      {t('channelForm.key')}
                      {!isEdit && <Field.RequiredIndicator />}
                    </Field.Label>
                    {form.batch ? (
                      <Textarea {...text('key', form.key)} rows={6} fontFamily="mono" placeholder={t('channelForm.batchPlaceholder')} />
                    ) : (
                      <Input
                        {...text('key', form.key)}
                        type="password"
                        autoComplete="new-password"
                        placeholder={say(msg(channelKeyHintKey(form.type)))}
                      />
                    )}
                    {errorOf('key')}
                    {form.batch ? (
                      <Field.HelperText {...hintStyle}>{t('channelForm.batchHint')}</Field.HelperText>
                    ) : isEdit ? (
                      <Field.HelperText {...hintStyle}>{t('channelForm.keyEditHint')}</Field.HelperText>
                    ) : isClone ? (
                      <Field.HelperText {...hintStyle}>{t('channelForm.keyCloneHint')}</Field.HelperText>
                    ) : null}
                  </Field.Root>
                )}
                {canBatch && (
                  <Checkbox.Root checked={form.batch} onCheckedChange={props.onBatchToggle} disabled={busy}>
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label>{t('channelForm.batch')}</Checkbox.Label>
                  </Checkbox.Root>
                )}

                <Fieldset.Root disabled={busy}>
                  <Fieldset.Legend {...legendStyle}>{t('channelForm.groups')}</Fieldset.Legend>
                  <Fieldset.HelperText {...hintStyle}>{t('channelForm.groupsHint')}</Fieldset.HelperText>
                  {groups.length === 0 ? (
                    <Text fontSize="sm">{t('channelForm.groupsNone')}</Text>
                  ) : (
                    <Wrap gap={4}>
                      {groups.map((g) => (
                        <Checkbox.Root key={g} checked={form.groups.includes(g)} onCheckedChange={(d) => toggleGroup(g, d.checked === true)}>
                          <Checkbox.HiddenInput />
                          <Checkbox.Control />
                          <Checkbox.Label>{g}</Checkbox.Label>
                        </Checkbox.Root>
                      ))}
                    </Wrap>
                  )}
                </Fieldset.Root>

                <Field.Root invalid={invalid('tagInput')}>
                  <Field.Label>{t('channelForm.tags')}</Field.Label>
                  {form.tags.length > 0 && (
                    <Wrap gap={1} role="list" aria-label={t('channelForm.tags')}>
                      {form.tags.map((tag) => (
                        <Badge key={tag} role="listitem" variant="outline" colorPalette="purple" gap={1} pe={0}>
                          {tag}
                          <CloseButton
                            size="2xs"
                            disabled={busy}
                            aria-label={t('channelForm.tagsRemove', { tag })}
                            onClick={() => props.onRemoveTag(tag)}
                          />
                        </Badge>
                      ))}
                    </Wrap>
                  )}
                  <HStack w="full" maxW="md">
                    <Input
                      {...text('tagInput', form.tagInput)}
                      placeholder={t('channelForm.tagsPlaceholder')}
                      onChange={(e) => {
                        props.onChange('tagInput', e.currentTarget.value);
                        if (e.currentTarget.value.includes(',')) props.onAddTags();
                      }}
                      onKeyDown={tagKeys}
                    />
                    <Button variant="outline" onClick={props.onAddTags} disabled={busy || form.tagInput.trim() === ''}>
                      {t('channelForm.tagsAdd')}
                    </Button>
                  </HStack>
                  {errorOf('tagInput')}
                  <Field.HelperText {...hintStyle}>{t('channelForm.tagsHint')}</Field.HelperText>
                </Field.Root>

                {hasModels ? (
                  <Fieldset.Root disabled={busy} invalid={invalid('models')} data-field="models">
                    <Fieldset.Legend {...legendStyle}>
                      {t('channelForm.models')}
                      <Box as="span" color="fg.error" aria-hidden="true" ms={1}>
                        *
                      </Box>
                    </Fieldset.Legend>
                    <Fieldset.HelperText {...hintStyle}>{t('channelForm.modelsHint')}</Fieldset.HelperText>
                    {problem !== null && problem.field === 'models' && <Fieldset.ErrorText color="red.fg">{say(problem.message)}</Fieldset.ErrorText>}
                    <Stack gap={3}>
                      <Text fontSize="sm" aria-live="polite">
                        {form.models.length === 0 ? t('channelForm.modelsNone') : t('channelForm.modelsCount', { count: form.models.length })}
                      </Text>
                      {form.models.length > 0 && (
                        <Wrap gap={2} as="ul" listStyleType="none" aria-label={t('channelForm.models')} maxH="60" overflowY="auto">
                          {form.models.map((m) => (
                            <Box as="li" key={m}>
                              <Tag.Root size="lg" variant="surface">
                                <Tag.Label>{m}</Tag.Label>
                                <Tag.EndElement>
                                  <Tag.CloseTrigger
                                    aria-label={t('channelForm.removeModel', { model: m })}
                                    disabled={busy}
                                    onClick={() => props.onRemoveModel(m)}
                                  />
                                </Tag.EndElement>
                              </Tag.Root>
                            </Box>
                          ))}
                        </Wrap>
                      )}
                      <Wrap gap={2}>
                        <Button size="sm" variant="outline" onClick={props.onFillRelated} aria-invalid={invalid('models') || undefined}>
                          {t('channelForm.fillRelated')}
                        </Button>
                        <Button size="sm" variant="outline" onClick={props.onFillAll}>
                          {t('channelForm.fillAll')}
                        </Button>
                        <Button size="sm" variant="outline" colorPalette="red" onClick={props.onClearModels}>
                          {t('channelForm.clearModels')}
                        </Button>
                      </Wrap>
                      {pickable.length > 0 && (
                        <Field.Root>
                          <Field.Label>{t('channelForm.pickModel')}</Field.Label>
                          <NativeSelect.Root>
                            <NativeSelect.Field
                              value=""
                              onChange={(e) => {
                                if (e.currentTarget.value !== '') props.onAddModel(e.currentTarget.value);
                              }}
                            >
                              <option value="">{t('channelForm.pickModelPlaceholder')}</option>
                              {pickable.map((m) => (
                                <option key={m} value={m}>
                                  {m}
                                </option>
                              ))}
                            </NativeSelect.Field>
                            <NativeSelect.Indicator />
                          </NativeSelect.Root>
                        </Field.Root>
                      )}
                      <Field.Root>
                        <Field.Label>{t('channelForm.customModel')}</Field.Label>
                        <Flex gap={2} w="full" direction={{ base: 'column', sm: 'row' }}>
                          <Input
                            {...text('customModel', form.customModel)}
                            placeholder={t('channelForm.customModelPlaceholder')}
                            onKeyDown={addCustomOnEnter}
                            autoComplete="off"
                          />
                          <Button variant="outline" onClick={props.onAddCustom} disabled={busy || form.customModel.trim() === ''}>
                            {t('channelForm.addCustom')}
                          </Button>
                        </Flex>
                      </Field.Root>
                    </Stack>
                  </Fieldset.Root>
                ) : (
                  <Text {...hintStyle}>{t('channelForm.modelsNotNeeded')}</Text>
                )}

                <Field.Root invalid={invalid('model_mapping')}>
                  <Field.Label>{t('channelForm.modelMapping')}</Field.Label>
                  <Textarea
                    {...text('model_mapping', form.model_mapping)}
                    rows={4}
                    fontFamily="mono"
                    placeholder={t('channelForm.modelMappingPlaceholder', { example: modelMappingExample })}
                    autoresize
                  />
                  {errorOf('model_mapping')}
                </Field.Root>
                <Field.Root>
                  <Field.Label>{t('channelForm.systemPrompt')}</Field.Label>
                  <Textarea
                    {...text('system_prompt', form.system_prompt)}
                    rows={3}
                    placeholder={t('channelForm.systemPromptPlaceholder')}
                    autoresize
                  />
                </Field.Root>

                <Field.Root invalid={invalid('weight')}>
                  <Field.Label>{t('channelForm.weight')}</Field.Label>
                  <Input {...text('weight', form.weight)} type="number" inputMode="numeric" min={0} step={1} maxW="40" />
                  {errorOf('weight')}
                  <Field.HelperText {...hintStyle}>{t('channelForm.weightHint')}</Field.HelperText>
                </Field.Root>

                <Wrap gap={3}>
                  <Button type="submit" colorPalette="blue" loading={saving} loadingText={t('channelForm.submit')} disabled={!canSubmit}>
                    {t('channelForm.submit')}
                  </Button>
                  <Button variant="outline" onClick={props.onCancel}>
                    {t('channelForm.cancel')}
                  </Button>
                </Wrap>
              </Stack>
            </form>
          )}
        </Card.Body>
      </Card.Root>
    </Flex>
  );
}
