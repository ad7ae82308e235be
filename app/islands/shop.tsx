// The shop's island (app/islands/hydrate.tsx): its filters, sort and words load their results in place.
import { ShopPage } from "../components/catalog/ShopPage.tsx";
import { hydrateIsland } from "./hydrate.tsx";

hydrateIsland(ShopPage, { inPlace: "routes/shop" });
