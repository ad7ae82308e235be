/** Markup put into the test's document inside a `tag` element, for a test to query as a page would. */
export function inDocument(html: string, tag: "div" | "li" = "div"): HTMLElement {
  const holder = document.createElement(tag);
  holder.innerHTML = html;
  document.body.append(holder);
  return holder;
}
