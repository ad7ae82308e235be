// fake-stripe-page.mjs — the hosted payment page stand-in of tests/support/fake-stripe.mjs: what a
// Checkout Session's `url` points to (`/pay/:id`). Plain HTML, no JavaScript, black on white, every
// element inside <main>, so it passes axe like the store's own pages. The customer's choices:
//   action=pay         "Pay $12.34"                      card, succeeds at once (payment_status "paid")
//   action=processing  "Pay by bank transfer"            completes with payment_status "unpaid"; settle it
//                                                         later with /_test/checkout/sessions/:id/async_payment_*
//   action=cancel      "Cancel and return to the store"  303 to cancel_url; the session stays open (as on Stripe)
// pay/processing answer 303 to success_url with {CHECKOUT_SESSION_ID} replaced by the session id.

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** 12345 + "usd" -> "$123.45" (minor units; zero-decimal currencies such as JPY need no division). */
function formatAmount(amount, currency) {
  const fmt = new Intl.NumberFormat("en-US", { style: "currency", currency: String(currency).toUpperCase() });
  return fmt.format(amount / 10 ** fmt.resolvedOptions().maximumFractionDigits);
}

/** The URL Stripe sends the customer to after paying: the literal {CHECKOUT_SESSION_ID} becomes the id. */
const successUrl = (session) => session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id);

const STYLE =
  "body{margin:0;color:#000;background:#fff;font:16px/1.5 system-ui,sans-serif}" +
  "main{max-width:32rem;margin:2rem auto;padding:0 1rem}a{color:#000}" +
  "button{display:block;width:100%;margin:.5rem 0;padding:.6rem 1rem;font:inherit;color:#000;background:#fff;border:2px solid #000;border-radius:4px;cursor:pointer}" +
  "button:focus-visible,a:focus-visible{outline:3px solid #000;outline-offset:2px}";

function layout(title, body) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function payForm(session, items, merchant) {
  const total = formatAmount(session.amount_total, session.currency);
  const lines = items.map(
    (li) =>
      `<li>${esc(li.description ?? "Item")} × ${li.quantity} — ${esc(formatAmount(li.amount_total, li.currency))}</li>`,
  );
  const cancel = session.cancel_url
    ? `\n<button type="submit" name="action" value="cancel">Cancel and return to the store</button>`
    : "";
  return layout(
    `Pay ${merchant} — ${total}`,
    `<h1>Pay ${esc(merchant)}</h1>
<p>Test mode: this page stands in for Stripe Checkout. No real money moves.</p>
<h2>Order summary</h2>
<ul>
${lines.join("\n")}
</ul>
<p>Total due: <strong>${esc(total)}</strong></p>
<form method="post">
<button type="submit" name="action" value="pay">Pay ${esc(total)}</button>
<button type="submit" name="action" value="processing">Pay by bank transfer</button>${cancel}
</form>`,
  );
}

function notice(title, heading, text, link) {
  const back = link ? `\n<p><a href="${esc(link)}">Return to the store</a></p>` : "";
  return layout(title, `<h1>${esc(heading)}</h1>\n<p>${esc(text)}</p>${back}`);
}

function closedPage(session, pi, merchant) {
  if (session.status === "expired")
    return [
      410,
      notice(
        `Payment page expired — ${merchant}`,
        "This payment page has expired",
        "The time to pay for this order ran out, so nothing was charged. Return to the store to check out again.",
        session.cancel_url,
      ),
    ];
  if (pi?.status === "requires_payment_method")
    return [
      200,
      notice(
        `Payment failed — ${merchant}`,
        "This checkout is closed",
        "The bank transfer for this order failed. Return to the store to try again.",
        session.cancel_url ?? successUrl(session),
      ),
    ];
  const text =
    session.payment_status === "paid"
      ? "This order is already paid. Nothing more is due."
      : "This order is already paid by bank transfer; the transfer is still being processed.";
  return [200, notice(`Already paid — ${merchant}`, "Already paid", text, successUrl(session))];
}

/**
 * GET/POST /pay/:id. `ctx.find(id)` -> the session record ({ session, items }) after its expiry
 * check, or undefined; `ctx.complete(id, outcome)` completes it; `ctx.paymentIntent(id)`.
 */
export async function handlePayPage(req, res, id, form, ctx) {
  const merchant = ctx.merchantName;
  const html = (status, page, headers = {}) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers });
    res.end(page);
  };
  const redirect = (location) =>
    html(303, notice("Redirecting", "Redirecting", "Continue to the store.", location), { location });
  if (req.method !== "GET" && req.method !== "POST")
    return html(405, notice("Method not allowed", "Method not allowed", "Use GET or POST."), { allow: "GET, POST" });
  const rec = await ctx.find(id);
  if (!rec)
    return html(
      404,
      notice(
        `Payment page not found — ${merchant}`,
        "Payment page not found",
        "There is no checkout with this address.",
      ),
    );
  const { session } = rec;
  if (session.status !== "open") {
    const [status, page] = closedPage(session, ctx.paymentIntent(session.payment_intent), merchant);
    return html(status, page);
  }
  if (req.method === "GET") return html(200, payForm(session, rec.items, merchant));
  const action = form.action;
  if (action === "cancel") {
    if (!session.cancel_url)
      return html(400, notice("Cannot cancel", "Cannot cancel here", "This checkout has no page to return to."));
    return redirect(session.cancel_url); // Stripe leaves the session open until it expires
  }
  if (action !== "pay" && action !== "processing")
    return html(400, notice("Unknown choice", "Unknown choice", "Choose one of the buttons on the payment page."));
  await ctx.complete(id, action === "pay" ? "paid" : "processing");
  return redirect(successUrl(session));
}
