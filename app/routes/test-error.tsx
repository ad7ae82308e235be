import { data } from "react-router";

/** Lets the end-to-end suite see the route error page. Answers 404 unless the server runs with E2E=1. */
export function loader() {
  if (process.env.E2E !== "1") throw data("Not found", { status: 404 });
  throw new Error("Deliberate failure for the error-page test");
}

export default function TestError() {
  return null;
}
