import type { FormEvent } from 'react';
import { Button, Field, Flex, Input, Text, VisuallyHidden } from '@chakra-ui/react';
import { Badge, NativeSelect } from '../app/laterComponents';
import { logTypeOf, logTypes } from '../../domain/constants';
import { elapsedTimeColor, formatNumber, formatQuota, formatTimestamp, secondsText, type QuotaDisplay } from '../../domain/format';
import { logQuotaDecimals, logRowFields, type Log } from '../../domain/log';
import type { LogFilterForm } from '../../domain/logQuery';
import { useT } from '../app/i18n';
import { WrappableName } from '../app/WrappableName';
import { ListPageFrame } from '../list/ListPageFrame';
import { LabelBadge, useColumns, useLabelledOptions } from '../list/useColumns';
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

  const typeOptions = useLabelledOptions(logTypes);
  // a figure that does not apply to the row's type (a top-up has no tokens, a note no duration)
  const notApplicable = (
    <>
      <Text as="span" color="fg.subtle" aria-hidden="true">
        —
      </Text>
      <VisuallyHidden>{t('logs.notApplicable')}</VisuallyHidden>
    </>
  );
  const quotaText = (quota: number): string => formatQuota(quota, quotaDisplay, logQuotaDecimals);
  const columns = useColumns<Log>([
    { key: 'created_at', header: 'logs.col.time', render: (r) => <Text whiteSpace="nowrap">{formatTimestamp(r.created_at)}</Text> },
    admin && { key: 'channel', header: 'logs.col.channel', numeric: true, render: (r) => (r.channel ? r.channel : '') },
    admin && { key: 'username', header: 'logs.col.user', render: (r) => r.username },
    { key: 'token_name', header: 'logs.col.token', render: (r) => r.token_name },
    { key: 'type', header: 'logs.col.type', render: (r) => <LabelBadge entry={logTypeOf(r.type)} /> },
    { key: 'model_name', header: 'logs.col.model', render: (r) => <WrappableName name={r.model_name} /> },
    { key: 'prompt_tokens', header: 'logs.col.prompt', numeric: true, render: (r) => (logRowFields(r).tokens ? formatNumber(r.prompt_tokens) : notApplicable) },
    { key: 'completion_tokens', header: 'logs.col.completion', numeric: true, render: (r) => (logRowFields(r).tokens ? formatNumber(r.completion_tokens) : notApplicable) },
    { key: 'quota', header: 'logs.col.quota', numeric: true, render: (r) => (logRowFields(r).quota ? quotaText(r.quota) : notApplicable) },
    {
      key: 'elapsed_time',
      header: 'logs.col.elapsed',
      render: (r) =>
        r.elapsed_time === undefined || !logRowFields(r).elapsed ? (
          notApplicable
        ) : (
          <Badge colorPalette={elapsedTimeColor(r.elapsed_time)} variant="subtle" whiteSpace="nowrap">
            {t('logs.elapsed', { seconds: secondsText(r.elapsed_time) })}
          </Badge>
        ),
    },
    {
      key: 'is_stream',
      header: 'logs.col.stream',
      render: (r) =>
        r.is_stream === undefined || !logRowFields(r).stream ? notApplicable : (
          <Badge colorPalette={r.is_stream ? 'blue' : 'gray'} variant="outline" whiteSpace="nowrap">
            {t(r.is_stream ? 'logs.stream.yes' : 'logs.stream.no')}
          </Badge>
        ),
    },
    {
      key: 'content',
      header: 'logs.col.detail',
      sortable: false,
      minW: '12rem',
      render: (r) => (
        <Text as="span" wordBreak="break-word">
          {r.content}
        </Text>
      ),
    },
  ]);

  const statText = statLoading
    ? t('logs.stat.loading')
    : statQuota === null
      ? t('logs.stat.prompt')
      : t('logs.stat.reload', { quota: quotaText(statQuota) });

  return (
    <ListPageFrame<Log>
      title={t('logs.title')}
      titleAside={
        <Button variant="ghost" size="sm" onClick={on.onStat} disabled={statLoading} aria-live="polite" data-testid="log-stat">
          {statText}
        </Button>
      }
      table={table}
      columns={columns}
      on={on}
      filters={
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
                    {typeOptions.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
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
      }
      emptyText={t('logs.empty')}
    />
  );
}
