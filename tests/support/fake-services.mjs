// A local stand-in for what the store talks to outside: an OpenID Connect provider
// (oauth2-mock-server) playing Google. The SMTP sink is mail-sink.ts.
import { readFileSync, existsSync } from "node:fs";
import { OAuth2Server } from "oauth2-mock-server";

export const OIDC_CLIENT_ID = "toolstore-test-client";
export const OIDC_CLIENT_SECRET = "toolstore-test-secret";

/**
 * Starts the OIDC provider. The identity it vouches for is read from `${identityFile}` at each
 * sign-in, so a test can choose who "Google" says the user is.
 */
export async function startOidcProvider(port, identityFile) {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  const identity = () => {
    const fallback = {
      sub: "google-user-1",
      email: "google.user@example.com",
      email_verified: true,
      name: "Grace Google",
      picture: "",
    };
    if (!existsSync(identityFile)) return fallback;
    return { ...fallback, ...JSON.parse(readFileSync(identityFile, "utf8")) };
  };
  server.service.on("beforeTokenSigning", (token) => {
    const who = identity();
    Object.assign(token.payload, who, { aud: OIDC_CLIENT_ID });
    if (!who.picture) delete token.payload.picture;
  });
  server.service.on("beforeUserinfo", (response) => {
    const who = identity();
    response.body = who.picture ? who : Object.fromEntries(Object.entries(who).filter(([k]) => k !== "picture"));
  });
  await server.start(port, "127.0.0.1");
  return { url: server.issuer.url, close: () => server.stop() };
}

/** VAT numbers the HMRC stand-in knows, and whose they are; 999999999 makes it fail (a 503). */
const REGISTERED_VAT_NUMBERS = { 123456789: "Acme Builders Ltd", 987654321: "Hammer & Sons Ltd" };

/**
 * A stand-in for HMRC's "Check a UK VAT number" API (GET
 * /organisations/vat/check-vat-number/lookup/<vrn>): 200 with the business's name for a registered
 * number, 404 for any other, 503 for 999999999.
 */
export async function startVatCheckStandIn(port) {
  const { createServer } = await import("node:http");
  const server = createServer((request, response) => {
    const vrn = /^\/organisations\/vat\/check-vat-number\/lookup\/(\d{9}|\d{12})$/.exec(request.url ?? "")?.[1];
    const send = (status, body) => {
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.method !== "GET" || !vrn) return send(400, { code: "INVALID_REQUEST" });
    if (vrn === "999999999") return send(503, { code: "SERVER_ERROR" });
    const name = REGISTERED_VAT_NUMBERS[vrn];
    if (!name) return send(404, { code: "NOT_FOUND" });
    return send(200, {
      target: { name, vatNumber: vrn, address: { line1: "1 High St", postcode: "SW1A 1AA", countryCode: "GB" } },
    });
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address();
  return { url: `http://127.0.0.1:${bound}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
