import { randomBytes } from "node:crypto";
import { getAuth, type Auth } from "../auth/auth.ts";
import type { Db } from "../db/connection.ts";
import { ConflictError } from "../errors.ts";
import { logLine } from "../ops/log.ts";
import { COMPANY_NOT_CREATED_MESSAGE, removeOrphanOrganization, type CreateOrganization } from "./applications.ts";

/** Slug clashes tolerated before giving up (with 96 random bits, a clash means something is wrong). */
const SLUG_ATTEMPTS = 3;

/**
 * A fresh, unguessable slug for an approval's new organization. Nobody can take it beforehand: a
 * slug derived from the application (`trade-<id>`) could be claimed by any owner renaming theirs.
 */
export function newOrganizationSlug(): string {
  return `trade-${randomBytes(12).toString("hex")}`;
}

const isSlugTaken = (error: unknown) =>
  (error as { body?: { code?: string } })?.body?.code === "ORGANIZATION_ALREADY_EXISTS";

/**
 * The organization plugin's own create (a server call with the applicant's user id: Better Auth
 * makes them the owner). It always makes a new organization under a fresh slug and returns the id
 * the library answered with; it never looks one up, so it can't adopt an organization someone
 * else made. A slug clash is retried with another slug. Any other failure removes what this call
 * wrote (the organization under its own fresh slug, if it got that far) and is a readable 409.
 */
export function createOrganizationThroughAuth(
  db: Db,
  auth: Auth = getAuth(),
  slugs: () => string = newOrganizationSlug,
): CreateOrganization {
  return async ({ userId, name }) => {
    for (let attempt = 1; attempt <= SLUG_ATTEMPTS; attempt++) {
      const slug = slugs();
      try {
        const created = await auth.api.createOrganization({
          body: { name, slug, userId, keepCurrentActiveOrganization: true },
        });
        if (created?.id) return created.id;
        logLine("Trade approval: the organization plugin answered without an id");
      } catch (error) {
        // The library checks the slug before writing anything: nothing of ours to remove.
        if (isSlugTaken(error)) continue;
        logLine(`Trade approval: the organization could not be created: ${describe(error)}`);
      }
      await removeOwnOrganization(db, slug);
      throw new ConflictError("COMPANY_NOT_CREATED", COMPANY_NOT_CREATED_MESSAGE);
    }
    logLine(`Trade approval: ${SLUG_ATTEMPTS} fresh organization slugs were all taken`);
    throw new ConflictError("COMPANY_NOT_CREATED", COMPANY_NOT_CREATED_MESSAGE);
  };
}

function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; status?: unknown; body?: { code?: string } };
  return (
    [e?.name, e?.status, e?.body?.code, e?.message].filter((part) => part !== undefined && part !== "").join(" ") ||
    String(error)
  );
}

/** Removes the organization a failed create left under the slug this call generated (and nothing with a company). */
async function removeOwnOrganization(db: Db, slug: string): Promise<void> {
  const left = await db.selectFrom("organization").select("id").where("slug", "=", slug).executeTakeFirst();
  if (left) await removeOrphanOrganization(db, left.id);
}
