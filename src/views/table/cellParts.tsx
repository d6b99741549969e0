import { forwardRef, memo, useMemo, type ComponentPropsWithoutRef, type MouseEvent, type ReactNode } from 'react';
import type { SystemContext as ChakraSystem, SystemStyleObject } from '@chakra-ui/react';
import '../app/laterComponents';
import { useHref, useNavigate } from 'react-router-dom';
import type { Palette } from '../../domain/constants';
import { KeptStyles } from '../app/KeptStyles';
import resolvedSheet from './cellPartsSheet.json';

/**
 * The parts that repeat on every row of a long table (buttons, badges, a row of them, the row
 * checkbox), drawn as plain elements with class names. A Chakra component computes and serializes
 * its styles per element, which on 100 rows of ten parts each is most of a page change; here the
 * styles come from the same theme recipes, computed once per table as nested rules of the table's
 * root (`cellPartsSheet`), so every row only sets class names and `data-*` attributes. The parts
 * look like the Chakra ones only inside a table or card list that applies those rules: an element
 * with the class `cellPartsClass` while a `CellPartsStyles` is mounted (the rules are written once
 * as a global sheet scoped to that class, not serialized again on every render of the table).
 */

const palettes: readonly Palette[] = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'cyan', 'blue', 'purple', 'pink'];
const buttonVariants = ['outline', 'ghost'] as const;
const badgeVariants = ['subtle', 'surface', 'solid', 'outline'] as const;

export type CellButtonVariant = (typeof buttonVariants)[number];
export type CellBadgeVariant = (typeof badgeVariants)[number];

const cls = {
  button: 'oa-cell-button',
  badge: 'oa-cell-badge',
  stack: 'oa-cell-stack',
  check: 'oa-row-check',
  input: 'oa-cell-input',
  nowrap: 'oa-cell-nowrap',
  wrap: 'oa-cell-wrap',
  hidden: 'oa-visually-hidden',
  parts: 'oa-cell-parts',
} as const;

/** The class of an element whose descendants may use the parts (with `CellPartsStyles` mounted). */
export const cellPartsClass = cls.parts;

/** The class of a span kept on one line (a number, a name cut short). */
export const cellNowrapClass = cls.nowrap;

/** The class of a span that breaks long words (a display name). */
export const cellWrapClass = cls.wrap;

/** The class of text only screen readers read (as Chakra's `VisuallyHidden`). */
export const visuallyHiddenClass = cls.hidden;

const visuallyHidden: SystemStyleObject = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  padding: 0,
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  borderWidth: 0,
};

/**
 * Of a palette's custom properties (`--…-color-palette-fg: var(--…-red-fg)`, …), those that the
 * resolved rules `used` read (`var(--…-color-palette-fg)`): the parts' look is the same, with
 * fewer properties declared on each part.
 */
function paletteVarsUsed(palette: SystemStyleObject, used: string): SystemStyleObject {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(palette)) {
    if (!name.startsWith('--') || used.includes(`var(${name})`) || used.includes(`var(${name},`)) kept[name] = value;
  }
  return kept as SystemStyleObject;
}

type RecipeFn = (props: Record<string, unknown>) => SystemStyleObject;
type SlotRecipeFn = (props: Record<string, unknown>) => Record<string, SystemStyleObject>;

/**
 * The nested rules every part needs, for the element that holds the rows, resolved by a Chakra
 * system (the console ships this resolved by its own: `cellPartsSheet`, written once by
 * `KeptStyles`). The palettes' properties are picked from the resolved text, and the sheet is
 * written from it as it is (resolving it a second time cost a tenth of the channel page's first
 * render).
 */
