import type { ReactNode } from "react";

/** A section named by its `<h2>` heading (`aria-labelledby`), then what it holds. */
export function HeadedSection({
  id,
  title,
  headingClassName,
  className,
  children,
}: {
  /** The heading's id, which labels the section. */
  id: string;
  title: ReactNode;
  headingClassName: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className={headingClassName}>
        {title}
      </h2>
      {children}
    </section>
  );
}
