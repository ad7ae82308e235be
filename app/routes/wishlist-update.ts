import type { Route } from "./+types/wishlist-update";
import { originPolicy } from "../../server/auth/origins.ts";
import { config } from "../../server/config.ts";
import { getDb } from "../../server/db/connection.ts";
import { wishlistJsonAction } from "../../server/wishlist/json-action.ts";

/** JSON twin of /wishlist's action, for the wishlist toggle's keepalive fetch (see WishlistToggle). */
export async function action({ request }: Route.ActionArgs) {
  return wishlistJsonAction(getDb(), request, originPolicy(config()));
}
