import { data } from "react-router";
import { StoreAddress } from "../components/layout/StoreAddress.tsx";
import type { Route } from "./+types/contact";
import { ContactForm } from "../components/forms/ContactForm.tsx";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { seo } from "../lib/seo.ts";
import { STORE_HOURS } from "../lib/site.ts";
import { contactAction, defaultContactDeps } from "../../server/contact/action.ts";
import { getDb } from "../../server/db/connection.ts";
import { sharedPageMiddleware } from "../lib/cache-control.ts";
import { HeadedSection } from "../components/ui/HeadedSection.tsx";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Contact Us",
    description: "Visit, call or write to ToolHub Wholesale. Our hours, address and a form to leave us a message.",
    path: "/contact",
    matches,
  });
}

const MAP_SRC =
  "https://www.openstreetmap.org/export/embed.html?bbox=-1.4800%2C53.3750%2C-1.4600%2C53.3850&layer=mapnik&marker=53.3800%2C-1.4700";

export async function action({ request }: Route.ActionArgs) {
  const result = await contactAction(getDb(), request, defaultContactDeps());
  return data(result.data, { status: result.status });
}

/** The same for every anonymous visitor: a shared cache may keep it (app/lib/cache-control.ts). */
export const middleware = sharedPageMiddleware;

export default function Contact({ actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="Contact Us" intro="Questions about an order, a trade account or a tool? We're here to help." />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-10 lg:grid-cols-2">
        <div className="space-y-6">
          <iframe
            title="Map showing the ToolHub Wholesale store location"
            src={MAP_SRC}
            width={600}
            height={360}
            loading="lazy"
            referrerPolicy="no-referrer"
            className="h-80 w-full rounded-xl border border-slate-200"
          />
          <div className="grid gap-6 sm:grid-cols-2">
            <HeadedSection id="address-heading" title="Address" headingClassName="text-lg font-semibold text-ink">
              <StoreAddress className="mt-2 text-slate-700" />
            </HeadedSection>
            <HeadedSection id="hours-heading" title="Opening hours" headingClassName="text-lg font-semibold text-ink">
              <dl className="mt-2 text-slate-700">
                {STORE_HOURS.map((h) => (
                  <div key={h.days} className="flex gap-2">
                    <dt className="font-medium">{h.days}</dt>
                    <dd>{h.hours}</dd>
                  </div>
                ))}
              </dl>
            </HeadedSection>
          </div>
        </div>
        <HeadedSection
          id="message-heading"
          title="Leave a message"
          headingClassName="text-2xl font-bold text-ink"
          className="rounded-xl border border-slate-200 p-6"
        >
          <ContactForm result={actionData} />
        </HeadedSection>
      </div>
    </>
  );
}
