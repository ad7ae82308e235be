import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { FooterContents } from "../components/layout/Footer.tsx";

const byYear = new Map<number, string>();

/** The footer's contents for a year as React renders them inside a document (see RenderedFooter). */
export function renderedFooter(year: number): { year: number; html: string } {
  let html = byYear.get(year);
  if (html === undefined) {
    html = renderToString(createElement(FooterContents, { year }));
    byYear.set(year, html);
  }
  return { year, html };
}
