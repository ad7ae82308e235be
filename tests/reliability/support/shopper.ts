/**
 * A shopper driving the store over HTTP, as a browser without JavaScript would: sign-up and
 * sign-in through /api/auth, cart posts, the checkout form with the token its page hands out.
 */
import { randomBytes } from "node:crypto";
import { CookieJar, formHeaders, jsonHeaders, send, urlencoded, type RawResponse } from "./http.ts";
import { validCheckoutForm } from "../../support/checkout-form.ts";
import { freshTotpCode, keyFromUri } from "../../support/totp.ts";

export const PASSWORD = "Sturdy-Hammer-42";

export const uniqueEmail = (tag: string) => `${tag}.${randomBytes(5).toString("hex")}@example.com`;

/** A client address of its own (the store trusts X-Forwarded-For from loopback), so per-IP limits don't mix tests. */
const uniqueIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;

export class Shopper {
  readonly jar = new CookieJar();
  readonly ip = uniqueIp();
  email: string | null = null;
  /** The TOTP key once the account enrolled in two-factor authentication (staff). */
  twoFactorKey: string | null = null;

  readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  get(path: string): Promise<RawResponse> {
    const headers: Record<string, string> = { "x-forwarded-for": this.ip };
    if (this.jar.header()) headers.cookie = this.jar.header();
    return send(this.baseUrl, { method: "GET", path, headers });
  }

  /** Posts a urlencoded form as a same-origin browser would; keeps the cookies it gets. */
  async postForm(path: string, fields: Record<string, string> | [string, string][]): Promise<RawResponse> {
    const res = await send(this.baseUrl, {
      method: "POST",
      path,
      headers: formHeaders(this.baseUrl, this.jar, this.ip),
      body: urlencoded(fields),
    });
    this.jar.update(res.setCookies);
    return res;
  }

  async postJson(path: string, body: unknown): Promise<RawResponse> {
    const res = await send(this.baseUrl, {
      method: "POST",
      path,
      headers: jsonHeaders(this.baseUrl, this.jar, this.ip),
      body: JSON.stringify(body),
    });
    this.jar.update(res.setCookies);
    return res;
  }

  async signUp(email = uniqueEmail("shopper"), password = PASSWORD, name = "Reliability Shopper"): Promise<this> {
    const res = await this.postJson("/api/auth/sign-up/email", { email, password, name });
    if (res.status !== 200) throw new Error(`sign-up of ${email} answered ${res.status}: ${res.text().slice(0, 300)}`);
    this.email = email;
    return this;
  }

  async signIn(email = this.email!, password = PASSWORD): Promise<this> {
    let res = await this.postJson("/api/auth/sign-in/email", { email, password });
    if (res.status === 200 && this.twoFactorKey && res.text().includes("twoFactorRedirect")) {
      // The code step is the /two-factor page's form (Better Auth's verify endpoint is not open over HTTP).
      res = await this.postForm("/two-factor", {
        intent: "verify",
        kind: "totp",
        code: await freshTotpCode(this.twoFactorKey),
      });
    }
    if ((res.status !== 200 && res.status !== 302) || !this.jar.has("session_token"))
      throw new Error(`sign-in of ${email} answered ${res.status}: ${res.text().slice(0, 300)}`);
    this.email = email;
    return this;
  }

  /** Enrols the signed-in account in two-factor authentication through the enrolment page's forms, as staff must, leaving a second-factor session. */
  async enrolTwoFactor(password = PASSWORD): Promise<this> {
    const start = await this.postForm("/admin/two-factor", { intent: "start", password });
    const uri = /name="totpUri" value="([^"]+)"/.exec(start.text())?.[1]?.replace(/&amp;/g, "&");
    if (start.status !== 200 || !uri)
      throw new Error(`enrolment start answered ${start.status}: ${start.text().slice(0, 300)}`);
    this.twoFactorKey = keyFromUri(uri);
    const confirm = await this.postForm("/admin/two-factor", {
      intent: "confirm",
      totpUri: uri,
      code: await freshTotpCode(this.twoFactorKey),
    });
    if (confirm.status !== 302)
      throw new Error(`enrolment confirm answered ${confirm.status}: ${confirm.text().slice(0, 300)}`);
    return this;
  }

  /** Adds to the cart (no JavaScript: the answer is a redirect). A guest gets its cookie here. */
  async addToCart(productId: number, quantity = 1): Promise<RawResponse> {
    const res = await this.postForm("/cart", {
      intent: "add",
      productId: String(productId),
      quantity: String(quantity),
    });
    if (res.status >= 400)
      throw new Error(`adding ${quantity} × product ${productId} answered ${res.status}: ${res.text().slice(0, 300)}`);
    return res;
  }

  /** The checkout form's fields as its page fills them (with this page's checkout token). */
  async checkoutForm(overrides: Record<string, string> = {}): Promise<Record<string, string>> {
    const page = await this.get("/checkout");
    if (page.status !== 200) throw new Error(`GET /checkout answered ${page.status}`);
    const token = /name="checkoutToken"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="checkoutToken"/.exec(page.text());
    if (!token) throw new Error("no checkout token on the checkout page");
    return {
      ...validCheckoutForm,
      email: this.email ?? uniqueEmail("guest"),
      name: "Reliability Buyer",
      checkoutToken: token[1] ?? token[2],
      ...overrides,
    };
  }
}
