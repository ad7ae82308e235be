import { useState } from "react";
import type { Route } from "./+types/faq";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { faqCategories } from "../content/faq.ts";
import { seo } from "../lib/seo.ts";
import { sharedPageMiddleware } from "../lib/cache-control.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "FAQ",
    description: "Answers about ordering, products, shipping and delivery, returns and refunds, and your account.",
    path: "/faq",
    matches,
  });
}

type CategoryId = (typeof faqCategories)[number]["id"] | "all";

/** The same for every anonymous visitor: a shared cache may keep it (app/lib/cache-control.ts). */
export const middleware = sharedPageMiddleware;

export default function Faq() {
  const [category, setCategory] = useState<CategoryId>("all");
  const [openKey, setOpenKey] = useState<string | null>(null);
  const visible = category === "all" ? faqCategories : faqCategories.filter((c) => c.id === category);
  const tabs: { id: CategoryId; name: string }[] = [
    { id: "all", name: "All" },
    ...faqCategories.map((c) => ({ id: c.id, name: c.name })),
  ];

  return (
    <>
      <PageHeader title="Frequently Asked Questions" />
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-[14rem_1fr]">
        <nav aria-label="FAQ categories">
          <h2 className="mb-3 text-sm font-semibold tracking-wide text-slate-700 uppercase">Categories</h2>
          <ul className="space-y-1">
            {tabs.map((tab) => (
              <li key={tab.id}>
                <a
                  href={tab.id === "all" ? "#faq-list" : `#faq-${tab.id}`}
                  aria-current={category === tab.id ? "true" : undefined}
                  onClick={(e) => {
                    e.preventDefault();
                    setCategory(tab.id);
                    setOpenKey(null);
                  }}
                  className={`block rounded px-3 py-2 text-sm ${category === tab.id ? "bg-ink font-semibold text-white" : "text-slate-800 hover:bg-slate-100"}`}
                >
                  {tab.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div id="faq-list" className="space-y-8">
          {visible.map((cat) => (
            <section key={cat.id} id={`faq-${cat.id}`} aria-labelledby={`faq-${cat.id}-heading`}>
              <h2 id={`faq-${cat.id}-heading`} className="mb-3 text-xl font-bold text-ink">
                {cat.name}
              </h2>
              <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
                {cat.questions.map((q, i) => {
                  const key = `${cat.id}-${i}`;
                  const open = openKey === key;
                  return (
                    <li key={key}>
                      <h3>
                        <button
                          type="button"
                          id={`${key}-button`}
                          aria-expanded={open}
                          aria-controls={`${key}-panel`}
                          onClick={() => setOpenKey(open ? null : key)}
                          className="flex w-full items-center justify-between gap-4 px-4 py-3 text-left font-semibold text-ink hover:bg-slate-50"
                        >
                          {q.question}
                          <span aria-hidden="true" className="text-xl">
                            {open ? "−" : "+"}
                          </span>
                        </button>
                      </h3>
                      <div
                        id={`${key}-panel`}
                        role="region"
                        aria-labelledby={`${key}-button`}
                        hidden={!open}
                        className="px-4 pb-4 text-slate-700"
                      >
                        {q.answer}
                      </div>
                    </li>
                  );
                })}
              </ul>
            </section>
          ))}
        </div>
      </div>
    </>
  );
}
