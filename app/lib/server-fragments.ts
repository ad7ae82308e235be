import { createContext, useContext, type ReactNode } from "react";

/**
 * On the server, the HTML React wrote for a fragment of the same key in an earlier render, or
 * undefined the first time (app/lib/server-fragments.server.ts). Absent in the browser.
 */
export type ServerFragmentHtml = (key: string, fragment: ReactNode, hostId?: string) => string | undefined;

export const ServerFragments = createContext<ServerFragmentHtml | null>(null);

type ChildrenProps = { children: ReactNode } | { dangerouslySetInnerHTML: { __html: string } };

/**
 * An element's children as props to spread on it: on the server, once a render of the same key
 * has been seen, the HTML React wrote for them, so the document carries them without React
 * rendering them again; otherwise (and always in the browser) the children themselves. The HTML is
 * exactly what React writes for the same children inside a document, so the browser hydrates them
 * as usual (decision 0032).
 *
 * The key must name everything the children show: they have to be the same for every request that
 * uses it. They must not read a context or call useId, and must not hold what React lifts into the
 * <head> (images it preloads, <link>, <meta>, <title>): fragments with such markup are not kept.
 *
 * With `hostId`, the id of the element these are the children of, the HTML is instead taken from
 * the first document that renders them in place (that element's inner HTML there), so the children
 * may read React Router's context, for their event handlers: what they render must still be named
 * by the key. The caller preloads any image in them itself, as React would not see it.
 */
export function useServerFragment(key: string | null, children: ReactNode, hostId?: string): ChildrenProps {
  const fragmentHtml = useContext(ServerFragments);
  const html = key === null ? undefined : fragmentHtml?.(key, children, hostId);
  return html === undefined ? { children } : { dangerouslySetInnerHTML: { __html: html } };
}
