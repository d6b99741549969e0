import { Alert, Box, Button, Card, Field, Flex, Heading, Input, Spinner, Stack, Table, Text, Textarea } from '@chakra-ui/react';
import type { Message } from '../../domain/message';
import { cellKey, type GroupRow, type ModelRow, type PriceCell, type PriceScale } from '../../domain/priceEditor';
import type { RatioKey } from '../../domain/validation';
import { useRenderMessage, useT } from '../app/i18n';
import { saveButtonLook } from '../app/theme';

export type PriceTableId = 'models' | 'groups';
export type PriceEditMode = 'table' | 'json';

export interface PriceEditorViewProps {
  readonly loading: boolean;
  readonly loadFailed: boolean;
  readonly saving: boolean;
  /** The last save stored everything. */
  readonly saved: boolean;
  /** Why the last save failed, or null. */
  readonly saveError: Message | null;
  readonly scale: PriceScale;
  readonly modes: Readonly<Record<PriceTableId, PriceEditMode>>;
  readonly search: string;
  /** The model rows the search keeps (the view draws the first `rowLimit`). */
  readonly models: readonly ModelRow[];
  /** All model rows. */
  readonly totalModels: number;
  readonly rowLimit: number;
  readonly groups: readonly GroupRow[];
  readonly json: Readonly<Record<RatioKey, string>>;
  /** Problems by cell (`<rowId>:<cell>`). */
  readonly cellProblems: Readonly<Record<string, Message>>;
  /** Problems of the JSON texts by option key. */
  readonly jsonProblems: Readonly<Partial<Record<RatioKey, Message>>>;
  readonly problemCount: number;
  readonly hasChanges: boolean;
  readonly onRetry: () => void;
  readonly onSearch: (value: string) => void;
  readonly onAddModel: () => void;
  readonly onRemoveModel: (id: string) => void;
  readonly onRenameModel: (id: string, value: string) => void;
  readonly onPrice: (id: string, field: 'input' | 'output', value: string) => void;
  readonly onAddGroup: () => void;
  readonly onRemoveGroup: (id: string) => void;
  readonly onRenameGroup: (id: string, value: string) => void;
  readonly onMultiplier: (id: string, value: string) => void;
  readonly onToggleMode: (table: PriceTableId) => void;
  readonly onJson: (key: RatioKey, value: string) => void;
  readonly onSave: () => void;
}

/** The model column stays in view while the price columns scroll sideways inside the table's own box. */
const stickyFirst = {
  position: 'sticky',
  left: 0,
  zIndex: 1,
  bg: 'bg',
  minW: '11rem',
  borderEndWidth: '1px',
} as const;

/** The number of an added row's id (`n3` → 3), for its label until it has a name. */
const ordinal = (id: string): string => id.replace(/^\D+/, '');

/** One editable cell: an input labelled for its row and column, marked and explained when invalid. */
function CellInput(props: {
  readonly id: string;
  readonly cell: PriceCell;
  readonly label: string;
  readonly value: string;
  readonly problem: Message | undefined;
  readonly disabled: boolean;
  readonly numeric?: boolean;
  readonly onChange: (value: string) => void;
}) {
  const render = useRenderMessage();
  const errorId = `price-error-${props.id}-${props.cell}`;
  return (
    <Stack gap={1} minW={props.numeric === true ? '7rem' : '10rem'}>
      <Input
        size="sm"
        aria-label={props.label}
        value={props.value}
        disabled={props.disabled}
        autoComplete="off"
        spellCheck={false}
        inputMode={props.numeric === true ? 'decimal' : undefined}
        textAlign={props.numeric === true ? 'end' : undefined}
        fontFamily={props.numeric === true ? undefined : 'mono'}
        aria-invalid={props.problem !== undefined ? true : undefined}
        aria-describedby={props.problem !== undefined ? errorId : undefined}
        borderColor={props.problem !== undefined ? 'border.error' : undefined}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
      {props.problem !== undefined && (
        <Text id={errorId} textStyle="xs" color="red.fg" whiteSpace="normal">
          {render(props.problem)}
        </Text>
      )}
    </Stack>
  );
}

