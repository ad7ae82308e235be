// The part of React Router's API that island pages use, for the browser only (the islands build
// aliases "react-router" to this file; vite.islands.ts). There is no client router here: a link or a
// plain form loads a document, as it does without JavaScript. Fetchers post to the same single-fetch
// endpoints React Router's client uses (`/cart.data`) and decode its turbo-stream answers, and the
// root loader's data lives in a small store that a revalidation refreshes from `/_.data?_routes=root`.
// An island that takes its own path's other URLs in place (the shop: filters, sort, words) gets
// that page's data from its single-fetch address and shows it without a new document, with the
// browser's history (navigateInPlace).
import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { urlEncoded } from "../lib/url-encoded.ts";
// @ts-expect-error React Router ships the turbo-stream decoder its client uses without type declarations.
import { decode as decodeTurboStream } from "../../node_modules/react-router/dist/production/vendor/turbo-stream-v2/turbo-stream.js";

type Listener = () => void;
type FetcherState = "idle" | "loading" | "submitting";
type SubmitTarget = HTMLFormElement | FormData | URLSearchParams | Record<string, string>;
interface SubmitOptions {
  method?: string;
  action?: string;
}

let rootData: unknown;
let revalidation: "idle" | "loading" = "idle";

interface IslandLocation {
  pathname: string;
  search: string;
  hash: string;
  state: null;
  key: string;
}
type Navigation = { state: "idle"; location: undefined } | { state: "loading"; location: IslandLocation };
const IDLE: Navigation = { state: "idle", location: undefined };

const locationOf = (url: { pathname: string; search: string; hash: string }, key: string): IslandLocation => ({ pathname: url.pathname, search: url.search, hash: url.hash, state: null, key });
let location: IslandLocation | null = null;
let navigation: Navigation = IDLE;
/** The route whose data this island shows, and which path it takes in place (null: none). */
let page: { routeId: string; pathname: string; data: unknown } | null = null;
let latestNavigation = 0;
const listeners = new Set<Listener>();
const notify = () => listeners.forEach((listener) => listener());
const subscribe = (listener: Listener) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

const readRootData = () => rootData;
const readRevalidation = () => revalidation;
const readLocation = () => (location ??= locationOf(window.location, "default"));
const readNavigation = () => navigation;
const readPageData = () => page?.data;

/** The root loader's data, as the server rendered the page with it. */
export function setRootData(data: unknown): void {
  rootData = data;
  notify();
}

/** `/cart` → `/cart.data`, `/` → `/_.data`: React Router's single-fetch address for a path. */
export function dataUrl(path: string): URL {
  const url = new URL(path, window.location.href);
  url.pathname = url.pathname.endsWith("/") ? `${url.pathname}_.data` : `${url.pathname}.data`;
  return url;
}

type TurboStreamPlugin = (type: string, ...rest: unknown[]) => { value: unknown } | undefined;
const decode = decodeTurboStream as (body: ReadableStream<Uint8Array>, options: { plugins: TurboStreamPlugin[] }) => Promise<{ done: Promise<unknown>; value: unknown }>;

type Decoded = { redirect?: string; data?: unknown; error?: unknown; [route: string]: unknown };

async function decodeReply(response: Response): Promise<Decoded> {
  const redirectTo = response.headers.get("X-Remix-Redirect");
  if (redirectTo) return { redirect: redirectTo };
  if (!response.ok && !response.headers.has("X-Remix-Response")) throw new Error(`HTTP ${response.status}`);
  if (!response.body || response.status === 204) return {};
  const decoded = await decode(response.body, {
    plugins: [
      (type, ...rest) => {
        if (type === "SingleFetchRedirect") return { value: { redirect: (rest[0] as { redirect: string }).redirect } };
        if (type === "SingleFetchClassInstance") return { value: rest[0] };
        if (type === "SingleFetchFallback") return { value: undefined };
        if (type === "SanitizedError" || type === "ErrorResponse") return { value: { error: rest } };
        return undefined;
      },
    ],
  });
  await decoded.done;
  return decoded.value as Decoded;
}

/** Fetches the root loader's data again; if that fails, the page keeps what it has (it never rejects). */
async function revalidateRoot(): Promise<void> {
  revalidation = "loading";
  notify();
  try {
    const url = dataUrl(window.location.pathname);
    url.searchParams.set("_routes", "root");
    const reply = await decodeReply(await fetch(url, { credentials: "same-origin" }));
    if (reply.redirect) return window.location.assign(reply.redirect);
    const root = reply.root as { data?: unknown } | undefined;
    if (root && "data" in root) rootData = root.data;
  } catch {
    // Offline or a server error: the counts refresh with the next page or action.
  } finally {
    revalidation = "idle";
    notify();
  }
}

