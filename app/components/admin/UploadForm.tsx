import type { ReactNode } from "react";
import { Form } from "react-router";

/** A back-office form that posts files (multipart) with its `intent`, named for screen readers by `label`. */
export function UploadForm({
  intent,
  label,
  className,
  children,
}: {
  intent: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" encType="multipart/form-data" className={className} aria-label={label}>
      <input type="hidden" name="intent" value={intent} />
      {children}
    </Form>
  );
}
