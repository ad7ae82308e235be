// The home page's island (app/islands/hydrate.tsx).
import { HomePage } from "../components/home/HomePage.tsx";
import { hydrateIsland } from "./hydrate.tsx";

hydrateIsland(HomePage);
