/** Labelled back-office form controls whose error sits under them, tied with aria-describedby and aria-invalid. */

interface Common {
  id: string;
  name: string;
  label: string;
  error?: string;
  hint?: string;
  defaultValue?: string;
  required?: boolean;
  className?: string;
}

function describedBy(id: string, error?: string, hint?: string) {
  const ids = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return ids || undefined;
}

function Message({ id, error, hint }: { id: string; error?: string; hint?: string }) {
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

const fieldClass = (error?: string) => `field mt-1 ${error ? "border-red-700 ring-1 ring-red-700" : ""}`;

export function TextInput({ id, name, label, error, hint, defaultValue, required = true, className, inputMode, type = "text", maxLength }: Common & { inputMode?: "decimal" | "numeric" | "text"; type?: "text" | "number"; maxLength?: number }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        inputMode={inputMode}
        defaultValue={defaultValue}
        required={required}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={fieldClass(error)}
      />
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

export function TextArea({ id, name, label, error, hint, defaultValue, required = true, className, rows = 4, maxLength }: Common & { rows?: number; maxLength?: number }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        defaultValue={defaultValue}
        required={required}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={fieldClass(error)}
      />
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

export function Select({ id, name, label, error, hint, defaultValue, required = true, className, options, placeholder }: Common & { options: { value: string; label: string }[]; placeholder?: string }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} required={required} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} className={fieldClass(error)}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

/** A form-level message: errors as an alert, the rest as a status. */
export function FormMessage({ tone, children, id }: { tone: "error" | "success" | "info"; children: React.ReactNode; id?: string }) {
  const cls = tone === "error" ? "border-red-700 bg-red-50 text-red-900" : tone === "success" ? "border-green-700 bg-green-50 text-green-900" : "border-slate-400 bg-white text-ink";
  return (
    <div id={id} role={tone === "error" ? "alert" : "status"} className={`rounded-md border-l-4 p-3 text-sm ${cls}`}>
      {children}
    </div>
  );
}
