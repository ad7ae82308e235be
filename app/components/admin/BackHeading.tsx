import type { ReactNode } from "react";
import { Link } from "react-router";

/** A detail page's heading under a link back to its list ("Products", "Customers", …). */
export function BackHeading({
  backTo,
  backLabel,
  title,
  id,
  className,
  linkClassName = "underline",
}: {
  backTo: string;
  backLabel: string;
  title: ReactNode;
  id?: string;
  className?: string;
  linkClassName?: string;
}) {
  return (
    <>
      <p className="text-sm">
        <Link to={backTo} className={linkClassName}>
          {backLabel}
        </Link>
      </p>
      <h1
        id={id}
        className={className ? `mt-1 text-3xl font-bold text-ink ${className}` : "mt-1 text-3xl font-bold text-ink"}
      >
        {title}
      </h1>
    </>
  );
}

/** The heading of the product pages (new, edit, import). */
export function ProductsHeading({ title, className }: { title: ReactNode; className?: string }) {
  return (
    <BackHeading
      backTo="/admin/products"
      backLabel="Products"
      title={title}
      className={className}
      linkClassName="text-brand-800 underline"
    />
  );
}
