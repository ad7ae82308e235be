import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

/** The rule sets the store promises: WCAG 2.0/2.1 A and AA, WCAG 2.2 AA, and axe's best practices. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * Runs axe on the page as it is now and fails with a readable list of the violations:
 * rule id, impact, help text, the help URL and every offending element's target.
 * `exclude` and `disableRules` are for a known, separately tracked app bug only.
 */
export async function expectNoAxeViolations(
  page: Page,
  options: { exclude?: string[]; disableRules?: string[] } = {},
): Promise<void> {
  await test.step(`axe scan of ${new URL(page.url()).pathname}`, () => scan(page, options), { box: true });
}

async function scan(page: Page, options: { exclude?: string[]; disableRules?: string[] }): Promise<void> {
  // Only violations are reported, so axe skips collecting details of passing nodes (faster).
  // axe.run in the page itself ("legacy mode"): the default splits the run and finishes it in a
  // second, blank page, a new renderer per scan. Our pages have no frame of our own origin
  // (the contact page's map is another site's, whose content is not ours to test).
  let builder = new AxeBuilder({ page })
    .withTags(AXE_TAGS)
    .options({ resultTypes: ["violations"] })
    .setLegacyMode();
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  if (options.disableRules?.length) builder = builder.disableRules(options.disableRules);
  const results = await builder.analyze();
  const report = results.violations.map((v) => {
    const targets = v.nodes.map(
      (n) =>
        `    - ${n.target.join(" ")}${n.failureSummary ? `\n      ${n.failureSummary.replace(/\n/g, "\n      ")}` : ""}`,
    );
    return `${v.id} (${v.impact ?? "n/a"}): ${v.help}\n  ${v.helpUrl}\n${targets.join("\n")}`;
  });
  expect(report, `${report.length} axe violation(s) on ${page.url()}:\n${report.join("\n\n")}`).toEqual([]);
}
