import { lazy, memo, Suspense, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { RouterLink } from './RouterLink';
import { Box, Button, Flex, HStack, IconButton, Image, Link, Text, useRecipe, type SystemStyleObject } from '@chakra-ui/react';
import type { ColorMode, Lang } from '../../domain/preferences';
import { loadAfterPage, openDeferred } from './afterPage';
import { useT } from './i18n';
import { ChevronDownIcon, MenuIcon, MoonIcon, SunIcon } from './icons';
import { activeEntryOf, fitNavItems, type MenuItem } from './menu';
import { ScopedStyles } from './ScopedStyles';

/** At this width and below the menu collapses into a drawer (spec §2). */
export const mobileQuery = '@media (max-width: 600px)';
const hideOnMobile = { [mobileQuery]: { display: 'none' } };
const showOnMobile = { display: 'none', [mobileQuery]: { display: 'inline-flex' } };

// The drawer and the account menu load after the first page is drawn (./afterPage): they pull in
// dialog, menu, positioning and focus-trap code that no page needs at once, and the menu's
// machine costs its mount before the page's rows. Their placeholders hold the place (the account
// button's look and width, which the desktop menu fits into, are the menu's trigger's).
const MobileNav = lazy(loadAfterPage(() => import('./MobileNav').then((m) => ({ default: m.MobileNav }))));
const UserMenu = lazy(loadAfterPage(() => import('./UserMenu').then((m) => ({ default: m.UserMenu }))));
const NavMore = lazy(() => import('./NavMore').then((m) => ({ default: m.NavMore })));

function MenuButtonPlaceholder() {
  const t = useT();
  return (
    <IconButton aria-label={t('shell.nav.openMenu')} variant="ghost" css={showOnMobile} disabled>
      <MenuIcon />
    </IconButton>
  );
}

export interface HeaderViewProps {
  readonly systemName: string;
  readonly logo: string;
  readonly items: readonly MenuItem[];
  readonly pathname: string;
  /** The signed-in viewer's display name, or null when signed out. */
  readonly userName: string | null;
  readonly signingOut: boolean;
  readonly lang: Lang;
  readonly colorMode: ColorMode;
  readonly onLangChange: (lang: Lang) => void;
  readonly onToggleColorMode: () => void;
  readonly onLogout: () => void;
  /** The command palette's button (signed-in shell only). */
  readonly commandPalette?: ReactNode;
}

const navClass = 'nav-links';
const measureClass = 'nav-measure';

/**
 * The look of the menu's entries (a row in the header, a column in the drawer) and of the header's
 * invisible measuring copy, as one scoped sheet (`ScopedStyles`) written once: the entries are
 * plain list items and router links with class names, not a Chakra link each whose styles would
 * be resolved and serialized per entry on every render of the header. The link is the theme's
 * `link` recipe with the entry's spacing, hover and the current page's weight and background.
 */
function useNavStyles(): SystemStyleObject {
  const link = useRecipe({ key: 'link' });
  return useMemo(() => {
    const base = link({}) as SystemStyleObject & { readonly _hover?: SystemStyleObject };
    const entry = { px: 3, py: 2, whiteSpace: 'nowrap' } as const;
    return {
      [`&.${navClass}`]: { display: 'flex', flexDirection: 'row', gap: 1, listStyleType: 'none', m: 0, p: 0 },
      [`&.${navClass}[data-direction=column]`]: { flexDirection: 'column', gap: 2 },
      [`&.${navClass} > li > a`]: {
        ...base,
        ...entry,
        rounded: 'md',
        fontWeight: 'normal',
        display: 'block',
        _hover: { ...base._hover, bg: 'bg.muted', textDecoration: 'none' },
      },
      [`&.${navClass} > li > a[aria-current=page]`]: { fontWeight: 'semibold', bg: 'bg.emphasized' },
      [`&.${measureClass}`]: { display: 'flex', width: 'max-content', gap: 1, listStyleType: 'none', m: 0, p: 0 },
      [`&.${measureClass} > li[data-label]`]: { ...entry, fontWeight: 'normal', _before: { content: 'attr(data-label)' } },
      [`&.${measureClass} > li[data-active]`]: { fontWeight: 'semibold' },
    };
  }, [link]);
}

/** The menu's sheet (mounted once by the header; the drawer's column uses it too). */
export const NavStyles = memo(function NavStyles() {
  return <ScopedStyles className={navClass} styles={useNavStyles()} />;
});

export function NavLinks({ items, pathname, direction }: Pick<HeaderViewProps, 'items' | 'pathname'> & { readonly direction: 'row' | 'column' }) {
  const t = useT();
  const activeTo = activeEntryOf(pathname);
  return (
    <ul className={navClass} data-direction={direction}>
      {items.map((item) => (
        <li key={item.to}>
          <RouterLink to={item.to} aria-current={item.to === activeTo ? 'page' : undefined}>
            {t(item.labelKey)}
          </RouterLink>
        </li>
      ))}
    </ul>
  );
}

/** The account button was pressed before its menu had loaded: the menu comes open (`UserMenu`). */
export const accountMenu = { pressed: false };

/** The "More" button as drawn before its menu code has loaded (and for measuring). */
function MoreButtonPlaceholder() {
  const t = useT();
  return (
    <Button size="sm" variant="ghost" whiteSpace="nowrap" disabled>
      {t('shell.nav.more')}
      <ChevronDownIcon />
    </Button>
  );
}

/**
 * The desktop menu on one line: the entries that fit the row (measured on an invisible copy of the
 * whole row), the rest in a "More" menu. Re-measured when the row or the entries change size.
 */
function FittingNav({ items, pathname }: Pick<HeaderViewProps, 'items' | 'pathname'>) {
  const t = useT();
  const rowRef = useRef<HTMLDivElement>(null);
  const measureRef = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(items.length);
  useLayoutEffect(() => {
    const row = rowRef.current;
    const measure = measureRef.current;
    if (row === null || measure === null) return;
    const update = () => {
      const list = measure.querySelector('ul');
      if (list === null) return;
      const gap = parseFloat(getComputedStyle(list).columnGap) || 0;
      const widths = Array.from(list.children, (li) => li.getBoundingClientRect().width + gap);
      const more = widths.pop() ?? 0;
      const next = fitNavItems(widths, row.clientWidth, more);
      // drawn before the frame is painted, so an entry that does not fit is never shown
      flushSync(() => setFit(next));
    };
    // Measured by the observer's first call (after the browser's own layout, before paint), not
    // here: a read in a layout effect would lay the whole first page out once more.
    const observer = new ResizeObserver(update);
    observer.observe(row);
    if (measure.firstElementChild !== null) observer.observe(measure.firstElementChild);
    return () => observer.disconnect();
  }, [items]);
  const shown = items.slice(0, fit);
  const rest = items.slice(fit);
  return (
    <Box ref={rowRef} position="relative" display="flex" alignItems="center" gap={1} minW={0}>
      <NavLinks items={shown} pathname={pathname} direction="row" />
      {rest.length > 0 && (
        <Suspense fallback={<MoreButtonPlaceholder />}>
          <NavMore items={rest} active={activeEntryOf(pathname)} />
        </Suspense>
      )}
      {/* Text as generated content, so the copy adds no words (or links) to the page. */}
      <Box ref={measureRef} aria-hidden inert position="absolute" top={0} left={0} w={0} h={0} overflow="hidden" visibility="hidden">
        <ul className={`${navClass} ${measureClass}`}>
          {items.map((item) => (
            <li key={item.to} data-label={t(item.labelKey)} data-active={item.to === activeEntryOf(pathname) ? '' : undefined} />
          ))}
          <Box as="li" data-measure="more">
            <Button size="sm" variant="ghost" whiteSpace="nowrap" tabIndex={-1}>
              <Box as="span" data-label={t('shell.nav.more')} _before={{ content: 'attr(data-label)' }} />
              <ChevronDownIcon />
            </Button>
          </Box>
        </ul>
      </Box>
    </Box>
  );
}

/** The header: brand, menu per role (a drawer on narrow screens), language, colour mode, account. */
export function HeaderView(props: HeaderViewProps) {
  const { systemName, logo, items, pathname, userName, signingOut, lang, colorMode } = props;
  const t = useT();
  const otherLang: Lang = lang === 'zh' ? 'en' : 'zh';
  return (
    <Box as="header" borderBottomWidth="1px" bg="bg.panel" position="sticky" top={0} zIndex="sticky">
      <NavStyles />
      <Flex align="center" gap={2} px={{ base: 2, md: 4 }} py={2} maxW="7xl" mx="auto">
        <Suspense fallback={<MenuButtonPlaceholder />}>
          <MobileNav items={items} pathname={pathname} triggerCss={showOnMobile} />
        </Suspense>

        <Link asChild _hover={{ textDecoration: 'none' }} flexShrink={0}>
          <RouterLink to="/">
            <HStack gap={2}>
              <Image src={logo} alt={t('shell.logoAlt', { name: systemName })} boxSize="28px" />
              <Text fontWeight="bold" fontSize="lg" css={hideOnMobile} truncate maxW="12rem">
                {systemName}
              </Text>
            </HStack>
          </RouterLink>
        </Link>

        <Box as="nav" aria-label={t('shell.nav.label')} flex="1" minW={0} css={hideOnMobile}>
          <FittingNav items={items} pathname={pathname} />
        </Box>
        <Box flex="1" css={showOnMobile} />

        <HStack gap={{ base: 0.5, sm: 1 }} flexShrink={0}>
          {props.commandPalette}
          <Button
            variant="ghost"
            size="sm"
            lang={otherLang === 'zh' ? 'zh-CN' : 'en'}
            title={t('shell.lang.label')}
            aria-label={t(otherLang === 'zh' ? 'shell.lang.zh' : 'shell.lang.en')}
            onClick={() => props.onLangChange(otherLang)}
          >
            {/* on phones the short form ("EN"), so the signed-in header fits 360 px with the palette button */}
            <Text as="span" aria-hidden="true" hideFrom="sm">
              {otherLang === 'zh' ? t('shell.lang.zh') : 'EN'}
            </Text>
            <Text as="span" hideBelow="sm">
              {t(otherLang === 'zh' ? 'shell.lang.zh' : 'shell.lang.en')}
            </Text>
          </Button>
          <IconButton
            variant="ghost"
            size="sm"
            aria-label={t(colorMode === 'dark' ? 'shell.colorMode.toLight' : 'shell.colorMode.toDark')}
            onClick={props.onToggleColorMode}
          >
            {colorMode === 'dark' ? <SunIcon /> : <MoonIcon />}
          </IconButton>
          {userName === null ? (
            <>
              <Button asChild size="sm" variant="outline">
                <RouterLink to="/login">{t('shell.account.login')}</RouterLink>
              </Button>
              <Button asChild size="sm" colorPalette="blue" css={hideOnMobile}>
                <RouterLink to="/register">{t('shell.account.register')}</RouterLink>
              </Button>
            </>
          ) : (
            <Suspense
              fallback={
                // the menu's trigger as `UserMenu` draws it (its width is what the desktop menu fits
                // into), named by the user's name only: the end-to-end walks wait for the loaded
                // menu's name as the sign of a settled, signed-in shell. Pressed, it loads the
                // menu at once, which comes open (no logout can be under way before it is there).
                <Button
                  size="sm"
                  variant="outline"
                  aria-haspopup="menu"
                  onClick={() => {
                    accountMenu.pressed = true;
                    openDeferred();
                  }}
                >
                  <Text as="span" truncate maxW={{ base: '5rem', md: '10rem' }}>
                    {userName}
                  </Text>
                  <ChevronDownIcon />
                </Button>
              }
            >
              <UserMenu userName={userName} signingOut={signingOut} onLogout={props.onLogout} />
            </Suspense>
          )}
        </HStack>
      </Flex>
    </Box>
  );
}
