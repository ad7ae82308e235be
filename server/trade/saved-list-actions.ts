/**
 * The saved-list pages' posts: a signed-in customer (requireCustomer: this store's origin, the
 * per-account limit), the form, then one domain step. A new list, or a deleted one, redirects; the
 * rest answer { ok, message } and the page renders again (with or without JavaScript).
 */
import { data, redirect } from "react-router";
import { parseRowId } from "../../app/lib/order-rules.ts";
import { getDb } from "../db/connection.ts";
import { DomainError, NotFoundError, isDomainError } from "../errors.ts";
import { readSmallForm } from "../http/form-action.ts";
import { requireCustomer } from "./guard.ts";
import { shopperMarket } from "../shopper/market.ts";
import { addAvailableToCart, addListToCart, saveCartAsList, type ListCartLine } from "./saved-list-cart.ts";
import { parseLineColor } from "./saved-list-rules.ts";
import {
  addLineBySku,
  createList,
  deleteList,
  LIST_NOT_FOUND_MESSAGE,
  removeLine,
  renameList,
  setLineQuantity,
  shareList,
} from "./saved-lists.ts";
import { formText } from "../../app/lib/form-text.ts";
import { typedBack } from "../../app/lib/form-text.ts";

export interface ListActionData {
  ok: boolean;
  intent: string;
  message: string;
  /** After an add to the cart: each line and what happened to it. */
  report?: ListCartLine[];
  /** What was typed, shown again beside a refusal. */
  values?: Record<string, string>;
}

const refuse = (intent: string, error: DomainError, values?: Record<string, string>) =>
  data<ListActionData>({ ok: false, intent, message: error.message, values }, { status: error.status });

/** The lists page: a new list, or the cart saved as a list; both open the new list. */
export async function listsPageAction(request: Request) {
  const session = await requireCustomer(request);
  const form = await readSmallForm(request);
  const intent = formText(form, "intent");
  const db = getDb();
  try {
    if (intent === "create") {
      const list = await createList(db, session.userId, form.get("name"));
      return redirect(`/account/lists/${list.id}?done=created`);
    }
    if (intent === "save-cart") {
      const list = await saveCartAsList(db, session.userId, form.get("name"));
      return redirect(`/account/lists/${list.id}?done=saved-cart`);
    }
    return data<ListActionData>({ ok: false, intent, message: "Unknown action." }, { status: 400 });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return refuse(intent, error, typedBack(form, ["name"], 100));
  }
}

function lineKey(form: FormData): { productId: number; color: string } {
  const productId = parseRowId(form.get("productId"));
  const color = parseLineColor(form.get("color") ?? "");
  if (productId == null || color == null)
    throw new NotFoundError("LINE_NOT_FOUND", "That product is no longer on this list.");
  return { productId, color };
}

/** One list's page: its lines, name, sharing, deletion, and adding it to the cart. */
export async function listPageAction(request: Request, idParam: string | undefined) {
  const session = await requireCustomer(request);
  const listId = parseRowId(idParam);
  if (listId == null)
    return data<ListActionData>({ ok: false, intent: "", message: LIST_NOT_FOUND_MESSAGE }, { status: 404 });
  const form = await readSmallForm(request);
  const intent = formText(form, "intent");
  const db = getDb();
  const user = session.userId;
  const ok = (message: string, report?: ListCartLine[], status = 200) =>
    data<ListActionData>({ ok: status < 300, intent, message, report }, { status });
  try {
    switch (intent) {
      case "add-line":
        return ok(await addLineBySku(db, user, listId, form.get("sku"), form.get("quantity")));
      case "set-quantity":
        return ok(await setLineQuantity(db, user, listId, lineKey(form), form.get("quantity")));
      case "remove-line":
        return ok(await removeLine(db, user, listId, lineKey(form)));
      case "rename": {
        const { name, changed } = await renameList(db, user, listId, form.get("name"));
        return ok(changed ? `Renamed to “${name}”.` : "Nothing to change: the list already has this name.");
      }
      case "delete":
        await deleteList(db, user, listId);
        return redirect("/account/lists?done=deleted");
      case "share":
      case "unshare":
        return ok(await shareList(db, user, listId, intent === "share"));
      case "add-all": {
        const result = await addListToCart(db, user, listId, (await shopperMarket(db, request)).market);
        return ok(result.message, result.lines, result.ok ? 200 : 409);
      }
      case "add-available": {
        const { market } = await shopperMarket(db, request);
        const result = await addAvailableToCart(db, user, listId, lineKey(form), market);
        return ok(result.message, result.lines, result.ok ? 200 : 409);
      }
      default:
        return data<ListActionData>({ ok: false, intent, message: "Unknown action." }, { status: 400 });
    }
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return refuse(intent, error, typedBack(form, ["sku", "quantity", "name"], 100));
  }
}
