import { data, Link, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/product-edit";
import {
  ArchivePanel,
  FormMessage,
  ImagesPanel,
  LedgerTable,
  StockPanel,
} from "../../components/admin/products/EditPanels.tsx";
import { ProductForm } from "../../components/admin/products/ProductForm.tsx";
import { TaxRulesPanel } from "../../components/admin/products/TaxRulesPanel.tsx";
import { productTaxSchema } from "../../lib/product-tax.ts";
import { setProductTaxRules } from "../../../server/tax/product-tax.ts";
import { ProductsHeading } from "../../components/admin/BackHeading.tsx";
import {
  formFields,
  PRODUCT_FIELDS,
  productEditSchema,
  stockAdjustSchema,
  validateWith,
  type FieldErrors,
} from "../../lib/product-schema.ts";
import { can } from "../../../server/auth/permissions.ts";
import { listCatalogRefs, loadProductForEdit, setArchived } from "../../../server/catalog/admin-products.ts";
import { ProductConflictError, ProductFieldError, updateProduct } from "../../../server/catalog/product-form.ts";
import { isProductId } from "../../../server/catalog/product-rows.ts";
import {
  addProductImage,
  makeCoverImage,
  MAX_IMAGE_BYTES,
  removeProductImage,
} from "../../../server/catalog/product-images.ts";
import { getDb } from "../../../server/db/connection.ts";
import { NotAllowedError, isDomainError } from "../../../server/errors.ts";
import { ADMIN_PRODUCT_FORM_LIMIT_BYTES, ADMIN_UPLOAD_LIMIT_BYTES } from "../../../server/http/body-limit.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { adjustStock, recentLedger } from "../../../server/inventory/adjust.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { formText } from "../../lib/form-text.ts";
import { formatMoney } from "../../lib/money.ts";

export function meta({ loaderData }: Route.MetaArgs) {
  const title = loaderData ? `${loaderData.product.fields.title} | Products` : "Edit product";
  return [{ title: `${title} | Back office | ToolHub Wholesale` }, { name: "robots", content: "noindex" }];
}

function productId(params: { id?: string }): number {
  const id = /^\d{1,10}$/.test(params.id ?? "") ? Number(params.id) : NaN;
  if (!isProductId(id)) throw data("Product not found", { status: 404 });
  return id;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { product: ["update"] });
  const id = productId(params);
  const db = getDb();
  const product = await loadProductForEdit(db, staff, id);
  if (!product) throw data("Product not found", { status: 404 });
  const [refs, ledger] = await Promise.all([listCatalogRefs(db), recentLedger(db, id, 20)]);
  return { product, ledger, ...refs, done: new URL(request.url).searchParams.get("done") };
}

