/** True for React Router's client data requests (fetchers and <Form> with JavaScript on). */
export function isDataRequest(request: Request): boolean {
  return new URL(request.url).pathname.endsWith(".data");
}
