import { useMemo, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  Field,
  Flex,
  Heading,
  Input,
  SimpleGrid,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { NativeSelect, Table } from '../app/laterComponents';
import { Chart, useChart } from '@chakra-ui/charts';
import { Bar, BarChart, CartesianGrid, Legend, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
import {
  amountDecimals,
  dailySeries,
  dayCountOf,
  dayOf,
  daysLeft,
  daysLeftText,
  daysOf,
  metrics,
  modelsOf,
  modelTotals,
  rangePresets,
  totalsOf,
  valueAxis,
  type AccountQuota,
  type DashboardRange,
  type DashboardRow,
  type Metric,
  type ModelTotals,
  type RangePreset,
  type RangeProblem,
} from '../../domain/dashboard';
import { formatNumber, formatQuota, quotaToCurrency, type QuotaDisplay } from '../../domain/format';
import type { DashboardUserOption, DashboardViewer } from '../../machines/dashboard';
import type { MessageKey } from '../../i18n';
import { useT } from '../app/i18n';
import { WrappableName } from '../app/WrappableName';

export interface DashboardPageViewProps {
  readonly isAdmin: boolean;
  readonly preset: RangePreset;
  readonly range: DashboardRange;
  /** Minutes east of UTC of the days shown. */
  readonly utcOffset: number;
  readonly customStart: string;
  readonly customEnd: string;
  readonly rangeProblem: RangeProblem | null;
  readonly metric: Metric;
  readonly viewer: DashboardViewer;
  readonly rows: readonly DashboardRow[];
  /** The viewed user's quota (null: all users, or not readable). */
  readonly account: AccountQuota | null;
  readonly loading: boolean;
  readonly loadFailed: boolean;
  readonly keyword: string;
  /** null: nothing searched yet. */
  readonly searchResults: readonly DashboardUserOption[] | null;
  readonly searching: boolean;
  readonly quotaDisplay: QuotaDisplay;
  readonly onPreset: (preset: RangePreset) => void;
  readonly onCustomChange: (field: 'start' | 'end', value: string) => void;
  readonly onApplyCustom: () => void;
  readonly onMetric: (metric: Metric) => void;
  readonly onViewer: (viewer: DashboardViewer) => void;
  readonly onKeyword: (keyword: string) => void;
  readonly onSearch: () => void;
  readonly onRetry: () => void;
}

/** Colours of the per-model series (Chakra's semantic tokens follow dark mode); the last is "others". */
const palette = ['teal.solid', 'blue.solid', 'purple.solid', 'orange.solid', 'pink.solid', 'cyan.solid'] as const;
const othersColor = 'gray.solid';
const othersKey = '__others__';

const presetKey: Readonly<Record<RangePreset, MessageKey>> = {
  today: 'dashboard.range.today',
  '7d': 'dashboard.range.7d',
  '30d': 'dashboard.range.30d',
  '90d': 'dashboard.range.90d',
  custom: 'dashboard.range.custom',
};
const metricKey: Readonly<Record<Metric, MessageKey>> = {
  requests: 'dashboard.metric.requests',
  quota: 'dashboard.metric.quota',
  tokens: 'dashboard.metric.tokens',
};
const problemKey: Readonly<Record<RangeProblem, MessageKey>> = {
  invalidDate: 'dashboard.range.invalidDate',
  endBeforeStart: 'dashboard.range.endBeforeStart',
  tooLong: 'dashboard.range.tooLong',
};

const viewerValue = (viewer: DashboardViewer): string => (viewer.kind === 'user' ? `user:${viewer.id}` : viewer.kind);

/**
 * The usage dashboard (/dashboard): range, metric and (admins) whose usage; summary cards
 * (requests, quota and tokens of the range, remaining and used quota, days left at the range's
 * daily average); the per-day chart stacked by model and the per-model donut, each with a text
 * summary for assistive technology and a table to open.
 */
export function DashboardPageView(props: DashboardPageViewProps) {
  const { rows, range, utcOffset, metric, quotaDisplay, account, viewer, loading, loadFailed } = props;
  const t = useT();
  // money keeps two significant digits, so $0.000016 is not shown as $0.00
  const format = (m: Metric, value: number): string =>
    m === 'quota' ? formatQuota(value, quotaDisplay, amountDecimals(quotaToCurrency(value, quotaDisplay.quotaPerUnit))) : formatNumber(value);
  const days = useMemo(() => daysOf(range, utcOffset), [range, utcOffset]);
  const totals = useMemo(() => totalsOf(rows), [rows]);
  const perModel = useMemo(() => {
    const order = modelsOf(rows, metric);
    const byName = new Map(modelTotals(rows).map((m) => [m.model, m]));
    return order.map((m) => byName.get(m)!);
  }, [rows, metric]);
  const left = account === null ? undefined : daysLeftText(daysLeft(account.quota, totals.quota, dayCountOf(range)));

  return (
    <Stack gap={6} px={{ base: 3, md: 6 }} py={{ base: 4, md: 8 }} maxW="6xl" mx="auto" w="full">
      <Flex justify="space-between" align="baseline" wrap="wrap" gap={2}>
        <Heading as="h1" size="xl">
          {t('dashboard.title')}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {t('dashboard.range.shown', { start: dayOf(range.start, utcOffset), end: dayOf(range.end, utcOffset) })}
          {viewer.kind !== 'self' &&
            ` · ${t('dashboard.viewer.showing', {
              name: viewer.kind === 'all' ? t('dashboard.viewer.all') : t('dashboard.viewer.user', { name: viewer.username, id: viewer.id }),
            })}`}
        </Text>
      </Flex>

      <Controls {...props} />

      {loading && (
        <Flex align="center" gap={3} role="status" aria-live="polite">
          <Spinner size="sm" />
          <Text>{t('dashboard.loading')}</Text>
        </Flex>
      )}
      {loadFailed && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title flex="1">{t('dashboard.failed')}</Alert.Title>
          <Button size="sm" variant="outline" onClick={props.onRetry}>
            {t('dashboard.retry')}
          </Button>
        </Alert.Root>
      )}

      <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap={3}>
        <StatCard label={t('dashboard.stat.requests')} value={formatNumber(totals.requests)} hint={t('dashboard.stat.inRange')} />
        <StatCard label={t('dashboard.stat.quota')} value={format('quota', totals.quota)} hint={t('dashboard.stat.inRange')} />
        <StatCard label={t('dashboard.stat.tokens')} value={formatNumber(totals.tokens)} hint={t('dashboard.stat.inRange')} />
        {viewer.kind !== 'all' && (
          <>
            <StatCard
              label={t('dashboard.stat.remaining')}
              value={account === null ? t('dashboard.stat.unavailable') : format('quota', account.quota)}
              hint={account === null ? t('dashboard.stat.unavailableHint') : undefined}
            />
            <StatCard
              label={t('dashboard.stat.used')}
              value={account === null ? t('dashboard.stat.unavailable') : format('quota', account.usedQuota)}
              hint={account === null ? t('dashboard.stat.unavailableHint') : undefined}
            />
            <StatCard
              label={t('dashboard.stat.daysLeft')}
              value={
                left === undefined
                  ? t('dashboard.stat.unavailable')
                  : left.kind === 'forever'
                    ? t('dashboard.stat.daysLeftNone')
                    : left.kind === 'over'
                      ? t('dashboard.stat.daysLeftOver', { days: left.days.toLocaleString('en-US') })
                      : t('dashboard.stat.daysLeftValue', { days: left.days })
              }
              hint={
                left === undefined
                  ? t('dashboard.stat.unavailableHint')
                  : left.kind === 'forever'
                    ? t('dashboard.stat.daysLeftNoneHint')
                    : t('dashboard.stat.daysLeftHint')
              }
            />
          </>
        )}
      </SimpleGrid>

      {rows.length === 0 && !loading && !loadFailed ? (
        <Card.Root variant="outline">
          <Card.Body>
            <Text color="fg.muted">{t('dashboard.empty')}</Text>
          </Card.Body>
        </Card.Root>
      ) : (
        rows.length > 0 && (
          <>
            <DailyChart rows={rows} days={days} metric={metric} format={format} quotaDisplay={quotaDisplay} />
            <ModelChart perModel={perModel} metric={metric} format={format} />
          </>
        )
      )}
    </Stack>
  );
}

function StatCard({ label, value, hint }: { readonly label: string; readonly value: string; readonly hint?: string | undefined }) {
  return (
    <Card.Root variant="outline" size="sm" role="group" aria-label={label}>
      <Card.Body gap={1}>
        <Text fontSize="sm" color="fg.muted">
          {label}
        </Text>
        <Text fontSize="2xl" fontWeight="semibold" lineHeight="short">
          {value}
        </Text>
        {hint !== undefined && (
          <Text fontSize="xs" color="fg.muted">
            {hint}
          </Text>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function Controls({
  isAdmin,
  preset,
  customStart,
  customEnd,
  rangeProblem,
  metric,
  viewer,
  keyword,
  searchResults,
  searching,
  loading,
  onPreset,
  onCustomChange,
  onApplyCustom,
  onMetric,
  onViewer,
  onKeyword,
  onSearch,
}: DashboardPageViewProps) {
  const t = useT();
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onApplyCustom();
  };
  const search = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onSearch();
  };
  const pickViewer = (value: string) => {
    if (value === 'self') onViewer({ kind: 'self' });
    else if (value === 'all') onViewer({ kind: 'all' });
  };
  return (
    <Card.Root variant="outline" size="sm">
      <Card.Body gap={4}>
        <Flex gap={4} wrap="wrap" align="flex-end">
          <Field.Root w={{ base: 'full', sm: '48' }}>
            <Field.Label>{t('dashboard.range.label')}</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field value={preset} onChange={(e) => onPreset(e.currentTarget.value as RangePreset)}>
                {rangePresets.map((p) => (
                  <option key={p} value={p}>
                    {t(presetKey[p])}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          {isAdmin && (
            <Field.Root w={{ base: 'full', sm: '56' }}>
              <Field.Label>{t('dashboard.viewer.label')}</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field value={viewerValue(viewer)} onChange={(e) => pickViewer(e.currentTarget.value)}>
                  <option value="self">{t('dashboard.viewer.self')}</option>
                  <option value="all">{t('dashboard.viewer.all')}</option>
                  {viewer.kind === 'user' && (
                    <option value={viewerValue(viewer)}>{t('dashboard.viewer.user', { name: viewer.username, id: viewer.id })}</option>
                  )}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
          )}
          <Box role="group" aria-label={t('dashboard.metric.label')}>
            <Text fontSize="sm" fontWeight="medium" mb={1.5} aria-hidden="true">
              {t('dashboard.metric.label')}
            </Text>
            <Flex gap={1} wrap="wrap">
              {metrics.map((m) => (
                <Button
                  key={m}
                  size="sm"
                  variant={m === metric ? 'solid' : 'outline'}
                  aria-pressed={m === metric}
                  onClick={() => onMetric(m)}
                >
                  {t(metricKey[m])}
                </Button>
              ))}
            </Flex>
          </Box>
        </Flex>

        {preset === 'custom' && (
          <form onSubmit={apply} noValidate aria-label={t('dashboard.range.custom')}>
            <Flex gap={3} wrap="wrap" align="flex-end">
              <Field.Root w={{ base: 'full', sm: '44' }} invalid={rangeProblem !== null}>
                <Field.Label>{t('dashboard.range.start')}</Field.Label>
                <Input type="date" value={customStart} onChange={(e) => onCustomChange('start', e.currentTarget.value)} />
              </Field.Root>
              <Field.Root w={{ base: 'full', sm: '44' }} invalid={rangeProblem !== null}>
                <Field.Label>{t('dashboard.range.end')}</Field.Label>
                <Input type="date" value={customEnd} onChange={(e) => onCustomChange('end', e.currentTarget.value)} />
              </Field.Root>
              <Button type="submit" disabled={loading}>
                {t('dashboard.range.apply')}
              </Button>
            </Flex>
            {rangeProblem !== null && (
              <Text color="red.fg" fontSize="sm" mt={2} role="alert">
                {t(problemKey[rangeProblem])}
              </Text>
            )}
          </form>
        )}

        {isAdmin && (
          <Stack gap={2}>
            <form onSubmit={search} role="search">
              <Flex gap={2} align="flex-end" wrap="wrap">
                <Field.Root flex="1" minW="0" w={{ base: 'full', sm: 'auto' }}>
                  <Field.Label>{t('dashboard.search.label')}</Field.Label>
                  <Input
                    value={keyword}
                    placeholder={t('dashboard.search.placeholder')}
                    autoComplete="off"
                    onChange={(e) => onKeyword(e.currentTarget.value)}
                  />
                </Field.Root>
                <Button type="submit" variant="outline" disabled={searching}>
                  {t('dashboard.search.submit')}
                </Button>
              </Flex>
            </form>
            {searchResults !== null &&
              (searchResults.length === 0 ? (
                <Text fontSize="sm" color="fg.muted" role="status">
                  {t('dashboard.search.none')}
                </Text>
              ) : (
                <Box as="ul" aria-label={t('dashboard.search.results')} listStyleType="none" display="flex" flexWrap="wrap" gap={2}>
                  {searchResults.map((u) => (
                    <li key={u.id}>
                      <Button
                        size="xs"
                        variant="subtle"
                        aria-pressed={viewer.kind === 'user' && viewer.id === u.id}
                        onClick={() => onViewer({ kind: 'user', id: u.id, username: u.username })}
                      >
                        {t('dashboard.search.pick', { name: t('dashboard.viewer.user', { name: u.username, id: u.id }) })}
                      </Button>
                    </li>
                  ))}
                </Box>
              ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

type Format = (metric: Metric, value: number) => string;

/** At most this many models get their own colour; the rest are summed as "others". */
const shownModels = palette.length;

function DailyChart({
  rows,
  days,
  metric,
  format,
  quotaDisplay,
}: {
  readonly rows: readonly DashboardRow[];
  readonly days: readonly string[];
  readonly metric: Metric;
  readonly format: Format;
  readonly quotaDisplay: QuotaDisplay;
}) {
  const t = useT();
  const series = useMemo(() => dailySeries(rows, days, metric), [rows, days, metric]);
  const models = useMemo(() => modelsOf(rows, metric), [rows, metric]);
  const own = models.slice(0, shownModels);
  const hasOthers = models.length > shownModels;
  // recharts reads dots in a dataKey as a path: the series are keyed m0, m1, ... and labelled with the model
  const data = useMemo(
    () =>
      series.map((p) => {
        const point: Record<string, string | number> = { day: p.day, label: p.day.slice(5) };
        own.forEach((m, i) => (point[`m${i}`] = p.byModel[m] ?? 0));
        if (hasOthers) point[othersKey] = models.slice(shownModels).reduce((a, m) => a + (p.byModel[m] ?? 0), 0);
        return point;
      }),
    [series, own, models, hasOthers],
  );
  const chart = useChart({
    data,
    series: [
      ...own.map((m, i) => ({ name: `m${i}`, label: <WrappableName name={m} />, color: palette[i], stackId: 'day' })),
      ...(hasOthers ? [{ name: othersKey, label: t('dashboard.chart.others'), color: othersColor, stackId: 'day' }] : []),
    ],
  });
  const total = series.reduce((a, p) => a + p.total, 0);
  const money = metric === 'quota' && quotaDisplay.displayInCurrency;
  const axis = valueAxis(
    series.reduce((a, p) => Math.max(a, p.total), 0),
    money ? { unit: quotaDisplay.quotaPerUnit, minDecimals: 2 } : { whole: true },
  );
  const tick = (v: number): string => (money ? formatQuota(v, quotaDisplay, axis.decimals) : formatNumber(v));
  const axisWidth = Math.max(40, ...axis.ticks.map((v) => tick(v).length * 7 + 12));
  // the legend lists the series in the chart's order (recharts sorts it by name unless told)
  const seriesOrder = chart.series.map((s) => String(s.name));
  const peak = series.reduce((best, p) => (p.total > best.total ? p : best), series[0] ?? { day: '', total: 0, byModel: {} });
  const summary = t('dashboard.chart.dailySummary', {
    metric: t(metricKey[metric]),
    days: series.length,
    total: format(metric, total),
    max: format(metric, peak.total),
    day: peak.day,
  });
  return (
    <Card.Root variant="outline">
      <Card.Header>
        <Heading as="h2" size="md">
          {t('dashboard.chart.daily')} · {t(metricKey[metric])}
        </Heading>
      </Card.Header>
      <Card.Body gap={3}>
        <Box role="img" aria-label={summary}>
          <Chart.Root chart={chart} aspectRatio="auto" h={{ base: '64', md: '80' }}>
            <BarChart data={chart.data} responsive accessibilityLayer={false} style={{ width: '100%', height: '100%' }}>
              <CartesianGrid stroke={chart.color('border.muted') as string} vertical={false} />
              <XAxis dataKey={chart.key('label')} axisLine={false} tickLine={false} minTickGap={8} />
              <YAxis
                axisLine={false}
                tickLine={false}
                width={axisWidth}
                domain={[0, axis.top]}
                ticks={[...axis.ticks]}
                interval={0}
                tickFormatter={tick}
              />
              <Tooltip
                cursor={{ fill: chart.color('bg.muted') as string }}
                isAnimationActive={false}
                content={<Chart.Tooltip formatter={(value: number) => format(metric, value)} />}
              />
              <Legend content={<Chart.Legend />} itemSorter={(item) => seriesOrder.indexOf(String(item.dataKey))} />
              {chart.series.map((s) => (
                <Bar key={String(s.name)} dataKey={chart.key(s.name)} fill={chart.color(s.color) as string} stackId={s.stackId} isAnimationActive={false} />
              ))}
            </BarChart>
          </Chart.Root>
        </Box>
        <Text fontSize="sm" color="fg.muted">
          {summary}
        </Text>
        <Box as="details">
          <Box as="summary" cursor="pointer" fontSize="sm" _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing' }}>
            {t('dashboard.table.show')}
          </Box>
          <Table.ScrollArea mt={2}>
            <Table.Root size="sm" aria-label={t('dashboard.table.daily')}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('dashboard.col.day')}</Table.ColumnHeader>
                  {models.map((m) => (
                    <Table.ColumnHeader key={m} textAlign="end">
                      <WrappableName name={m} />
                    </Table.ColumnHeader>
                  ))}
                  <Table.ColumnHeader textAlign="end">{t('dashboard.col.total')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {series.map((p) => (
                  <Table.Row key={p.day}>
                    <Table.Cell>{p.day}</Table.Cell>
                    {models.map((m) => (
                      <Table.Cell key={m} textAlign="end">
                        {format(metric, p.byModel[m] ?? 0)}
                      </Table.Cell>
                    ))}
                    <Table.Cell textAlign="end">{format(metric, p.total)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        </Box>
      </Card.Body>
    </Card.Root>
  );
}

function ModelChart({ perModel, metric, format }: { readonly perModel: readonly ModelTotals[]; readonly metric: Metric; readonly format: Format }) {
  const t = useT();
  const own = perModel.slice(0, shownModels);
  const rest = perModel.slice(shownModels);
  const data = [
    ...own.map((m, i) => ({ name: m.model, value: m[metric], color: palette[i] as string })),
    ...(rest.length > 0 ? [{ name: t('dashboard.chart.others'), value: rest.reduce((a, m) => a + m[metric], 0), color: othersColor }] : []),
  ];
  const chart = useChart({
    data,
    series: data.map((d, i) => ({ name: d.name as never, label: i < own.length ? <WrappableName name={d.name} /> : d.name, color: d.color })),
  });
  // the same order (and colours) as the daily chart's legend: largest first, "others" last
  const sliceOrder = data.map((d) => d.name);
  const top = perModel[0];
  const summary = t('dashboard.chart.modelsSummary', {
    metric: t(metricKey[metric]),
    count: perModel.length,
    model: top?.model ?? '',
    value: format(metric, top?.[metric] ?? 0),
  });
  const pieData = chart.data.map((d) => ({ ...d, fill: chart.color(d.color) as string }));
  return (
    <Card.Root variant="outline">
      <Card.Header>
        <Heading as="h2" size="md">
          {t('dashboard.chart.models')} · {t(metricKey[metric])}
        </Heading>
      </Card.Header>
      <Card.Body gap={3}>
        <Box role="img" aria-label={summary}>
          <Chart.Root chart={chart} aspectRatio="auto" h="72" mx="auto" maxW="md">
            <PieChart responsive accessibilityLayer={false} style={{ width: '100%', height: '100%' }}>
              <Tooltip
                cursor={false}
                isAnimationActive={false}
                content={<Chart.Tooltip hideLabel formatter={(value: number) => format(metric, value)} />}
              />
              <Legend content={<Chart.Legend />} itemSorter={(item) => sliceOrder.indexOf(String(item.value))} />
              <Pie
                data={pieData}
                dataKey={chart.key('value')}
                nameKey="name"
                innerRadius="55%"
                outerRadius="80%"
                isAnimationActive={false}
                stroke={chart.color('bg') as string}
              />
            </PieChart>
          </Chart.Root>
        </Box>
        <Text fontSize="sm" color="fg.muted">
          {summary}
        </Text>
        <Box as="details">
          <Box as="summary" cursor="pointer" fontSize="sm" _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing' }}>
            {t('dashboard.table.show')}
          </Box>
          <Table.ScrollArea mt={2}>
            <Table.Root size="sm" aria-label={t('dashboard.table.models')}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('dashboard.col.model')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('dashboard.stat.requests')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('dashboard.stat.quota')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('dashboard.stat.tokens')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {perModel.map((m) => (
                  <Table.Row key={m.model}>
                    <Table.Cell>
                      <WrappableName name={m.model} />
                    </Table.Cell>
                    <Table.Cell textAlign="end">{format('requests', m.requests)}</Table.Cell>
                    <Table.Cell textAlign="end">{format('quota', m.quota)}</Table.Cell>
                    <Table.Cell textAlign="end">{format('tokens', m.tokens)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        </Box>
      </Card.Body>
    </Card.Root>
  );
}
