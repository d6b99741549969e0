import { Badge, Stack } from '@chakra-ui/react';
import type { AnyStateMachine } from 'xstate';
import type { Channel } from '../../src/domain/channel';
import { defaultTableQuery } from '../../src/domain/tableQuery';
import type { User } from '../../src/domain/user';
import type { TableMachine, TableRow } from '../../src/machines/table';
import { useMachineActor } from '../../src/views/app/machineRegistry';
import { DataTableView, type Column } from '../../src/views/table/DataTableView';
import { PagerView } from '../../src/views/table/PagerView';
import { SelectionBarView } from '../../src/views/table/SelectionBarView';
import { TableSearchView } from '../../src/views/table/TableSearchView';
import { useTableState } from '../../src/views/table/useTable';

/**
 * A list page made of the shared table views only (search, table with selection, selection bar,
 * pager) on a table machine: what the benchmark measures when a list's own page is not there.
 */

const channelColumns: readonly Column<Channel>[] = [
  { key: 'id', header: 'ID', sortable: true, numeric: true, render: (c) => c.id },
  { key: 'name', header: '名称', sortable: true, render: (c) => c.name },
  { key: 'group', header: '分组', render: (c) => c.group },
  { key: 'type', header: '类型', sortable: true, render: (c) => c.type },
  {
    key: 'status',
    header: '状态',
    sortable: true,
    render: (c) => <Badge colorPalette={c.status === 1 ? 'green' : 'red'}>{c.status === 1 ? '已启用' : '已禁用'}</Badge>,
  },
  { key: 'response_time', header: '响应时间', sortable: true, numeric: true, render: (c) => `${((c.response_time ?? 0) / 1000).toFixed(2)} 秒` },
  { key: 'balance', header: '余额', sortable: true, numeric: true, render: (c) => `$${(c.balance ?? 0).toFixed(2)}` },
  { key: 'priority', header: '优先级', sortable: true, numeric: true, render: (c) => c.priority ?? 0 },
];

const userColumns: readonly Column<User>[] = [
  { key: 'id', header: 'ID', sortable: true, numeric: true, render: (u) => u.id },
  { key: 'username', header: '用户名', sortable: true, render: (u) => u.username },
  { key: 'group', header: '分组', render: (u) => u.group ?? '' },
  { key: 'quota', header: '剩余额度', sortable: true, numeric: true, render: (u) => u.quota ?? 0 },
  { key: 'used_quota', header: '已用额度', sortable: true, numeric: true, render: (u) => u.used_quota ?? 0 },
  { key: 'role', header: '用户角色', sortable: true, render: (u) => (u.role >= 100 ? '超级管理员' : u.role >= 10 ? '管理员' : '普通用户') },
  { key: 'status', header: '状态', sortable: true, render: (u) => (u.status === 1 ? '已激活' : '已封禁') },
];

function SharedList<Row extends TableRow>({
  machine,
  caption,
  searchLabel,
  columns,
  name,
}: {
  readonly machine: TableMachine<Row>;
  readonly caption: string;
  readonly searchLabel: string;
  readonly columns: readonly Column<Row>[];
  readonly name: (row: Row) => string;
}) {
  const actorRef = useMachineActor(machine as TableMachine<TableRow>, { query: defaultTableQuery });
  const table = useTableState(actorRef);
  const send = actorRef.send.bind(actorRef);
  const inert = !table.idle;
  return (
    <Stack gap={3}>
      <TableSearchView
        draft={table.draft}
        keyword={table.keyword}
        label={searchLabel}
        disabled={inert}
        onDraft={(text) => send({ type: 'search.input', text })}
        onSubmit={() => send({ type: 'search.submit' })}
        onClear={() => send({ type: 'search.clear' })}
      />
      <SelectionBarView
        selectedCount={table.selectedCount}
        shownCount={table.shownCount}
        complete={table.complete}
        disabled={inert}
        onSelectAllMatching={() => send({ type: 'selection.allMatching' })}
        onClear={() => send({ type: 'selection.clear' })}
      >
        {null}
      </SelectionBarView>
      <DataTableView<TableRow>
        caption={caption}
        columns={columns as readonly Column<TableRow>[]}
        rows={table.rows}
        sort={table.sort}
        onSort={(key) => send({ type: 'sort.toggle', key })}
        selection={{
          selected: table.selected,
          pageSelected: table.pageSelected,
          onToggleRow: (id) => send({ type: 'row.select', id }),
          onTogglePage: () => send({ type: 'selection.page' }),
          rowLabel: (row) => `选择 ${name(row as Row)}`,
        }}
        busy={table.busy}
        firstLoad={table.firstLoad}
        loadFailed={table.loadFailed}
        onRetry={() => send({ type: 'load.retry' })}
        emptyText={table.keyword === '' ? '暂无数据' : '没有找到匹配的记录'}
        disabled={inert}
      />
      <PagerView
        page={table.page}
        pageCount={table.pageCount}
        complete={table.complete}
        loadedCount={table.loadedCount}
        shownCount={table.shownCount}
        size={table.size}
        loading={table.loading}
        disabled={inert}
        onPage={(page) => send({ type: 'page.go', page })}
        onSize={(size) => send({ type: 'page.size', size })}
      />
    </Stack>
  );
}

export function SharedTablePage({ list, machine }: { readonly list: 'channel' | 'user'; readonly machine: AnyStateMachine | undefined }) {
  if (machine === undefined) throw new Error(`no table machine for the ${list} list`);
  return list === 'channel' ? (
    <SharedList<Channel>
      machine={machine}
      caption="渠道"
      searchLabel="搜索渠道的 ID，名称和密钥 ..."
      columns={channelColumns}
      name={(c) => c.name}
    />
  ) : (
    <SharedList<User>
      machine={machine}
      caption="用户"
      searchLabel="搜索用户的 ID，用户名，显示名称，以及邮箱地址 ..."
      columns={userColumns}
      name={(u) => u.username}
    />
  );
}
