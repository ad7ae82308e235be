import { createContext, useContext } from "react";
import { StoreAddress } from "./StoreAddress.tsx";
import { footerColumns } from "../../content/navigation.ts";
import { useLinkClicks } from "../../lib/link-clicks.ts";
import { STORE_NAME } from "../../lib/site.ts";

/**
 * The footer's contents for one year as the server renders them, made once per process and year
 * (app/lib/footer-html.server.ts) and written into each document as they are instead of being
 * rendered again: about a quarter of a page's elements. The browser has none: under React
 * Router's client the footer renders, and hydrates, as usual.
 */
export const RenderedFooter = createContext<{ year: number; html: string } | null>(null);

const FOOTER_CLASS = "mt-16 bg-ink text-slate-200 print:hidden";

/** The year the footer shows: the root loader's, or this year's on a page whose root data failed. */
export function footerYear(root: { year: number } | null | undefined): number {
  return root?.year ?? new Date().getFullYear();
}

export function Footer({ year }: { year: number }) {
  const onLinkClick = useLinkClicks();
  const rendered = useContext(RenderedFooter);
  // Delegated link handling: see useLinkClicks. Keyboard activation of a link is a click too.
  if (rendered?.year === year) return <footer className={FOOTER_CLASS} onClick={onLinkClick} dangerouslySetInnerHTML={{ __html: rendered.html }} />;
  return (
    <footer className={FOOTER_CLASS} onClick={onLinkClick}>
      <FooterContents year={year} />
    </footer>
  );
}

export function FooterContents({ year }: { year: number }) {
  return (
    <>
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
                  <a href={link.path} className="hover:text-brand-400 hover:underline">
                    {link.label}
                  </a>
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
          <img src="/images/content/payments.svg" alt="Accepted payments: cards and mobile payments" width={240} height={32} loading="lazy" />
        </div>
      </div>
    </>
  );
}
