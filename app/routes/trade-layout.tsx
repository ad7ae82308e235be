import { Outlet } from "react-router";
import type { Route } from "./+types/trade-layout";
import { RouteErrorPage } from "../components/errors/RouteErrorPage.tsx";

/** The trade pages (quick order, company, lists, quotes): their own error page; each page guards itself. */
export default function TradeLayout() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorPage error={error} family="trade" />;
}
