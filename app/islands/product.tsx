// A product page's island (app/islands/hydrate.tsx).
import { ProductPage } from "../components/catalog/ProductPage.tsx";
import { hydrateIsland } from "./hydrate.tsx";

hydrateIsland(ProductPage);
