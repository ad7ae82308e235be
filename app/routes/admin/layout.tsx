import { data, NavLink, Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { RouteErrorPage } from "../../components/errors/RouteErrorPage.tsx";
import { requireStaff } from "../../../server/staff/guard.ts";

/** Back-office pages are private and never cached or indexed. */
export function headers() {
  return { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };
}

export async function loader({ request }: Route.LoaderArgs) {
  // The enrolment / code page is a child of this layout, so the layout admits a session without a
  // second factor; every child's own guard still requires one (server/staff/guard.ts).
  const staff = await requireStaff(request, undefined, { withoutSecondFactor: true });
  return { name: staff.name, role: staff.role, secondFactor: staff.secondFactor };
}

/** Nothing to post here yet; the guard still answers first, so guests and customers learn nothing. */
export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, undefined, { withoutSecondFactor: true });
  throw data("Method not allowed", { status: 405 });
}

const NAV: { to: string; label: string; end?: boolean; adminOnly?: boolean }[] = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/products", label: "Products" },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/customers", label: "Customers" },
  { to: "/admin/trade", label: "Trade accounts" },
  { to: "/admin/price-lists", label: "Price lists" },
  { to: "/admin/quotes", label: "Quotes" },
  { to: "/admin/markets", label: "Markets" },
  { to: "/admin/tax", label: "Tax" },
  { to: "/admin/messages", label: "Messages" },
  { to: "/admin/newsletter", label: "Newsletter" },
  { to: "/admin/mail", label: "Mail queue" },
  { to: "/admin/staff", label: "Staff", adminOnly: true },
  { to: "/admin/audit", label: "Audit log" },
];

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 md:flex-row print:max-w-none print:p-0">
      {loaderData.secondFactor ? (
        <nav aria-label="Back office" className="md:w-56 md:shrink-0 print:hidden">
          <p className="text-sm font-semibold uppercase tracking-wide text-slate-700">Back office</p>
          <ul className="mt-3 flex flex-wrap gap-2 md:flex-col">
            {NAV.filter((item) => !item.adminOnly || loaderData.role === "admin").map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.end}
                  className={({ isActive }) =>
                    `block rounded px-3 py-2 font-medium focus-visible:outline-2 focus-visible:outline-offset-2 ${isActive ? "bg-slate-900 text-white" : "text-ink hover:bg-slate-100"}`
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <p className="mt-4 text-sm text-slate-700">
            Signed in as {loaderData.name || "staff"} ({loaderData.role})
          </p>
        </nav>
      ) : null}
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorPage error={error} family="backOffice" />;
}
