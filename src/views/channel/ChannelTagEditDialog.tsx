import type { FormEvent } from 'react';
import { Button, CloseButton, Field, Fieldset, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { Checkbox, Dialog, NativeSelect } from '../app/laterComponents';
import { channelTagEditFields, type ChannelTagCount, type ChannelTagEditField } from '../../domain/channel';
import type { Message } from '../../domain/message';
import type { ChannelTagsEvent, TagEditDraft } from '../../machines/channelTags';
import { useRenderMessage, useT } from '../app/i18n';
import { useOpenedOnce } from '../table/useOpenedOnce';

/** Where the edit-by-tag dialog is. */
export type TagEditStep = 'closed' | 'editing' | 'confirming' | 'saving';

export interface ChannelTagEditDialogProps {
  readonly step: TagEditStep;
  readonly draft: TagEditDraft;
  readonly problem: Message | null;
  /** Every tag in use with its channel count. */
  readonly tags: readonly ChannelTagCount[];
  /** How many channels carry the chosen tag. */
  readonly count: number;
  readonly onTags: (event: ChannelTagsEvent) => void;
}

/**
 * "按标签批量编辑 / Edit by tag": choose a tag and the fields to change (priority, weight, models,
 * group, enable/disable), then confirm with the number of channels that will change. Drawn from
 * its first opening on (`useOpenedOnce`).
 */
export function ChannelTagEditDialog(props: ChannelTagEditDialogProps) {
  return useOpenedOnce(props.step !== 'closed') ? <TagEditDialog {...props} /> : null;
}

function TagEditDialog({ step, draft, problem, tags, count, onTags }: ChannelTagEditDialogProps) {
  const t = useT();
  const render = useRenderMessage();
  const cancel = () => onTags({ type: 'tagEdit.cancel' });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onTags({ type: step === 'editing' ? 'tagEdit.submit' : 'tagEdit.confirm' });
  };
  const chosen = (field: ChannelTagEditField) => draft.fields.includes(field);
  const valueInput = (field: 'priority' | 'weight' | 'models' | 'group') => (
    <Field.Root key={`${field}-value`} ps={6}>
      <Field.Label srOnly>{t(`channels.tagEdit.field.${field}`)}</Field.Label>
      <Input
        size="sm"
        aria-label={t(`channels.tagEdit.field.${field}`)}
        type={field === 'priority' || field === 'weight' ? 'number' : 'text'}
        value={draft[field]}
        onChange={(e) => onTags({ type: 'tagEdit.value', field, value: e.currentTarget.value })}
      />
      {(field === 'models' || field === 'group') && <Field.HelperText>{t('channels.tagEdit.listHint')}</Field.HelperText>}
    </Field.Root>
  );
  const statusInput = (
    <NativeSelect.Root key="status-value" size="sm" ps={6}>
      <NativeSelect.Field
        aria-label={t('channels.tagEdit.field.status')}
        value={draft.status}
        onChange={(e) => onTags({ type: 'tagEdit.value', field: 'status', value: e.currentTarget.value })}
      >
        <option value="1">{t('channels.tagEdit.status.enable')}</option>
        <option value="2">{t('channels.tagEdit.status.disable')}</option>
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
  return (
    <Dialog.Root open={step !== 'closed'} onOpenChange={(d) => !d.open && step !== 'saving' && cancel()} placement="center" size={{ base: 'xs', sm: 'md' }}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {step !== 'closed' && (
              <form onSubmit={submit} noValidate>
                <Dialog.Header>
                  <Dialog.Title>{step === 'editing' ? t('channels.tagEdit.title') : t('channels.tagEdit.confirmTitle')}</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  {step === 'editing' ? (
                    <Stack gap={4}>
                      <Field.Root invalid={problem !== null && 'key' in problem && problem.key === 'channels.tagEdit.needTag'}>
                        <Field.Label>{t('channels.tagEdit.tag')}</Field.Label>
                        {tags.length === 0 ? (
                          <Text color="fg.muted">{t('channels.tagEdit.noTags')}</Text>
                        ) : (
                          <NativeSelect.Root>
                            <NativeSelect.Field value={draft.tag} onChange={(e) => onTags({ type: 'tagEdit.tag', tag: e.currentTarget.value })}>
                              {tags.map((tag) => (
                                <option key={tag.tag} value={tag.tag}>
                                  {t('channels.tagEdit.tagOption', { tag: tag.tag, count: tag.count })}
                                </option>
                              ))}
                            </NativeSelect.Field>
                            <NativeSelect.Indicator />
                          </NativeSelect.Root>
                        )}
                      </Field.Root>
                      <Fieldset.Root>
                        <Fieldset.Legend>{t('channels.tagEdit.fields')}</Fieldset.Legend>
                        <Stack gap={2}>
                          {channelTagEditFields.map((field) => [
                            <Checkbox.Root
                              key={field}
                              checked={chosen(field)}
                              onCheckedChange={(d) => onTags({ type: 'tagEdit.field', field, on: d.checked === true })}
                            >
                              <Checkbox.HiddenInput />
                              <Checkbox.Control />
                              <Checkbox.Label>{t(`channels.tagEdit.field.${field}`)}</Checkbox.Label>
                            </Checkbox.Root>,
                            chosen(field) ? (field === 'status' ? statusInput : valueInput(field)) : null,
                          ])}
                        </Stack>
                      </Fieldset.Root>
                      {problem && (
                        <Text role="alert" color="red.fg" fontSize="sm">
                          {render(problem)}
                        </Text>
                      )}
                    </Stack>
                  ) : (
                    <Text>{t('channels.tagEdit.confirmBody', { tag: draft.tag.trim(), count })}</Text>
                  )}
                </Dialog.Body>
                <Dialog.Footer>
                  {step === 'editing' ? (
                    <>
                      <Button variant="outline" onClick={cancel}>
                        {t('channels.tagEdit.cancel')}
                      </Button>
                      <Button type="submit" colorPalette="blue">
                        {t('channels.tagEdit.next')}
                      </Button>
                    </>
                  ) : (
                    <>
                      <Button variant="outline" disabled={step === 'saving'} onClick={() => onTags({ type: 'tagEdit.back' })}>
                        {t('channels.tagEdit.back')}
                      </Button>
                      <Button type="submit" colorPalette="blue" loading={step === 'saving'} loadingText={t('channels.tagEdit.apply')}>
                        {t('channels.tagEdit.apply')}
                      </Button>
                    </>
                  )}
                </Dialog.Footer>
              </form>
            )}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('channels.tagEdit.cancel')} disabled={step === 'saving'} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
