import { BackLink } from "../account/BackToAccount.tsx";

/** The link under a company page's content, back to the company's overview. */
export function BackToCompany() {
  return <BackLink to="/account/company" label="Back to your company" />;
}
