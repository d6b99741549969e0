import type { ComponentProps } from 'react';
import { useHref, useLinkClickHandler } from 'react-router-dom';

export type RouterLinkProps = Omit<ComponentProps<'a'>, 'href'> & {
  /** The console's own path to go to (`/login`, `/token/edit/3`). */
  readonly to: string;
};

/**
 * A link to one of the console's pages: a plain `<a href>` whose plain left click navigates in
 * place, while a modified click, a middle click or another `target` does what the browser does.
 * React Router's own Link does the same, plus framework-mode route discovery and prefetching the
 * console has no use for; those keep about 2 KB gzip of the router in the entry every page loads.
 */
export function RouterLink({ to, target, onClick, ...rest }: RouterLinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { target });
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) navigate(event);
      }}
    />
  );
}
