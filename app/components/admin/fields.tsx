/** Labelled back-office form controls whose error sits under them, tied with aria-describedby and aria-invalid. */
import type { ReactNode } from "react";
import { Options } from "../ui/Options.tsx";

interface Common {
  id: string;
  name: string;
  label: string;
  error?: string;
  hint?: string;
  defaultValue?: string;
  required?: boolean;
  /** On the wrapper (layout). */
  className?: string;
  /** Added to the control's own classes. */
  controlClassName?: string;
}

function describedBy(id: string, error?: string, hint?: string) {
  const ids = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return ids || undefined;
}

/** aria-invalid and aria-describedby for a control with this id, its error and its hint. */
export function fieldAria(id: string, error?: string, hint?: string) {
  return { "aria-invalid": error ? (true as const) : undefined, "aria-describedby": describedBy(id, error, hint) };
}

/** The hint and the error under a control (ids `<id>-hint`, `<id>-error`). */
export function FieldMessages({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-700">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** A visible label, the control (children, which spread fieldAria(id, …)), then its hint and error. */
export function FieldShell({
  id,
  label,
  error,
  hint,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      {children}
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  );
}

export const fieldClass = (error?: string, extra?: string) =>
  ["field mt-1", extra, error ? "border-red-700 ring-1 ring-red-700" : ""].filter(Boolean).join(" ");

/** The props every control takes from Common: name, value, required (by default), aria and classes. */
function controlProps({ id, name, error, hint, defaultValue, required = true, controlClassName }: Common) {
  return {
    id,
    name,
    defaultValue,
    required,
    ...fieldAria(id, error, hint),
    className: fieldClass(error, controlClassName),
  };
}

function Shell({ common, children }: { common: Common; children: ReactNode }) {
  return (
    <FieldShell
      id={common.id}
      label={common.label}
      error={common.error}
      hint={common.hint}
      className={common.className}
    >
      {children}
    </FieldShell>
  );
}

export function TextInput({
  inputMode,
  type = "text",
  maxLength,
  autoComplete,
  ...common
}: Common & {
  inputMode?: "decimal" | "numeric" | "text";
  type?: "text" | "number" | "email" | "date";
  maxLength?: number;
  autoComplete?: string;
}) {
  return (
    <Shell common={common}>
      <input
        {...controlProps(common)}
        type={type}
        inputMode={inputMode}
        maxLength={maxLength}
        autoComplete={autoComplete}
      />
    </Shell>
  );
}

export function TextArea({ rows = 4, maxLength, ...common }: Common & { rows?: number; maxLength?: number }) {
  return (
    <Shell common={common}>
      <textarea {...controlProps(common)} rows={rows} maxLength={maxLength} />
    </Shell>
  );
}

/** `placeholder` is an empty first option; `placeholderDisabled` makes it a prompt that can't be chosen back. */
export function Select({
  options,
  placeholder,
  placeholderDisabled,
  ...common
}: Common & {
  options: readonly { value: string; label: string }[];
  placeholder?: string;
  placeholderDisabled?: boolean;
}) {
  return (
    <Shell common={common}>
      <select {...controlProps(common)}>
        {placeholder !== undefined ? (
          <option value="" disabled={placeholderDisabled}>
            {placeholder}
          </option>
        ) : null}
        <Options options={options} />
      </select>
    </Shell>
  );
}

/** Options whose value and label are the same text. */
export const sameOptions = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** A form-level message: errors as an alert, the rest as a status. */
export function FormMessage({
  tone,
  children,
  id,
}: {
  tone: "error" | "success" | "info";
  children: ReactNode;
  id?: string;
}) {
  const cls =
    tone === "error"
      ? "border-red-700 bg-red-50 text-red-900"
      : tone === "success"
        ? "border-green-700 bg-green-50 text-green-900"
        : "border-slate-400 bg-white text-ink";
  return (
    <div id={id} role={tone === "error" ? "alert" : "status"} className={`rounded-md border-l-4 p-3 text-sm ${cls}`}>
      {children}
    </div>
  );
}
