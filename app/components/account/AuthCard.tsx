import { Link } from "react-router";
import { GoogleButton } from "./GoogleButton.tsx";

export function AuthCard({
  title,
  children,
  footer,
}: {
  title: string;
  children: React.ReactNode;
  footer: { text: string; linkText: string; to: string };
}) {
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <div className="rounded-xl border border-slate-200 p-8 shadow-sm">
        <h1 className="text-center text-2xl font-bold text-ink">{title}</h1>
        <div className="mt-6">
          <GoogleButton />
        </div>
        <p className="my-4 text-center text-sm text-slate-600">or</p>
        {children}
        <p className="mt-6 text-center text-sm text-slate-700">
          {footer.text}{" "}
          <Link to={footer.to} className="font-semibold text-brand-800 hover:underline">
            {footer.linkText}
          </Link>
        </p>
      </div>
    </div>
  );
}
