import { useState } from "react";
import { Link, NavLink, useLocation, useSearchParams } from "react-router";
import { headerNav } from "../../content/navigation.ts";
import { STORE_NAME } from "../../lib/site.ts";
import { UserMenu } from "../account/UserMenu.tsx";
import { CartIcon, CloseIcon, HeartIcon, MenuIcon } from "../ui/icons.tsx";
import { SearchForm } from "./SearchForm.tsx";

function navClass({ isActive }: { isActive: boolean }) {
  return `rounded px-3 py-2 text-sm font-medium ${isActive ? "bg-brand-100 text-brand-800" : "text-slate-700 hover:text-ink"}`;
}

function NavItems({ block = false }: { block?: boolean }) {
  return headerNav.map((item) => (
    <li key={item.path}>
      <NavLink
        to={item.path}
        end={item.path === "/"}
        className={(state) => `${block ? "block " : ""}${navClass(state)}`}
      >
        {item.label}
      </NavLink>
    </li>
  ));
}

function IconLink({
  to,
  label,
  count,
  children,
}: {
  to: string;
  label: string;
  count: number;
  children: React.ReactNode;
}) {
  const accessibleName = count ? `${label} (${count} item${count === 1 ? "" : "s"})` : label;
  return (
    <Link to={to} aria-label={accessibleName} className="relative rounded p-2 text-slate-700 hover:text-ink">
      {children}
      {count ? (
        <span
          aria-hidden="true"
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-brand-500 px-1 text-center text-xs font-bold text-ink"
        >
          {count}
        </span>
      ) : null}
    </Link>
  );
}

const LOGO_SRC = "/images/logo.svg";
const MENU_ID = "mobile-menu";

export function Header({
  cartCount = 0,
  wishlistCount = 0,
  top,
}: {
  cartCount?: number;
  wishlistCount?: number;
  /** What the header shows above its own row (the market picker). */
  top?: React.ReactNode;
}) {
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const [params] = useSearchParams();
  const query = location.pathname === "/shop" ? (params.get("q") ?? "") : "";

  // Any navigation closes the menu, also one that stays on its path (the shop's Shop link from a search).
  const [shownKey, setShownKey] = useState(location.key);
  if (shownKey !== location.key) {
    setShownKey(location.key);
    setMenuOpen(false);
  }

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur print:hidden">
      {top}
      <div className="mx-auto flex max-w-7xl items-center gap-4 px-4 py-3">
        <Link to="/" className="shrink-0" aria-label={`${STORE_NAME} home`}>
          <img src={LOGO_SRC} alt={STORE_NAME} width={160} height={40} fetchPriority="high" />
        </Link>
        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            <NavItems />
          </ul>
        </nav>
        <SearchForm
          id="header-search"
          defaultValue={query}
          className="ml-auto hidden w-72 md:flex"
          key={`d-${query}`}
        />
        <div className="ml-auto flex items-center gap-1 md:ml-0">
          <IconLink to="/wishlist" label="Wishlist" count={wishlistCount}>
            <HeartIcon />
          </IconLink>
          <IconLink to="/cart" label="Cart" count={cartCount}>
            <CartIcon />
          </IconLink>
          <div className="hidden lg:flex">
            <UserMenu variant="desktop" />
          </div>
          <button
            type="button"
            className="rounded p-2 text-slate-800 lg:hidden"
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls={MENU_ID}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </div>
      <div className="px-4 pb-3 md:hidden">
        <SearchForm id="mobile-search" defaultValue={query} key={`m-${query}`} />
      </div>
      <nav id={MENU_ID} aria-label="Mobile" hidden={!menuOpen} className="border-t border-slate-200 lg:hidden">
        <ul className="mx-auto flex max-w-7xl flex-col px-4 py-2">
          <NavItems block />
          <li>
            <UserMenu variant="mobile" />
          </li>
        </ul>
      </nav>
    </header>
  );
}
