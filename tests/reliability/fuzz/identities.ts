/**
 * Who a fuzz request comes from: nobody, a guest with a cart cookie, a signed-in member (with or
 * without a guest cookie as well), or someone sending forged cookies. The member is signed in
 * again (or re-created) whenever a fuzz request happened to sign it out or delete it.
 */
import { send } from "../support/http.ts";
import { Shopper, uniqueEmail } from "../support/shopper.ts";
import type { Random } from "./prng.ts";

export type IdentityKind = "anonymous" | "guest" | "member" | "member+guest" | "forged";

export const IDENTITY_WEIGHTS: readonly (readonly [number, IdentityKind])[] = [
  [3, "anonymous"],
  [3, "guest"],
  [3, "member"],
  [1, "member+guest"],
  [1, "forged"],
];

const FORGED_COOKIES = [
  "guest=abc",
  "guest=%zz",
  "guest=eyJhIjoxfQ.AAAA",
  "better-auth.session_token=garbage",
  "better-auth.session_token=x.y",
  "better-auth.session_token=%00%00",
  "better-auth.session_token=; guest=",
  "guest=\"unterminated",
  `guest=${"A".repeat(4000)}`,
  "__proto__=1; constructor=2",
];

export class FuzzIdentities {
  readonly guest: Shopper;
  member: Shopper;
  /** The member's cookies with a valid signature but the token swapped: a forged session. */
  private tampered = "";

  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
    this.guest = new Shopper(baseUrl);
    this.member = new Shopper(baseUrl);
  }

  async setUp(): Promise<void> {
    await this.member.signUp(uniqueEmail("fuzz.member"));
    await this.member.signIn();
    const token = this.member.jar.get("session_token") ?? "";
    this.tampered = `better-auth.session_token=${token.replace(/^[^.]{4}/, "AAAA")}`;
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
    }
  }

  /** Makes sure the member is still signed in: signs in again, or signs up a new member. */
  async refresh(): Promise<void> {
    const res = await send(this.baseUrl, { method: "GET", path: "/api/auth/get-session", headers: { cookie: this.member.jar.header(), "x-forwarded-for": this.member.ip } });
    if (res.status === 200 && res.text() !== "null") return;
    const fresh = new Shopper(this.baseUrl);
    try {
      await fresh.signIn(this.member.email!);
    } catch {
      await fresh.signUp(uniqueEmail("fuzz.member"));
      await fresh.signIn();
    }
    // Keep the member's cart cookie-less identity; only the session changes.
    this.member = fresh;
  }
}
