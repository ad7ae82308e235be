import { Form } from "react-router";
import { PRICE_LIST_NAME_MAX } from "../../../lib/admin/trade-limits.ts";
import { TextInput } from "../fields.tsx";

/** The one-field form that names a price list: "New price list" on the list page, renaming on a list's page. */
export function PriceListNameForm({
  intent,
  id,
  label,
  button,
  defaultValue,
  error,
}: {
  intent: string;
  id: string;
  label: string;
  button: string;
  defaultValue?: string;
  error?: string;
}) {
  return (
    <Form method="post" noValidate className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="intent" value={intent} />
      <TextInput
        id={id}
        name="name"
        label={label}
        defaultValue={defaultValue}
        error={error}
        maxLength={PRICE_LIST_NAME_MAX}
        className="w-full max-w-sm"
        autoComplete="off"
      />
      <button type="submit" className="btn-primary">
        {button}
      </button>
    </Form>
  );
}
