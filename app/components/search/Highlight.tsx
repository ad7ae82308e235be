import { Fragment } from "react";
import type { TextSegment } from "../../../server/catalog/search-types.ts";

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
