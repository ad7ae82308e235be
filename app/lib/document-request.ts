/**
 * Set by the server (server/http/app.ts) on a request for a document, and removed from any other
 * (React Router's `.data` requests): a loader can tell which it is serving, since React Router
 * hands both the same URL.
 */
export const DOCUMENT_REQUEST_HEADER = "x-document-request";
