import { data, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/tax";
import { doneMessage, ResultMessage } from "../../components/admin/ResultMessage.tsx";
import { AddressCheckSection } from "../../components/admin/tax/AddressCheckSection.tsx";
import { LocalRatesSection } from "../../components/admin/tax/LocalRatesSection.tsx";
import { ReportsSection } from "../../components/admin/tax/ReportsSection.tsx";
import { StatesSection } from "../../components/admin/tax/StatesSection.tsx";
import { formText } from "../../lib/form-text.ts";
import { can } from "../../../server/auth/permissions.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { ADMIN_UPLOAD_LIMIT_BYTES } from "../../../server/http/body-limit.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { checkUsAddress } from "../../../server/tax/address-check.ts";
import { staffCertificates } from "../../../server/tax/certificates.ts";
import { recentPeriods } from "../../../server/tax/reports.ts";
import {
  importLocalRates,
  listUsStates,
  localRatesSummary,
  LocalRatesInvalidError,
  saveUsStates,
  UsStatesInvalidError,
  type UsStateInput,
} from "../../../server/tax/us-tax-settings.ts";

export function meta() {
  return [{ title: "Tax | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

/** After a refusal for a stale form (409) the table is read again, so it shows what the other admin saved. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

const DONE = {
  states: "US sales tax saved.",
  unchanged: "Nothing to save: no state changed.",
  imported: "Local rates imported.",
};

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { tax: ["view"] });
  const url = new URL(request.url);
  const db = getDb();
  const [states, local, waiting] = await Promise.all([
    listUsStates(db),
    localRatesSummary(db),
    staffCertificates(db, "pending"),
  ]);
  const checkState = url.searchParams.get("state") ?? "";
  const checkZip = url.searchParams.get("zip") ?? "";
  const asked = url.searchParams.has("zip");
  const today = new Date().toISOString().slice(0, 10);
  return {
    states,
    local,
    canChange: can(staff.role, { tax: ["update"] }),
    waitingCertificates: waiting.length,
    periods: recentPeriods(new Date(), 8),
    done: doneMessage(url, DONE),
    check: asked
      ? { state: checkState, zip: checkZip, result: await checkUsAddress(db, checkState, checkZip, today) }
      : null,
  };
}

export type TaxAnswer = {
  ok: false;
  form: "states" | "local";
  message: string;
  stateProblems?: { code: string; message: string }[];
  lineProblems?: { line: number; message: string }[];
  typed?: Record<string, { rate: string; shippingTaxable: boolean; collect: boolean }>;
};

/** The most state rows a form may send (the table has 51). */
const MAX_STATE_ROWS = 60;

function readStates(form: FormData): UsStateInput[] | null {
  const codes = [...form.keys()].filter((k) => k.startsWith("version_")).map((k) => k.slice("version_".length));
  if (codes.length === 0 || codes.length > MAX_STATE_ROWS) return null;
  return codes.map((code) => ({
    code,
    rate: formText(form, `rate_${code}`),
    shippingTaxable: form.get(`shipping_${code}`) === "1",
    collect: form.get(`collect_${code}`) === "1",
    version: Number(formText(form, `version_${code}`)) || 0,
    shown: form.has(`shown_${code}`) ? formText(form, `shown_${code}`) : null,
  }));
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request, { tax: ["update"] });
  const form = await readSmallForm(request, ADMIN_UPLOAD_LIMIT_BYTES);
  const intent = form.get("intent");
  const refuse = (answer: Omit<TaxAnswer, "ok">, status: number) =>
    data<TaxAnswer>({ ok: false, ...answer }, { status });
  const db = getDb();
  if (intent === "save-states") {
    const inputs = readStates(form);
    if (!inputs) return refuse({ form: "states", message: "The form holds no states. Reload the page." }, 400);
    try {
      const { changed } = await saveUsStates(db, staff, inputs);
      throw redirect(`/admin/tax?done=${changed.length ? "states" : "unchanged"}`);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const typed = Object.fromEntries(inputs.map((i) => [i.code, i]));
      const stateProblems = error instanceof UsStatesInvalidError ? error.problems : undefined;
      return refuse(
        { form: "states", message: error.message, stateProblems, typed: stateProblems ? typed : undefined },
        error.status,
      );
    }
  }
  if (intent === "import-local") {
    const file = form.get("file");
    const csv = file instanceof File && file.size > 0 ? await file.text() : formText(form, "csv");
    if (!csv.trim()) return refuse({ form: "local", message: "Choose a CSV file or paste its text." }, 400);
    try {
      await importLocalRates(db, staff, csv);
      throw redirect("/admin/tax?done=imported");
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const lineProblems = error instanceof LocalRatesInvalidError ? error.problems : undefined;
      return refuse({ form: "local", message: error.message, lineProblems }, error.status);
    }
  }
  return refuse({ form: "states", message: "Unknown action." }, 400);
}

export default function TaxPage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData ?? null;
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-3xl font-bold text-ink">Tax</h1>
        <p className="mt-2 max-w-3xl text-sm text-slate-700">
          US sales tax: each state&apos;s rate, whether it taxes delivery, and the states where the store is registered
          to collect it (no tax is collected elsewhere, and the order says so). Local rates come by ZIP code from a CSV.
          {loaderData.canChange ? null : " Only admins can change these."}
        </p>
        <p className="mt-2 max-w-3xl text-sm text-slate-700">
          The checkout adds sales tax from this table to an order delivered where the store collects (the state is the
          delivery ZIP code&apos;s), shows it to the shopper before the order is placed, and keeps it with the order: a
          change here never alters a placed order.
        </p>
        <p className="mt-2 text-sm">
          <a href="/admin/tax/certificates" className="font-semibold text-brand-800 underline">
            Exemption certificates ({loaderData.waitingCertificates} waiting)
          </a>
        </p>
        <ResultMessage result={answer ? null : loaderData.done} />
      </div>
      <StatesSection
        states={loaderData.states}
        canChange={loaderData.canChange}
        answer={answer?.form === "states" ? answer : null}
      />
      <LocalRatesSection
        summary={loaderData.local}
        canChange={loaderData.canChange}
        answer={answer?.form === "local" ? answer : null}
      />
      <AddressCheckSection states={loaderData.states} check={loaderData.check} />
      <ReportsSection quarters={loaderData.periods.quarters} months={loaderData.periods.months} />
    </div>
  );
}
