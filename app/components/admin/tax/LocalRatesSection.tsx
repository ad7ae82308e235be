import { useNavigation } from "react-router";
import { formatCount } from "../../../lib/numbers.ts";
import { HeadedSection } from "../../ui/HeadedSection.tsx";
import { ResultMessage } from "../ResultMessage.tsx";
import { UploadForm } from "../UploadForm.tsx";
import { CsvSourceFields } from "../CsvSourceFields.tsx";
import type { TaxAnswer } from "../../../routes/admin/tax.tsx";

/** How many ZIP codes have local rates, and (for admins) the CSV import. */
export function LocalRatesSection({
  summary,
  canChange,
  answer,
}: {
  summary: { count: number; lastImportedAt: string | null };
  canChange: boolean;
  answer: TaxAnswer | null;
}) {
  const navigation = useNavigation();
  const importing = navigation.state === "submitting" && navigation.formData?.get("intent") === "import-local";
  return (
    <HeadedSection
      id="local-heading"
      title="Local rates by ZIP code"
      headingClassName="text-xl font-semibold text-ink"
      className="space-y-3"
    >
      <p className="text-sm text-slate-700">
        {summary.count
          ? `${formatCount(summary.count)} ZIP codes have local rates (last import ${summary.lastImportedAt!.slice(0, 10)}). A ZIP code without one pays the state's rate only.`
          : "No local rates yet: every address pays its state's rate only."}
      </p>
      <ResultMessage result={answer} />
      {answer?.lineProblems?.length ? (
        <ul className="list-disc pl-5 text-sm text-red-900" aria-label="Problems in the file">
          {answer.lineProblems.map((p) => (
            <li key={p.line}>
              Line {p.line}: {p.message}
            </li>
          ))}
        </ul>
      ) : null}
      {canChange ? (
        <UploadForm
          intent="import-local"
          label="Import local rates"
          className="space-y-4 rounded-lg border border-slate-200 p-4"
        >
          <p className="text-sm text-slate-700">
            A CSV with the header <code>zip,state,region,rate</code>: the 5-digit ZIP code, the state&apos;s code, the
            tax region&apos;s name and every local rate of that ZIP code together in percent, like{" "}
            <code>90001,CA,Los Angeles,2.5</code>. ZIP codes in the file get the new rate; the others keep theirs. One
            bad line imports nothing.
          </p>
          <CsvSourceFields id="local" rows={5} />
          <button type="submit" className="btn-primary" disabled={importing}>
            {importing ? "Importing…" : "Import local rates"}
          </button>
        </UploadForm>
      ) : null}
    </HeadedSection>
  );
}
