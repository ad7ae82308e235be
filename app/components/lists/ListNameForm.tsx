import { Form } from "react-router";

/** One named form with a list name field: a new list, the cart saved as a list, or a new name. */
export function ListNameForm(props: {
  id: string;
  heading: string;
  hint?: string;
  intent: string;
  label?: string;
  button: string;
  defaultValue?: string;
  error?: string;
  action?: string;
  maxLength: number;
}) {
  const errorId = `${props.id}-error`;
  const hintId = `${props.id}-hint`;
  const describedBy = [props.hint ? hintId : null, props.error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <section aria-labelledby={`${props.id}-heading`}>
      <h2 id={`${props.id}-heading`} className="text-lg font-bold text-ink">
        {props.heading}
      </h2>
      {props.hint ? (
        <p id={hintId} className="mt-1 text-sm">
          {props.hint}
        </p>
      ) : null}
      <Form method="post" action={props.action} className="mt-3 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value={props.intent} />
        <div>
          <label htmlFor={props.id} className="block text-sm font-semibold text-ink">
            {props.label ?? "List name"}
          </label>
          <input
            id={props.id}
            name="name"
            type="text"
            required
            maxLength={props.maxLength}
            defaultValue={props.defaultValue}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={describedBy}
            className="field mt-1 w-72 max-w-full"
          />
        </div>
        <button type="submit" className="btn-outline">
          {props.button}
        </button>
      </Form>
      {props.error ? (
        <p id={errorId} className="mt-1 text-sm font-semibold text-red-800">
          {props.error}
        </p>
      ) : null}
    </section>
  );
}
