import type { Db } from "../db/connection.ts";
import { enqueueMail } from "../mail/queue.ts";
import { renderMail } from "../mail/templates.ts";

const isTrue = (v: boolean | number | null | undefined) => v === true || v === 1;

/**
 * Google (which confirmed the address) has just been linked to a local account whose email was
 * never verified. Whoever set that account's password may not own the address — the pre-account
 * takeover — so the Google sign-in takes the account over cleanly: the unverified password goes,
 * every session ends (the Google session is created after this), and the owner is told.
 * Returns true when it took the account over.
 */
export async function takeOverUnverifiedAccount(db: Db, userId: string, siteUrl: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom("user")
      .select(["id", "email", "name", "emailVerified"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!user || isTrue(user.emailVerified)) return false;
    const removed = await trx
      .deleteFrom("account")
      .where("userId", "=", userId)
      .where("providerId", "=", "credential")
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) return false;
    await trx.deleteFrom("session").where("userId", "=", userId).execute();
    const mail = renderMail({
      heading: "Your account is now protected by Google",
      paragraphs: [
        `Hello ${user.name || "there"},`,
        "You just signed in to ToolHub Wholesale with Google. A password had been set on this account before its email address was confirmed, so we can't be sure it was you who chose it.",
        'To keep your account safe we removed that password and signed out every other device. From now on, continue with Google — or choose a new password with "Forgot password" if you\'d like one.',
      ],
      action: { label: "Visit your account", url: `${siteUrl}/account` },
      footer: "If you did not just sign in with Google, contact us at once.",
    });
    await enqueueMail(trx, {
      to: user.email,
      subject: "Password removed from your ToolHub Wholesale account",
      ...mail,
    });
    return true;
  });
}
