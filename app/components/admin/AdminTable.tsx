import type { ReactNode } from "react";

/** A back-office table with a screen-reader caption and a sticky header row of plain column labels. */
export function AdminTable({ caption, columns, className = "mt-4", children }: { caption: string; columns: string[]; className?: string; children: ReactNode }) {
  return (
    <div className={`${className} overflow-x-auto`}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-slate-100">
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className="px-3 py-2">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
