import type { ReactNode } from "react";
import type { FetcherWithComponents } from "react-router";
import type { OrderAction } from "../../../lib/order-admin-constants.ts";

export interface ActionResult {
  ok: boolean;
  message: string;
  intent?: string;
  fields?: Record<string, string>;
  /** What was typed, put back into the form after a refusal (the page without JavaScript re-renders). */
  values?: Record<string, string>;
}

function Hidden({ intent, version }: { intent: OrderAction; version: number }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="version" value={version} />
    </>
  );
}

export type Fetcher = FetcherWithComponents<ActionResult>;

/** A move that needs nothing but the button: the form is named after it. */
export function StepForm({
  fetcher,
  intent,
  version,
  label,
  busy,
}: {
  fetcher: Fetcher;
  intent: OrderAction;
  version: number;
  label: string;
  busy: boolean;
}) {
  return (
    <fetcher.Form method="post" aria-label={label}>
      <Hidden intent={intent} version={version} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {label}
      </button>
    </fetcher.Form>
  );
}

/** A move with fields: a form named by its heading (`<intent>-heading`), an optional explanation, then the fields. */
export function MoveForm({
  fetcher,
  intent,
  version,
  title,
  intro,
  className,
  headingClassName = "",
  children,
}: {
  fetcher: Fetcher;
  intent: OrderAction;
  version: number;
  title: string;
  intro?: string;
  className: string;
  headingClassName?: string;
  children: ReactNode;
}) {
  return (
    <fetcher.Form method="post" aria-labelledby={`${intent}-heading`} className={className}>
      <h3 id={`${intent}-heading`} className={`font-semibold text-ink ${headingClassName}`.trim()}>
        {title}
      </h3>
      {intro ? <p className="text-sm text-slate-700">{intro}</p> : null}
      <Hidden intent={intent} version={version} />
      {children}
    </fetcher.Form>
  );
}
