import type { FaqCategory } from "./types.ts";

export const faqCategories: FaqCategory[] = [
  {
    id: "ordering-process",
    name: "Ordering Process",
    questions: [
      {
        question: "How do I place an order?",
        answer:
          "Find the products you need in the Shop, add them to your cart and select Checkout. Enter your delivery details, choose a payment method and confirm. We email you an order confirmation as soon as the order is placed.",
      },
      {
        question: "Which payment methods do you accept?",
        answer:
          "You can choose Pay on delivery, or, if you buy for a business with a VAT or EIN number, Invoice (business accounts, net 30). Invoices are due 30 days from the invoice date.",
      },
      {
        question: "Do I need an account to order?",
        answer:
          "An account makes ordering faster and lets you follow every order under Order Status at /account/orders. Signed-in members also get a 5% member discount on every order over $120.00. You can register with your email and a password of at least 6 characters, or sign in with Google.",
      },
      {
        question: "Can I change or cancel my order?",
        answer:
          "Yes, as long as it has not been dispatched. Contact our support team as soon as possible with your order number and we will update or cancel it. Once an order has left our warehouse, you can return it under our 14-day returns policy instead.",
      },
      {
        question: "Do you offer discounts for bulk or trade orders?",
        answer:
          "Our everyday prices are already wholesale prices. On top of that, signed-in members get 5% off every order over $120.00, applied automatically at checkout. For very large quantities, contact us and we will prepare a quote.",
      },
    ],
  },
  {
    id: "product-information",
    name: "Product Information",
    questions: [
      {
        question: "Are your products genuine and covered by a warranty?",
        answer:
          "Yes. Every product we sell is brand new and sourced from the manufacturer or its authorised distributors, and comes with the manufacturer's standard warranty. Warranty details are listed on each product page.",
      },
      {
        question: "How do I know if an item is in stock?",
        answer:
          "Each product page shows the current stock. In Stock with a number means that quantity is ready to ship; Stock out means the item is temporarily unavailable. Add it to your wishlist and check back, as we restock popular lines quickly.",
      },
      {
        question: "Where can I find technical specifications?",
        answer:
          "The product page lists the brand, model, material, weight, country of origin and manufacturer, along with a full description. If you need a detail that is not listed, our support team can check it with the manufacturer for you.",
      },
      {
        question: "Do your prices include tax?",
        answer:
          "In the United Kingdom, yes: prices are in pounds sterling and include VAT. In the United States prices are in US dollars before sales tax, which is added at checkout where we collect it, and shown before you place the order. Choose your market at the top of any page. Prices have two decimal places, and discounted items show the original price struck through next to the sale price.",
      },
    ],
  },
  {
    id: "shipping-and-delivery",
    name: "Shipping and Delivery",
    questions: [
      {
        question: "How much does shipping cost?",
        answer:
          "Shipping is free on every US order, whatever the order value. UK orders ship at a flat $9.99 per order.",
      },
      {
        question: "How long will delivery take?",
        answer:
          "UK orders arrive in 2–4 working days and US orders in 3–7 business days. Most orders are dispatched within 1 working day, and delivery times are counted from dispatch.",
      },
      {
        question: "Which countries do you deliver to?",
        answer:
          "We currently deliver to addresses in the United Kingdom and the United States. We are not able to ship to other countries at the moment.",
      },
      {
        question: "How can I track my order?",
        answer:
          "Sign in and open Order Status at /account/orders to see the progress of every order. When your parcel is dispatched we also email you the courier's tracking details.",
      },
    ],
  },
  {
    id: "returns-and-refunds",
    name: "Returns and Refunds",
    questions: [
      {
        question: "What is your return policy?",
        answer:
          "You can return most items within 14 days of delivery for a refund or exchange. Items should be unused, complete and in their original packaging. If an item is faulty, the manufacturer's warranty and your statutory rights apply in addition to this policy.",
      },
      {
        question: "How does the money back guarantee work?",
        answer:
          "Once your return reaches us and passes a quick check, we issue your money back within 7 days. Refunds go back to the original payment method, or are credited against your invoice if you paid on account.",
      },
      {
        question: "How do I start a return?",
        answer:
          "Contact our support team with your order number and the items you want to return. We will confirm the return and send you instructions and the return address. Please do not send items back without contacting us first.",
      },
      {
        question: "Who pays for return shipping?",
        answer:
          "If an item is faulty, damaged in transit or not what you ordered, we cover the return shipping. If you simply change your mind, the cost of sending the item back is yours.",
      },
    ],
  },
  {
    id: "account-and-support",
    name: "Account and Support",
    questions: [
      {
        question: "How do I contact customer support?",
        answer:
          "Our online support is available 24/7: send us a message using the form on the Contact page or email sup****@toolhub.example. You can also call +44 114 000 0000 Sunday-Wednesday 9am-5pm and Saturday 10am-1pm (UK time). The phone line is closed on Friday.",
      },
      {
        question: "How do I create an account?",
        answer:
          "Select Login, then Register. Enter your full name, email address and a password of at least 6 characters, or continue with your Google account. Once registered, sign in to start using your member benefits.",
      },
      {
        question: "How do I open a business account?",
        answer:
          "Any business with a VAT or EIN number can pay by Invoice (business accounts, net 30). Register an account, then choose Invoice at checkout and enter your VAT or EIN number. Our team may contact you to confirm your details before the first invoice order ships.",
      },
      {
        question: "What are the benefits of being a member?",
        answer:
          "Members who are signed in get a 5% discount on every order over $120.00, can follow their orders under Order Status at /account/orders, and can keep a wishlist of products to buy later.",
      },
    ],
  },
];
