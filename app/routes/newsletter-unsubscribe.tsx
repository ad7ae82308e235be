import { data } from "react-router";

// Placeholder until the newsletter feature lands.
export function loader() {
  throw data("Not found", { status: 404 });
}

export default function Placeholder() {
  return null;
}
