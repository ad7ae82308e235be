/**
 * Learns the live site before fuzzing it: visits every route that has no params, as a guest, as
 * a member and (once the store has roles) as staff, keeps each page's post forms and links, fills route params with values seen in
 * links, submits each kind of form once with the page's own values (which fills the carts, so the
 * cart and checkout forms show up), then visits everything again.
 */
import { send } from "../support/http.ts";
import type { FuzzIdentities } from "./identities.ts";
import { scrapeForms, scrapeLinks, type ScrapedForm } from "./html-forms.ts";
import { patternParams, patternRegExp, type FuzzTarget } from "./targets.ts";

export interface Discovery {
  /** One form per (action path, field names), with every value seen for each field. */
  forms: ScrapedForm[];
  /** Real param values seen in links, by target pattern and param name. */
  samples: Map<string, Record<string, string[]>>;
  /** Query parameters seen in links: name → values. */
  queryValues: Record<string, string[]>;
  pagesVisited: number;
}

const formKey = (f: ScrapedForm) =>
  `${f.action.split("?")[0]}|${f.fields
    .map((x) => x.name)
    .sort()
    .join(",")}`;

function mergeForm(into: Map<string, ScrapedForm>, form: ScrapedForm) {
  const key = formKey(form);
  const existing = into.get(key);
  if (!existing) return void into.set(key, structuredClone(form));
  for (const field of form.fields) {
    const target = existing.fields.find((f) => f.name === field.name)!;
    for (const v of field.values) if (!target.values.includes(v) && target.values.length < 20) target.values.push(v);
  }
}

export async function discover(baseUrl: string, targets: FuzzTarget[], ids: FuzzIdentities): Promise<Discovery> {
  const origin = new URL(baseUrl).origin;
  const forms = new Map<string, ScrapedForm>();
  const samples = new Map<string, Record<string, string[]>>();
  const queryValues: Record<string, string[]> = {};
  const withParams = targets.filter((t) => patternParams(t.pattern).length > 0 && t.source === "app");
  const matchers = withParams.map((t) => ({ target: t, re: patternRegExp(t.pattern) }));
  let pagesVisited = 0;

  const learnLink = (link: string) => {
    const url = new URL(link, origin);
    for (const [name, value] of url.searchParams) {
      const values = (queryValues[name] ??= []);
      if (values.length < 20 && !values.includes(value)) values.push(value);
    }
    for (const { target, re } of matchers) {
      const m = re.exec(url.pathname);
      if (!m?.groups) continue;
      const bucket = samples.get(target.pattern) ?? {};
      for (const [name, value] of Object.entries(m.groups)) {
        if (value === undefined) continue;
        const key = name === "splat" ? "*" : name;
        const values = (bucket[key] ??= []);
        if (values.length < 10 && !values.includes(value)) values.push(value);
      }
      samples.set(target.pattern, bucket);
      break;
    }
  };

  const visit = async (path: string, cookie: string) => {
    const res = await send(baseUrl, { method: "GET", path, headers: cookie ? { cookie } : {} });
    pagesVisited++;
    if (!String(res.headers["content-type"] ?? "").includes("text/html")) return;
    const html = res.text();
    for (const form of scrapeForms(html, path, origin)) mergeForm(forms, form);
    for (const link of scrapeLinks(html, path, origin)) learnLink(link);
  };

  const crawl = async () => {
    const staticPages = targets
      .filter((t) => t.source === "app" && patternParams(t.pattern).length === 0)
      .map((t) => t.pattern);
    const paramPages = withParams.flatMap((t) => {
      const bucket = samples.get(t.pattern);
      if (!bucket) return [];
      const values = Object.fromEntries(Object.entries(bucket).map(([k, v]) => [k, v[0]]));
      return [
        t.pattern
          .split("/")
          .map((s) => (s === "*" ? values["*"] : s.startsWith(":") ? values[s.slice(1).replace(/\?$/, "")] : s))
          .filter((s) => s !== undefined)
          .join("/"),
      ];
    });
    for (const cookie of ids.shoppers.map((s) => s.jar.header())) {
      for (const page of [...staticPages, ...paramPages]) await visit(page, cookie);
    }
  };

  await crawl();
  // Submit each kind of form once, as the page filled it, as each identity.
  for (const form of [...forms.values()]) {
    const fields: [string, string][] = form.fields.filter((f) => f.values.length).map((f) => [f.name, f.values[0]]);
    for (const shopper of ids.shoppers) {
      await shopper.postForm(form.action, fields).catch(() => undefined);
    }
  }
  await ids.refresh();
  await crawl();
  return { forms: [...forms.values()], samples, queryValues, pagesVisited };
}
