import { Button, Group, HStack, IconButton, Portal, Text } from '@chakra-ui/react';
import { Menu } from '../app/laterComponents';
import { RouterLink } from '../app/RouterLink';
import { chatClients, chatUrl, copyFormats, type ChatLinkInput, type CopyFormat } from '../../domain/chatLinks';
import { tokenStatusEnabled, tokenStatuses, tokenStatusOf } from '../../domain/constants';
import { formatQuota, formatTimestamp, renderExpiry, renderRemainQuota, type QuotaDisplay } from '../../domain/format';
import { tokenOrderOptions } from '../../domain/paging';
import type { Token } from '../../domain/token';
import { useRenderMessage, useT } from '../app/i18n';
import { ChevronDownIcon } from '../app/icons';
import { ListPageLayout, type BulkActionSpec } from '../list/ListPageLayout';
import { actionsColumn, LabelBadge, ListSelect, useColumns, useLabelledOptions } from '../list/useColumns';
import type { TableState } from '../table/useTable';

/** What the list's buttons ask for (the container sends them to the table and copy actors). */
export interface TokenListHandlers {
  readonly onDraft: (text: string) => void;
  readonly onSearch: () => void;
  readonly onClearSearch: () => void;
  readonly onSort: (key: string) => void;
  readonly onOrder: (order: string) => void;
  readonly onPage: (page: number) => void;
  readonly onSize: (size: number) => void;
  readonly onStatusFilter: (value: string) => void;
  readonly onRetry: () => void;
  readonly onReload: () => void;
  readonly onToggleRow: (id: number) => void;
  readonly onTogglePage: () => void;
  readonly onSelectAllMatching: () => void;
  readonly onClearSelection: () => void;
  /** Copy the token in a format (`raw` = `sk-<key>`). */
  readonly onCopy: (row: Token, format: CopyFormat) => void;
  readonly onToggleStatus: (id: number) => void;
  /** Call the relay with the token's key (model list, then one short chat completion). */
  readonly onTest: (id: number) => void;
  readonly onDelete: (id: number) => void;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly onBulk: (action: 'enable' | 'disable' | 'delete') => void;
  readonly onBulkConfirm: () => void;
  readonly onBulkCancel: () => void;
  readonly onBulkStop: () => void;
  readonly onBulkRetry: () => void;
  readonly onBulkDismiss: () => void;
}

export interface TokenListPageViewProps extends TokenListHandlers {
  readonly table: TableState<Token>;
  readonly quotaDisplay: QuotaDisplay;
  /** Where chat clients reach the gateway (status.server_address, else the page origin). */
  readonly serverAddress: string;
  /** The configured ChatLink ('' when unset: the public instances are used). */
  readonly chatLink: string;
  /** A token is being copied. */
  readonly copying: boolean;
}

const bulkActions: readonly BulkActionSpec<'enable' | 'disable' | 'delete'>[] = [
  { action: 'enable', label: 'tokens.bulk.enable', palette: 'green' },
  { action: 'disable', label: 'tokens.bulk.disable', palette: 'orange' },
  { action: 'delete', label: 'tokens.bulk.delete', palette: 'red', danger: true },
];

/** Chat links open in a new tab, without handing this page to the client. */
const newTab = { target: '_blank', rel: 'noopener noreferrer' } as const;

/**
 * The token list (/token, spec §2): name, status, used quota, remaining quota ('unlimited'),
 * created time, expiry ('never expires'), actions; search by name; the server order dropdown
 * (default, remaining quota, used quota); header sorting and a status filter; per row copy
 * (`sk-<key>`, with a dropdown of the five formats of contract §5.5), chat (NextChat, with a
 * dropdown of the four clients, in a new tab), test (the relay with the row's key),
 * enable/disable, edit and delete (confirmed);
 * bulk enable, disable and delete.
 */
