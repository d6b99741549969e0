import type { FormEvent } from 'react';
import { Badge, Button, Field, Flex, Heading, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { logTypeOf, logTypes } from '../../domain/constants';
import { elapsedTimeColor, formatNumber, formatQuota, formatTimestamp, secondsText, type QuotaDisplay } from '../../domain/format';
import type { Log } from '../../domain/log';
import type { LogFilterForm } from '../../domain/logQuery';
import { useT } from '../app/i18n';
import { DataTableView, type Column } from '../table/DataTableView';
import { PagerView } from '../table/PagerView';
import type { TableState } from '../table/useTable';

/** What the page's controls ask for (the container sends them to the table, stat and export actors). */
export interface LogListHandlers {
  /** The filter form was submitted with these values. */
  readonly onApply: (form: LogFilterForm) => void;
  readonly onReload: () => void;
  readonly onSort: (key: string) => void;
  readonly onPage: (page: number) => void;
  readonly onSize: (size: number) => void;
  readonly onRetry: () => void;
  /** The title's "click to view" total consumed quota. */
  readonly onStat: () => void;
  readonly onExport: () => void;
}

export interface LogListPageViewProps extends LogListHandlers {
  readonly table: TableState<Log>;
  /** Admins (role >= 10) see every user's logs, the channel and user columns and filters. */
  readonly admin: boolean;
  readonly quotaDisplay: QuotaDisplay;
  /** The form's values (the applied filters; the default range when none). */
  readonly form: LogFilterForm;
  /** Changes whenever `form` does: the inputs start again from it. */
  readonly formKey: string;
  /** The consumed quota for the current filters, null until asked (or asked for other filters). */
  readonly statQuota: number | null;
  readonly statLoading: boolean;
  readonly exporting: boolean;
}

type FieldName = keyof LogFilterForm;

/**
 * The log page (/log, spec "Log page"): a title with the total consumed quota (click to view),
 * filters (token name, model name, start and end time, log type; admins also channel ID and
 * username) applied by the search button, refresh, CSV export of the whole filtered result,
 * a sortable table and the pager.
 */
export function LogListPageView({ table, admin, quotaDisplay, form, formKey, statQuota, statLoading, exporting, ...on }: LogListPageViewProps) {
  const t = useT();
  const inert = !table.idle;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: FieldName): string => {
      const v = data.get(name);
      return typeof v === 'string' ? v : '';
    };
    on.onApply({
      token_name: value('token_name'),
      model_name: value('model_name'),
      start: value('start'),
      end: value('end'),
      type: value('type'),
      channel: value('channel'),
      username: value('username'),
    });
  };

  const columns: Column<Log>[] = [
    {
      key: 'created_at',
      header: t('logs.col.time'),
      sortable: true,
      render: (r) => <Text whiteSpace="nowrap">{formatTimestamp(r.created_at)}</Text>,
    },
  ];
  if (admin) {
    columns.push(
      { key: 'channel', header: t('logs.col.channel'), sortable: true, numeric: true, render: (r) => (r.channel ? r.channel : '') },
      { key: 'username', header: t('logs.col.user'), sortable: true, render: (r) => r.username },
    );
  }
  columns.push(
    { key: 'token_name', header: t('logs.col.token'), sortable: true, render: (r) => r.token_name },
    {
      key: 'type',
      header: t('logs.col.type'),
      sortable: true,
      render: (r) => {
        const type = logTypeOf(r.type);
        return (
          <Badge colorPalette={type.color} variant="subtle" whiteSpace="nowrap">
            {t(type.labelKey as never)}
          </Badge>
        );
      },
    },
    { key: 'model_name', header: t('logs.col.model'), sortable: true, render: (r) => <Text wordBreak="break-all">{r.model_name}</Text> },
    { key: 'prompt_tokens', header: t('logs.col.prompt'), sortable: true, numeric: true, render: (r) => formatNumber(r.prompt_tokens) },
    { key: 'completion_tokens', header: t('logs.col.completion'), sortable: true, numeric: true, render: (r) => formatNumber(r.completion_tokens) },
    { key: 'quota', header: t('logs.col.quota'), sortable: true, numeric: true, render: (r) => formatQuota(r.quota, quotaDisplay, 6) },
    {
      key: 'elapsed_time',
      header: t('logs.col.elapsed'),
      sortable: true,
      render: (r) =>
        r.elapsed_time === undefined ? (
          ''
        ) : (
          <Badge colorPalette={elapsedTimeColor(r.elapsed_time)} variant="subtle" whiteSpace="nowrap">
            {t('logs.elapsed', { seconds: secondsText(r.elapsed_time) })}
          </Badge>
        ),
    },
    {
      key: 'is_stream',
      header: t('logs.col.stream'),
      sortable: true,
      render: (r) =>
        r.is_stream === undefined ? '' : (
          <Badge colorPalette={r.is_stream ? 'blue' : 'gray'} variant="outline" whiteSpace="nowrap">
            {t(r.is_stream ? 'logs.stream.yes' : 'logs.stream.no')}
          </Badge>
        ),
    },
    {
      key: 'content',
      header: t('logs.col.detail'),
      minW: '12rem',
      render: (r) => (
        <Text as="span" wordBreak="break-word">
          {r.content}
        </Text>
      ),
    },
  );

  const statText = statLoading
    ? t('logs.stat.loading')
    : statQuota === null
      ? t('logs.stat.prompt')
      : t('logs.stat.reload', { quota: formatQuota(statQuota, quotaDisplay) });

  return (
    <Stack gap={4} px={{ base: 2, md: 4 }} py={4} maxW="full" minW={0}>
      <Flex gap={2} wrap="wrap" align="baseline">
        <Heading as="h1" size="xl">
          {t('logs.title')}
        </Heading>
        <Button variant="ghost" size="sm" onClick={on.onStat} disabled={statLoading} aria-live="polite" data-testid="log-stat">
          {statText}
        </Button>
      </Flex>
      <form key={formKey} onSubmit={submit} aria-label={t('logs.filter.apply')}>
        <Flex gap={3} wrap="wrap" align="end">
          <Field.Root width={{ base: 'full', sm: '12rem' }}>
            <Field.Label>{t('logs.filter.tokenName')}</Field.Label>
            <Input name="token_name" defaultValue={form.token_name} autoComplete="off" />
          </Field.Root>
          <Field.Root width={{ base: 'full', sm: '12rem' }}>
            <Field.Label>{t('logs.filter.modelName')}</Field.Label>
            <Input name="model_name" defaultValue={form.model_name} autoComplete="off" />
          </Field.Root>
          <Field.Root width={{ base: 'full', sm: '14rem' }}>
            <Field.Label>{t('logs.filter.start')}</Field.Label>
            <Input name="start" type="datetime-local" defaultValue={form.start} />
          </Field.Root>
          <Field.Root width={{ base: 'full', sm: '14rem' }}>
            <Field.Label>{t('logs.filter.end')}</Field.Label>
            <Input name="end" type="datetime-local" defaultValue={form.end} />
          </Field.Root>
          <Field.Root width={{ base: 'full', sm: '10rem' }}>
            <Field.Label>{t('logs.filter.type')}</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field name="type" defaultValue={form.type}>
                {logTypes.map((type) => (
                  <option key={type.value} value={String(type.value)}>
                    {t(type.labelKey as never)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          {admin && (
            <>
              <Field.Root width={{ base: 'full', sm: '8rem' }}>
                <Field.Label>{t('logs.filter.channel')}</Field.Label>
                <Input name="channel" inputMode="numeric" defaultValue={form.channel} autoComplete="off" />
              </Field.Root>
              <Field.Root width={{ base: 'full', sm: '12rem' }}>
                <Field.Label>{t('logs.filter.username')}</Field.Label>
                <Input name="username" defaultValue={form.username} autoComplete="off" />
              </Field.Root>
            </>
          )}
          <Flex gap={2} wrap="wrap">
            <Button type="submit" colorPalette="blue" disabled={inert && !table.loadFailed}>
              {t('logs.filter.apply')}
            </Button>
            <Button variant="outline" disabled={inert} onClick={on.onReload}>
              {t('table.refresh')}
            </Button>
            <Button variant="outline" loading={exporting} loadingText={t('logs.exporting')} onClick={on.onExport}>
              {t('logs.export')}
            </Button>
          </Flex>
        </Flex>
      </form>
      <DataTableView
        caption={t('logs.title')}
        columns={columns}
        rows={table.rows}
        sort={table.sort}
        onSort={on.onSort}
        busy={table.busy}
        firstLoad={table.firstLoad}
        loadFailed={table.loadFailed}
        onRetry={on.onRetry}
        emptyText={t('logs.empty')}
        disabled={inert}
      />
      {!table.loadFailed && (
        <PagerView
          page={table.page}
          pageCount={table.pageCount}
          complete={table.complete}
          loadedCount={table.loadedCount}
          shownCount={table.shownCount}
          size={table.size}
          loading={table.loading && !table.firstLoad}
          disabled={inert}
          onPage={on.onPage}
          onSize={on.onSize}
        />
      )}
    </Stack>
  );
}
