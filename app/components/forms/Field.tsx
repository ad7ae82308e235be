import type { Ref } from "react";

interface FieldProps {
  id: string;
  name: string;
  label: string;
  error?: string;
  defaultValue?: string;
  maxLength?: number;
  type?: "text" | "email" | "tel";
  /** Defaults to true; optional fields say so in their label. */
  required?: boolean;
  autoComplete?: string;
  multiline?: boolean;
  rows?: number;
  inputRef?: Ref<HTMLInputElement & HTMLTextAreaElement>;
}

/**
 * A labelled text field whose error message sits under it and is tied to it with
 * aria-describedby (and aria-invalid), so screen readers read the message with the field.
 */
export function Field({
  id,
  name,
  label,
  error,
  defaultValue,
  maxLength,
  type = "text",
  autoComplete,
  multiline,
  rows = 6,
  inputRef,
  required = true,
}: FieldProps) {
  const errorId = `${id}-error`;
  const common = {
    id,
    name,
    defaultValue,
    maxLength,
    required,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
    className: `field mt-1 ${error ? "border-red-700 ring-1 ring-red-700" : ""}`,
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={rows} ref={inputRef} />
      ) : (
        <input {...common} type={type} autoComplete={autoComplete} ref={inputRef} />
      )}
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