function JsonField(props: {
  readonly optionKey: RatioKey;
  readonly value: string;
  readonly problem: Message | undefined;
  readonly disabled: boolean;
  readonly onChange: (value: string) => void;
}) {
  const t = useT();
  const render = useRenderMessage();
  const id = `option-${props.optionKey}`;
  return (
    <Field.Root invalid={props.problem !== undefined} disabled={props.disabled}>
      <Field.Label htmlFor={id}>{t(`settings.option.${props.optionKey}`)}</Field.Label>
      <Textarea
        id={id}
        name={props.optionKey}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
        rows={10}
        fontFamily="mono"
        textStyle="xs"
        spellCheck={false}
        autoComplete="off"
      />
      {props.problem !== undefined ? (
        <Field.ErrorText color="red.fg">{render(props.problem)}</Field.ErrorText>
      ) : (
        <Field.HelperText>{t(`settings.hint.${props.optionKey}`)}</Field.HelperText>
      )}
    </Field.Root>
  );
}

function ModeButton({ mode, onClick, disabled }: { readonly mode: PriceEditMode; readonly onClick: () => void; readonly disabled: boolean }) {
  const t = useT();
  return (
    <Button size="xs" variant="outline" onClick={onClick} disabled={disabled} aria-pressed={mode === 'json'}>
      {t(mode === 'json' ? 'priceEditor.mode.table' : 'priceEditor.mode.json')}
    </Button>
  );
}

function ModelTable(props: PriceEditorViewProps) {
  const t = useT();
  const { models, cellProblems, saving } = props;
  const shown = models.slice(0, props.rowLimit);
  const nameOf = (row: ModelRow) => (row.name.trim() === '' ? t('priceEditor.unnamedModel', { n: ordinal(row.id) }) : row.name.trim());
  return (
    <Stack gap={2} minW={0}>
      <Flex gap={2} wrap="wrap" align="end">
        <Field.Root maxW="sm" flex="1" minW="12rem">
          <Field.Label>{t('priceEditor.search')}</Field.Label>
          <Input type="search" name="price_model" value={props.search} onChange={(e) => props.onSearch(e.currentTarget.value)} />
        </Field.Root>
        <Button variant="outline" onClick={props.onAddModel} disabled={saving}>
          {t('priceEditor.addModel')}
        </Button>
      </Flex>
      <Text fontSize="sm" color="fg.muted" aria-live="polite">
        {t('priceEditor.count', { shown: models.length, total: props.totalModels })}
        {models.length > props.rowLimit && ` ${t('priceEditor.limited', { limit: props.rowLimit })}`}
      </Text>
      <Table.ScrollArea borderWidth="1px" rounded="md" maxH="32rem" maxW="full" overflow="auto" tabIndex={0} aria-labelledby="price-models-title">
        <Table.Root size="sm" stickyHeader aria-labelledby="price-models-title">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader {...stickyFirst} zIndex={2}>
                {t('priceEditor.col.model')}
              </Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end" whiteSpace="nowrap">{t('priceEditor.col.input')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end" whiteSpace="nowrap">{t('priceEditor.col.output')}</Table.ColumnHeader>
              <Table.ColumnHeader whiteSpace="nowrap">{t('priceEditor.col.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {shown.map((row) => {
              const name = nameOf(row);
              return (
                <Table.Row key={row.id}>
                  <Table.Cell {...stickyFirst} verticalAlign="top">
                    <CellInput
                      id={row.id}
                      cell="name"
                      label={t('priceEditor.nameOf', { model: name })}
                      value={row.name}
                      problem={cellProblems[cellKey(row.id, 'name')]}
                      disabled={saving}
                      onChange={(v) => props.onRenameModel(row.id, v)}
                    />
                  </Table.Cell>
                  <Table.Cell verticalAlign="top">
                    <CellInput
                      id={row.id}
                      cell="input"
                      label={t('priceEditor.inputOf', { model: name })}
                      value={row.input}
                      problem={cellProblems[cellKey(row.id, 'input')]}
                      disabled={saving}
                      numeric
                      onChange={(v) => props.onPrice(row.id, 'input', v)}
                    />
                  </Table.Cell>
                  <Table.Cell verticalAlign="top">
                    <CellInput
                      id={row.id}
                      cell="output"
                      label={t('priceEditor.outputOf', { model: name })}
                      value={row.output}
                      problem={cellProblems[cellKey(row.id, 'output')]}
                      disabled={saving}
                      numeric
                      onChange={(v) => props.onPrice(row.id, 'output', v)}
                    />
                  </Table.Cell>
                  <Table.Cell verticalAlign="top">
                    <Button size="sm" variant="ghost" colorPalette="red" onClick={() => props.onRemoveModel(row.id)} disabled={saving} aria-label={t('priceEditor.removeModel', { model: name })}>
                      {t('priceEditor.remove')}
                    </Button>
                  </Table.Cell>
                </Table.Row>
              );
            })}
            {models.length === 0 && (
              <Table.Row>
                <Table.Cell colSpan={4} textAlign="center" color="fg.muted">
                  {t('priceEditor.empty')}
                </Table.Cell>
              </Table.Row>
            )}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </Stack>
  );
}

