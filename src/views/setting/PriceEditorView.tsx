import { Alert, Box, Button, Card, Field, Flex, Heading, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { Table, Textarea } from '../app/laterComponents';
import type { ReactNode } from 'react';
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

/** One editable column: its header, the cell it edits, its input's label for a row, and the row's value. */
interface EditColumn<R> {
  readonly cell: PriceCell;
  readonly header: string;
  readonly numeric?: boolean;
  readonly label: (name: string) => string;
  readonly value: (row: R) => string;
  readonly onChange: (id: string, value: string) => void;
}

/**
 * A table of editable rows (the models, the group multipliers): one input per column, a remove
 * button per row labelled with the row's name (or its number until it has one), a line saying it is empty. A `wide` table keeps its
 * header and first column in view while it scrolls inside its own box.
 */
function EditTable<R extends { readonly id: string; readonly name: string }>(props: {
  readonly titleId: string;
  readonly wide: boolean;
  readonly rows: readonly R[];
  readonly columns: readonly EditColumn<R>[];
  /** The name of a row not named yet, from its number. */
  readonly unnamed: (n: string) => string;
  readonly removeLabel: (name: string) => string;
  readonly onRemove: (id: string) => void;
  /** What the table says when it has no rows. */
  readonly empty: string;
  readonly problems: Readonly<Record<string, Message>>;
  readonly disabled: boolean;
}) {
  const t = useT();
  const { wide, columns, disabled } = props;
  const nowrap = wide ? 'nowrap' : undefined;
  return (
    <Table.ScrollArea
      borderWidth="1px"
      rounded="md"
      {...(wide ? { maxH: '32rem', maxW: 'full' } : { maxW: 'lg' })}
      overflow="auto"
      {...(wide ? { tabIndex: 0, 'aria-labelledby': props.titleId } : {})}
    >
      <Table.Root size="sm" stickyHeader={wide ? true : undefined} aria-labelledby={props.titleId}>
        <Table.Header>
          <Table.Row>
            {columns.map((column, i) => (
              <Table.ColumnHeader
                key={column.cell}
                {...(wide && i === 0 ? { ...stickyFirst, zIndex: 2 } : {})}
                textAlign={column.numeric === true ? 'end' : undefined}
                whiteSpace={i === 0 ? undefined : nowrap}
              >
                {column.header}
              </Table.ColumnHeader>
            ))}
            <Table.ColumnHeader whiteSpace={nowrap}>{t('priceEditor.col.actions')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {props.rows.map((row) => {
            const name = row.name.trim() === '' ? props.unnamed(ordinal(row.id)) : row.name.trim();
            return (
              <Table.Row key={row.id}>
                {columns.map((column, i) => (
                  <Table.Cell key={column.cell} {...(wide && i === 0 ? stickyFirst : {})} verticalAlign="top">
                    <CellInput
                      id={row.id}
                      cell={column.cell}
                      label={column.label(name)}
                      value={column.value(row)}
                      problem={props.problems[cellKey(row.id, column.cell)]}
                      disabled={disabled}
                      numeric={column.numeric}
                      onChange={(v) => column.onChange(row.id, v)}
                    />
                  </Table.Cell>
                ))}
                <Table.Cell verticalAlign="top">
                  <Button size="sm" variant="ghost" colorPalette="red" onClick={() => props.onRemove(row.id)} disabled={disabled} aria-label={props.removeLabel(name)}>
                    {t('priceEditor.remove')}
                  </Button>
                </Table.Cell>
              </Table.Row>
            );
          })}
          {props.rows.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={columns.length + 1} textAlign="center" color="fg.muted">
                {props.empty}
              </Table.Cell>
            </Table.Row>
          )}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

function ModelTable(props: PriceEditorViewProps) {
  const t = useT();
  const { models, saving } = props;
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
      <EditTable<ModelRow>
        titleId="price-models-title"
        wide
        rows={models.slice(0, props.rowLimit)}
        columns={[
          { cell: 'name', header: t('priceEditor.col.model'), label: (model) => t('priceEditor.nameOf', { model }), value: (row) => row.name, onChange: props.onRenameModel },
          {
            cell: 'input',
            header: t('priceEditor.col.input'),
            numeric: true,
            label: (model) => t('priceEditor.inputOf', { model }),
            value: (row) => row.input,
            onChange: (id, v) => props.onPrice(id, 'input', v),
          },
          {
            cell: 'output',
            header: t('priceEditor.col.output'),
            numeric: true,
            label: (model) => t('priceEditor.outputOf', { model }),
            value: (row) => row.output,
            onChange: (id, v) => props.onPrice(id, 'output', v),
          },
        ]}
        unnamed={(n) => t('priceEditor.unnamedModel', { n })}
        removeLabel={(model) => t('priceEditor.removeModel', { model })}
        onRemove={props.onRemoveModel}
        empty={t('priceEditor.empty')}
        problems={props.cellProblems}
        disabled={saving}
      />
    </Stack>
  );
}

function GroupTable(props: PriceEditorViewProps) {
  const t = useT();
  const { saving } = props;
  return (
    <Stack gap={2} minW={0}>
      <EditTable<GroupRow>
        titleId="price-groups-title"
        wide={false}
        rows={props.groups}
        columns={[
          { cell: 'name', header: t('priceEditor.col.group'), label: (group) => t('priceEditor.groupNameOf', { group }), value: (row) => row.name, onChange: props.onRenameGroup },
          {
            cell: 'multiplier',
            header: t('priceEditor.col.multiplier'),
            numeric: true,
            label: (group) => t('priceEditor.multiplierOf', { group }),
            value: (row) => row.multiplier,
            onChange: props.onMultiplier,
          },
        ]}
        unnamed={(n) => t('priceEditor.unnamedGroup', { n })}
        removeLabel={(group) => t('priceEditor.removeGroup', { group })}
        onRemove={props.onRemoveGroup}
        empty={t('priceEditor.noGroups')}
        problems={props.cellProblems}
        disabled={saving}
      />
      <Box>
        <Button variant="outline" onClick={props.onAddGroup} disabled={saving}>
          {t('priceEditor.addGroup')}
        </Button>
      </Box>
    </Stack>
  );
}

/** One table of the editor: its heading, the table/JSON toggle, and the table or its options' JSON. */
function PriceSection(props: {
  readonly titleId: string;
  readonly title: string;
  readonly mode: PriceEditMode;
  readonly onToggle: () => void;
  readonly disabled: boolean;
  readonly table: ReactNode;
  readonly json: ReactNode;
}) {
  return (
    <Stack gap={3} minW={0}>
      <Flex gap={3} align="center" justify="space-between" wrap="wrap">
        <Heading as="h3" size="sm" id={props.titleId}>
          {props.title}
        </Heading>
        <ModeButton mode={props.mode} onClick={props.onToggle} disabled={props.disabled} />
      </Flex>
      {props.mode === 'table' ? props.table : props.json}
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
        <PriceSection
          titleId="price-models-title"
          title={t('priceEditor.models')}
          mode={modes.models}
          onToggle={() => props.onToggleMode('models')}
          disabled={saving}
          table={<ModelTable {...props} />}
          json={
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
          }
        />
        <PriceSection
          titleId="price-groups-title"
          title={t('priceEditor.groups')}
          mode={modes.groups}
          onToggle={() => props.onToggleMode('groups')}
          disabled={saving}
          table={<GroupTable {...props} />}
          json={<JsonField optionKey="GroupRatio" value={props.json.GroupRatio} problem={props.jsonProblems.GroupRatio} disabled={saving} onChange={(v) => props.onJson('GroupRatio', v)} />}
        />
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
