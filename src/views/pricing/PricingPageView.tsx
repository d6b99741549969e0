import { Alert, Button, Field, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { Badge } from '../app/laterComponents';
import type { QuotaDisplay } from '../../domain/format';
import type { Message } from '../../domain/message';
import { pricePerMillionText, type PricingModel, type PricingSort, type PricingSortKey } from '../../domain/pricing';
import { ratioText } from '../../domain/priceOverview';
import { useRenderMessage, useT } from '../app/i18n';
import { DataTableView, type Column } from '../table/DataTableView';

export interface PricingPageViewProps {
  readonly phase: 'loading' | 'ready' | 'failed';
  /** The caller's group and its multiplier ('' while unknown). */
  readonly group: string;
  readonly groupRatio: number;
  /** The models the search keeps, in the chosen order. */
  readonly models: readonly PricingModel[];
  /** How many models the group lists in all. */
  readonly total: number;
  readonly search: string;
  readonly sort: PricingSort;
  readonly error: Message | null;
  readonly quotaDisplay: QuotaDisplay;
  readonly onSearch: (text: string) => void;
  readonly onSort: (key: PricingSortKey) => void;
  readonly onRetry: () => void;
}

type Row = PricingModel & { readonly id: number };

const sortKeys: readonly string[] = ['model', 'input', 'output'];
const isSortKey = (key: string): key is PricingSortKey => sortKeys.includes(key);

/**
 * The models-and-prices page (/pricing): the caller's group and multiplier, the unit, a model
 * search, and a sortable table (cards on narrow screens) of each model's input and output price
 * per 1M tokens for that group, and whether an enabled channel serves it.
 */
export function PricingPageView(props: PricingPageViewProps) {
  const { phase, group, groupRatio, models, total, search, sort, error, quotaDisplay } = props;
  const t = useT();
  const render = useRenderMessage();
  const rows: readonly Row[] = models.map((m, id) => ({ ...m, id }));
  const columns: readonly Column<Row>[] = [
    { key: 'model', header: t('pricing.column.model'), sortable: true, render: (r) => <Text fontFamily="mono" wordBreak="break-all">{r.model}</Text> },
    { key: 'input', header: t('pricing.column.input'), sortable: true, numeric: true, render: (r) => pricePerMillionText(r.input_per_million, quotaDisplay) },
    { key: 'output', header: t('pricing.column.output'), sortable: true, numeric: true, render: (r) => pricePerMillionText(r.output_per_million, quotaDisplay) },
    {
      key: 'available',
      header: t('pricing.column.available'),
      render: (r) => (
        <Badge colorPalette={r.available ? 'green' : 'gray'} variant="subtle">
          {t(r.available ? 'pricing.available' : 'pricing.unavailable')}
        </Badge>
      ),
    },
  ];
  return (
    <Stack gap={4}>
      <Heading as="h1" size="lg">
        {t('pricing.title')}
      </Heading>
      {phase === 'ready' && (
        <Stack gap={1}>
          <Text>{t('pricing.group', { group, ratio: ratioText(groupRatio) })}</Text>
          <Text color="fg.muted" fontSize="sm">
            {t(quotaDisplay.displayInCurrency ? 'pricing.unit.currency' : 'pricing.unit.quota')}
          </Text>
        </Stack>
      )}
      <Field.Root maxW={{ base: 'full', md: 'sm' }}>
        <Field.Label>{t('pricing.search.label')}</Field.Label>
        <Input type="search" value={search} placeholder={t('pricing.search.placeholder')} onChange={(e) => props.onSearch(e.currentTarget.value)} />
      </Field.Root>
      {phase === 'failed' ? (
        <Stack gap={3}>
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('pricing.loadFailed')}</Alert.Title>
              {error !== null && <Alert.Description>{render(error)}</Alert.Description>}
            </Alert.Content>
          </Alert.Root>
          <Button alignSelf="start" variant="outline" onClick={props.onRetry}>
            {t('pricing.retry')}
          </Button>
        </Stack>
      ) : (
        <>
          {phase === 'ready' && total > 0 && (
            <Text color="fg.muted" fontSize="sm" aria-live="polite">
              {t('pricing.count', { shown: models.length, total })}
            </Text>
          )}
          <DataTableView<Row>
            caption={t('pricing.title')}
            columns={columns}
            rows={rows}
            sort={sort}
            onSort={(key) => {
              if (isSortKey(key)) props.onSort(key);
            }}
            busy={{}}
            firstLoad={phase === 'loading'}
            loadFailed={false}
            onRetry={props.onRetry}
            emptyText={t(total === 0 ? 'pricing.empty' : 'pricing.noMatch')}
            cards
          />
        </>
      )}
    </Stack>
  );
}
