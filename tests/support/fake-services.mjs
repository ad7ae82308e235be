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
