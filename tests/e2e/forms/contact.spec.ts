import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "../support/axe.ts";
import { expect, mailTo, open, test, uniqueEmail } from "./server.ts";

const FIELDS = ["Name", "Email", "Subject", "Message"] as const;

async function expectFieldError(page: Page, label: (typeof FIELDS)[number], message: string) {
  const field = page.getByLabel(label, { exact: true });
  const id = await field.getAttribute("id");
  await expect(page.locator(`#${id}-error`)).toHaveText(message);
  await expect(field).toHaveAttribute("aria-describedby", `${id}-error`);
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(message);
}

test.describe("contact form with JavaScript", () => {
  test("every required field gets its own message, tied with aria-describedby; typed values stay", async ({ page }) => {
    await open(page, "/contact");
    await expect(page.getByRole("heading", { name: "Leave a message" })).toBeVisible();
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await page.getByRole("button", { name: "Send" }).click();
    await expectFieldError(page, "Name", "Enter your name.");
    await expectFieldError(page, "Email", "Enter your email address.");
    await expectFieldError(page, "Subject", "Enter a subject.");
    await expectFieldError(page, "Message", "Enter your message.");
    await expect(page.getByLabel("Name", { exact: true })).toBeFocused();

    await page.getByLabel("Name", { exact: true }).fill("Jane Doe");
    await page.getByLabel("Email", { exact: true }).fill("jane@");
    await page.getByRole("button", { name: "Send" }).click();
    await expectFieldError(page, "Email", "Enter a valid email address, like name@example.com.");
    await expect(page.getByLabel("Name", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Jane Doe");
    await expect(page.getByLabel("Email", { exact: true })).toBeFocused();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await expectNoAxeViolations(page, { exclude: ["iframe"] });
  });

  test("a valid message shows success in the page, reaches the store inbox and the sender", async ({ page, forms }) => {
    const email = uniqueEmail("jane");
    await open(page, "/contact");
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 2));
    await page.getByLabel("Name", { exact: true }).fill("Jane <b>Doe</b>");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Subject", { exact: true }).fill("Trade account");
    await page
      .getByLabel("Message", { exact: true })
      .fill("Hello!\n<script>alert(1)</script>\nCan I open a trade account?");
    await page.getByRole("button", { name: "Send" }).click();

    const status = page.locator("#contact-status");
    await expect(status).toHaveText(/Thanks for your message!/);
    await expect(status).toBeFocused();
    for (const label of FIELDS) await expect(page.getByLabel(label, { exact: true })).toHaveValue("");
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(2);

    const toStore = await forms.sink.waitFor(
      (m) => m.envelopeTo.includes("inbox@toolhub.test") && m.headers["reply-to"]?.includes(email),
    );
    expect(toStore.headers.subject).toBe("Contact form: Trade account");
    expect(toStore.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(toStore.html).not.toContain("<script>");
    expect(toStore.text).toContain("<script>alert(1)</script>");
    const ack = await mailTo(forms.sink, email, /received your message/);
    // The acknowledgement is in the store's own words: nothing typed in the form comes back.
    expect(ack.text).toContain("Your reference: message #");
    for (const typed of ["Trade account", "Jane", "Can I open a trade account?", "alert(1)"])
      expect(ack.text + ack.html).not.toContain(typed);
  });

  test("the honeypot is hidden from people and assistive technology", async ({ page }) => {
    await open(page, "/contact");
    const trap = page.locator('input[name="website"]');
    await expect(trap).toHaveCount(1);
    await expect(trap).not.toBeInViewport();
    await expect(trap).toHaveAttribute("tabindex", "-1");
    await expect(page.locator('[aria-hidden="true"]:has(input[name="website"])')).toHaveCount(1);
    await expect(page.getByRole("textbox", { name: /leave this field empty/i })).toHaveCount(0);
  });
});

test.describe("contact form without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a plain POST re-renders the page with the errors and what was typed, then succeeds", async ({
    page,
    forms,
  }) => {
    await page.goto("/contact");
    await page.getByLabel("Name", { exact: true }).fill("No Script Sam");
    await page.getByLabel("Message", { exact: true }).fill("Typed without JavaScript");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.locator("#contact-status")).toHaveText("Please correct the highlighted fields.");
    await expectFieldError(page, "Email", "Enter your email address.");
    await expectFieldError(page, "Subject", "Enter a subject.");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("No Script Sam");
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("Typed without JavaScript");

    const email = uniqueEmail("sam");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Subject", { exact: true }).fill("Opening hours");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.locator("#contact-status")).toHaveText(/Thanks for your message!/);
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");
    await mailTo(forms.sink, email, /received your message/);
  });
});
