import { getAuth, type Auth } from "../auth/auth.ts";
import type { Db } from "../db/connection.ts";
import { organizationIdBySlug, type CreateOrganization } from "./applications.ts";

/**
 * The organization plugin's own create (a server call with the applicant's user id: Better Auth
 * makes them the owner). A slug already taken means an earlier attempt created it: reuse it.
 */
export function createOrganizationThroughAuth(db: Db, auth: Auth = getAuth()): CreateOrganization {
  return async ({ userId, name, slug }) => {
    const existing = await organizationIdBySlug(db, slug);
    if (existing) return existing;
    try {
      const created = await auth.api.createOrganization({ body: { name, slug, userId, keepCurrentActiveOrganization: true } });
      if (created?.id) return created.id;
    } catch (error) {
      const again = await organizationIdBySlug(db, slug);
      if (again) return again;
      throw error;
    }
    const again = await organizationIdBySlug(db, slug);
    if (!again) throw new Error("The company could not be created.");
    return again;
  };
}
