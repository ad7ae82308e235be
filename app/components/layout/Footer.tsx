import { Link } from "react-router";
import { StoreAddress } from "./StoreAddress.tsx";
import { footerColumns } from "../../content/navigation.ts";
import { STORE_NAME } from "../../lib/site.ts";

/** The year the footer shows: the root loader's, or this year's on a page whose root data failed. */
export function footerYear(root: { year: number } | null | undefined): number {
  return root?.year ?? new Date().getFullYear();
}

export function Footer({ year }: { year: number }) {
  return (
    <footer className="mt-16 bg-ink text-slate-200 print:hidden">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:grid-cols-2 lg:grid-cols-5">
        <div>
          <p className="text-lg font-bold text-white">{STORE_NAME}</p>
          <StoreAddress className="mt-3 text-sm leading-6" />
        </div>
        {footerColumns.map((column) => (
          <nav key={column.heading} aria-label={column.heading}>
            <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{column.heading}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {column.links.map((link) => (
                <li key={link.label}>
                  <Link to={link.path} className="hover:text-brand-400 hover:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-slate-700">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 py-4 text-sm sm:flex-row">
          <p>
            © {year} {STORE_NAME}. All rights reserved.
          </p>
          <img
            src="/images/content/payments.svg"
            alt="Accepted payments: cards and mobile payments"
            width={240}
            height={32}
            loading="lazy"
          />
        </div>
      </div>
    </footer>
  );
}
