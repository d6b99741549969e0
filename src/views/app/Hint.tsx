import { cloneElement, isValidElement, useId, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type PointerEvent, type ReactElement, type ReactNode } from 'react';
import { Portal } from '@chakra-ui/react';
import { Tooltip } from './laterComponents';
import { popupDelayMs } from '../../domain/constants';

/** A hover / focus hint (tooltip) on a small inline element; the hint is also its accessible description. */
export function Hint({ text, children }: { readonly text: string; readonly children: ReactNode }) {
  return (
    <Tooltip.Root openDelay={popupDelayMs.open} closeDelay={popupDelayMs.close}>
      <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
      <Portal>
        <Tooltip.Positioner>
          <Tooltip.Content maxW="sm">{text}</Tooltip.Content>
        </Tooltip.Positioner>
      </Portal>
    </Tooltip.Root>
  );
}

/** The attribute a `CellHint` puts on its element; a `HintScope` around it shows the hint. */
const hintAttribute = 'data-hint';

/**
 * A hint of an element inside a `HintScope` (table cells: one per badge would be one tooltip
 * machine per badge, hundreds on a long page): the element only carries its text; the scope's
 * single tooltip shows it on hover and focus and makes it the element's accessible description.
 * The child must be one element that takes `data-*` props (a Badge, a Button).
 */
export function CellHint({ text, children }: { readonly text: string; readonly children: ReactNode }) {
  return isValidElement(children) ? cloneElement(children as ReactElement<Record<string, unknown>>, { [hintAttribute]: text }) : children;
}

interface Shown {
  readonly el: HTMLElement;
  readonly text: string;
  /** Each element shown gets a fresh tooltip (placed on it at once). */
  readonly n: number;
}

const hintTargetOf = (target: EventTarget | null): HTMLElement | null =>
  target instanceof Element ? target.closest<HTMLElement>(`[${hintAttribute}]`) : null;

/**
 * One tooltip for every `CellHint` inside (event delegation): pointer over or focus on a hinted
 * element shows its text after the usual delay, leaving it or Escape hides it. While shown, the
 * element's `aria-describedby` names the tooltip, as a tooltip of its own would.
 */
export function HintScope({ children }: { readonly children: ReactNode }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const count = useRef(0);
  const contentId = useId();

  const later = (run: () => void, ms: number) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(run, ms);
  };
  const show = (el: HTMLElement, ms: number) => {
    if (shown?.el === el) {
      window.clearTimeout(timer.current);
      return;
    }
    later(() => {
      count.current += 1;
      setShown({ el, text: el.getAttribute(hintAttribute) ?? '', n: count.current });
    }, ms);
  };
  const hide = (ms: number) => later(() => setShown(null), ms);

  useLayoutEffect(() => {
    if (shown === null) return;
    const { el } = shown;
    const before = el.getAttribute('aria-describedby');
    el.setAttribute('aria-describedby', contentId);
    return () => {
      if (before === null) el.removeAttribute('aria-describedby');
      else el.setAttribute('aria-describedby', before);
    };
  }, [shown, contentId]);
  useLayoutEffect(() => () => window.clearTimeout(timer.current), []);

  return (
    <div
      style={{ display: 'contents' }}
      onPointerOver={(e: PointerEvent) => {
        const el = hintTargetOf(e.target);
        if (el) show(el, popupDelayMs.open);
        else if (shown || timer.current !== undefined) hide(popupDelayMs.close);
      }}
      onPointerLeave={() => hide(popupDelayMs.close)}
      onFocus={(e: FocusEvent) => {
        const el = hintTargetOf(e.target);
        if (el && el === e.target) show(el, popupDelayMs.open);
      }}
      onBlur={() => hide(0)}
      onKeyDown={(e: KeyboardEvent) => {
        if (e.key === 'Escape' && shown) hide(0);
      }}
    >
      {children}
      {shown && (
        <Tooltip.Root
          key={shown.n}
          open
          ids={{ content: contentId }}
          onOpenChange={(d) => {
            if (!d.open) setShown(null);
          }}
          positioning={{ getAnchorRect: () => (shown.el.isConnected ? shown.el.getBoundingClientRect() : null) }}
        >
          <Portal>
            <Tooltip.Positioner>
              <Tooltip.Content maxW="sm">{shown.text}</Tooltip.Content>
            </Tooltip.Positioner>
          </Portal>
        </Tooltip.Root>
      )}
    </div>
  );
}
