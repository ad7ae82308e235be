import { PostAnswer } from "../ui/PostAnswer.tsx";

/** The answer to the last post: a status when it worked, an alert when it didn't. */
export function ListMessage({
  answer,
  children,
}: {
  answer: { ok: boolean; message: string } | null | undefined;
  children?: React.ReactNode;
}) {
  if (!answer) return <div role="status" className="sr-only" />;
  return <PostAnswer answer={answer}>{children}</PostAnswer>;
}
