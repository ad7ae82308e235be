import type { ReactNode } from "react";
import { Form } from "react-router";

/**
 * The filters of a list: a GET form, so the filters live in the query string and work without
 * JavaScript. `hidden` carries what the form has no field for (the sort), `after` stands beside the button.
 */
export function FilterForm({
  label,
  search = true,
  button,
  hidden = {},
  className = "mt-4 flex flex-wrap items-end gap-3",
  actionsClassName = "",
  after,
  children,
}: {
  /** The form's accessible name; none when the page has only this one form. */
  label?: string;
  /** A search landmark (role="search"); false for a plain form. */
  search?: boolean;
  button: string;
  hidden?: Record<string, string | null | undefined>;
  className?: string;
  /** Where the button (and what stands after it) sits in the form's layout. */
  actionsClassName?: string;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Form method="get" role={search ? "search" : undefined} aria-label={label} className={className}>
      {children}
      {Object.entries(hidden).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      <div className={`flex items-end gap-3 ${actionsClassName}`}>
        <button type="submit" className="btn-primary">
          {button}
        </button>
        {after}
      </div>
    </Form>
  );
}

/** A labelled field of a filter form. */
export function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      {children}
    </div>
  );
}
