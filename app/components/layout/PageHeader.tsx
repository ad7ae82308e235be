export function PageHeader({ title, intro }: { title: string; intro?: string }) {
  return (
    <div className="bg-slate-50">
      <div className="mx-auto max-w-7xl px-4 py-10">
        <h1 className="text-3xl font-bold text-ink">{title}</h1>
        {intro ? <p className="mt-2 max-w-3xl text-slate-700">{intro}</p> : null}
      </div>
    </div>
  );
}