export function TokenListPageView({ table, quotaDisplay, serverAddress, chatLink, copying, ...on }: TokenListPageViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const inert = !table.idle;
  const orderOptions = useLabelledOptions(tokenOrderOptions);
  const statusOptions = useLabelledOptions(tokenStatuses);
  const rowLabel = (r: Pick<Token, 'id' | 'name'>): string => t('tokens.rowLabel', { id: r.id, name: r.name });
  const links = (r: Token): ChatLinkInput => ({ key: r.key, serverAddress, chatLink });

  const columns = useColumns<Token>([
    {
      key: 'name',
      header: 'tokens.col.name',
      minW: '8rem',
      card: 'title',
      render: (r) => (
        <Text as="span" wordBreak="break-all">
          {r.name}
        </Text>
      ),
    },
    { key: 'status', header: 'tokens.col.status', render: (r) => <LabelBadge entry={tokenStatusOf(r.status)} /> },
    { key: 'used_quota', header: 'tokens.col.used', numeric: true, render: (r) => formatQuota(r.used_quota, quotaDisplay) },
    {
      key: 'remain_quota',
      header: 'tokens.col.remain',
      numeric: true,
      render: (r) => render(renderRemainQuota(r.remain_quota, r.unlimited_quota, quotaDisplay)),
    },
    { key: 'created_time', header: 'tokens.col.created', render: (r) => <Text whiteSpace="nowrap">{formatTimestamp(r.created_time)}</Text> },
    {
      key: 'expired_time',
      header: 'tokens.col.expires',
      render: (r) => <Text whiteSpace="nowrap">{render(renderExpiry(r.expired_time))}</Text>,
    },
    actionsColumn((r) => {
      const busy = table.busy[r.id] !== undefined || inert;
      const enabling = r.status !== tokenStatusEnabled;
      const row = rowLabel(r);
      return (
        <HStack gap={1} wrap="nowrap">
          <Group attached>
            <Button size="xs" variant="outline" disabled={busy || copying} onClick={() => on.onCopy(r, 'raw')} aria-label={t('tokens.action.copyOf', { row })}>
              {t('tokens.action.copy')}
            </Button>
            <Menu.Root positioning={{ placement: 'bottom-end' }} lazyMount unmountOnExit>
              <Menu.Trigger asChild>
                <IconButton size="xs" variant="outline" disabled={busy || copying} aria-label={t('tokens.action.copyMenuOf', { row })}>
                  <ChevronDownIcon />
                </IconButton>
              </Menu.Trigger>
              <Portal>
                <Menu.Positioner>
                  <Menu.Content>
                    {copyFormats.map((format) => (
                      <Menu.Item key={format} value={format} onClick={() => on.onCopy(r, format)}>
                        {t(`tokens.format.${format}`)}
                      </Menu.Item>
                    ))}
                  </Menu.Content>
                </Menu.Positioner>
              </Portal>
            </Menu.Root>
          </Group>
          <Group attached>
            <Button size="xs" variant="outline" colorPalette="blue" asChild>
              <a href={chatUrl('next', links(r))} {...newTab} aria-label={t('tokens.action.chatOf', { row })}>
                {t('tokens.action.chat')}
              </a>
            </Button>
            <Menu.Root positioning={{ placement: 'bottom-end' }} lazyMount unmountOnExit>
              <Menu.Trigger asChild>
                <IconButton size="xs" variant="outline" colorPalette="blue" aria-label={t('tokens.action.chatMenuOf', { row })}>
                  <ChevronDownIcon />
                </IconButton>
              </Menu.Trigger>
              <Portal>
                <Menu.Positioner>
                  <Menu.Content>
                    {chatClients.map((client) => (
                      <Menu.Item key={client} value={client} asChild>
                        <a href={chatUrl(client, links(r))} {...newTab}>
                          {t(`tokens.chat.${client}`)}
                        </a>
                      </Menu.Item>
                    ))}
                  </Menu.Content>
                </Menu.Positioner>
              </Portal>
            </Menu.Root>
          </Group>
          <Button
            size="xs"
            variant="outline"
            colorPalette="teal"
            disabled={busy}
            loading={table.busy[r.id] === 'test'}
            onClick={() => on.onTest(r.id)}
            aria-label={t('tokens.action.testOf', { row })}
          >
            {t('tokens.action.test')}
          </Button>
          <Button
            size="xs"
            variant="outline"
            colorPalette={enabling ? 'green' : 'orange'}
            disabled={busy}
            onClick={() => on.onToggleStatus(r.id)}
            aria-label={t(enabling ? 'tokens.action.enableOf' : 'tokens.action.disableOf', { row })}
          >
            {t(enabling ? 'tokens.action.enable' : 'tokens.action.disable')}
          </Button>
          {busy ? (
            <Button size="xs" variant="outline" disabled aria-label={t('tokens.action.editOf', { row })}>
              {t('tokens.action.edit')}
            </Button>
          ) : (
            <Button size="xs" variant="outline" asChild>
              <RouterLink to={`/token/edit/${r.id}`} aria-label={t('tokens.action.editOf', { row })}>
                {t('tokens.action.edit')}
              </RouterLink>
            </Button>
          )}
          <Button size="xs" variant="outline" colorPalette="red" disabled={busy} onClick={() => on.onDelete(r.id)} aria-label={t('tokens.action.deleteOf', { row })}>
            {t('tokens.action.delete')}
          </Button>
        </HStack>
      );
    }),
  ]);

  return (
    <ListPageLayout<Token, 'enable' | 'disable' | 'delete'>
      title={t('tokens.title')}
      table={table}
      columns={columns}
      on={on}
      search={{ label: t('tokens.search'), ...on }}
      toolbar={
        <>
          <ListSelect label={t('tokens.order')} value={table.order} options={orderOptions} disabled={inert} onChange={on.onOrder} />
          <ListSelect
            label={t('tokens.filter.status')}
            value={table.filters.status ?? ''}
            options={statusOptions}
            allLabel={t('table.filter.all')}
            disabled={inert}
            onChange={on.onStatusFilter}
          />
        </>
      }
      add={{ to: '/token/add', label: t('tokens.add') }}
      onRefresh={on.onReload}
      selection={{ rowName: rowLabel, ...on }}
      bulk={{ actions: bulkActions, ...on }}
      confirm={{
        body: (id, row) => t('tokens.confirm.delete', { name: row?.name ?? `#${id}` }),
        confirmLabel: t('tokens.action.delete'),
        ...on,
      }}
    />
  );
}
