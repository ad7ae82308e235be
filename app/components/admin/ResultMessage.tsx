/** The answer to a back-office form post, and the notice a no-JavaScript post carries through its redirect. */
import { useEffect, useRef } from "react";
import { PostAnswer } from "../ui/PostAnswer.tsx";

/** The answer to a form post: a status for success, an alert for a refusal; it takes focus when the button that was pressed went away. */
export function ResultMessage({ result }: { result?: { ok: boolean; message: string } | null }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (result && (document.activeElement === document.body || document.activeElement === null)) ref.current?.focus();
  }, [result]);
  return <PostAnswer answer={result} className="mt-4 rounded-md p-3 text-sm" ref={ref} tabIndex={-1} />;
}

/** The one field's error a refused post carries (`{ fieldError }`), if any. */
export function fieldErrorOf(actionData: object | undefined | null): string | undefined {
  return actionData && "fieldError" in actionData && typeof actionData.fieldError === "string"
    ? actionData.fieldError
    : undefined;
}

/** A "done" notice carried through the redirect of a no-JavaScript post (?done=...). */
export function doneMessage(url: URL, messages: Record<string, string>): { ok: true; message: string } | null {
  const key = url.searchParams.get("done");
  return key && Object.hasOwn(messages, key) ? { ok: true, message: messages[key] } : null;
}
