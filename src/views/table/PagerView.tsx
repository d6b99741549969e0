import { memo } from 'react';
import { Button, Flex, HStack, Spinner, Text } from '@chakra-ui/react';
import { NativeSelect } from '../app/laterComponents';
import { paginationSiblingRange } from '../../domain/constants';
import { pageSizeOptions } from '../../domain/tableQuery';
import { useT } from '../app/i18n';

export interface PagerViewProps {
  /** 0-based. */
  readonly page: number;
  /** Pages offered (the last may be "load more"). */
  readonly pageCount: number;
  /** Every row is loaded: the last page is not a "load more" page. */
  readonly complete: boolean;
  readonly loadedCount: number;
  readonly shownCount: number;
  readonly size: number;
  readonly loading: boolean;
  readonly disabled?: boolean;
  readonly onPage: (page: number) => void;
  readonly onSize: (size: number) => void;
}

type Item = { readonly kind: 'page'; readonly page: number } | { readonly kind: 'gap'; readonly key: string };

/** First, last, and the current page with `paginationSiblingRange` neighbours; gaps between. */
export function pagerItems(page: number, count: number, siblings: number = paginationSiblingRange): readonly Item[] {
  const wanted = new Set<number>([0, count - 1]);
  for (let p = page - siblings; p <= page + siblings; p++) if (p >= 0 && p < count) wanted.add(p);
  const pages = [...wanted].filter((p) => p >= 0).sort((a, b) => a - b);
  const items: Item[] = [];
  pages.forEach((p, i) => {
    const prev = pages[i - 1];
    if (prev !== undefined && p - prev > 1) items.push({ kind: 'gap', key: `gap-${prev}` });
    items.push({ kind: 'page', page: p });
  });
  return items;
}

/**
 * The pager under every list: previous / numbered pages (sibling range 1) / next, the rows
 * loaded and shown, a spinner while a page loads, and the page size.
 */
export const PagerView = memo(function PagerView({
  page,
  pageCount,
  complete,
  loadedCount,
  shownCount,
  size,
  loading,
  disabled = false,
  onPage,
  onSize,
}: PagerViewProps) {
  const t = useT();
  const lastIsMore = !complete && pageCount > 0;
  const inert = disabled || loading;
  return (
    <Flex direction={{ base: 'column', md: 'row' }} gap={3} justify="space-between" align={{ base: 'stretch', md: 'center' }}>
      <HStack gap={2} color="fg.muted" fontSize="sm" aria-live="polite">
        {loading && <Spinner size="xs" />}
        <Text>
          {loading
            ? t('table.loadingMore')
            : t(complete ? 'table.pager.summary' : 'table.pager.summaryMore', { loaded: loadedCount, shown: shownCount })}
        </Text>
      </HStack>
      <Flex as="nav" aria-label={t('table.pager.label')} gap={1} wrap="wrap" align="center">
        <Button size="sm" variant="outline" disabled={inert || page <= 0} onClick={() => onPage(page - 1)} aria-label={t('table.pager.previous')}>
          ‹
        </Button>
        {pagerItems(page, pageCount).map((item) =>
          item.kind === 'gap' ? (
            <Text key={item.key} px={1} aria-hidden>
              …
            </Text>
          ) : (
            <Button
              key={item.page}
              size="sm"
              variant={item.page === page ? 'solid' : 'outline'}
              disabled={inert}
              aria-current={item.page === page ? 'page' : undefined}
              aria-label={
                lastIsMore && item.page === pageCount - 1
                  ? `${item.page + 1}+ ${t('table.pager.more')}`
                  : t('table.pager.page', { page: item.page + 1 })
              }
              onClick={() => onPage(item.page)}
            >
              {item.page + 1}
              {lastIsMore && item.page === pageCount - 1 ? '+' : ''}
            </Button>
          ),
        )}
        <Button
          size="sm"
          variant="outline"
          disabled={inert || page >= pageCount - 1}
          onClick={() => onPage(page + 1)}
          aria-label={t('table.pager.next')}
        >
          ›
        </Button>
        <NativeSelect.Root size="sm" width="auto" disabled={inert}>
          <NativeSelect.Field
            aria-label={t('table.pager.size')}
            value={String(size)}
            onChange={(e) => onSize(Number(e.currentTarget.value))}
          >
            {pageSizeOptions.map((n) => (
              <option key={n} value={n}>
                {t('table.pager.sizeOption', { size: n })}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>
    </Flex>
  );
});