function GroupTable(props: PriceEditorViewProps) {
  const t = useT();
  const { groups, cellProblems, saving } = props;
  return (
    <Stack gap={2} minW={0}>
      <Table.ScrollArea borderWidth="1px" rounded="md" maxW="lg" overflow="auto">
        <Table.Root size="sm" aria-labelledby="price-groups-title">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('priceEditor.col.group')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t('priceEditor.col.multiplier')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('priceEditor.col.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {groups.map((row) => {
              const name = row.name.trim() === '' ? t('priceEditor.unnamedGroup', { n: ordinal(row.id) }) : row.name.trim();
              return (
                <Table.Row key={row.id}>
                  <Table.Cell verticalAlign="top">
                    <CellInput
                      id={row.id}
                      cell="name"
                      label={t('priceEditor.groupNameOf', { group: name })}
                      value={row.name}
                      problem={cellProblems[cellKey(row.id, 'name')]}
                      disabled={saving}
                      onChange={(v) => props.onRenameGroup(row.id, v)}
                    />
                  </Table.Cell>
                  <Table.Cell verticalAlign="top">
                    <CellInput
                      id={row.id}
                      cell="multiplier"
                      label={t('priceEditor.multiplierOf', { group: name })}
                      value={row.multiplier}
                      problem={cellProblems[cellKey(row.id, 'multiplier')]}
                      disabled={saving}
                      numeric
                      onChange={(v) => props.onMultiplier(row.id, v)}
                    />
                  </Table.Cell>
                  <Table.Cell verticalAlign="top">
                    <Button size="sm" variant="ghost" colorPalette="red" onClick={() => props.onRemoveGroup(row.id)} disabled={saving} aria-label={t('priceEditor.removeGroup', { group: name })}>
                      {t('priceEditor.remove')}
                    </Button>
                  </Table.Cell>
                </Table.Row>
              );
            })}
            {groups.length === 0 && (
              <Table.Row>
                <Table.Cell colSpan={3} textAlign="center" color="fg.muted">
                  {t('priceEditor.noGroups')}
                </Table.Cell>
              </Table.Row>
            )}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <Box>
        <Button variant="outline" onClick={props.onAddGroup} disabled={saving}>
          {t('priceEditor.addGroup')}
        </Button>
      </Box>
    </Stack>
  );
}

/**
 * The ratio section of the operation settings as a price editor (priceEditor machine): the
 * models with input and output prices per 1M tokens, the group multipliers, each table also
 * editable as its options' JSON; invalid cells are marked where they are; one save button.
 */
