import type { ContentSection } from "../../content/types.ts";

export function ContentBody({ sections }: { sections: ContentSection[] }) {
  return (
    <div className="prose-content mx-auto max-w-3xl px-4 py-10">
      {sections.map((section) => (
        <section key={section.heading} className="mb-8">
          <h2 className="mb-3 text-xl font-semibold text-ink">{section.heading}</h2>
          {section.paragraphs.map((p) => (
            <p key={p}>{p}</p>
          ))}
          {section.bullets?.length ? (
            <ul className="list-disc space-y-1 pl-6 text-slate-700">
              {section.bullets.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </div>
  );
}
