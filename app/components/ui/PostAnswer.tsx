import type { ComponentProps } from "react";

/** The answer to a form post: a status when it worked, an alert when it didn't; nothing before a post. */
export function PostAnswer({
  answer,
  className = "rounded-lg p-4",
  children,
  ...paragraph
}: {
  answer: { ok: boolean; message: string } | null | undefined;
} & Omit<ComponentProps<"p">, "role">) {
  if (!answer) return null;
  return (
    <p
      {...paragraph}
      role={answer.ok ? "status" : "alert"}
      className={`${className} ${answer.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}
    >
      {answer.message}
      {children}
    </p>
  );
}