export function PriceEditorView(props: PriceEditorViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const { loading, loadFailed, saving, modes, scale } = props;
  const title = t('settings.section.ratio');
  const saveLabel = t('settings.save', { section: title });
  const canSave = props.hasChanges && props.problemCount === 0;

  let body;
  if (loading) {
    body = (
      <Flex align="center" gap={3} role="status" aria-live="polite" py={2}>
        <Spinner size="sm" />
        <Text>{t('priceEditor.loading')}</Text>
      </Flex>
    );
  } else if (loadFailed) {
    body = (
      <Stack gap={3}>
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{t('priceEditor.loadFailed')}</Alert.Title>
        </Alert.Root>
        <Box>
          <Button variant="outline" onClick={props.onRetry}>
            {t('priceEditor.retry')}
          </Button>
        </Box>
      </Stack>
    );
  } else {
    body = (
      <Stack gap={6} minW={0}>
        <Text textStyle="sm" color="fg.muted">
          {scale.unit === 'usd' ? t('priceEditor.note.usd', { quotaPerUnit: scale.quotaPerUnit }) : t('priceEditor.note.quota')}
        </Text>
        <Stack gap={3} minW={0}>
          <Flex gap={3} align="center" justify="space-between" wrap="wrap">
            <Heading as="h3" size="sm" id="price-models-title">
              {t('priceEditor.models')}
            </Heading>
            <ModeButton mode={modes.models} onClick={() => props.onToggleMode('models')} disabled={saving} />
          </Flex>
          {modes.models === 'table' ? (
            <ModelTable {...props} />
          ) : (
            <Stack gap={4}>
              <JsonField optionKey="ModelRatio" value={props.json.ModelRatio} problem={props.jsonProblems.ModelRatio} disabled={saving} onChange={(v) => props.onJson('ModelRatio', v)} />
              <JsonField
                optionKey="CompletionRatio"
                value={props.json.CompletionRatio}
                problem={props.jsonProblems.CompletionRatio}
                disabled={saving}
                onChange={(v) => props.onJson('CompletionRatio', v)}
              />
            </Stack>
          )}
        </Stack>
        <Stack gap={3} minW={0}>
          <Flex gap={3} align="center" justify="space-between" wrap="wrap">
            <Heading as="h3" size="sm" id="price-groups-title">
              {t('priceEditor.groups')}
            </Heading>
            <ModeButton mode={modes.groups} onClick={() => props.onToggleMode('groups')} disabled={saving} />
          </Flex>
          {modes.groups === 'table' ? (
            <GroupTable {...props} />
          ) : (
            <JsonField optionKey="GroupRatio" value={props.json.GroupRatio} problem={props.jsonProblems.GroupRatio} disabled={saving} onChange={(v) => props.onJson('GroupRatio', v)} />
          )}
        </Stack>
        {props.saveError !== null && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Title>{t('priceEditor.saveFailed', { message: render(props.saveError) })}</Alert.Title>
          </Alert.Root>
        )}
      </Stack>
    );
  }

  return (
    <Card.Root as="section" aria-labelledby="section-ratio" size="sm" variant="outline" minW={0}>
      <Card.Header>
        <Heading as="h2" size="md" id="section-ratio">
          {title}
        </Heading>
      </Card.Header>
      <Card.Body minW={0}>{body}</Card.Body>
      {!loading && !loadFailed && (
        <Card.Footer flexWrap="wrap">
          <Button
            colorPalette="blue"
            onClick={props.onSave}
            disabled={saving || !props.hasChanges}
            loading={saving}
            {...(canSave || saving
              ? { variant: 'solid' as const }
              : { variant: 'outline' as const, color: saveButtonLook.idle.color, _disabled: { opacity: 1, cursor: 'not-allowed' } })}
            loadingText={saveLabel}
          >
            {saveLabel}
          </Button>
          <Text textStyle="sm" color={props.problemCount > 0 ? 'red.fg' : 'fg.muted'} aria-live="polite">
            {props.problemCount > 0
              ? t('priceEditor.problemCount', { count: props.problemCount })
              : props.saved
                ? t('priceEditor.saved')
                : props.hasChanges && !saving
                  ? t('priceEditor.unsaved')
                  : ''}
          </Text>
        </Card.Footer>
      )}
    </Card.Root>
  );
}