export function cellPartsCss(system: ChakraSystem): SystemStyleObject {
  const button = system.getRecipeFn('button') as RecipeFn;
  const badge = system.getRecipeFn('badge') as RecipeFn;
  const checkbox = system.getSlotRecipeFn('checkbox') as SlotRecipeFn;
  const input = system.getRecipeFn('input') as RecipeFn;
  const { css } = system;
  const rules: Record<string, SystemStyleObject> = {};
  for (const v of buttonVariants) rules[`& .${cls.button}[data-variant=${v}]`] = button({ size: 'xs', variant: v });
  for (const v of badgeVariants) rules[`& .${cls.badge}[data-variant=${v}]`] = badge({ variant: v });
  rules[`& .${cls.badge}[data-nowrap]`] = { whiteSpace: 'nowrap' };
  rules[`& .${cls.stack}`] = { display: 'flex', alignItems: 'center', gap: '1', flexWrap: 'wrap' };
  rules[`& .${cls.stack}[data-nowrap]`] = { flexWrap: 'nowrap', whiteSpace: 'nowrap' };
  rules[`& .${cls.input}`] = { ...input({ size: 'xs' }), width: '20' };
  rules[`& .${cls.nowrap}`] = { whiteSpace: 'nowrap' };
  rules[`& .${cls.wrap}`] = { wordBreak: 'break-word' };
  rules[`& .${cls.hidden}, & .${cls.check} > input`] = visuallyHidden;
  const check = checkbox({ size: 'sm' });
  rules[`& .${cls.check}`] = check.root ?? {};
  rules[`& .${cls.check} > [data-part=control]`] = {
    ...check.control,
    // the native box is the one focused: its ring is drawn on the visible control
    'input:focus-visible + &': { outlineWidth: '2px', outlineStyle: 'solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '2px' },
  };
  // A part's palette sets only the palette's colours the parts' rules read (a handful of the
  // palette's custom properties, not all of them): every badge and button of every row declares
  // them, and each one declared is resolved again for every such element on a page change.
  const resolved = css(rules) as Record<string, SystemStyleObject>;
  const used = JSON.stringify(resolved);
  for (const p of palettes) resolved[`& [data-palette=${p}]`] = paletteVarsUsed(css({ colorPalette: p }), used);
  return resolved;
}

/**
 * The parts' rules as the console's system resolves them, shipped resolved (cellPartsSheet.json,
 * kept equal to `cellPartsCss(system)` by tests/unit/views/keptSheets.test.ts, which writes it
 * again on request): a list page's first render no longer resolves the recipes and rules (the
 * channel page's costliest component in its first render), and the console carries the resolved
 * rules instead of the code that resolves them.
 */
export const cellPartsSheet = resolvedSheet as SystemStyleObject;

/** The rules of the parts, for every element of class `cellPartsClass` (mount it beside them). */
export const CellPartsStyles = memo(function CellPartsStyles() {
  return <KeptStyles className={cls.parts} styles={cellPartsSheet} resolved />;
});

type NativeButtonProps = Omit<ComponentPropsWithoutRef<'button'>, 'className' | 'type'>;

/** An extra-small button of a row (outline by default), in a colour palette. */
export const CellButton = forwardRef<HTMLButtonElement, NativeButtonProps & { readonly palette?: Palette; readonly variant?: CellButtonVariant }>(
  function CellButton({ palette, variant = 'outline', children, ...rest }, ref) {
    return (
      <button ref={ref} type="button" className={cls.button} data-variant={variant} data-palette={palette} {...rest}>
        {children}
      </button>
    );
  },
);

/** The class names and attributes that make a link (a router link) look like a `CellButton`. */
export const cellButtonLook = (palette?: Palette, variant: CellButtonVariant = 'outline') => ({
  className: cls.button,
  'data-variant': variant,
  'data-palette': palette,
});

/** Whether a click on a link is one the router takes (not a new tab, window or download). */
const isPlainClick = (e: MouseEvent<HTMLAnchorElement>) =>
  e.button === 0 && !e.metaKey && !e.altKey && !e.ctrlKey && !e.shiftKey && !e.defaultPrevented;

/**
 * The router's navigation for the `CellLink`s of a table (one per table, not one per link): an
 * `href` for an app path, and a click handler that navigates without reloading the page.
 */
export interface CellLinkNavigation {
  readonly href: (to: string) => string;
  readonly onClick: (e: MouseEvent<HTMLAnchorElement>) => void;
}

/** The navigation of the `CellLink`s rendered by one view (call it once, above the rows). */
export function useCellLinkNavigation(): CellLinkNavigation {
  const navigate = useNavigate();
  // the router's base (a basename): every app path is resolved below it
  const root = useHref('/');
  return useMemo(() => {
    const base = root.endsWith('/') ? root.slice(0, -1) : root;
    return {
      href: (to: string) => `${base}${to}`,
      onClick: (e: MouseEvent<HTMLAnchorElement>) => {
        const to = e.currentTarget.dataset.to;
        if (to === undefined || !isPlainClick(e)) return;
        e.preventDefault();
        void navigate(to);
      },
    };
  }, [navigate, root]);
}

/**
 * A link of a row drawn as a `CellButton` (an "edit" link): a plain anchor to the app path `to`
 * that the router follows on a plain click (a router `Link` per row costs a few hooks each).
 */
export function CellLink({
  to,
  nav,
  palette,
  variant = 'outline',
  children,
  ...rest
}: Omit<ComponentPropsWithoutRef<'a'>, 'className' | 'href' | 'onClick'> & {
  readonly to: string;
  readonly nav: CellLinkNavigation;
  readonly palette?: Palette;
  readonly variant?: CellButtonVariant;
}) {
  return (
    <a href={nav.href(to)} data-to={to} onClick={nav.onClick} className={cls.button} data-variant={variant} data-palette={palette} {...rest}>
      {children}
    </a>
  );
}

/** The class name that makes a native input look like the theme's extra-small input, 5rem wide (inline numbers). */
export const cellInputLook = { className: cls.input } as const;

type NativeSpanProps = Omit<ComponentPropsWithoutRef<'span'>, 'className'>;

/** A badge of a row (subtle by default) in a colour palette; `nowrap` keeps it on one line. */
export const CellBadge = forwardRef<HTMLSpanElement, NativeSpanProps & { readonly palette: string; readonly variant?: CellBadgeVariant; readonly nowrap?: boolean }>(
  function CellBadge({ palette, variant = 'subtle', nowrap = false, children, ...rest }, ref) {
    return (
      <span ref={ref} className={cls.badge} data-variant={variant} data-palette={palette} data-nowrap={nowrap ? '' : undefined} {...rest}>
        {children}
      </span>
    );
  },
);

/** Parts side by side (gap 1, centred); they wrap unless `nowrap`. */
export function CellStack({ nowrap = false, children }: { readonly nowrap?: boolean; readonly children: ReactNode }) {
  return (
    <div className={cls.stack} data-nowrap={nowrap ? '' : undefined}>
      {children}
    </div>
  );
}

/** The checkmark drawn in a checked box. */
function Checkmark() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3px" strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      <polyline points="20 6 9 17 4 12" />
    </svg>
  );
}

/** A row's checkbox: a native box (its accessible name: `label`), drawn as the theme's small checkbox. */
export function RowCheckbox({
  checked,
  disabled,
  label,
  onChange,
}: {
  readonly checked: boolean;
  readonly disabled: boolean;
  readonly label: string;
  readonly onChange: () => void;
}) {
  const state = checked ? 'checked' : 'unchecked';
  return (
    <label className={cls.check} data-state={state} data-disabled={disabled ? '' : undefined}>
      <input
        type="checkbox"
        aria-label={label}
        checked={checked}
        disabled={disabled}
        onChange={onChange}
      />
      <span data-part="control" data-state={state} data-disabled={disabled ? '' : undefined} aria-hidden>
        {checked && <Checkmark />}
      </span>
    </label>
  );
}
