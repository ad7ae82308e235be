import type { ButtonHTMLAttributes } from "react";
import { Form } from "react-router";

/** A form of hidden `fields` and one submit button: a one-click action on a row. */
export function PostButton({
  fields,
  method = "post",
  children,
  ...button
}: {
  fields: Record<string, string | number>;
  method?: "post" | "get";
} & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type">) {
  return (
    <Form method={method}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" {...button}>
        {children}
      </button>
    </Form>
  );
}
