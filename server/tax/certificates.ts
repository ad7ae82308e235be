import { randomBytes } from "node:crypto";
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { writeAudit } from "../audit/audit.ts";
import { assertCan, type StaffActor } from "../catalog/staff-actor.ts";
import type { Db } from "../db/connection.ts";
import type { CertificateStatus } from "../db/schema-tax.ts";
import { ConflictError, InvalidError, NotAllowedError, NotFoundError } from "../errors.ts";
import { enqueueMail } from "../mail/queue.ts";
import { OWNER_ONLY_DIR, OWNER_ONLY_FILE } from "../ops/private-files.ts";
import { certificateRejectedMail, certificateVerifiedMail, type CertificateMailFacts } from "./certificate-mails.ts";
import type { ExemptionCertificate } from "./order-tax.ts";

/**
 * US sales-tax exemption certificates (issue 51): a US trade company uploads one per state (PDF
 * or image, number, last valid day); staff verify or reject it (audit row, mail); a verified one
 * removes sales tax from the company's orders delivered to that state until the end of its last
 * day (`verifiedCertificates`, read by the checkout's tax rules).
 */

const MAX_CERTIFICATE_BYTES = 10 * 1024 * 1024;
/** Letters, digits, spaces and hyphens: a certificate number never reads as a link in a mail. */
const NUMBER = /^[A-Za-z0-9][A-Za-z0-9 -]{0,39}$/;
const MAX_REASON = 500;
const MAX_YEARS_AHEAD = 10;

/** The file's media type from its first bytes; null for anything but a PDF, JPEG, PNG or WebP. */
export function certificateFileType(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return "application/pdf";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === "WEBP") return "image/webp";
  return null;
}

