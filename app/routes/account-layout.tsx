import { Outlet } from "react-router";
import type { Route } from "./+types/account-layout";
import { RouteErrorPage } from "../components/errors/RouteErrorPage.tsx";

/** The account pages: their own error page; each page guards itself. */
export default function AccountLayout() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorPage error={error} family="account" />;
}
