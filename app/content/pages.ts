import type { ContentPage } from "./types.ts";

const UPDATED = "2026-11-01";

const contentPages: ContentPage[] = [
  {
    slug: "refund-policy",
    title: "Refund Policy",
    description:
      "How refunds work at ToolHub Wholesale: return within 14 days of delivery and get your money back within 7 days of your return reaching us.",
    updated: UPDATED,
    sections: [
      {
        heading: "Our money back guarantee",
        paragraphs: [
          "We want you to be happy with every tool you buy from ToolHub Wholesale. If you are not, you can return it within 14 days of delivery, and once your return reaches us and passes a quick check, we issue your money back within 7 days.",
          "This policy applies to orders delivered to addresses in the United Kingdom and the United States.",
        ],
      },
      {
        heading: "Which items can be refunded",
        paragraphs: [
          "To qualify for a refund, items must be returned within 14 days of delivery, unused, complete with all parts, batteries, chargers and manuals, and in their original packaging.",
          "For hygiene and safety reasons, and because some goods are made to your order, we cannot refund the following unless they are faulty:",
        ],
        bullets: [
          "Personal protective equipment that has been worn, such as gloves, ear defenders and respirator masks",
          "Cable, chain, hose and other goods cut to a length you specified",
          "Consumables that have been opened or used, such as blades, drill bits, abrasives and fixings",
          "Fuel, oils and lubricants once the seal has been broken",
        ],
      },
      {
        heading: "How your refund is paid",
        paragraphs: [
          "We refund the price you paid for the returned items, including any discount applied, to your original payment method. For Pay on delivery orders we refund to the bank account you give us. If you paid by Invoice (business accounts, net 30), we issue a credit note against your account.",
          "If you return your whole order within 14 days, we also refund the standard delivery charge of a flat $9.99 on UK orders. US orders ship free, so there is no delivery charge to refund.",
        ],
      },
      {
        heading: "Return shipping costs",
        paragraphs: [
          "If you change your mind, the cost of sending items back to us is yours. If an item is faulty, damaged in transit or not what you ordered, we cover the return shipping and will send you the instructions you need.",
        ],
      },
      {
        heading: "Faulty and damaged items",
        paragraphs: [
          "Please check your delivery when it arrives and tell us about any damage or missing items within 48 hours. For faults that appear later, the manufacturer's warranty applies and our support team will help you make a claim.",
          "Nothing in this policy affects your statutory rights, including your rights under UK consumer law and any consumer protection laws of your US state.",
        ],
      },
    ],
  },
  {
    slug: "terms-and-conditions",
    title: "Terms & Condition",
    description:
      "The terms that apply when you buy tools and equipment from ToolHub Wholesale, covering orders, prices, payment, delivery, warranties and liability.",
    updated: UPDATED,
    sections: [
      {
        heading: "About these terms",
        paragraphs: [
          "These terms and conditions apply to every order placed with ToolHub Wholesale, 221 Forge Lane, Sheffield, S1 2AB, United Kingdom. Please read them before you order. By placing an order you agree to them.",
          "If you buy as a consumer, you have legal rights that these terms do not affect. If you buy for a business, some of those consumer rights do not apply to you.",
        ],
      },
      {
        heading: "Your order",
        paragraphs: [
          "When you place an order we email you an order confirmation. Your order is an offer to buy, and the contract between us is formed when we dispatch the goods. We may decline an order, for example if an item is out of stock or a price has been shown in error, and we will tell you if we do.",
        ],
      },
      {
        heading: "Prices and payment",
        paragraphs: [
          "Prices are shown in the currency of the market you shop in, chosen at the top of every page: in the United States in US dollars, with sales tax added at checkout where we collect it; in the United Kingdom in pounds sterling, VAT included. Delivery is free on US orders and a flat £9.99 on UK orders. Signed-in members receive a 5% discount on every order over $120.00 (£100.00 in the United Kingdom), applied automatically at checkout. Trade accounts buy in US dollars.",
          "You can pay by Pay on delivery or, for businesses with a VAT or EIN number, by Invoice (business accounts, net 30). Invoices are due 30 days from the invoice date, and we may pause further invoice orders while an invoice is overdue.",
        ],
      },
      {
        heading: "Delivery, risk and ownership",
        paragraphs: [
          "We aim to deliver UK orders in 2–4 working days and US orders in 3–7 business days. These are estimates, not guarantees. The goods are your responsibility from the moment they are delivered, and they become your property once we have received payment in full.",
        ],
      },
      {
        heading: "Warranties and our liability",
        paragraphs: [
          "All products are new and covered by the manufacturer's warranty. Please use every tool in line with the manufacturer's instructions and with suitable safety equipment.",
          "We are responsible for loss or damage you suffer that is a foreseeable result of us breaking these terms. We are not responsible for business losses such as lost profit or downtime where you buy for a business, except where the law does not allow us to limit our liability.",
        ],
      },
      {
        heading: "Governing law",
        paragraphs: [
          "These terms are governed by the law of England and Wales. If you live elsewhere in the United Kingdom or in the United States, you can also rely on the mandatory consumer protections of the place where you live, and you may bring proceedings in your local courts.",
        ],
      },
    ],
  },
  {
    slug: "terms-of-service",
    title: "Terms of Service",
    description:
      "The rules for using the ToolHub Wholesale website and your customer account, including sign-in, acceptable use and our content.",
    updated: UPDATED,
    sections: [
      {
        heading: "Using our website",
        paragraphs: [
          "These terms of service apply to your use of the ToolHub Wholesale website. Our Terms & Condition apply separately to any purchase you make. By using the website you agree to these terms.",
        ],
      },
      {
        heading: "Your account",
        paragraphs: [
          "You can create an account with your name, email address and a password of at least 6 characters, or sign in with your Google account. Please give accurate details, keep your password private and tell us straight away if you think someone else has used your account.",
          "You are responsible for orders placed through your account. We may suspend or close an account that is used fraudulently or in breach of these terms.",
        ],
      },
      {
        heading: "Acceptable use",
        paragraphs: ["When you use our website you agree not to:"],
        bullets: [
          "Break any law or use the site for fraud",
          "Try to gain unauthorised access to our systems or other customers' accounts",
          "Copy, scrape or resell our product data, prices or images in bulk",
          "Upload or send anything harmful, such as viruses or spam",
        ],
      },
      {
        heading: "Our content",
        paragraphs: [
          "The text, illustrations, guides and design of this website belong to ToolHub Wholesale or our licensors. Product names and brands belong to their respective owners. You may view and print pages for your own use, but not reuse them commercially without our permission.",
          "We work hard to keep product information accurate, but manufacturers sometimes change specifications. If a detail matters for your job, check it with our support team before you order.",
        ],
      },
      {
        heading: "Changes and availability",
        paragraphs: [
          "We may update the website and these terms from time to time. The date at the top of this page shows when they last changed. We aim to keep the site available at all times but cannot guarantee it will never be interrupted for maintenance or reasons beyond our control.",
        ],
      },
    ],
  },
  {
    slug: "privacy-policy",
    title: "Privacy Policy",
    description:
      "How ToolHub Wholesale collects, uses and protects your personal data, and the rights you have under UK and US privacy laws.",
    updated: UPDATED,
    sections: [
      {
        heading: "Who we are",
        paragraphs: [
          "ToolHub Wholesale, 221 Forge Lane, Sheffield, S1 2AB, United Kingdom, is the controller of the personal data described in this policy. You can contact us about privacy at any time at sup****@toolhub.example or on +44 114 000 0000.",
        ],
      },
      {
        heading: "What we collect",
        paragraphs: ["Depending on how you use our store, we collect:"],
        bullets: [
          "Account details: your full name, email address and a securely hashed password",
          "Google sign-in details: the name, email address and profile photo your Google account shares with us",
          "Order details: delivery address, phone number, the items you buy and your payment method",
          "Business details: your company name and VAT or EIN number if you pay by invoice",
          "Messages you send to our support team and newsletter sign-ups",
          "Technical data such as your browser type and the pages you visit",
        ],
      },
      {
        heading: "How we use your data",
        paragraphs: [
          "We use your data to run your account, process and deliver your orders, handle returns and refunds, answer your questions, and keep our store secure. These uses are necessary to perform our contract with you or for our legitimate interests in running the business.",
          "We only send marketing emails, such as our newsletter, if you have asked for them, and every email includes a link to unsubscribe.",
        ],
      },
      {
        heading: "Who we share it with",
        paragraphs: [
          "We share data only with the companies that help us run the store, such as couriers, our sign-in and email providers and our hosting provider, and only as much as they need. We never sell your personal data. We may disclose data where the law requires it.",
          "Some of these providers process data in the United States. Where data leaves the UK, we use the safeguards required by UK data protection law.",
        ],
      },
      {
        heading: "Cookies and storage",
        paragraphs: [
          "We use essential cookies and your browser's local storage to keep you signed in and to make the site work. We do not use advertising cookies.",
        ],
      },
      {
        heading: "Your rights",
        paragraphs: [
          "Under UK data protection law you can ask to see, correct or delete your data, object to or restrict how we use it, and take a copy of it. US customers have similar rights under the privacy laws of many states, including the right to know what we hold and to ask us to delete it.",
          "We keep order records for as long as tax and accounting laws require, normally six years, and other data only as long as we need it. If you are unhappy with how we handle your data, please contact us first; UK customers can also complain to the Information Commissioner's Office.",
        ],
      },
    ],
  },
  {
    slug: "shipping-information",
    title: "Shipping Information",
    description:
      "Free shipping on all US orders and a flat $9.99 on UK orders. UK delivery takes 2–4 working days and US delivery 3–7 business days.",
    updated: UPDATED,
    sections: [
      {
        heading: "Shipping costs",
        paragraphs: ["Our shipping charges are simple and the same whatever you order:"],
        bullets: ["United States: free shipping on every order", "United Kingdom: a flat $9.99 per order"],
      },
      {
        heading: "Delivery times",
        paragraphs: [
          "Most orders are dispatched within 1 working day. From dispatch, UK orders arrive in 2–4 working days and US orders in 3–7 business days. Delivery times do not include weekends or public holidays.",
          "If your order contains an item that is temporarily out of stock, we will contact you to agree whether to wait or ship the rest of your order first.",
        ],
      },
      {
        heading: "Where we deliver",
        paragraphs: [
          "We deliver to homes and business premises across the United Kingdom and the United States. We are not currently able to ship to other countries.",
          "Some large or heavy items, such as site mixers and ladders, cannot be delivered to PO boxes. We will let you know before dispatch if this affects your order.",
        ],
      },
      {
        heading: "Tracking your order",
        paragraphs: [
          "Sign in and open Order Status at /account/orders to see the progress of every order. We also email you the courier's tracking details as soon as your parcel is on its way.",
        ],
      },
      {
        heading: "Delays and problems",
        paragraphs: [
          "If your order has not arrived within the expected time, contact our support team, which is online 24/7. We will chase the courier and, if a parcel is lost, send a replacement or refund you in full.",
        ],
      },
    ],
  },
  {
    slug: "returns-and-exchanges",
    title: "Returns & Exchanges",
    description:
      "Return or exchange unused items within 14 days of delivery. Once your return arrives, we send your money back within 7 days.",
    updated: UPDATED,
    sections: [
      {
        heading: "Our 14-day returns window",
        paragraphs: [
          "You can return or exchange most items within 14 days of delivery. Items should be unused, complete and in their original packaging, with all accessories, batteries and manuals included.",
        ],
      },
      {
        heading: "How to return an item",
        paragraphs: ["Returning an item takes a few simple steps:"],
        bullets: [
          "Contact our support team with your order number and the items you want to return or exchange",
          "We confirm your return and send you the return address and instructions",
          "Pack the items securely in their original packaging and include your order number",
          "Send the parcel with a tracked service and keep your proof of postage",
        ],
      },
      {
        heading: "Exchanges",
        paragraphs: [
          "If you ordered the wrong size, model or voltage, we are happy to swap it for something else. If the new item costs more, we will ask you to pay the difference; if it costs less, we refund the difference. Your replacement is dispatched as soon as your return reaches us.",
        ],
      },
      {
        heading: "Refunds",
        paragraphs: [
          "Once your return reaches us and passes a quick check, we issue your money back within 7 days, to your original payment method or as a credit note if you pay by invoice. Full details are in our Refund Policy.",
        ],
      },
      {
        heading: "Return costs",
        paragraphs: [
          "If you change your mind, you pay the cost of sending the item back. If an item is faulty, damaged in transit or not what you ordered, we cover the return shipping.",
        ],
      },
    ],
  },
  {
    slug: "career",
    title: "Career",
    description:
      "Join the ToolHub Wholesale team in Sheffield or the US. See our current openings, what we offer and how to apply.",
    updated: UPDATED,
    sections: [
      {
        heading: "Working at ToolHub Wholesale",
        paragraphs: [
          "We are a growing team of former tradespeople, tool enthusiasts and online retail specialists. Since starting in Sheffield in 2023 we have grown to serve more than 10,000 customers in the UK and the US, and we are always looking for people who care about good tools and good service.",
        ],
      },
      {
        heading: "Current openings",
        paragraphs: ["We are currently recruiting for the following roles:"],
        bullets: [
          "Customer Support Advisor, Sheffield, full-time",
          "Warehouse Operative, Sheffield, full-time",
          "Category Buyer, Power Tools, Sheffield, hybrid",
          "Trade Account Manager, United States, remote",
        ],
      },
      {
        heading: "What we offer",
        paragraphs: ["Every member of the team enjoys:"],
        bullets: [
          "A competitive salary, reviewed every year",
          "A generous staff discount on our whole range",
          "Paid training, including product training from leading tool brands",
          "Flexible working where the role allows it",
        ],
      },
      {
        heading: "How to apply",
        paragraphs: [
          "Send us a message through the Contact page with the subject Careers, the role you are interested in and a short note about yourself, or email sup****@toolhub.example. We reply to every application within 10 working days.",
          "We welcome applications from everyone and make reasonable adjustments throughout the recruitment process.",
        ],
      },
    ],
  },
  {
    slug: "services",
    title: "Services",
    description:
      "More than a tool shop: trade and business accounts, bulk quotes, expert product advice, warranty help and member savings.",
    updated: UPDATED,
    sections: [
      {
        heading: "Trade and business accounts",
        paragraphs: [
          "Businesses with a VAT or EIN number can pay by Invoice (business accounts, net 30), giving you 30 days to pay after each order. It is ideal for contractors, workshops and facilities teams who buy regularly.",
        ],
      },
      {
        heading: "Bulk and project quotes",
        paragraphs: [
          "Fitting out a new van, equipping a crew or stocking up for a big project? Send us your list through the Contact page and we will prepare a quote for the whole order, with delivery planned around your schedule.",
        ],
      },
      {
        heading: "Expert product advice",
        paragraphs: [
          "Not sure which drill, multimeter or respirator is right for the job? Our online support team is available 24/7 and can compare models, check compatibility between batteries and tools, and recommend the safety equipment you need.",
        ],
      },
      {
        heading: "Warranty support",
        paragraphs: [
          "Every product we sell carries the manufacturer's warranty. If something goes wrong, we help you make the claim and deal with the manufacturer on your behalf, so you can get back to work sooner.",
        ],
      },
      {
        heading: "Member savings",
        paragraphs: [
          "Create a free account and, whenever you are signed in, you get 5% off every order over $120.00. It is applied automatically at checkout, on top of our wholesale prices.",
        ],
      },
    ],
  },
  {
    slug: "order",
    title: "Order",
    description:
      "How to order from ToolHub Wholesale: placing an order, payment options, member discount, changes and cancellations, and order status.",
    updated: UPDATED,
    sections: [
      {
        heading: "Placing an order",
        paragraphs: ["Ordering takes just a few minutes:"],
        bullets: [
          "Browse the Shop or search for the product you need",
          "Add items to your cart and check the quantities",
          "Select Checkout and enter your delivery details",
          "Choose your payment method and confirm your order",
        ],
      },
      {
        heading: "Payment options",
        paragraphs: [
          "You can choose Pay on delivery, or, if you buy for a business with a VAT or EIN number, Invoice (business accounts, net 30). Prices are shown in your market's currency: pounds sterling with VAT included in the United Kingdom, US dollars before sales tax in the United States.",
        ],
      },
      {
        heading: "Member discount",
        paragraphs: [
          "Sign in before you check out and you get 5% off every order over $120.00. The discount is applied automatically, so you never need a code.",
        ],
      },
      {
        heading: "Order confirmation and status",
        paragraphs: [
          "We email you an order confirmation as soon as you place your order, and a dispatch email with tracking when it leaves our warehouse. Signed-in customers can follow every order under Order Status at /account/orders.",
        ],
      },
      {
        heading: "Changing or cancelling an order",
        paragraphs: [
          "We can change or cancel your order until it has been dispatched. Contact our support team with your order number as soon as possible. After dispatch, you can return unwanted items within 14 days of delivery under our Returns & Exchanges policy.",
        ],
      },
    ],
  },
  {
    slug: "deliveries",
    title: "Deliveries",
    description:
      "What to expect when your ToolHub Wholesale order is on its way: delivery days, tracking, missed deliveries, large items and damage.",
    updated: UPDATED,
    sections: [
      {
        heading: "When your order will arrive",
        paragraphs: [
          "UK orders arrive in 2–4 working days and US orders in 3–7 business days from dispatch. Our couriers deliver on working days, usually between 8am and 6pm local time. We email you tracking details as soon as your order is dispatched.",
        ],
      },
      {
        heading: "If you are not in",
        paragraphs: [
          "If nobody is available to receive your parcel, the courier will leave a card or send a notification explaining how to rearrange delivery or collect the parcel. Parcels that cannot be delivered are returned to us, and we will contact you to arrange a new delivery.",
          "If you chose Pay on delivery, please make sure someone is available to pay when the courier arrives. The amount due is shown in your order confirmation.",
        ],
      },
      {
        heading: "Large and heavy items",
        paragraphs: [
          "Items such as site mixers, ladders and tool chests are delivered to the kerb or the ground floor of business premises. Please make sure there is safe access for the courier and someone to help move the item.",
        ],
      },
      {
        heading: "Checking your delivery",
        paragraphs: [
          "Please check your parcel when it arrives. If the packaging is badly damaged, note it with the courier if you can. Tell us about any damaged or missing items within 48 hours and we will send replacements or refund you.",
        ],
      },
      {
        heading: "Delivery charges",
        paragraphs: [
          "Shipping is free on every US order. UK orders ship at a flat $9.99. See Shipping Information for full details.",
        ],
      },
    ],
  },
];

export function findContentPage(slug: string): ContentPage | undefined {
  return contentPages.find((page) => page.slug === slug);
}
