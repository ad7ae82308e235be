import { useEffect, useState } from "react";
import { preload } from "react-dom";
import { useLocation, useSearchParams } from "react-router";
import { headerNav } from "../../content/navigation.ts";
import { useCurrentUser } from "../../lib/current-user.tsx";
import { isCurrentPath, useLinkClicks } from "../../lib/link-clicks.ts";
import { useServerFragment } from "../../lib/server-fragments.ts";
import { STORE_NAME } from "../../lib/site.ts";
import { LoginLink, UserMenu } from "../account/UserMenu.tsx";
import { CartIcon, CloseIcon, HeartIcon, MenuIcon } from "../ui/icons.tsx";
import { SearchForm } from "./SearchForm.tsx";

function navClass(isActive: boolean) {
  return `rounded px-3 py-2 text-sm font-medium ${isActive ? "bg-brand-100 text-brand-800" : "text-slate-700 hover:text-ink"}`;
}

/** A header nav link; the header turns its clicks into client navigations (useLinkClicks). */
function NavItemLink({ path, label, current, block = false }: { path: string; label: string; current: boolean; block?: boolean }) {
  return (
    <a href={path} aria-current={current ? "page" : undefined} className={`${block ? "block " : ""}${navClass(current)}`}>
      {label}
    </a>
  );
}

/** The nav's items, the one at index `current` (-1: none) marked as the current page. */
function NavItems({ current, block = false }: { current: number; block?: boolean }) {
  return headerNav.map((item, i) => (
    <li key={item.path}>
      <NavItemLink path={item.path} label={item.label} current={i === current} block={block} />
    </li>
  ));
}

function IconLink({ to, label, count, children }: { to: string; label: string; count?: number; children: React.ReactNode }) {
  const accessibleName = count ? `${label} (${count} item${count === 1 ? "" : "s"})` : label;
  const contents = useServerFragment(
    `header-icon:${label}:${count ?? 0}`,
    <>
      {children}
      {count ? (
        <span aria-hidden="true" className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-brand-500 px-1 text-center text-xs font-bold text-ink">
          {count}
        </span>
      ) : null}
    </>,
  );
  return <a href={to} aria-label={accessibleName} className="relative rounded p-2 text-slate-700 hover:text-ink" {...contents} />;
}

/** The header element's id: the server takes a signed-out visitor's header from a page it rendered (useServerFragment). */
const HEADER_ID = "site-header";
const LOGO_SRC = "/images/logo.svg";

export function Header({ cartCount = 0, wishlistCount = 0 }: { cartCount?: number; wishlistCount?: number }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const [params] = useSearchParams();
  // Not useId: the home page's island hydrates the header without the server tree above it.
  const menuId = "mobile-menu";
  const onLinkClick = useLinkClicks();
  const query = location.pathname === "/shop" ? (params.get("q") ?? "") : "";
  const { user } = useCurrentUser();
  const current = headerNav.findIndex((item) => isCurrentPath(location.pathname, item.path));
  // The parts every signed-out visitor's page shares are written from one earlier render.
  const desktopNav = useServerFragment(`header-nav:${current}`, <NavItems current={current} />);
  const desktopUser = useServerFragment(user ? null : "header-login", user ? <UserMenu variant="desktop" /> : <LoginLink variant="desktop" />);
  const mobileNav = useServerFragment(
    user ? null : `mobile-nav:${current}`,
    <>
      <NavItems current={current} block />
      <li>{user ? <UserMenu variant="mobile" /> : <LoginLink variant="mobile" />}</li>
    </>,
  );

  // Any navigation closes the menu, also one that stays on its path (the shop's Shop link from a search).
  useEffect(() => setMenuOpen(false), [location.key]);
  // Preloaded as React preloads the logo it renders, also when the server writes the header whole.
  preload(LOGO_SRC, { as: "image", fetchPriority: "high" });
  // A signed-out visitor's whole header, as it stands before any click, is the same for every page
  // with the same current item and counts: the server writes it from the first such page.
  const signedOutKey = !user && query === "" && !menuOpen ? `header:${current}:${cartCount}:${wishlistCount}` : null;
  const contents = useServerFragment(
    signedOutKey,
    <>
      <div className="mx-auto flex max-w-7xl items-center gap-4 px-4 py-3">
        <a href="/" className="shrink-0" aria-label={`${STORE_NAME} home`}>
          <img src={LOGO_SRC} alt={STORE_NAME} width={160} height={40} fetchPriority="high" />
        </a>
        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1" {...desktopNav} />
        </nav>
        <SearchForm id="header-search" defaultValue={query} className="ml-auto hidden w-72 md:flex" key={`d-${query}`} />
        <div className="ml-auto flex items-center gap-1 md:ml-0">
          <IconLink to="/wishlist" label="Wishlist" count={wishlistCount}>
            <HeartIcon />
          </IconLink>
          <IconLink to="/cart" label="Cart" count={cartCount}>
            <CartIcon />
          </IconLink>
          <div className="hidden lg:flex" {...desktopUser} />
          <button
            type="button"
            className="rounded p-2 text-slate-800 lg:hidden"
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </div>
      <div className="px-4 pb-3 md:hidden">
        <SearchForm id="mobile-search" defaultValue={query} key={`m-${query}`} />
      </div>
      <nav id={menuId} aria-label="Mobile" hidden={!menuOpen} className="border-t border-slate-200 lg:hidden">
        <ul className="mx-auto flex max-w-7xl flex-col px-4 py-2" {...mobileNav} />
      </nav>
    </>,
    HEADER_ID,
  );

  return (
    // Delegated link handling: see useLinkClicks. Keyboard activation of a link is a click too.
    <header id={HEADER_ID} className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur print:hidden" onClick={onLinkClick} {...contents} />
  );
}
