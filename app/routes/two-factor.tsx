import { data } from "react-router";

// Placeholder: the sign-in code step for accounts with two-factor authentication (issue 12).
export function loader() {
  throw data("Not found", { status: 404 });
}

export default function TwoFactor() {
  return null;
}
