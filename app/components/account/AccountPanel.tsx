import type { ReactNode } from "react";

/** One bordered panel of the account page, named by its heading; `wide` spans both columns. */
export function AccountPanel({
  id,
  headingId,
  title,
  wide = false,
  children,
}: {
  id?: string;
  headingId: string;
  title: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={`rounded-xl border border-slate-200 p-6${wide ? " md:col-span-2" : ""}`}
    >
      <h2 id={headingId} className="text-lg font-bold text-ink">
        {title}
      </h2>
      {children}
    </section>
  );
}