/** A refused save re-reads the product, so the form shows the values someone else saved. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 ? true : defaultShouldRevalidate;
}

type Answer = {
  form: "product" | "stock" | "image" | "tax" | "other";
  values?: Record<string, string>;
  errors?: FieldErrors;
  message?: string;
};
const answer = (body: Answer, status: number) => data(body, { status });

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, { product: ["update"] });
  const id = productId(params);
  const db = getDb();
  const multipart = (request.headers.get("content-type") ?? "").startsWith("multipart/form-data");
  const form = await readSmallForm(request, multipart ? ADMIN_UPLOAD_LIMIT_BYTES : ADMIN_PRODUCT_FORM_LIMIT_BYTES);
  const intent = formText(form, "intent");
  const done = (what: string) => redirect(`/admin/products/${id}?done=${what}`);
  try {
    switch (intent) {
      case "save": {
        const values = formFields(form, PRODUCT_FIELDS);
        const checked = validateWith(productEditSchema, values);
        if (!checked.ok) return answer({ form: "product", values, errors: checked.errors }, 422);
        const version = formText(form, "version");
        await updateProduct(db, staff, id, checked.data, version);
        return done("saved");
      }
      case "adjust-stock": {
        if (!can(staff.role, { stock: ["adjust"] }))
          throw new NotAllowedError("forbidden", "You don't have permission to do that.");
        const values = formFields(form, ["reason", "change", "note"], 600);
        const checked = validateWith(stockAdjustSchema, values);
        if (!checked.ok) return answer({ form: "stock", values, errors: checked.errors }, 422);
        await adjustStock(db, staff, id, checked.data);
        return done("stock");
      }
      case "tax": {
        const checked = validateWith(productTaxSchema, {
          vat_class: formText(form, "vat_class"),
          prop65: form.get("prop65") ?? undefined,
        });
        if (!checked.ok) return answer({ form: "tax", message: Object.values(checked.errors)[0] }, 422);
        await setProductTaxRules(db, staff, id, checked.data, formText(form, "version"));
        return done("tax");
      }
      case "archive":
      case "unarchive":
        await setArchived(db, staff, [id], intent === "archive");
        return done(intent === "archive" ? "archived" : "unarchived");
      case "upload-image": {
        const file = form.get("image");
        if (!(file instanceof File) || file.size === 0)
          return answer({ form: "image", message: "Choose a picture to upload." }, 400);
        if (file.size > MAX_IMAGE_BYTES)
          return answer({ form: "image", message: "The picture must be 10 MB or smaller." }, 413);
        await addProductImage(db, staff, id, new Uint8Array(await file.arrayBuffer()));
        return done("image-added");
      }
      case "remove-image":
      case "cover-image": {
        const imageId = Number(form.get("imageId"));
        if (!Number.isSafeInteger(imageId) || imageId < 1)
          return answer({ form: "image", message: "That picture doesn't exist." }, 400);
        if (intent === "remove-image") await removeProductImage(db, staff, id, imageId);
        else await makeCoverImage(db, staff, id, imageId);
        return done(intent === "remove-image" ? "image-removed" : "image-cover");
      }
      default:
        return answer({ form: "other", message: "Unknown action." }, 400);
    }
  } catch (error) {
    if (error instanceof ProductConflictError)
      return answer({ form: intent === "tax" ? "tax" : "product", message: error.message }, 409);
    if (error instanceof ProductFieldError)
      return answer({ form: "product", values: formFields(form, PRODUCT_FIELDS), errors: error.fields }, error.status);
    if (isDomainError(error)) {
      const which: Answer["form"] = intent === "adjust-stock" ? "stock" : intent.includes("image") ? "image" : "other";
      return answer(
        {
          form: which,
          values: which === "stock" ? formFields(form, ["reason", "change", "note"], 600) : undefined,
          message: error.message,
        },
        error.status,
      );
    }
    throw error;
  }
}

const DONE_TEXT: Record<string, string> = {
  created: "Product created. It is on sale in the shop now.",
  saved: "Saved. The shop shows the change now.",
  stock: "Stock adjusted and recorded in the ledger.",
  archived: "Archived: the product has left the shop, search and sitemap.",
  unarchived: "The product is back on sale.",
  "image-added": "Picture uploaded. The shop shows it now.",
  "image-removed": "Picture removed.",
  "image-cover": "That picture is now shown first.",
  tax: "Tax rules saved. Orders placed from now on use them.",
};

export default function EditProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { product, ledger, brands, categories, done } = loaderData;
  const answerFor = (form: Answer["form"]) => (actionData?.form === form ? actionData : undefined);
  const productAnswer = answerFor("product");
  const conflict = productAnswer && !productAnswer.errors ? productAnswer.message : undefined;
  const stockAnswer = answerFor("stock");
  const imageAnswer = answerFor("image");
  const other = answerFor("other");
  const doneText = !actionData && done ? DONE_TEXT[done] : undefined;
  return (
    <div className="space-y-8">
      <div>
        <ProductsHeading title={product.fields.title} />
        <p className="mt-1 text-sm text-slate-700">
          #{product.id} · SKU {product.fields.sku} ·{" "}
          {product.archivedAt ? (
            "archived"
          ) : (
            <Link to={`/shop/${product.id}`} className="text-brand-800 underline">
              View in the shop
            </Link>
          )}
        </p>
      </div>
      {doneText ? <FormMessage tone="success">{doneText}</FormMessage> : null}
      {other?.message ? <FormMessage tone="error">{other.message}</FormMessage> : null}
      <ProductForm
        key={product.version}
        mode="edit"
        version={product.version}
        values={productAnswer?.values && !conflict ? productAnswer.values : product.fields}
        errors={productAnswer?.errors}
        message={conflict ? { tone: "error", text: conflict } : null}
        brands={brands}
        categories={categories}
        ukPriceInUse={formatMoney(product.ukPricePence, "gbp")}
      />
      <StockPanel
        key={`stock-${product.stock}`}
        stock={product.stock}
        errors={stockAnswer?.errors ?? (stockAnswer?.message ? { change: stockAnswer.message } : undefined)}
        values={stockAnswer?.values}
      />
      <LedgerTable rows={ledger} />
      <ImagesPanel title={product.fields.title} images={product.images} error={imageAnswer?.message} />
      <TaxRulesPanel
        vatClass={product.taxRules.vatClass}
        prop65={product.taxRules.prop65}
        version={product.version}
        error={answerFor("tax")?.message}
      />
      <ArchivePanel archivedAt={product.archivedAt} orderCount={product.orderCount} />
    </div>
  );
}
