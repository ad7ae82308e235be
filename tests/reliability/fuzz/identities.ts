/**
 * Who a fuzz request comes from: nobody, a guest with a cart cookie, a signed-in member (with or
 * without a guest cookie as well), staff, or someone sending forged cookies. The member is signed in
 * again (or re-created) whenever a fuzz request happened to sign it out or delete it; staff are re-created.
 */
import { send } from "../support/http.ts";
import { Shopper, uniqueEmail } from "../support/shopper.ts";
import type { Random } from "./prng.ts";

export type IdentityKind = "anonymous" | "guest" | "member" | "member+guest" | "forged" | "staff";

export const IDENTITY_WEIGHTS: readonly (readonly [number, IdentityKind])[] = [
  [3, "anonymous"],
  [3, "guest"],
  [3, "member"],
  [1, "member+guest"],
  [1, "forged"],
  [2, "staff"],
];

/**
 * Makes a signed-up account staff (the back office's roles), by writing the database directly;
 * resolves false when the store has no roles yet, and the "staff" identity is then a member.
 */
export type PromoteToStaff = (email: string) => Promise<boolean>;

const FORGED_COOKIES = [
  "guest=abc",
  "guest=%zz",
  "guest=eyJhIjoxfQ.AAAA",
  "better-auth.session_token=garbage",
  "better-auth.session_token=x.y",
  "better-auth.session_token=%00%00",
  "better-auth.session_token=; guest=",
  'guest="unterminated',
  `guest=${"A".repeat(4000)}`,
  "__proto__=1; constructor=2",
];

export class FuzzIdentities {
  readonly guest: Shopper;
  member: Shopper;
  /** The member's cookies with a valid signature but the token swapped: a forged session. */
  private tampered = "";

  /** A member with the highest role the store has (null when it has no roles). */
  staff: Shopper | null = null;

  private readonly baseUrl: string;
  private readonly promote?: PromoteToStaff;

  constructor(baseUrl: string, options: { promote?: PromoteToStaff } = {}) {
    this.baseUrl = baseUrl;
    this.guest = new Shopper(baseUrl);
    this.member = new Shopper(baseUrl);
    this.promote = options.promote;
  }

  async setUp(): Promise<void> {
    await this.member.signUp(uniqueEmail("fuzz.member"));
    await this.member.signIn();
    const token = this.member.jar.get("session_token") ?? "";
    this.tampered = `better-auth.session_token=${token.replace(/^[^.]{4}/, "AAAA")}`;
    if (this.promote) {
      const staff = await new Shopper(this.baseUrl).signUp(uniqueEmail("fuzz.staff"));
      if (await this.promote(staff.email!)) this.staff = await (await staff.signIn()).enrolTwoFactor();
    }
  }

  /** Everyone whose pages the discovery crawls: the guest, the member, and staff when there are roles. */
  get shoppers(): Shopper[] {
    return [this.guest, this.member, ...(this.staff ? [this.staff] : [])];
  }

  cookie(kind: IdentityKind, rng: Random): string {
    switch (kind) {
      case "anonymous":
        return "";
      case "guest":
        return this.guest.jar.header();
      case "member":
        return this.member.jar.header();
      case "member+guest":
        return [this.member.jar.header(), this.guest.jar.header()].filter(Boolean).join("; ");
      case "forged":
        return rng.chance(0.3) ? this.tampered : rng.pick(FORGED_COOKIES);
      case "staff":
        return (this.staff ?? this.member).jar.header();
    }
  }

  /** Makes sure the member is still signed in: signs in again, or signs up a new member. */
  async refresh(): Promise<void> {
    this.member = await this.stillSignedIn(this.member, "fuzz.member");
    if (this.staff) this.staff = await this.stillSignedIn(this.staff, "fuzz.staff", this.promote);
  }

  /** The shopper, or the same account signed in again, or (when a request deleted it) a new account. */
  private async stillSignedIn(shopper: Shopper, tag: string, promote?: PromoteToStaff): Promise<Shopper> {
    // Still signed in: the account page (a member's) or the back office (staff) answers rather than sending to /login.
    const res = await send(this.baseUrl, {
      method: "GET",
      path: promote ? "/admin" : "/account",
      headers: { cookie: shopper.jar.header(), "x-forwarded-for": shopper.ip },
    });
    if (res.status === 200) return shopper;
    const fresh = new Shopper(this.baseUrl);
    // Staff come back as a new account with a new key: signing the old one in again needs an unused
    // TOTP step, and after two sign-ins within one that means waiting up to 30 s for the next.
    if (!promote) {
      try {
        return await fresh.signIn(shopper.email!);
      } catch {
        // deleted by a fuzz request: a new member below
      }
    }
    await fresh.signUp(uniqueEmail(tag));
    await promote?.(fresh.email!);
    await fresh.signIn();
    if (promote) await fresh.enrolTwoFactor();
    return fresh;
  }
}
