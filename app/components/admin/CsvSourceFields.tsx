/** A CSV upload's two sources, each with its visible label: a file, or the text pasted. */
export function CsvSourceFields({ id, rows, pasted = "" }: { id: string; rows: number; pasted?: string }) {
  return (
    <>
      <div>
        <label htmlFor={`${id}-file`} className="block text-sm font-semibold text-ink">
          CSV file (up to 10 MB)
        </label>
        <input id={`${id}-file`} name="file" type="file" accept=".csv,text/csv" className="mt-1 block text-sm" />
      </div>
      <div>
        <label htmlFor={`${id}-csv`} className="block text-sm font-semibold text-ink">
          Or paste the CSV
        </label>
        <textarea
          id={`${id}-csv`}
          name="csv"
          rows={rows}
          defaultValue={pasted}
          className="field mt-1 font-mono text-sm"
        />
      </div>
    </>
  );
}
