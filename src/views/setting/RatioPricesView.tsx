import { useMemo } from 'react';
import { Alert, Field, Heading, Input, Stack, Table, Text } from '@chakra-ui/react';
import { priceRowLimit, priceTableOf, ratioText, shownPrices } from '../../domain/priceOverview';
import { formatPrice, type ModelPrice } from '../../domain/ratioPrices';
import { useT } from '../app/i18n';

export interface RatioPricesViewProps {
  /** The ModelRatio option as edited (JSON text). */
  readonly modelRatio: string;
  /** The CompletionRatio option (JSON text). */
  readonly completionRatio: string;
  /** The GroupRatio option (JSON text). */
  readonly groupRatio: string;
  /** The QuotaPerUnit option (quota per US dollar). */
  readonly quotaPerUnit: string;
  /** The model-name filter. */
  readonly filter: string;
  readonly onFilterChange: (value: string) => void;
}

/** The name of the model-name filter field (and of the address's query key the page keeps it in). */
export const ratioFilterParam = 'price_model';

function InvalidNote({ name }: { readonly name: string }) {
  const t = useT();
  return (
    <Alert.Root status="warning" size="sm">
      <Alert.Indicator />
      <Alert.Title>{t('settingsExtras.ratio.invalid', { name })}</Alert.Title>
    </Alert.Root>
  );
}

/**
 * The model column stays in view while the other columns scroll sideways inside the table's own
 * box (never clipped by the page): sticky at the left edge, on the table's background.
 */
const stickyFirst = {
  position: 'sticky',
  left: 0,
  zIndex: 1,
  bg: 'bg',
  minW: '10rem',
  maxW: '16rem',
  borderEndWidth: '1px',
} as const;

function PriceRow({ row }: { readonly row: ModelPrice }) {
  const t = useT();
  return (
    <Table.Row>
      <Table.Cell fontFamily="mono" wordBreak="break-all" {...stickyFirst}>
        {row.model}
      </Table.Cell>
      <Table.Cell textAlign="end" whiteSpace="nowrap">{ratioText(row.modelRatio)}</Table.Cell>
      <Table.Cell textAlign="end" whiteSpace="nowrap">${formatPrice(row.input)}</Table.Cell>
      <Table.Cell textAlign="end" whiteSpace="nowrap">
        {row.completionRatio === null ? t('settingsExtras.ratio.default') : ratioText(row.completionRatio)}
        {row.completionSource === 'rule' && (
          <Text as="span" color="fg.muted" fontSize="xs">
            {t('settingsExtras.ratio.rule')}
          </Text>
        )}
      </Table.Cell>
      <Table.Cell textAlign="end" whiteSpace="nowrap">{row.output === null ? t('settingsExtras.ratio.default') : `$${formatPrice(row.output)}`}</Table.Cell>
    </Table.Row>
  );
}

/**
 * What the ratio options cost (src/domain/priceOverview): every ModelRatio model's input and
 * output price in $ per 1M tokens, and the group multipliers; a model-name filter narrows the rows.
 */
export function RatioPricesView({ modelRatio, completionRatio, groupRatio, quotaPerUnit, filter, onFilterChange }: RatioPricesViewProps) {
  const t = useT();
  // parsing 566 models is not free: only when the options change, not on every filter keystroke
  const table = useMemo(
    () => priceTableOf({ modelRatio, completionRatio, groupRatio, quotaPerUnit }),
    [modelRatio, completionRatio, groupRatio, quotaPerUnit],
  );
  const shown = shownPrices(table, filter);
  const { rows, groups } = table;
  return (
    <Stack as="section" gap={4} aria-labelledby="ratio-prices-title" minW={0}>
      <Heading as="h3" size="md" id="ratio-prices-title">
        {t('settingsExtras.ratio.title')}
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        {t('settingsExtras.ratio.note', { quotaPerUnit: ratioText(table.quotaPerUnit) })}
      </Text>
      {!table.modelRatioValid && <InvalidNote name="ModelRatio" />}
      {!table.completionRatioValid && <InvalidNote name="CompletionRatio" />}
      {rows !== null && (
        <Stack gap={2} minW={0}>
          <Field.Root maxW="sm">
            <Field.Label>{t('settingsExtras.ratio.filter')}</Field.Label>
            <Input type="search" name={ratioFilterParam} value={filter} onChange={(e) => onFilterChange(e.currentTarget.value)} />
          </Field.Root>
          <Text fontSize="sm" color="fg.muted" aria-live="polite">
            {t('settingsExtras.ratio.count', { shown: shown.matching, total: shown.total })}
            {shown.limited && ` ${t('settingsExtras.ratio.limited', { limit: priceRowLimit })}`}
          </Text>
          <Table.ScrollArea
            borderWidth="1px"
            rounded="md"
            maxH="28rem"
            maxW="full"
            overflow="auto"
            tabIndex={0}
            aria-labelledby="ratio-prices-title"
          >
            <Table.Root size="sm" stickyHeader>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader {...stickyFirst} zIndex={2}>
                    {t('settingsExtras.ratio.col.model')}
                  </Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end" whiteSpace="nowrap">{t('settingsExtras.ratio.col.ratio')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end" whiteSpace="nowrap">{t('settingsExtras.ratio.col.input')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end" whiteSpace="nowrap">{t('settingsExtras.ratio.col.completion')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end" whiteSpace="nowrap">{t('settingsExtras.ratio.col.output')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {shown.rows.map((row) => (
                  <PriceRow key={row.model} row={row} />
                ))}
                {shown.matching === 0 && (
                  <Table.Row>
                    <Table.Cell colSpan={5} textAlign="center" color="fg.muted">
                      {t('settingsExtras.ratio.empty')}
                    </Table.Cell>
                  </Table.Row>
                )}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        </Stack>
      )}
      <Heading as="h4" size="sm">
        {t('settingsExtras.ratio.groups')}
      </Heading>
      {groups === null ? (
        <InvalidNote name="GroupRatio" />
      ) : (
        <Table.ScrollArea borderWidth="1px" rounded="md" maxW="sm">
          <Table.Root size="sm" aria-label={t('settingsExtras.ratio.groups')}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{t('settingsExtras.ratio.col.group')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('settingsExtras.ratio.col.multiplier')}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {groups.map((g) => (
                <Table.Row key={g.group}>
                  <Table.Cell>{g.group}</Table.Cell>
                  <Table.Cell textAlign="end">× {ratioText(g.ratio)}</Table.Cell>
                </Table.Row>
              ))}
              {groups.length === 0 && (
                <Table.Row>
                  <Table.Cell colSpan={2} textAlign="center" color="fg.muted">
                    {t('settingsExtras.ratio.noGroups')}
                  </Table.Cell>
                </Table.Row>
              )}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
    </Stack>
  );
}
