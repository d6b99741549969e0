import { memo, useMemo, type ReactNode } from 'react';
import { NativeSelect } from '../app/laterComponents';
import type { MessageKey } from '../../i18n';
import { useT } from '../app/i18n';
import { CellBadge } from '../table/cellParts';
import type { CellState, Column } from '../table/DataTableView';

interface ColumnLook<Row> {
  /** The header's catalogue key (translated by the hook). */
  readonly header: MessageKey;
  /** The cell (`cell`: the row's busy and inert state, read here rather than from the whole table). */
  readonly render: (row: Row, cell: CellState) => ReactNode;
  /** Narrow numeric columns align right. */
  readonly numeric?: boolean;
  readonly minW?: string;
  /** Its place on a row's card on narrow screens (default: a label/value pair; see `Column`). */
  readonly card?: 'title' | 'actions' | 'hide';
}

/**
 * One column of a list, written once: a sortable column (the default) is keyed by a row field,
 * so a header click can only sort by something the row has; a column that does not sort
 * (`sortable: false`: actions, details) takes any key.
 */
export type ColumnSpec<Row> =
  | (ColumnLook<Row> & { readonly key: Extract<keyof Row, string>; readonly sortable?: true })
  | (ColumnLook<Row> & { readonly key: string; readonly sortable: false });

/** The actions column every list ends with ("操作"): it does not sort. */
export const actionsColumn = <Row,>(render: (row: Row, cell: CellState) => ReactNode): ColumnSpec<Row> => ({
  key: 'actions',
  header: 'table.actions',
  sortable: false,
  render,
});

/**
 * The columns of a list view: headers translated in the current language, sortable unless told
 * otherwise. An entry that is `false` (or null) is left out, so a column shown only to some
 * people reads `admin && { ... }`.
 *
 * The columns keep their identity while `specs` (and the language) do: a list that builds its
 * specs in a `useMemo` (cells reading the row's state from their `cell` argument, not from the
 * table) keeps its rows from being drawn again when the table changes.
 */
export function useColumns<Row>(specs: readonly (ColumnSpec<Row> | false | null | undefined)[]): readonly Column<Row>[] {
  const t = useT();
  return useMemo(
    () =>
      specs
        .filter((spec): spec is ColumnSpec<Row> => Boolean(spec))
        .map(({ header, sortable = true, ...look }) => ({ ...look, header: t(header), sortable })),
    [specs, t],
  );
}

/** A domain entry with a label key and a badge colour (a status, a role, a log type). */
export interface LabelledEntry {
  readonly value: number | string;
  readonly labelKey: MessageKey;
  readonly color: string;
}

/** The options of a select built from labelled domain entries (values as strings). */
export function useLabelledOptions(entries: readonly Pick<LabelledEntry, 'value' | 'labelKey'>[]): readonly SelectOption[] {
  const t = useT();
  return useMemo(() => entries.map((e) => ({ value: String(e.value), label: t(e.labelKey) })), [entries, t]);
}

/** A status / role / type badge of a row. */
export function LabelBadge({ entry }: { readonly entry: Pick<LabelledEntry, 'labelKey' | 'color'> }) {
  const t = useT();
  return (
    <CellBadge palette={entry.color} nowrap>
      {t(entry.labelKey)}
    </CellBadge>
  );
}

export interface SelectOption {
  readonly value: string;
  readonly label: string;
}

export interface ListSelectProps {
  /** The select's accessible name. */
  readonly label: string;
  readonly value: string;
  readonly options: readonly SelectOption[];
  /** A first option with the empty value ("全部" …) when given. */
  readonly allLabel?: string;
  readonly disabled?: boolean;
  readonly onChange: (value: string) => void;
}

/** A filter or order select of a list toolbar (drawn again only when its props change). */
export const ListSelect = memo(function ListSelect({ label, value, options, allLabel, disabled = false, onChange }: ListSelectProps) {
  return (
    <NativeSelect.Root size="md" width="auto" disabled={disabled}>
      <NativeSelect.Field aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {allLabel !== undefined && <option value="">{allLabel}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
});
