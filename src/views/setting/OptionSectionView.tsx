import type { ReactNode } from 'react';
import { Box, Button, Card, Field, Flex, Heading, Input, Stack, Text, Wrap } from '@chakra-ui/react';
import { NativeSelect, Switch, Tag, Textarea } from '../app/laterComponents';
import type { Message } from '../../domain/message';
import { hasSaveButton, isThemeChoice, themeChoices, whitelistEntries, type OptionField, type OptionSection } from '../../domain/optionSections';
import { opensWithLatin } from '../../i18n';
import { useRenderMessage, useT } from '../app/i18n';
import { saveButtonLook } from '../app/theme';

export interface OptionSectionViewProps {
  readonly section: OptionSection;
  /** The values as edited, by option key. */
  readonly values: Readonly<Record<string, string>>;
  /** The rule a field broke at the last save, by option key. */
  readonly problems: Readonly<Record<string, Message>>;
  /** A call runs somewhere on the page: inputs, switches and buttons are disabled. */
  readonly busy: boolean;
  /** This section's save (or one of its switches) runs: its button spins. */
  readonly saving: boolean;
  /** The section has unsaved changes: its save button answers. */
  readonly changed: boolean;
  /** The whitelist entry being typed (the e-mail domain section). */
  readonly whitelistEntry?: string;
  readonly canAddWhitelistEntry?: boolean;
  readonly onChange: (key: string, value: string) => void;
  readonly onToggle: (key: string) => void;
  readonly onSave: () => void;
  readonly onWhitelistInput?: (value: string) => void;
  readonly onWhitelistAdd?: () => void;
  readonly onWhitelistRemove?: (domain: string) => void;
  /** Shown beside the fields on wide screens (the ratio section's prices). */
  readonly aside?: ReactNode;
}

const inputId = (key: string) => `option-${key}`;

/**
 * One option section, drawn from its description (src/domain/optionSections.ts): a switch per
 * boolean (it saves at once), inputs, text areas, the theme choice and the whitelist tag
 * editor for the rest, and one save button that sends the section's changed values.
 */
export function OptionSectionView(props: OptionSectionViewProps) {
  const { section, values, busy, saving, changed, onSave, aside } = props;
  const t = useT();
  const render = useRenderMessage();
  const title = render({ key: section.titleKey });
  const saveLabel = t(opensWithLatin(title) ? 'settings.saveLatin' : 'settings.save', { section: title });
  const headingId = `section-${section.id}`;
  const switches = section.fields.filter((f) => f.kind === 'boolean');
  const inputs = section.fields.filter((f) => f.kind !== 'boolean');

  const fields = (
    <Stack gap={4} minW={0} flex="1">
      {switches.length > 0 && (
        <Stack gap={3} role="group" aria-labelledby={headingId}>
          {switches.map((f) => (
            <Switch.Root
              // Fully controlled by the stored value: a click (or Space) only asks the machine
              // (`option.toggle`) and is cancelled, so the box never flips by itself; it shows a
              // new value once the machine stores one (the key renews the hidden box then, whose
              // own checked flag follows only its first value).
              key={`${f.key}:${values[f.key] ?? ''}`}
              checked={values[f.key] === 'true'}
              disabled={busy}
              alignItems="flex-start"
            >
              <Switch.HiddenInput
                name={f.key}
                onClick={(e) => {
                  e.preventDefault();
                  props.onToggle(f.key);
                }}
              />
              <Switch.Control mt="0.5" />
              <Switch.Label fontWeight="normal">{render({ key: f.labelKey })}</Switch.Label>
            </Switch.Root>
          ))}
        </Stack>
      )}
      {inputs.map((f) => (
        <OptionFieldView key={f.key} field={f} {...props} />
      ))}
    </Stack>
  );

  return (
    <Card.Root as="section" aria-labelledby={headingId} size="sm" variant="outline">
      <Card.Header>
        <Heading as="h2" size="md" id={headingId}>
          {title}
        </Heading>
        {section.hintKey !== undefined && (
          <Text color="fg.muted" textStyle="sm">
            {render({ key: section.hintKey })}
          </Text>
        )}
      </Card.Header>
      <Card.Body>
        {aside === undefined ? (
          fields
        ) : (
          // Side by side only where the aside (the price table) keeps room for all its columns;
          // below that (1366 px laptops included) it sits under the fields at full width.
          <Flex gap={6} direction={{ base: 'column', '2xl': 'row' }} align="stretch">
            {fields}
            <Box minW={0} flex="1">
              {aside}
            </Box>
          </Flex>
        )}
      </Card.Body>
      {hasSaveButton(section) && (
        <Card.Footer>
          <Button
            colorPalette="blue"
            onClick={onSave}
            disabled={busy || !changed}
            loading={saving}
            // Nothing to save: an outline button, readable (not a half-transparent solid one).
            {...(changed || saving
              ? { variant: 'solid' as const }
              : { variant: 'outline' as const, color: saveButtonLook.idle.color, _disabled: { opacity: 1, cursor: 'not-allowed' } })}
            loadingText={saveLabel}
          >
            {saveLabel}
          </Button>
          {changed && !saving && (
            <Text textStyle="sm" color="fg.muted">
              {t('settings.unsaved')}
            </Text>
          )}
        </Card.Footer>
      )}
    </Card.Root>
  );
}

