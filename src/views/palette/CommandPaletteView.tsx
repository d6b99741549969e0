import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { Box, Button, CloseButton, HStack, Input, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import { Dialog, Kbd } from '../app/laterComponents';
import { paletteGroups, type PaletteGroup, type PaletteItem } from '../../domain/commandPalette';
import type { Message } from '../../domain/message';
import { useRenderMessage, useT } from '../app/i18n';

export interface CommandPaletteViewProps {
  readonly open: boolean;
  readonly query: string;
  /** Grouped in `paletteGroups` order; `activeIndex` points into it. */
  readonly results: readonly PaletteItem[];
  readonly activeIndex: number;
  /** A search is waiting for a pause in typing or on its way. */
  readonly searching: boolean;
  /** Why the last search failed, or null. */
  readonly error: Message | null;
  /** 'Ctrl K' or '⌘ K'. */
  readonly shortcut: string;
  readonly onQueryChange: (value: string) => void;
  readonly onClose: () => void;
  readonly onMove: (step: 1 | -1) => void;
  readonly onSelect: (index: number) => void;
  readonly onRun: (index: number) => void;
  readonly onRetry: () => void;
}

const groupKey = {
  pages: 'palette.group.pages',
  actions: 'palette.group.actions',
  channels: 'palette.group.channels',
  tokens: 'palette.group.tokens',
  users: 'palette.group.users',
} as const satisfies Record<PaletteGroup, string>;

/**
 * The command palette (pure): a search field (combobox) over a listbox of grouped options; the
 * selected option is the field's active descendant, so focus stays in the field while arrows move.
 */
export function CommandPaletteView(props: CommandPaletteViewProps) {
  const { open, query, results, activeIndex, searching, error, shortcut } = props;
  const t = useT();
  const render = useRenderMessage();
  const base = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = `${base}-list`;
  const optionId = (index: number) => `${base}-option-${index}`;
  const active = results[activeIndex];

  useEffect(() => {
    // keep the selected option in view (DOM only; the selection itself is the machine's)
    if (open) document.getElementById(optionId(activeIndex))?.scrollIntoView?.({ block: 'nearest' });
  });

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      props.onMove(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (active !== undefined) props.onRun(activeIndex);
    }
  };

  const indexed = results.map((item, index) => ({ item, index }));
  const status = error !== null ? t('palette.searchFailed', { message: render(error) }) : searching ? t('palette.searching') : results.length === 0 ? t('palette.empty') : '';

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(e) => {
        if (!e.open) props.onClose();
      }}
      size={{ base: 'full', sm: 'lg' }}
      placement="top"
      scrollBehavior="inside"
      initialFocusEl={() => inputRef.current}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content aria-label={t('palette.title')}>
            <Dialog.Header pb={2}>
              <Dialog.Title srOnly>{t('palette.title')}</Dialog.Title>
              <HStack w="full" pe={8}>
                <Input
                  ref={inputRef}
                  role="combobox"
                  aria-label={t('palette.inputLabel')}
                  aria-expanded={results.length > 0}
                  aria-controls={listId}
                  aria-autocomplete="list"
                  aria-activedescendant={active === undefined ? undefined : optionId(activeIndex)}
                  placeholder={t('palette.placeholder')}
                  autoComplete="off"
                  spellCheck={false}
                  value={query}
                  onChange={(e) => props.onQueryChange(e.target.value)}
                  onKeyDown={onKeyDown}
                />
                {searching ? <Spinner size="sm" aria-hidden="true" /> : null}
              </HStack>
            </Dialog.Header>
            {/* It scrolls on a phone (the shortcuts sit below the list): Tab reaches it, so the keys scroll it. */}
            <Dialog.Body pt={0} tabIndex={0} role="region" aria-label={t('palette.resultsRegion')}>
              <Text role="status" aria-live="polite" fontSize="sm" color={error !== null ? 'fg' : 'fg.muted'} minH="1.25rem">
                {status}
              </Text>
              {error !== null ? (
                <Button size="xs" variant="outline" onClick={props.onRetry} mb={2}>
                  {t('palette.retry')}
                </Button>
              ) : null}
              <Box id={listId} role="listbox" aria-label={t('palette.title')}>
                {paletteGroups.map((group) => {
                  const items = indexed.filter(({ item }) => item.group === group);
                  if (items.length === 0) return null;
                  const headingId = `${base}-group-${group}`;
                  return (
                    <Box key={group} role="group" aria-labelledby={headingId} mb={2}>
                      <Text id={headingId} fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" px={2} py={1}>
                        {t(groupKey[group])}
                      </Text>
                      {items.map(({ item, index }) => (
                        <HStack
                          key={item.id}
                          id={optionId(index)}
                          role="option"
                          aria-selected={index === activeIndex}
                          justify="space-between"
                          px={2}
                          py={2}
                          rounded="md"
                          cursor="pointer"
                          bg={index === activeIndex ? 'bg.emphasized' : undefined}
                          onMouseMove={() => {
                            if (index !== activeIndex) props.onSelect(index);
                          }}
                          onClick={() => props.onRun(index)}
                        >
                          <Text truncate>{render(item.label)}</Text>
                          {item.detail !== undefined ? (
                            <Text fontSize="xs" color="fg.muted" flexShrink={0}>
                              {item.detail}
                            </Text>
                          ) : null}
                        </HStack>
                      ))}
                    </Box>
                  );
                })}
              </Box>
              {query === '' ? <Shortcuts shortcut={shortcut} /> : null}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('palette.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function Shortcuts({ shortcut }: { readonly shortcut: string }) {
  const t = useT();
  const base = useId();
  const rows = [
    { keys: [shortcut], label: t('palette.shortcuts.toggle') },
    { keys: ['↑', '↓'], label: t('palette.shortcuts.move') },
    { keys: ['Enter'], label: t('palette.shortcuts.run') },
    { keys: ['Esc'], label: t('palette.shortcuts.close') },
  ];
  return (
    <Box as="section" aria-labelledby={`${base}-shortcuts`} borderTopWidth="1px" pt={2} mt={2}>
      <Text id={`${base}-shortcuts`} fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" px={2} py={1}>
        {t('palette.shortcuts.title')}
      </Text>
      <Stack as="dl" gap={1} px={2} m={0} fontSize="sm">
        {rows.map((row) => (
          <HStack key={row.label} justify="space-between">
            <Text as="dt">{row.label}</Text>
            <HStack as="dd" gap={1} m={0}>
              {row.keys.map((k) => (
                <Kbd key={k} size="sm">
                  {k}
                </Kbd>
              ))}
            </HStack>
          </HStack>
        ))}
      </Stack>
    </Box>
  );
}
