import AxeBuilder from "@axe-core/playwright";
import { AXE_TAGS, expectNoAxeViolations } from "../support/axe.ts";
import { expect, linkAfter, mailTo, open, test, uniqueEmail } from "./server.ts";

const CONFIRM_SUBJECT = /Confirm your ToolHub Wholesale newsletter subscription/;

test.describe("newsletter with JavaScript", () => {
  test("an invalid email gets a message next to the field, tied with aria-describedby, without a page load", async ({
    page,
  }) => {
    await open(page, "/");
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const field = page.getByRole("textbox", { name: "Email address" });
    await field.fill("not-an-email");
    await page.getByRole("button", { name: "Subscribe" }).click();

    const message = page.locator("#newsletter-message");
    await expect(message).toHaveText("Enter a valid email address, like name@example.com.");
    await expect(field).toHaveAttribute("aria-describedby", "newsletter-message");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription("Enter a valid email address, like name@example.com.");
    await expect(field).toBeFocused();
    await expect(field).toHaveValue("not-an-email");
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    // The newsletter section itself (the rest of the home page is another suite's business).
    const results = await new AxeBuilder({ page })
      .withTags(AXE_TAGS)
      .include("section[aria-labelledby='newsletter-heading']")
      .analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });

  test("subscribe → confirmation mail → confirm → link reused → already subscribed → unsubscribe", async ({
    page,
    forms,
  }) => {
    const email = uniqueEmail("fan");
    await open(page, "/");
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
    await page.getByRole("textbox", { name: "Email address" }).fill(email);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.locator("#newsletter-message")).toHaveText(
      `Almost there! We've sent a confirmation link to ${email}. Open it to finish subscribing.`,
    );
    await expect(page.getByRole("textbox", { name: "Email address" })).toHaveValue("");
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);

    // The double opt-in link, from the mail the local SMTP server received.
    const mail = await mailTo(forms.sink, email, CONFIRM_SUBJECT);
    const confirm = linkAfter(mail, "Confirm subscription");
    const unsubscribe = linkAfter(mail, "Unsubscribe");
    expect(mail.headers["list-unsubscribe"]).toBe(`<${unsubscribe}>`);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail.html).toContain(unsubscribe);

    await open(page, confirm);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirm your subscription");
    await page.getByRole("button", { name: "Confirm subscription" }).click();
    await expect(page.getByRole("main").getByRole("status")).toHaveText(/Your subscription is confirmed/);

    await open(page, confirm);
    await expect(page.getByRole("main").getByRole("status")).toHaveText(
      "This link has already been used: your subscription is confirmed.",
    );

    await open(page, "/");
    await page.getByRole("textbox", { name: "Email address" }).fill(email);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.locator("#newsletter-message")).toHaveText(
      `${email} is already subscribed to our newsletter. Thanks for being with us!`,
    );

    await open(page, unsubscribe);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unsubscribe from the newsletter");
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("main").getByRole("status")).toHaveText(
      "You've been unsubscribed. You won't get any more newsletter emails from us.",
    );
    await open(page, unsubscribe);
    await expect(page.getByRole("main").getByRole("status")).toHaveText(/already unsubscribed/);
    await expectNoAxeViolations(page);
  });

  test("a made-up or expired confirmation link says so", async ({ page }) => {
    await open(page, "/newsletter/confirm?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Link expired or already used");
    await expect(page.getByRole("main").getByRole("status")).toHaveText(/expired or has already been used/);
  });

  test("one-click unsubscribe (RFC 8058) from a mail client works with a plain POST", async ({
    page,
    request,
    forms,
  }) => {
    const email = uniqueEmail("oneclick");
    await open(page, "/");
    await page.getByRole("textbox", { name: "Email address" }).fill(email);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.locator("#newsletter-message")).toContainText("Almost there!");
    const mail = await mailTo(forms.sink, email, CONFIRM_SUBJECT);
    const target = mail.headers["list-unsubscribe"].replace(/^<|>$/g, "");

    const res = await request.post(target, { form: { "List-Unsubscribe": "One-Click" } });
    expect(res.status()).toBe(200);
    await open(page, target);
    await expect(page.getByRole("main").getByRole("status")).toHaveText(/already unsubscribed/);
  });
});

test.describe("newsletter without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a plain POST shows the error with the typed value, then the confirmation; the opt-in works", async ({
    page,
    forms,
  }) => {
    await page.goto("/");
    await page.getByRole("textbox", { name: "Email address" }).fill("still wrong@");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page).toHaveURL(/\/newsletter$/);
    const field = page.getByRole("textbox", { name: "Email address" });
    await expect(page.locator("#newsletter-message")).toHaveText("Enter a valid email address, like name@example.com.");
    await expect(field).toHaveValue("still wrong@");
    await expect(field).toHaveAttribute("aria-describedby", "newsletter-message");
    await expect(field).toHaveAttribute("aria-invalid", "true");

    const email = uniqueEmail("nojs");
    await field.fill(email);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.locator("#newsletter-message")).toHaveText(
      `Almost there! We've sent a confirmation link to ${email}. Open it to finish subscribing.`,
    );

    const mail = await mailTo(forms.sink, email, CONFIRM_SUBJECT);
    await page.goto(linkAfter(mail, "Confirm subscription"));
    await page.getByRole("button", { name: "Confirm subscription" }).click();
    await expect(page.getByRole("main").getByRole("status")).toHaveText(/Your subscription is confirmed/);

    await page.goto(linkAfter(mail, "Unsubscribe"));
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("main").getByRole("status")).toHaveText(/You've been unsubscribed/);
  });
});
