import { useCallback } from "react";
import { useNavigate } from "react-router";

/**
 * One click handler for a block of plain <a href> links (the header and the footer, on every
 * page): a plain left click on a same-origin link becomes a client-side navigation, as <Link>
 * would make it, without the router hooks each <Link> runs on every server render.
 */
export function useLinkClicks() {
  const navigate = useNavigate();
  return useCallback(
    (event: React.MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const anchor = (event.target as Element).closest("a[href]");
      if (!(anchor instanceof HTMLAnchorElement) || !event.currentTarget.contains(anchor)) return;
      if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download") || anchor.origin !== window.location.origin) return;
      event.preventDefault();
      navigate(`${anchor.pathname}${anchor.search}${anchor.hash}`);
    },
    [navigate],
  );
}

/** Whether a nav item's path is the current page, by NavLink's rule ("/" only when exact). */
export function isCurrentPath(pathname: string, path: string): boolean {
  return path === "/" ? pathname === "/" : pathname === path || pathname.startsWith(`${path}/`);
}
