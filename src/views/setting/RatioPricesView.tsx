import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert, Field, Heading, Input, Stack, Table, Text } from '@chakra-ui/react';
import {
  filterPrices,
  formatPrice,
  groupMultipliers,
  modelPrices,
  parseQuotaPerUnit,
  parseRatioMap,
  type ModelPrice,
} from '../../domain/ratioPrices';
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
}

/** The URL query key holding the model-name filter. */
export const ratioFilterParam = 'price_model';

/** At most this many price rows are rendered (566 default models would make the tab slow); the filter finds the rest. */
export const priceRowLimit = 50;

const numberText = (n: number): string => String(Number(n.toPrecision(6)));

function InvalidNote({ name }: { readonly name: string }) {
  const t = useT();
  return (
    <Alert.Root status="warning" size="sm">
      <Alert.Indicator />
      <Alert.Title>{t('settingsExtras.ratio.invalid', { name })}</Alert.Title>
    </Alert.Root>
  );
}

function PriceRow({ row }: { readonly row: ModelPrice }) {
  const t = useT();
  return (
    <Table.Row>
      <Table.Cell fontFamily="mono" wordBreak="break-all">
        {row.model}
      </Table.Cell>
      <Table.Cell textAlign="end">{numberText(row.modelRatio)}</Table.Cell>
      <Table.Cell textAlign="end">${formatPrice(row.input)}</Table.Cell>
      <Table.Cell textAlign="end">
        {row.completionRatio === null ? t('settingsExtras.ratio.default') : numberText(row.completionRatio)}
        {row.completionSource === 'rule' && (
          <Text as="span" color="fg.muted" fontSize="xs">
            {t('settingsExtras.ratio.rule')}
          </Text>
        )}
      </Table.Cell>
      <Table.Cell textAlign="end">{row.output === null ? t('settingsExtras.ratio.default') : `$${formatPrice(row.output)}`}</Table.Cell>
    </Table.Row>
  );
}

/**
 * What the ratio options cost: every ModelRatio model's input and output price in $ per 1M
 * tokens, and the group multipliers. The model filter lives in the URL (`?price_model=`).
 */
export function RatioPricesView({ modelRatio, completionRatio, groupRatio, quotaPerUnit }: RatioPricesViewProps) {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const filter = params.get(ratioFilterParam) ?? '';
  const models = useMemo(() => parseRatioMap(modelRatio), [modelRatio]);
  const completions = useMemo(() => parseRatioMap(completionRatio), [completionRatio]);
  const groups = useMemo(() => parseRatioMap(groupRatio), [groupRatio]);
  const perUnit = parseQuotaPerUnit(quotaPerUnit);
  const rows = useMemo(
    () => (models === null || completions === null ? null : modelPrices(models, completions, perUnit)),
    [models, completions, perUnit],
  );
  const shown = rows === null ? [] : filterPrices(rows, filter);
  const setFilter = (value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value === '') next.delete(ratioFilterParam);
        else next.set(ratioFilterParam, value);
        return next;
      },
      { replace: true },
    );
  return (
    <Stack as="section" gap={4} aria-labelledby="ratio-prices-title" minW={0}>
      <Heading as="h3" size="md" id="ratio-prices-title">
        {t('settingsExtras.ratio.title')}
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        {t('settingsExtras.ratio.note', { quotaPerUnit: numberText(perUnit) })}
      </Text>
      {models === null && <InvalidNote name="ModelRatio" />}
      {completions === null && <InvalidNote name="CompletionRatio" />}
      {rows !== null && (
        <Stack gap={2} minW={0}>
          <Field.Root maxW="sm">
            <Field.Label>{t('settingsExtras.ratio.filter')}</Field.Label>
            <Input type="search" name={ratioFilterParam} value={filter} onChange={(e) => setFilter(e.currentTarget.value)} />
          </Field.Root>
          <Text fontSize="sm" color="fg.muted" aria-live="polite">
            {t('settingsExtras.ratio.count', { shown: shown.length, total: rows.length })}
            {shown.length > priceRowLimit && ` ${t('settingsExtras.ratio.limited', { limit: priceRowLimit })}`}
          </Text>
          <Table.ScrollArea borderWidth="1px" rounded="md" maxH="28rem" tabIndex={0} aria-labelledby="ratio-prices-title">
            <Table.Root size="sm" stickyHeader>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('settingsExtras.ratio.col.model')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('settingsExtras.ratio.col.ratio')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('settingsExtras.ratio.col.input')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('settingsExtras.ratio.col.completion')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('settingsExtras.ratio.col.output')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {shown.slice(0, priceRowLimit).map((row) => (
                  <PriceRow key={row.model} row={row} />
                ))}
                {shown.length === 0 && (
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
              {groupMultipliers(groups).map((g) => (
                <Table.Row key={g.group}>
                  <Table.Cell>{g.group}</Table.Cell>
                  <Table.Cell textAlign="end">× {numberText(g.ratio)}</Table.Cell>
                </Table.Row>
              ))}
              {Object.keys(groups).length === 0 && (
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
