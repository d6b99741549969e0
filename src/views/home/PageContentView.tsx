import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Box, Button, Flex, Spinner, Text, chakra, type BoxProps, type SystemStyleObject } from '@chakra-ui/react';
import type { Message } from '../../domain/message';
import type { MessageKey } from '../../i18n';
import type { ContentKind } from '../../machines/pageContent';
import { useRenderMessage, useT } from '../app/i18n';
import { renderSafeMarkdown, sanitizeHtml, tableScrollClass } from '../app/markdown';

/** Readable defaults for admin-written HTML (the Chakra preflight resets headings and lists). */
export const richTextStyles: SystemStyleObject = {
  lineHeight: '1.7',
  wordBreak: 'break-word',
  '& > * + *': { marginTop: '0.75em' },
  '& h1': { fontSize: '2xl', fontWeight: 'bold', lineHeight: '1.3' },
  '& h2': { fontSize: 'xl', fontWeight: 'bold', lineHeight: '1.3' },
  '& h3': { fontSize: 'lg', fontWeight: 'semibold' },
  '& h4, & h5, & h6': { fontWeight: 'semibold' },
  '& ul': { paddingInlineStart: '1.5em', listStyleType: 'disc' },
  '& ol': { paddingInlineStart: '1.5em', listStyleType: 'decimal' },
  '& a': { color: 'blue.fg', textDecoration: 'underline' },
  '& blockquote': { borderInlineStartWidth: '4px', borderColor: 'border', paddingInlineStart: '1em', color: 'fg.muted' },
  '& code': { fontFamily: 'mono', fontSize: '0.9em', bg: 'bg.muted', paddingInline: '0.25em', borderRadius: 'sm' },
  '& pre': { fontFamily: 'mono', bg: 'bg.muted', padding: '0.75em', borderRadius: 'md', overflowX: 'auto' },
  '& pre code': { bg: 'transparent', padding: 0 },
  // Tables scroll sideways in their own box (src/views/app/markdown) on narrow screens instead of widening the page.
  [`& .${tableScrollClass}`]: { maxWidth: '100%', overflowX: 'auto', borderRadius: 'sm', _focusVisible: { outline: '2px solid', outlineColor: 'colorPalette.focusRing' } },
  '& table': { borderCollapse: 'collapse' },
  '& th, & td': { borderWidth: '1px', borderColor: 'border', paddingInline: '0.75em', paddingBlock: '0.375em', textAlign: 'start', wordBreak: 'normal' },
  '& th': { bg: 'bg.muted', fontWeight: 'semibold' },
  '& tbody tr:nth-of-type(even)': { bg: 'bg.subtle' },
  '& img': { maxWidth: '100%' },
  '& hr': { borderColor: 'border' },
};

/** Admin-written HTML, sanitised before it reaches the page. */
export function HtmlBlock({ html, ...rest }: { readonly html: string } & Omit<BoxProps, 'children' | 'dangerouslySetInnerHTML'>) {
  const safe = useMemo(() => sanitizeHtml(html), [html]);
  return <Box css={richTextStyles} {...rest} dangerouslySetInnerHTML={{ __html: safe }} />;
}

/** Admin-written Markdown, rendered and sanitised. */
export function MarkdownBlock({
  markdown,
  ...rest
}: { readonly markdown: string } & Omit<BoxProps, 'children' | 'dangerouslySetInnerHTML'>) {
  const safe = useMemo(() => renderSafeMarkdown(markdown), [markdown]);
  return <Box css={richTextStyles} {...rest} dangerouslySetInnerHTML={{ __html: safe }} />;
}

/** A framed page as drawn: the frame, and while `loading` a spinner over it ('加载{page}中...'). */
export function FrameView({
  url,
  title,
  height,
  loading,
  loadingPage = 'shell.loading.default',
  onLoad,
}: {
  readonly url: string;
  readonly title: string;
  readonly height: string;
  readonly loading: boolean;
  readonly loadingPage?: MessageKey;
  readonly onLoad: () => void;
}) {
  const t = useT();
  return (
    <Box position="relative" aria-busy={loading}>
      <chakra.iframe src={url} title={title} display="block" w="full" h={height} border="0" onLoad={onLoad} />
      {loading && (
        <Flex position="absolute" inset={0} justify="center" align="center" gap={3} bg="bg" role="status" aria-live="polite">
          <Spinner size="lg" color="blue.solid" />
          <Text color="fg.muted">{t('shell.loading', { page: t(loadingPage) })}</Text>
        </Flex>
      )}
    </Box>
  );
}

/** A configured page framed full width (contract §5.4: no border), with a spinner until the frame's load event. */
export function ContentFrame({
  url,
  title,
  height,
  loadingPage,
}: {
  readonly url: string;
  readonly title: string;
  readonly height: string;
  readonly loadingPage?: MessageKey;
}) {
  // Which address has loaded: a new address shows the spinner again until its own load event.
  const [loadedUrl, setLoadedUrl] = useState<string | null>(null);
  return (
    <FrameView url={url} title={title} height={height} loading={loadedUrl !== url} loadingPage={loadingPage} onLoad={() => setLoadedUrl(url)} />
  );
}

export interface PageContentViewProps {
  readonly contentKind: ContentKind;
  /** The Markdown text or the https:// address, per `contentKind`. */
  readonly content: string;
  /** The accessible name of the frame when the content is an address. */
  readonly frameTitle: string;
  /** The server's value is on its way (a cached copy may be on show). */
  readonly loading: boolean;
  /** What is on show is the cached copy of the last visit. */
  readonly cachedCopy: boolean;
  /** Why the load failed; the cached copy, if any, stays on show. */
  readonly error: Message | null;
  readonly onRetry: () => void;
  /** Markdown content is laid out by the page (inside a card, larger text ...). */
  readonly wrapMarkdown: (markdown: ReactNode) => ReactNode;
  /** What the page shows when the option is empty. */
  readonly renderEmpty: () => ReactNode;
}

/**
 * The body of an admin-written page (home, about): a spinner until something is known, the
 * configured address framed full width, the Markdown rendered, or the page's default; with
 * the load's failure and a retry above it.
 */
export function PageContentView({
  contentKind,
  content,
  frameTitle,
  loading,
  cachedCopy,
  error,
  onRetry,
  wrapMarkdown,
  renderEmpty,
}: PageContentViewProps) {
  const t = useT();
  const render = useRenderMessage();
  return (
    <Box aria-busy={loading}>
      {error !== null && (
        <Box px={4} pt={4}>
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('home.failed')}</Alert.Title>
              <Alert.Description>{render(error)}</Alert.Description>
            </Alert.Content>
            <Button size="sm" variant="outline" colorPalette="red" onClick={onRetry} alignSelf="center">
              {t('home.retry')}
            </Button>
          </Alert.Root>
        </Box>
      )}
      {cachedCopy && (
        <Flex px={4} pt={2} align="center" gap={2} role="status" color="fg.muted" fontSize="sm">
          <Spinner size="xs" />
          <Text>{t('home.cachedCopy')}</Text>
        </Flex>
      )}
      {contentKind === 'pending' && (
        <Flex justify="center" align="center" gap={3} py={16} role="status">
          <Spinner size="md" colorPalette="blue" color="colorPalette.solid" />
          <Text fontWeight="medium">{t('home.loading')}</Text>
        </Flex>
      )}
      {contentKind === 'url' && <ContentFrame url={content.trim()} title={frameTitle} height="100vh" />}
      {contentKind === 'markdown' && wrapMarkdown(<MarkdownBlock markdown={content} />)}
      {contentKind === 'empty' && renderEmpty()}
    </Box>
  );
}
