// Types for fake-services.mjs, for the TypeScript tests that start these stand-ins.
export const OIDC_CLIENT_ID: string;
export const OIDC_CLIENT_SECRET: string;
export function startOidcProvider(port: number, identityFile: string): Promise<{ url: string; close(): Promise<void> }>;
export function startVatCheckStandIn(port: number): Promise<{ url: string; close: () => Promise<void> }>;
