let keepServerHtml = false;
const NO_HTML = { __html: "" };

/** Called by an island's entry before it hydrates: from then on each <Static> keeps the server's HTML. */
export function keepStaticParts(): void {
  keepServerHtml = true;
}

/**
 * A part of a page with nothing to hydrate (no handler, no state): links, images and text. Rendered
 * as usual on the server and under React Router's client. In an island it hydrates as one empty
 * element of the same tag, whose server-rendered contents React leaves as they are and never walks,
 * so the island spends no main-thread time on them. `children` must render a single `as` element.
 */
export function Static({ as: Tag, children }: { as: "section" | "footer"; children: React.ReactNode }) {
  if (!keepServerHtml) return children;
  return <Tag dangerouslySetInnerHTML={NO_HTML} suppressHydrationWarning />;
}
