const STATUS_LABEL = { pending: "Waiting for us to check it", verified: "Verified", rejected: "Not accepted" } as const;

export interface CertificateListItem {
  id: number;
  stateName: string;
  number: string;
  expiresOn: string;
  status: keyof typeof STATUS_LABEL;
  reason: string | null;
  companyName?: string;
}

/** Certificates with their state, number, last day and status; each file opens from `fileBase`/<id>/file. */
export function CertificatesTable({
  certificates,
  fileBase,
  linkBase,
  today,
}: {
  certificates: CertificateListItem[];
  fileBase: string;
  /** Staff: each certificate's own page, where it is decided. */
  linkBase?: string;
  /** YYYY-MM-DD, from the loader (so the server and the browser agree). */
  today: string;
}) {
  if (certificates.length === 0) return <p>No certificates yet.</p>;
  const showCompany = certificates.some((c) => c.companyName);
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Exemption certificates</caption>
        <thead className="bg-slate-100">
          <tr>
            {[...(showCompany ? ["Company"] : []), "State", "Number", "Valid until", "Status", "File"].map((h) => (
              <th key={h} scope="col" className="px-3 py-2">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {certificates.map((c) => (
            <tr key={c.id} className="border-t border-slate-200 align-top">
              {showCompany ? <td className="px-3 py-2">{c.companyName}</td> : null}
              <td className="px-3 py-2">
                {linkBase ? (
                  <a href={`${linkBase}/${c.id}`} className="font-semibold text-brand-800 underline">
                    {c.stateName}
                  </a>
                ) : (
                  c.stateName
                )}
              </td>
              <td className="px-3 py-2 font-mono">{c.number}</td>
              <td className="px-3 py-2 tabular-nums">
                {c.expiresOn}
                {c.expiresOn < today ? " (expired)" : ""}
              </td>
              <td className="px-3 py-2">
                {STATUS_LABEL[c.status]}
                {c.status === "rejected" && c.reason ? `: ${c.reason}` : ""}
              </td>
              <td className="px-3 py-2">
                <a href={`${fileBase}/${c.id}/file`} className="text-brand-800 underline">
                  Open the file
                  <span className="sr-only">
                    {" "}
                    of the {c.stateName} certificate {c.number}
                  </span>
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
