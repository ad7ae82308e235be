import { data } from "react-router";

export function loader() {
  throw data("Not found", { status: 404 });
}

/** A form posted to an unknown URL gets the same 404 (not React Router's 405 for a route without an action). */
export function action() {
  throw data("Not found", { status: 404 });
}

export default function NotFound() {
  return null;
}