export function useRouteLoaderData(routeId: string): unknown {
  const data = useSyncExternalStore(subscribe, readRootData, readRootData);
  return routeId === "root" ? data : undefined;
}

export function useRevalidator() {
  const state = useSyncExternalStore(subscribe, readRevalidation, readRevalidation);
  return useMemo(() => ({ state, revalidate: revalidateRoot }), [state]);
}

/**
 * Lets the island show its route's other URLs in place: a navigation to its own path (another
 * query) reads that URL's data from the route's single-fetch address instead of loading a
 * document. The browser's back and forward buttons come back through here too.
 */
export function takeNavigationsInPlace(routeId: string, data: unknown): void {
  page = { routeId, pathname: window.location.pathname, data };
  window.history.replaceState({ ...(window.history.state as object | null), islandKey: readLocation().key }, "");
  window.addEventListener("popstate", (event) => {
    const url = new URL(window.location.href);
    if (url.pathname !== page?.pathname) return window.location.reload();
    latestNavigation++; // the browser has moved: a navigation still loading must not land now
    if (url.search === readLocation().search) {
      // Back to the results on show (an anchor's #fragment, or a change that had not arrived yet).
      navigation = IDLE;
      return notify();
    }
    const key = (event.state as { islandKey?: string } | null)?.islandKey ?? "default";
    void navigateInPlace(url, { history: "none", key });
  });
}

/** The route's data the island shows: what the server rendered, then each URL taken in place. */
export function usePageData<PageData>(): PageData {
  return useSyncExternalStore(subscribe, readPageData, readPageData) as PageData;
}

const newKey = () => Math.random().toString(36).slice(2, 10);

/**
 * Shows another URL of the island's own path: reads its data from React Router's single-fetch
 * address (every route's, as React Router's client does on a navigation, so the header's counts
 * are fresh too), then moves the browser's history and shows it. A redirect to the same path is
 * followed in place; anywhere else, or when the data cannot be read, the URL loads as a document.
 */
async function navigateInPlace(url: URL, { history, key = newKey(), redirects = 0 }: { history: "push" | "replace" | "none"; key?: string; redirects?: number }): Promise<void> {
  const { routeId, pathname } = page!;
  const id = ++latestNavigation;
  const next = locationOf(url, key);
  navigation = { state: "loading", location: next };
  notify();
  try {
    const reply = await decodeReply(await fetch(dataUrl(`${url.pathname}${url.search}`), { credentials: "same-origin" }));
    if (id !== latestNavigation) return; // a later navigation took over
    if (reply.redirect) {
      const target = new URL(reply.redirect, window.location.href);
      if (target.origin !== window.location.origin || target.pathname !== pathname || redirects >= 3) return window.location.assign(target);
      return void (await navigateInPlace(target, { history: history === "none" ? "replace" : history, key, redirects: redirects + 1 }));
    }
    const route = reply[routeId] as { data?: unknown } | undefined;
    if (!route || !("data" in route)) throw new Error("No data for the page");
    // The URL already in the address bar (the Shop link on /shop, the same search again) replaces its entry, as React Router does.
    const push = history === "push" && url.href !== window.location.href;
    if (history !== "none") window.history[push ? "pushState" : "replaceState"]({ islandKey: key }, "", url);
    const root = reply.root as { data?: unknown } | undefined;
    if (root && "data" in root) rootData = root.data;
    page = { routeId, pathname, data: route.data };
    location = next;
    navigation = IDLE;
    notify();
  } catch {
    // Offline, or the server could not answer: load the page as a document, as without JavaScript.
    if (id === latestNavigation) window.location.assign(url);
  }
}

export function useNavigate() {
  return useCallback((to: string | number, options?: { replace?: boolean }) => {
    if (typeof to === "number") return window.history.go(to);
    const url = new URL(to, window.location.href);
    if (page && url.origin === window.location.origin && url.pathname === page.pathname) {
      return void navigateInPlace(url, { history: options?.replace ? "replace" : "push" });
    }
    if (options?.replace) window.location.replace(url);
    else window.location.assign(url);
  }, []);
}

export function useLocation(): IslandLocation {
  return useSyncExternalStore(subscribe, readLocation, readLocation);
}

export function useNavigation(): Navigation {
  return useSyncExternalStore(subscribe, readNavigation, readNavigation);
}

export function useSearchParams() {
  const { search } = useLocation();
  return useMemo(() => [new URLSearchParams(search), () => {}] as const, [search]);
}

