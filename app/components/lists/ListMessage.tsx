/** The answer to the last post: a status when it worked, an alert when it didn't. */
export function ListMessage({
  answer,
  children,
}: {
  answer: { ok: boolean; message: string } | null | undefined;
  children?: React.ReactNode;
}) {
  if (!answer) return <div role="status" className="sr-only" />;
  return (
    <p
      role={answer.ok ? "status" : "alert"}
      className={`rounded-lg p-4 ${answer.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}
    >
      {answer.message}
      {children}
    </p>
  );
}
