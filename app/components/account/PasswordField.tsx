import { useState } from "react";
import { EyeIcon, EyeOffIcon } from "../ui/icons.tsx";

export function PasswordField({
  id,
  autoComplete,
  defaultValue,
  name = "password",
  label = "Password",
}: {
  id: string;
  autoComplete: string;
  defaultValue?: string;
  name?: string;
  label?: string;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      <div className="relative mt-1">
        <input
          id={id}
          name={name}
          maxLength={128}
          type={visible ? "text" : "password"}
          autoComplete={autoComplete}
          defaultValue={defaultValue}
          className="field pr-10"
        />
        <button
          type="button"
          className="absolute inset-y-0 right-0 px-3 text-slate-700"
          aria-label={visible ? "Hide password" : "Show password"}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOffIcon width={18} height={18} /> : <EyeIcon width={18} height={18} />}
        </button>
      </div>
    </div>
  );
}