/** React Router marks links and forms to its own routes with data-discover; so does this, to render the same markup. */
const discover = (to: unknown) => (typeof to === "string" && to.startsWith("/") && !to.startsWith("//") ? "true" : undefined);

type LinkProps = Omit<React.AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  to: string;
  prefetch?: string;
  replace?: boolean;
  reloadDocument?: boolean;
  preventScrollReset?: boolean;
  viewTransition?: boolean;
  discover?: string;
  state?: unknown;
  ref?: React.Ref<HTMLAnchorElement>;
};

export function Link({ to, prefetch: _p, replace: _r, reloadDocument: _d, preventScrollReset: _s, viewTransition: _v, discover: _x, state: _st, ...rest }: LinkProps) {
  return <a {...rest} href={to} data-discover={discover(to)} />;
}

type FormProps = Omit<React.FormHTMLAttributes<HTMLFormElement>, "method"> & {
  method?: string;
  replace?: boolean;
  reloadDocument?: boolean;
  preventScrollReset?: boolean;
  viewTransition?: boolean;
  navigate?: boolean;
  fetcherKey?: string;
  discover?: string;
  state?: unknown;
  ref?: React.Ref<HTMLFormElement>;
};

/**
 * A Form without a client router is a plain form: the browser submits it unless a handler prevents
 * it, or, for a GET to the path the island shows in place, the island loads the results itself.
 */
export function Form({ method = "get", replace: _r, reloadDocument: _d, preventScrollReset: _s, viewTransition: _v, navigate: _n, fetcherKey: _k, discover: _x, state: _st, onSubmit, ...rest }: FormProps) {
  const get = method.toLowerCase() === "get";
  const submit = (event: FormSubmitEvent) => {
    onSubmit?.(event);
    if (get && !event.defaultPrevented) submitInPlace(event);
  };
  return <form data-discover={discover(rest.action)} {...rest} onSubmit={onSubmit || get ? submit : undefined} method={get ? "get" : "post"} />;
}

type FormSubmitEvent = Parameters<NonNullable<FormProps["onSubmit"]>>[0];

function submitInPlace(event: FormSubmitEvent): void {
  const form = event.currentTarget;
  const url = new URL(form.getAttribute("action") ?? window.location.pathname, window.location.href);
  if (!page || url.origin !== window.location.origin || url.pathname !== page.pathname) return;
  event.preventDefault();
  url.search = urlEncoded(new FormData(form, (event.nativeEvent as globalThis.SubmitEvent).submitter)).toString();
  void navigateInPlace(url, { history: "push" });
}

function formBody(target: SubmitTarget, submitter?: HTMLElement | null): URLSearchParams {
  if (target instanceof HTMLFormElement) return urlEncoded(new FormData(target, submitter));
  return urlEncoded(target instanceof FormData || target instanceof URLSearchParams ? target : Object.entries(target));
}

/**
 * A fetcher: posts to the action's single-fetch address and keeps its answer, as React Router's does.
 * After an action the root's data is revalidated (the header's cart count). If the post cannot be
 * made, a form falls back to submitting itself, as it would without JavaScript.
 */
export function useFetcher<Data = unknown>(_options?: { key?: string }) {
  const [state, setState] = useState<FetcherState>("idle");
  const [data, setData] = useState<Data | undefined>(undefined);

  const submit = useCallback(async (target: SubmitTarget, options: SubmitOptions = {}, submitter?: HTMLElement | null) => {
    const form = target instanceof HTMLFormElement ? target : null;
    const action = options.action ?? form?.getAttribute("action") ?? window.location.pathname;
    setState("submitting");
    try {
      const response = await fetch(dataUrl(action), { method: (options.method ?? form?.method ?? "post").toUpperCase(), body: formBody(target, submitter), credentials: "same-origin" });
      const reply = await decodeReply(response);
      if (reply.redirect) return window.location.assign(reply.redirect);
      if ("error" in reply) throw new Error("The action failed");
      setState("loading");
      await revalidateRoot();
      setData(reply.data as Data);
    } catch {
      if (form) HTMLFormElement.prototype.submit.call(form);
    } finally {
      setState("idle");
    }
  }, []);

  const submitRef = useRef(submit);
  submitRef.current = submit;
  const FetcherForm = useMemo(
    () =>
      function FetcherForm({ onSubmit, ...props }: FormProps) {
        return (
          <Form
            {...props}
            onSubmit={(event) => {
              onSubmit?.(event);
              if (event.defaultPrevented) return;
              event.preventDefault();
              void submitRef.current(event.currentTarget, {}, (event.nativeEvent as globalThis.SubmitEvent).submitter);
            }}
          />
        );
      },
    [],
  );

  return { state, data, submit, Form: FetcherForm };
}
