export function EmailField({
  id,
  defaultValue,
  label = "Email",
}: {
  id: string;
  defaultValue?: string;
  label?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      <input
        id={id}
        name="email"
        type="email"
        autoComplete="email"
        defaultValue={defaultValue}
        maxLength={254}
        className="field mt-1"
      />
    </div>
  );
}
