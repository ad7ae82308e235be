// Local stand-ins for what the store talks to outside: an SMTP server that keeps every message
// as an .eml file, and an OpenID Connect provider (oauth2-mock-server) playing Google.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { SMTPServer } from "smtp-server";

export const OIDC_CLIENT_ID = "toolstore-test-client";
export const OIDC_CLIENT_SECRET = "toolstore-test-secret";

/** Starts an SMTP sink writing each message to `${dir}/<n>.eml`. */
export async function startSmtpSink(port, dir) {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks = [];
      stream.on("data", (c) => chunks.push(c));
      stream.on("end", () => {
        count += 1;
        writeFileSync(path.join(dir, `${Date.now()}-${String(count).padStart(4, "0")}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return { close: () => new Promise((resolve) => server.close(resolve)) };
}

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
