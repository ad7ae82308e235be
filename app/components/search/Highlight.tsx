import { Fragment } from "react";
import type { TextSegment } from "../../../server/catalog/search-types.ts";
import { escapeHtml } from "../../lib/html-escape.ts";

const MARK_CLASS = "rounded-sm bg-brand-100 px-0.5 text-inherit";

/** Text with its matching parts in <mark>. Segments are plain text, so React escapes everything. */
export function Highlight({ segments }: { segments: readonly TextSegment[] }) {
  return (
    <>
      {segments.map((segment, i) =>
        segment.match ? (
          <mark key={i} className={MARK_CLASS}>
            {segment.text}
          </mark>
        ) : (
          <Fragment key={i}>{segment.text}</Fragment>
        ),
      )}
    </>
  );
}

/** The same as HTML, every segment's text escaped. */
export function highlightHtml(segments: readonly TextSegment[]): string {
  let html = "";
  for (const segment of segments) html += segment.match ? `<mark class="${MARK_CLASS}">${escapeHtml(segment.text)}</mark>` : escapeHtml(segment.text);
  return html;
}
