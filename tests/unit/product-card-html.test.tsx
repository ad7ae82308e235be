// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createRoutesStub, Outlet } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { productCardHtml, type CardProduct } from "../../app/components/catalog/card-html.ts";
import { ProductGrid } from "../../app/components/catalog/ProductGrid.tsx";
import { AlertProvider } from "../../app/components/ui/Alert.tsx";
import { inDocument } from "../support/in-document.ts";

const product = (over: Partial<CardProduct> = {}): CardProduct => ({
  id: 7,
  title: "Cordless Drill",
  priceCents: 6_199,
  discountPercent: 20,
  salePriceCents: 4_959,
  imageUrl: "/images/products/7/1.svg",
  stockQuantity: 3,
  ...over,
});

const cardElement = (html: string) => inDocument(html, "li");

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("a product card as HTML (app/components/catalog/card-html.ts)", () => {
  it("escapes every text it is given: a title or an extract can never add markup", () => {
    const hostile = '<img src=x onerror="alert(1)"> & "quotes" \'too\'';
    const card = cardElement(
      productCardHtml(
        product({ title: hostile, titleSegments: [{ text: hostile, match: true }], snippet: [{ text: "<script>bad()</script>", match: false }], imageUrl: '/x.svg" onload="bad()' }),
        { eager: false, pressed: false },
      ),
    );
    expect(card.querySelectorAll("script, [onerror], [onload]")).toHaveLength(0);
    expect(card.querySelector("h3 a")!.textContent).toBe(hostile);
    expect(card.querySelector("h3 mark")!.textContent).toBe(hostile);
    expect(card.querySelector("article > div > img")!.getAttribute("alt")).toBe(hostile);
    expect(card.querySelector("article > div > img")!.getAttribute("src")).toBe('/x.svg" onload="bad()');
    expect(card.querySelector("p")!.textContent).toBe("<script>bad()</script>");
  });

  it("shows the title with its matches, the sale and original prices, the badge and the trade price", () => {
    const card = cardElement(
      productCardHtml(product({ titleSegments: [{ text: "Cordless ", match: false }, { text: "Drill", match: true }] }), { eager: true, pressed: false, yourPriceCents: 4_500 }),
    );
    const link = card.querySelector<HTMLAnchorElement>("h3 a")!;
    expect(link.getAttribute("href")).toBe("/shop/7");
    expect(link.textContent).toBe("Cordless Drill");
    expect([...link.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["Drill"]);
    expect(card.querySelector(".bg-red-700")!.textContent).toBe("-20%");
    expect(card.querySelector(".mt-auto")!.textContent).toBe("Sale price $49.59Original price $61.99Your price $45.00");
    expect(card.querySelector("article > div > img")!.getAttribute("loading")).toBe("eager");
    expect(card.querySelector('img[alt="Rated 5 out of 5"]')).not.toBeNull();
  });

  it("disables Add to cart when out of stock and shows the wishlist state", () => {
    const card = cardElement(productCardHtml(product({ stockQuantity: 0, discountPercent: null }), { eager: false, pressed: true }));
    expect(card.querySelector<HTMLButtonElement>('button[aria-label="Add to cart"]')!.disabled).toBe(true);
    const heart = card.querySelector<HTMLButtonElement>('button[aria-label="Add to wishlist"]')!;
    expect(heart.getAttribute("aria-pressed")).toBe("true");
    expect(heart.title).toBe("In your wishlist");
    expect(heart.querySelector("svg")!.getAttribute("fill")).toBe("currentColor");
    expect(card.querySelector(".bg-red-700")).toBeNull();
    expect(card.querySelector(".mt-auto")!.textContent).toBe("$61.99");
  });
});

describe("the product grid (app/components/catalog/ProductGrid.tsx)", () => {
  let wishlist: number[] = [8];
  function renderGrid(cartAction: (form: FormData) => unknown) {
    wishlist = [8];
    const Stub = createRoutesStub([
      {
        id: "root",
        path: "/",
        loader: () => ({ wishlistIds: [...wishlist], cartCount: 0, user: null, siteUrl: "", year: 2026 }),
        Component: () => (
          <AlertProvider>
            <Outlet />
          </AlertProvider>
        ),
        children: [
          { index: true, Component: () => <ProductGrid products={[product(), product({ id: 8, title: "Claw Hammer" })]} /> },
          { path: "cart", action: async ({ request }) => cartAction(await request.formData()) },
          { path: "shop/:id", Component: () => <h1>Product page</h1> },
        ],
      },
    ]);
    render(<Stub initialEntries={["/"]} />);
  }

  it("flips a wishlist button in place, so it keeps focus, and sends the change", async () => {
    const sent: string[] = [];
    let answer: (response: Response) => void = () => {};
    vi.spyOn(globalThis, "fetch").mockImplementation((_url, init) => {
      sent.push(String(init?.body));
      return new Promise<Response>((resolve) => (answer = resolve));
    });
    renderGrid(() => null);
    const hearts = await screen.findAllByRole("button", { name: "Add to wishlist" });
    expect(hearts.map((h) => h.getAttribute("aria-pressed"))).toEqual(["false", "true"]);
    hearts[0].focus();
    await act(async () => {
      fireEvent.click(hearts[0]);
    });
    // At once, before the store answers.
    expect(hearts[0].getAttribute("aria-pressed")).toBe("true");
    expect(hearts[0].title).toBe("In your wishlist");
    expect(hearts[0].querySelector("svg")!.getAttribute("fill")).toBe("currentColor");
    expect(sent).toHaveLength(1);
    expect(new URLSearchParams(sent[0]).get("productId")).toBe("7");
    wishlist = [8, 7];
    await act(async () => {
      answer(Response.json({ ok: true, message: "Added to your wishlist." }));
    });
    expect((await screen.findByRole("alert")).textContent).toBe("Added to your wishlist.");
    // The page's data read again says the same; the button is the same element, still focused.
    await waitFor(() => expect(hearts[0].getAttribute("aria-pressed")).toBe("true"));
    // Once the change has settled too, the button follows the list read again, not the one before.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(hearts[0].getAttribute("aria-pressed")).toBe("true");
    expect(hearts[0].isConnected).toBe(true);
    expect(document.activeElement).toBe(hearts[0]);
    expect(hearts[1].getAttribute("aria-pressed")).toBe("true");
  });

  it("shows the store's state once a change fails", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("no", { status: 500 }));
    renderGrid(() => null);
    const hearts = await screen.findAllByRole("button", { name: "Add to wishlist" });
    await act(async () => {
      fireEvent.click(hearts[1]);
    });
    expect((await screen.findByRole("alert")).textContent).toContain("We couldn't update your wishlist");
    await waitFor(() => expect(hearts[1].getAttribute("aria-pressed")).toBe("true"));
    expect(hearts[1].title).toBe("In your wishlist");
  });

  it("sends Add to cart with a fetcher and shows the answer, staying on the page", async () => {
    const added: string[] = [];
    renderGrid((form) => {
      added.push(String(form.get("productId")));
      return { ok: true, message: "Added to your cart." };
    });
    const buttons = await screen.findAllByRole("button", { name: "Add to cart" });
    await act(async () => {
      fireEvent.click(buttons[1]);
    });
    await waitFor(() => expect(added).toEqual(["8"]));
    expect((await screen.findByRole("alert")).textContent).toBe("Added to your cart.");
    expect(screen.getAllByRole("article")).toHaveLength(2);
  });

  it("follows a card's link in place", async () => {
    renderGrid(() => null);
    const link = (await screen.findAllByRole("link"))[1];
    expect(link.getAttribute("href")).toBe("/shop/8");
    await act(async () => {
      fireEvent.click(link);
    });
    expect(await screen.findByRole("heading", { name: "Product page" })).toBeTruthy();
  });
});