const isDay = (text: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

export interface CertificateUpload {
  state: string;
  number: string;
  expiresOn: string;
  file: Uint8Array | null;
}

export type CertificateField = "state" | "number" | "expiresOn" | "file";

/** Thrown with each field's problem, so the form shows it beside the field. */
export class CertificateInvalidError extends InvalidError {
  readonly field: CertificateField | "reason";
  constructor(field: CertificateField | "reason", message: string) {
    super("CERTIFICATE_INVALID", message);
    this.field = field;
  }
}

function checkUpload(input: CertificateUpload, states: Set<string>, today: string): string {
  const fail = (field: CertificateField, message: string): never => {
    throw new CertificateInvalidError(field, message);
  };
  if (!states.has(input.state)) fail("state", "Choose the state the certificate is for.");
  if (!NUMBER.test(input.number.trim()))
    fail("number", "Enter the certificate number: letters, digits, spaces and hyphens, up to 40.");
  if (!isDay(input.expiresOn)) fail("expiresOn", "Enter the last day the certificate is valid, like 2027-12-31.");
  if (input.expiresOn < today) fail("expiresOn", "This certificate has already expired.");
  if (Number(input.expiresOn.slice(0, 4)) > Number(today.slice(0, 4)) + MAX_YEARS_AHEAD)
    fail("expiresOn", `Enter a date within ${MAX_YEARS_AHEAD} years.`);
  if (!input.file || input.file.byteLength === 0) fail("file", "Choose the certificate's file.");
  if (input.file!.byteLength > MAX_CERTIFICATE_BYTES) fail("file", "The file must be 10 MB or smaller.");
  return certificateFileType(input.file!) ?? fail("file", "Upload the certificate as a PDF, JPEG, PNG or WebP file.");
}

const certificateDir = (uploadDir: string) => path.join(uploadDir, "certificates");

/** Stores a company's new certificate, waiting for staff. Only a US company's owner may. */
export async function uploadCertificate(
  db: Db,
  who: { organizationId: string; userId: string; country: string; mayManage: boolean },
  input: CertificateUpload,
  options: { uploadDir: string; now?: Date },
): Promise<{ id: number }> {
  if (who.country !== "US") throw new NotAllowedError("NOT_US_COMPANY", "Exemption certificates are for US companies.");
  if (!who.mayManage) throw new NotAllowedError("NOT_OWNER", "Only your company's owners can upload certificates.");
  const now = options.now ?? new Date();
  const states = new Set((await db.selectFrom("tax_us_states").select("code").execute()).map((s) => s.code));
  const fileType = checkUpload(input, states, now.toISOString().slice(0, 10));
  const dir = certificateDir(options.uploadDir);
  await mkdir(dir, { recursive: true, mode: OWNER_ONLY_DIR });
  const fileKey = `${randomBytes(16).toString("hex")}`;
  await writeFile(path.join(dir, fileKey), input.file!, { mode: OWNER_ONLY_FILE, flag: "wx" });
  try {
    const row = await db
      .insertInto("tax_exemption_certificates")
      .values({
        organization_id: who.organizationId,
        state: input.state,
        number: input.number.trim(),
        expires_on: input.expiresOn,
        file_key: fileKey,
        file_type: fileType,
        uploaded_by: who.userId,
        uploaded_at: now.toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: row.id };
  } catch (error) {
    await unlink(path.join(dir, fileKey)).catch(() => undefined);
    throw error;
  }
}

const listed = (db: Db) =>
  db
    .selectFrom("tax_exemption_certificates as t")
    .innerJoin("tax_us_states as s", "s.code", "t.state")
    .innerJoin("companies as c", "c.organization_id", "t.organization_id")
    .select([
      "t.id",
      "t.organization_id",
      "t.state",
      "s.name as state_name",
      "t.number",
      "t.expires_on",
      "t.status",
      "t.reason",
      "t.uploaded_at",
      "t.decided_at",
      "t.version",
      "t.file_type",
      "c.name as company_name",
    ]);

export type CertificateRow = Awaited<ReturnType<ReturnType<typeof listed>["execute"]>>[number];

/** A company's certificates, newest first. */
export function companyCertificates(db: Db, organizationId: string): Promise<CertificateRow[]> {
  return listed(db).where("t.organization_id", "=", organizationId).orderBy("t.id", "desc").execute();
}

/** Every certificate for staff: those waiting first, then the newest. */
export function staffCertificates(db: Db, status?: CertificateStatus): Promise<CertificateRow[]> {
  let q = listed(db);
  if (status) q = q.where("t.status", "=", status);
  return q
    .orderBy((eb) => eb.case().when("t.status", "=", "pending").then(0).else(1).end())
    .orderBy("t.id", "desc")
    .limit(500)
    .execute();
}

export async function certificateById(db: Db, id: number): Promise<CertificateRow | undefined> {
  return listed(db).where("t.id", "=", id).executeTakeFirst();
}

/** The certificate's file, for its company's members or staff (the caller checks which). */
export async function certificateFile(db: Db, id: number, uploadDir: string) {
  const row = await db
    .selectFrom("tax_exemption_certificates")
    .select(["organization_id", "file_key", "file_type", "state"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw new NotFoundError("NO_CERTIFICATE", "No such certificate.");
  const bytes = await readFile(path.join(certificateDir(uploadDir), row.file_key));
  return { organizationId: row.organization_id, type: row.file_type, state: row.state, bytes };
}

/** Who to mail about a certificate: whoever uploaded it, with the facts the mails state. */
export async function certificateMailFacts(
  db: Db,
  id: number,
  siteUrl: string,
): Promise<CertificateMailFacts | undefined> {
  const row = await db
    .selectFrom("tax_exemption_certificates as t")
    .innerJoin("tax_us_states as s", "s.code", "t.state")
    .innerJoin("companies as c", "c.organization_id", "t.organization_id")
    .innerJoin("user as u", "u.id", "t.uploaded_by")
    .select(["u.email", "c.name as company_name", "s.name as state_name", "t.number", "t.expires_on"])
    .where("t.id", "=", id)
    .executeTakeFirst();
  return row
    ? {
        to: row.email,
        companyName: row.company_name,
        stateName: row.state_name,
        number: row.number,
        expiresOn: row.expires_on,
        link: `${siteUrl}/account/company/tax-exemptions`,
      }
    : undefined;
}

export interface CertificateDecision {
  decision: "verify" | "reject";
  reason: string;
  /** The certificate's version when staff opened it. */
  version: number;
}

/** Staff verify or reject a waiting certificate: one audit row and one mail to whoever uploaded it. */
export async function decideCertificate(
  db: Db,
  actor: StaffActor,
  id: number,
  input: CertificateDecision,
  options: { siteUrl: string; now?: Date },
): Promise<CertificateStatus> {
  assertCan(actor, { tax: ["verify"] });
  const now = options.now ?? new Date();
  const reason = input.reason.trim();
  if (input.decision === "reject" && (reason.length === 0 || reason.length > MAX_REASON))
    throw new CertificateInvalidError("reason", `Give the company a reason, up to ${MAX_REASON} characters.`);
  const status: CertificateStatus = input.decision === "verify" ? "verified" : "rejected";
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("tax_exemption_certificates")
      .set({
        status,
        reason: status === "rejected" ? reason : null,
        decided_by: actor.userId,
        decided_at: now.toISOString(),
        version: input.version + 1,
      })
      .where("id", "=", id)
      .where("status", "=", "pending")
      .where("version", "=", input.version)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) {
      const exists = await trx
        .selectFrom("tax_exemption_certificates")
        .select("id")
        .where("id", "=", id)
        .executeTakeFirst();
      if (!exists) throw new NotFoundError("NO_CERTIFICATE", "No such certificate.");
      throw new ConflictError(
        "CERTIFICATE_DECIDED",
        "Someone else decided this certificate first. Its page shows what they decided.",
      );
    }
    await writeAudit(
      trx,
      actor,
      {
        action: `tax.certificate.${input.decision}`,
        objectType: "tax_exemption_certificate",
        objectId: id,
        before: { status: "pending" },
        after: status === "rejected" ? { status, reason } : { status },
      },
      now,
    );
    const facts = await certificateMailFacts(trx, id, options.siteUrl);
    if (facts)
      await enqueueMail(
        trx,
        status === "verified" ? certificateVerifiedMail(facts) : certificateRejectedMail({ ...facts, reason }),
      );
    return status;
  });
}

/** A company's verified certificates still valid on `today` (YYYY-MM-DD): what the tax rules take. */
export async function verifiedCertificates(
  db: Db,
  organizationId: string,
  today: string,
): Promise<ExemptionCertificate[]> {
  const rows = await db
    .selectFrom("tax_exemption_certificates")
    .select(["id", "state", "expires_on"])
    .where("organization_id", "=", organizationId)
    .where("status", "=", "verified")
    .where("expires_on", ">=", today)
    .orderBy("expires_on", "desc")
    .execute();
  return rows.map((r) => ({ id: r.id, state: r.state, expiresOn: r.expires_on }));
}
