import { data, redirect } from "react-router";
import type { Route } from "./+types/product-new";
import { ProductForm } from "../../components/admin/products/ProductForm.tsx";
import { ProductsHeading } from "../../components/admin/BackHeading.tsx";
import { formFields, PRODUCT_FIELDS, productSchema, validateWith } from "../../lib/product-schema.ts";
import { listCatalogRefs } from "../../../server/catalog/admin-products.ts";
import { createProduct, ProductFieldError } from "../../../server/catalog/product-form.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { ADMIN_PRODUCT_FORM_LIMIT_BYTES } from "../../../server/http/body-limit.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "New product | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { product: ["create"] });
  return listCatalogRefs(getDb());
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request, { product: ["create"] });
  const form = await readSmallForm(request, ADMIN_PRODUCT_FORM_LIMIT_BYTES);
  const values = formFields(form, PRODUCT_FIELDS);
  const checked = validateWith(productSchema, values);
  if (!checked.ok) return data({ values, errors: checked.errors, message: null }, { status: 422 });
  try {
    const id = await createProduct(getDb(), staff, checked.data);
    throw redirect(`/admin/products/${id}?done=created`);
  } catch (error) {
    if (error instanceof ProductFieldError)
      return data({ values, errors: error.fields, message: null }, { status: error.status });
    if (isDomainError(error)) return data({ values, errors: {}, message: error.message }, { status: error.status });
    throw error;
  }
}

export default function NewProductPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div>
      <ProductsHeading title="New product" className="mb-6" />
      <ProductForm
        mode="new"
        values={actionData?.values ?? {}}
        errors={actionData?.errors}
        message={actionData?.message ? { tone: "error", text: actionData.message } : null}
        brands={loaderData.brands}
        categories={loaderData.categories}
      />
    </div>
  );
}
