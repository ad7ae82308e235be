import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "../../server/catalog/staff-actor.ts";
import { remindExpiringCertificates } from "../../server/tax/certificate-reminders.ts";
import {
  certificateFile,
  certificateFileType,
  companyCertificates,
  decideCertificate,
  staffCertificates,
  uploadCertificate,
  verifiedCertificates,
  type CertificateUpload,
} from "../../server/tax/certificates.ts";
import { usTaxBasis } from "../../server/tax/order-tax.ts";
import { readUsTaxTables, saveUsStates } from "../../server/tax/us-tax-settings.ts";
import { dialects, freshDb, mailsTo, type TestDb } from "./databases.ts";
import { insertCompany, insertMember } from "./trade-support.ts";

const admin: StaffActor = { userId: "admin-1", name: "Ada Admin", role: "admin" };
const staff: StaffActor = { userId: "staff-1", name: "Sam Staff", role: "staff" };
const customer: StaffActor = { userId: "cust-1", name: "Cy Customer", role: "customer" };
const PDF = new TextEncoder().encode("%PDF-1.4\n% a certificate\n");
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const now = new Date("2026-12-07T12:00:00Z");
const siteUrl = "http://localhost:3000";

describe("certificateFileType", () => {
  it("knows a PDF, JPEG, PNG and WebP by their first bytes, and nothing else", () => {
    expect(certificateFileType(PDF)).toBe("application/pdf");
    expect(certificateFileType(PNG)).toBe("image/png");
    expect(certificateFileType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(certificateFileType(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    for (const bad of ["<html>", "GIF89a", "RIFF\0\0\0\0WAVE", ""])
      expect(certificateFileType(new TextEncoder().encode(bad))).toBeNull();
  });
});

describe.each(dialects)("exemption certificates (%s)", (kind) => {
  let t: TestDb;
  let uploadDir: string;
  let orgId: string;
  let ownerId: string;
  let buyerId: string;
  beforeAll(async () => {
    t = await freshDb(kind);
    uploadDir = mkdtempSync(path.join(os.tmpdir(), "certificates-"));
    orgId = await insertCompany(t.db, { country: "US" });
    ownerId = await insertMember(t.db, orgId, "owner");
    buyerId = await insertMember(t.db, orgId, "buyer");
  });
  afterAll(async () => {
    await t?.drop();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  const owner = () => ({ organizationId: orgId, userId: ownerId, country: "US", mayManage: true });
  const upload = (input: Partial<CertificateUpload>, who = owner()) =>
    uploadCertificate(
      t.db,
      who,
      { state: "TX", number: "TX-1234", expiresOn: "2027-06-30", file: PDF, ...input },
      { uploadDir, now },
    );
  const files = () =>
    existsSync(path.join(uploadDir, "certificates")) ? readdirSync(path.join(uploadDir, "certificates")) : [];

  it("an owner uploads a certificate: stored owner-only under a random name, waiting for staff", async () => {
    const { id } = await upload({});
    const [row] = await companyCertificates(t.db, orgId);
    expect(row).toMatchObject({
      id,
      state: "TX",
      state_name: "Texas",
      number: "TX-1234",
      expires_on: "2027-06-30",
      status: "pending",
      file_type: "application/pdf",
    });
    const [name] = files();
    expect(name).toMatch(/^[0-9a-f]{32}$/);
    expect(statSync(path.join(uploadDir, "certificates", name)).mode & 0o777).toBe(0o600);
    const file = await certificateFile(t.db, id, uploadDir);
    expect(file).toMatchObject({ organizationId: orgId, type: "application/pdf", state: "TX" });
    expect(new Uint8Array(file.bytes)).toEqual(PDF);
    expect((await staffCertificates(t.db, "pending")).map((c) => c.id)).toContain(id);
  });

  it("refuses bad input field by field, and keeps no file of a refused upload", async () => {
    const before = files().length;
    const cases: [Partial<CertificateUpload>, string, RegExp][] = [
      [{ state: "ZZ" }, "state", /Choose the state/],
      [{ number: "" }, "number", /certificate number/],
      [{ number: "see http://evil.example" }, "number", /letters, digits/],
      [{ number: "x".repeat(41) }, "number", /up to 40/],
      [{ expiresOn: "2027-02-30" }, "expiresOn", /last day/],
      [{ expiresOn: "next year" }, "expiresOn", /last day/],
      [{ expiresOn: "2026-12-06" }, "expiresOn", /already expired/],
      [{ expiresOn: "2040-01-01" }, "expiresOn", /within 10 years/],
      [{ file: null }, "file", /Choose the certificate's file/],
      [{ file: new TextEncoder().encode("<script>alert(1)</script>") }, "file", /PDF, JPEG, PNG or WebP/],
      [{ file: new Uint8Array(10 * 1024 * 1024 + 1).fill(0x25) }, "file", /10 MB/],
    ];
    for (const [input, field, message] of cases)
      await expect(upload(input), `${field}: ${String(message)}`).rejects.toMatchObject({
        field,
        status: 400,
        message: expect.stringMatching(message),
      });
    expect(files().length).toBe(before);
  });

  it("only a US company's owner may upload", async () => {
    await expect(upload({}, { ...owner(), userId: buyerId, mayManage: false })).rejects.toMatchObject({
      status: 403,
      code: "NOT_OWNER",
    });
    const gb = await insertCompany(t.db, { country: "GB" });
    await expect(
      upload({}, { organizationId: gb, userId: ownerId, country: "GB", mayManage: true }),
    ).rejects.toMatchObject({ code: "NOT_US_COMPANY" });
  });

  it("staff verify one: audited, the uploader mailed, and the company's Texas orders carry no sales tax", async () => {
    const { id } = await upload({ number: "TX-VERIFY", file: PNG });
    const before = await companyCertificates(t.db, orgId);
    const version = before.find((c) => c.id === id)!.version;
    expect(
      await decideCertificate(t.db, staff, id, { decision: "verify", reason: "", version }, { siteUrl, now }),
    ).toBe("verified");
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("object_type", "=", "tax_exemption_certificate")
      .where("object_id", "=", String(id))
      .execute();
    expect(audit.map((a) => [a.action, a.actor_id])).toEqual([["tax.certificate.verify", "staff-1"]]);
    const owner = await t.db.selectFrom("user").select("email").where("id", "=", ownerId).executeTakeFirstOrThrow();
    const mails = await mailsTo(t.db, owner.email);
    expect(mails.map((m) => m.subject)).toContain("Your exemption certificate for Texas is verified");

    // Deciding it again, or with an old version, is refused.
    await expect(
      decideCertificate(t.db, staff, id, { decision: "reject", reason: "no", version: version + 1 }, { siteUrl, now }),
    ).rejects.toMatchObject({ status: 409 });
    await expect(
      decideCertificate(t.db, staff, 999_999, { decision: "verify", reason: "", version: 0 }, { siteUrl, now }),
    ).rejects.toMatchObject({ status: 404 });

    await saveUsStates(t.db, admin, [
      { code: "TX", rate: "6.25", shippingTaxable: true, collect: true, version: 0, shown: null },
    ]);
    const certs = await verifiedCertificates(t.db, orgId, "2026-12-07");
    expect(certs).toEqual([{ id, state: "TX", expiresOn: "2027-06-30" }]);
    const tables = await readUsTaxTables(t.db, "73301");
    expect(usTaxBasis({ state: "TX", zip: "73301" }, tables, certs, "2026-12-07")).toEqual({
      kind: "exempt",
      state: "TX",
      certificateId: id,
    });
    // After its last day it no longer applies.
    expect(await verifiedCertificates(t.db, orgId, "2027-07-01")).toEqual([]);
  });

  it("staff reject one with a reason the company reads; a reason is required; customers can't decide", async () => {
    const { id } = await upload({ state: "FL", number: "FL-REJECT" });
    await expect(
      decideCertificate(t.db, staff, id, { decision: "reject", reason: "  ", version: 0 }, { siteUrl, now }),
    ).rejects.toMatchObject({ field: "reason", status: 400 });
    await expect(
      decideCertificate(t.db, customer, id, { decision: "verify", reason: "", version: 0 }, { siteUrl, now }),
    ).rejects.toMatchObject({ status: 403 });
    expect(
      await decideCertificate(
        t.db,
        staff,
        id,
        { decision: "reject", reason: "The certificate is not signed.", version: 0 },
        { siteUrl, now },
      ),
    ).toBe("rejected");
    const row = (await companyCertificates(t.db, orgId)).find((c) => c.id === id)!;
    expect(row).toMatchObject({ status: "rejected", reason: "The certificate is not signed." });
    const owner = await t.db.selectFrom("user").select("email").where("id", "=", ownerId).executeTakeFirstOrThrow();
    const mail = (await mailsTo(t.db, owner.email)).find(
      (m) => m.subject === "Your exemption certificate for Florida was not accepted",
    );
    expect(mail?.text_body).toContain("Our reason: The certificate is not signed.");
    expect(await verifiedCertificates(t.db, orgId, "2026-12-07")).not.toContainEqual(expect.objectContaining({ id }));
  });

  it("two staff deciding at once: one decision stands", async () => {
    const { id } = await upload({ state: "NY", number: "NY-RACE" });
    const results = await Promise.allSettled([
      decideCertificate(t.db, staff, id, { decision: "verify", reason: "", version: 0 }, { siteUrl, now }),
      decideCertificate(t.db, admin, id, { decision: "reject", reason: "Wrong company", version: 0 }, { siteUrl, now }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const audits = await t.db
      .selectFrom("audit_log")
      .select("action")
      .where("object_type", "=", "tax_exemption_certificate")
      .where("object_id", "=", String(id))
      .execute();
    expect(audits).toHaveLength(1);
  });

  it("mails the uploader once, 30 days before a verified certificate's last day", async () => {
    const soon = await upload({ state: "WA", number: "WA-SOON", expiresOn: "2027-01-05" });
    const later = await upload({ state: "OH", number: "OH-LATER", expiresOn: "2027-03-01" });
    const waiting = await upload({ state: "PA", number: "PA-WAITING", expiresOn: "2027-01-01" });
    for (const { id } of [soon, later])
      await decideCertificate(t.db, staff, id, { decision: "verify", reason: "", version: 0 }, { siteUrl, now });
    expect(await remindExpiringCertificates(t.db, now, siteUrl)).toBe(1);
    expect(await remindExpiringCertificates(t.db, now, siteUrl)).toBe(0);
    const owner = await t.db.selectFrom("user").select("email").where("id", "=", ownerId).executeTakeFirstOrThrow();
    const subjects = (await mailsTo(t.db, owner.email)).map((m) => m.subject);
    expect(subjects.filter((s) => s.includes("expires on"))).toEqual([
      "Your exemption certificate for Washington expires on 2027-01-05",
    ]);
    expect(waiting.id).toBeGreaterThan(0);
  });
});