function OptionFieldView({ field, ...props }: OptionSectionViewProps & { readonly field: OptionField }) {
  const { values, problems, busy } = props;
  const t = useT();
  const render = useRenderMessage();
  const value = values[field.key] ?? '';
  const problem = problems[field.key];
  const id = inputId(field.key);
  const placeholder =
    field.placeholderKey !== undefined
      ? render({ key: field.placeholderKey })
      : field.kind === 'secret'
        ? t('settings.secretPlaceholder')
        : undefined;
  const change = (e: { currentTarget: { value: string } }) => props.onChange(field.key, e.currentTarget.value);

  let control: ReactNode;
  switch (field.kind) {
    case 'textarea':
      control = <Textarea id={id} name={field.key} value={value} onChange={change} disabled={busy} rows={5} autoresize maxH="60" />;
      break;
    case 'json':
      control = (
        <Textarea
          id={id}
          name={field.key}
          value={value}
          onChange={change}
          disabled={busy}
          rows={8}
          fontFamily="mono"
          textStyle="xs"
          spellCheck={false}
          autoComplete="off"
        />
      );
      break;
    case 'theme':
      control = (
        <NativeSelect.Root disabled={busy}>
          <NativeSelect.Field id={id} name={field.key} value={value} onChange={change}>
            {!isThemeChoice(value) && <option value={value}>{value}</option>}
            {themeChoices.map((c) => (
              <option key={c} value={c}>
                {render({ key: `settings.theme.${c}` })}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      );
      break;
    case 'whitelist':
      return <WhitelistView field={field} {...props} />;
    default:
      control = (
        <Input
          id={id}
          name={field.key}
          value={value}
          onChange={change}
          disabled={busy}
          placeholder={placeholder}
          autoComplete={field.kind === 'secret' ? 'new-password' : 'off'}
          {...(field.kind === 'secret' ? { type: 'password' } : {})}
          {...(field.kind === 'number' ? { type: 'number', inputMode: 'decimal' as const, min: field.min, max: field.max, step: field.step } : {})}
        />
      );
  }

  return (
    <Field.Root invalid={problem !== undefined} disabled={busy}>
      <Field.Label htmlFor={id}>{render({ key: field.labelKey })}</Field.Label>
      {control}
      {problem !== undefined ? (
        <Field.ErrorText color="red.fg">{render(problem)}</Field.ErrorText>
      ) : (
        field.hintKey !== undefined && <Field.HelperText>{render({ key: field.hintKey })}</Field.HelperText>
      )}
    </Field.Root>
  );
}

/** The e-mail domain whitelist as tags, with an input that adds one (Enter or the button). */
function WhitelistView({ field, ...props }: OptionSectionViewProps & { readonly field: OptionField }) {
  const { values, busy, whitelistEntry = '', canAddWhitelistEntry = false } = props;
  const t = useT();
  const render = useRenderMessage();
  const entries = whitelistEntries(values[field.key] ?? '');
  const listLabel = render({ key: field.labelKey });
  const entryId = inputId(`${field.key}-entry`);
  return (
    <Stack gap={3}>
      <Text fontWeight="medium" textStyle="sm" id={inputId(field.key)}>
        {listLabel}
      </Text>
      {entries.length === 0 ? (
        <Text color="fg.muted" textStyle="sm">
          {t('settings.whitelist.empty')}
        </Text>
      ) : (
        <Wrap gap={2} as="ul" listStyleType="none" aria-labelledby={inputId(field.key)}>
          {entries.map((d) => (
            <Box as="li" key={d}>
              <Tag.Root size="lg" variant="surface">
                <Tag.Label>{d}</Tag.Label>
                <Tag.EndElement>
                  <Tag.CloseTrigger
                    aria-label={t('settings.whitelist.remove', { domain: d })}
                    disabled={busy}
                    onClick={() => props.onWhitelistRemove?.(d)}
                  />
                </Tag.EndElement>
              </Tag.Root>
            </Box>
          ))}
        </Wrap>
      )}
      <Field.Root disabled={busy}>
        <Field.Label htmlFor={entryId}>{t('settings.whitelist.entry')}</Field.Label>
        <Flex gap={2} w="full">
          <Input
            id={entryId}
            value={whitelistEntry}
            placeholder={t('settings.whitelist.placeholder')}
            autoComplete="off"
            onChange={(e) => props.onWhitelistInput?.(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                props.onWhitelistAdd?.();
              }
            }}
          />
          <Button variant="outline" onClick={() => props.onWhitelistAdd?.()} disabled={busy || !canAddWhitelistEntry}>
            {t('settings.whitelist.add')}
          </Button>
        </Flex>
        {field.hintKey !== undefined && <Field.HelperText>{render({ key: field.hintKey })}</Field.HelperText>}
      </Field.Root>
    </Stack>
  );
}
