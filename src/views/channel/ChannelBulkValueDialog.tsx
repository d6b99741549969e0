import type { FormEvent } from 'react';
import { Button, CloseButton, Field, HStack, Input, Portal, Spinner, Text } from '@chakra-ui/react';
import { Dialog, NativeSelect } from '../app/laterComponents';
import { channelBulkFieldKey, channelBulkLabelKey } from '../../domain/channel';
import type { BulkValuePrompt } from '../../machines/channelList';
import { useRenderMessage, useT } from '../app/i18n';
import { useOpenedOnce } from '../table/useOpenedOnce';

export interface ChannelBulkValueDialogProps {
  /** The open prompt, or null (closed). */
  readonly prompt: BulkValuePrompt | null;
  /** "Set group" is loading the group names. */
  readonly loadingGroups: boolean;
  /** The group names to pick from (empty: the group is typed). */
  readonly groups: readonly string[];
  readonly onInput: (value: string) => void;
  readonly onSubmit: () => void;
  readonly onCancel: () => void;
}

/**
 * The value a bulk action needs (priority, model, group), asked before the table's confirmation.
 * Drawn from its first opening on (`useOpenedOnce`).
 */
export function ChannelBulkValueDialog(props: ChannelBulkValueDialogProps) {
  return useOpenedOnce(props.prompt !== null) ? <BulkValueDialog {...props} /> : null;
}

function BulkValueDialog({ prompt, loadingGroups, groups, onInput, onSubmit, onCancel }: ChannelBulkValueDialogProps) {
  const t = useT();
  const render = useRenderMessage();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <Dialog.Root open={prompt !== null} onOpenChange={(d) => !d.open && onCancel()} placement="center" size={{ base: 'xs', sm: 'sm' }}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {prompt && (
              <form onSubmit={submit} noValidate>
                <Dialog.Header>
                  <Dialog.Title>{t(channelBulkLabelKey(prompt.action))}</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  {loadingGroups ? (
                    <HStack role="status" gap={2}>
                      <Spinner size="sm" />
                      <Text>{t('channels.bulk.value.loadingGroups')}</Text>
                    </HStack>
                  ) : (
                    <Field.Root invalid={prompt.problem !== null}>
                      <Field.Label>{t(channelBulkFieldKey(prompt.action))}</Field.Label>
                      {prompt.action === 'setGroup' && groups.length > 0 ? (
                        <NativeSelect.Root>
                          <NativeSelect.Field value={prompt.value} onChange={(e) => onInput(e.currentTarget.value)}>
                            <option value="">{t('channels.bulk.value.pickGroup')}</option>
                            {groups.map((g) => (
                              <option key={g} value={g}>
                                {g}
                              </option>
                            ))}
                          </NativeSelect.Field>
                          <NativeSelect.Indicator />
                        </NativeSelect.Root>
                      ) : (
                        <Input
                          type={prompt.action === 'priority' ? 'number' : 'text'}
                          value={prompt.value}
                          autoFocus
                          onChange={(e) => onInput(e.currentTarget.value)}
                        />
                      )}
                      {prompt.problem && <Field.ErrorText color="red.fg">{render(prompt.problem)}</Field.ErrorText>}
                    </Field.Root>
                  )}
                </Dialog.Body>
                <Dialog.Footer>
                  <Button variant="outline" onClick={onCancel}>
                    {t('table.confirm.cancel')}
                  </Button>
                  <Button type="submit" colorPalette="blue" disabled={loadingGroups}>
                    {t('channels.bulk.value.next')}
                  </Button>
                </Dialog.Footer>
              </form>
            )}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('table.confirm.cancel')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
