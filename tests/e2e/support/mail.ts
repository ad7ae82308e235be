import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";

const mailDir = () => path.resolve(".tmp", `e2e-${process.env.E2E_PORT ?? 3100}`, "mail");

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export interface ReceivedMail {
  file: string;
  raw: string;
  to: string;
  subject: string;
  body: string;
}

function readAll(): ReceivedMail[] {
  let files: string[] = [];
  try {
    files = readdirSync(mailDir())
      .filter((f) => f.endsWith(".eml"))
      .sort();
  } catch {
    return [];
  }
  return files.map((file) => {
    const raw = readFileSync(path.join(mailDir(), file), "utf8");
    const header = (name: string) => new RegExp(`^${name}: (.*)$`, "mi").exec(raw)?.[1]?.trim() ?? "";
    return { file, raw, to: header("To"), subject: header("Subject"), body: decodeQuotedPrintable(raw) };
  });
}

/** Waits for a mail received by the local SMTP server for `to` whose subject matches. */
export async function waitForMail(
  to: string,
  subject: RegExp,
  options: { after?: number; timeout?: number } = {},
): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      () => {
        found = readAll()
          .filter((m) => m.to.toLowerCase().includes(to.toLowerCase()) && subject.test(m.subject))
          .filter((m) => !options.after || Number(m.file.split("-")[0]) >= options.after)
          .at(-1);
        return Boolean(found);
      },
      { timeout: options.timeout ?? 15_000, message: `mail to ${to} matching ${subject}` },
    )
    .toBe(true);
  return found!;
}

/** The first link in a mail that starts with the given site-relative path. */
export function linkIn(mail: ReceivedMail, pathPrefix: string): string {
  const match = new RegExp(`https?://[^\\s"'<>]+${pathPrefix.replace(/[/?]/g, "\\$&")}[^\\s"'<>]*`).exec(mail.body);
  if (!match) throw new Error(`No ${pathPrefix} link in mail "${mail.subject}"`);
  return match[0].replace(/&amp;/g, "&");
}
