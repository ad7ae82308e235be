import type { Route } from "./+types/about";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { ContentImg } from "../components/ui/ContentImg.tsx";
import { about } from "../content/about.ts";
import { seo } from "../lib/seo.ts";
import { sharedPageMiddleware } from "../lib/cache-control.ts";
import { HeadedSection } from "../components/ui/HeadedSection.tsx";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "About Us",
    description:
      "ToolHub Wholesale: wholesale-priced tools for trades, businesses and DIY, founded in the UK and now serving the USA.",
    path: "/about",
    matches,
  });
}

function Paragraphs({ id, title, paragraphs }: { id: string; title: string; paragraphs: string[] }) {
  return (
    <section aria-labelledby={id} className="prose-content">
      <h2 id={id} className="mb-3 text-2xl font-bold text-ink">
        {title}
      </h2>
      {paragraphs.map((p) => (
        <p key={p}>{p}</p>
      ))}
    </section>
  );
}

/** The same for every anonymous visitor: a shared cache may keep it (app/lib/cache-control.ts). */
export const middleware = sharedPageMiddleware;

export default function About() {
  return (
    <>
      <PageHeader title="About Us" />
      <div className="mx-auto max-w-4xl space-y-10 px-4 py-10">
        <Paragraphs id="about-us" title="About Us" paragraphs={about.aboutUs} />
        <Paragraphs id="our-story" title="Our Story" paragraphs={about.ourStory} />
        <Paragraphs id="our-mission" title="Our Mission" paragraphs={about.ourMission} />
        <HeadedSection id="impact-heading" title="Our Impact" headingClassName="mb-4 text-2xl font-bold text-ink">
          <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
            {about.stats.map((stat) => (
              <div key={stat.label} className="flex flex-col-reverse rounded-xl bg-slate-50 p-5 text-center">
                <dt className="text-sm text-slate-700">{stat.label}</dt>
                <dd className="text-3xl font-black text-ink">{stat.value}</dd>
              </div>
            ))}
          </dl>
        </HeadedSection>
        <HeadedSection id="clients-heading" title="Trusted by" headingClassName="mb-4 text-2xl font-bold text-ink">
          <ul className="flex flex-wrap items-center justify-center gap-6">
            {about.clients.map((client) => (
              <li key={client.name}>
                <ContentImg image={client.logo} />
              </li>
            ))}
          </ul>
        </HeadedSection>
      </div>
    </>
  );
}
