import type { AboutContent } from "./types.ts";

export const about: AboutContent = {
  aboutUs: [
    "ToolHub Wholesale sells power tools, hand tools, safety equipment, electrical supplies, automotive kit, gardening tools and construction equipment at wholesale prices. We serve tradespeople, small businesses and DIY shoppers in the United Kingdom and the United States from one easy online store.",
    "We buy in volume direct from manufacturers and authorised distributors and pass the savings on. Every product is brand new and covered by the manufacturer's warranty, with clear specifications and honest stock levels on every product page.",
    "Whether you need a single cordless drill or a full van fit-out, you get the same low prices, free shipping on every US order and support that is online 24/7.",
  ],
  ourStory: [
    "ToolHub Wholesale began in 2023 in a small unit on Forge Lane in Sheffield, a city with centuries of toolmaking behind it. Our founders had spent years on building sites and in workshops, and were tired of paying trade-counter prices that left little room in a small firm's budget.",
    "We started with a few hundred hand tools and a simple promise: trade quality at wholesale prices, delivered quickly. Word spread among local builders, electricians and mechanics, and within a year we were shipping across the whole of the UK.",
    "Demand from American contractors followed, so we expanded to the United States. Today we offer more than 500 products and have served over 10,000 customers on both sides of the Atlantic, while still answering every question ourselves.",
  ],
  ourMission: [
    "Our mission is to put professional-grade tools within reach of everyone who builds, fixes and grows things, from the sole trader to the weekend gardener, without the mark-ups of a traditional merchant.",
    "We do that by keeping our range focused on tools that earn their place in the van, by being upfront about prices, delivery times and returns, and by treating every order, large or small, with the same care.",
    "We also want everyone to go home safe. That is why safety equipment sits at the heart of our range, and why our guides and support team are always ready to help you choose the right kit for the job.",
  ],
  stats: [
    { label: "Years in Business", value: "3+" },
    { label: "Customers Served", value: "10,000+" },
    { label: "Countries Reached", value: "2" },
    { label: "Products Offered", value: "500+" },
  ],
  clients: [
    {
      name: "Northgate Builders",
      logo: {
        src: "/images/content/clients/northgate-builders.svg",
        alt: "Northgate Builders logo",
        width: 160,
        height: 64,
      },
    },
    {
      name: "Brightwire Electrical",
      logo: {
        src: "/images/content/clients/brightwire-electrical.svg",
        alt: "Brightwire Electrical logo",
        width: 160,
        height: 64,
      },
    },
    {
      name: "Copperfield Motors",
      logo: {
        src: "/images/content/clients/copperfield-motors.svg",
        alt: "Copperfield Motors logo",
        width: 160,
        height: 64,
      },
    },
    {
      name: "Greenacre Landscapes",
      logo: {
        src: "/images/content/clients/greenacre-landscapes.svg",
        alt: "Greenacre Landscapes logo",
        width: 160,
        height: 64,
      },
    },
    {
      name: "Hartley & Sons Joinery",
      logo: {
        src: "/images/content/clients/hartley-joinery.svg",
        alt: "Hartley & Sons Joinery logo",
        width: 160,
        height: 64,
      },
    },
    {
      name: "Summit Site Services",
      logo: {
        src: "/images/content/clients/summit-site-services.svg",
        alt: "Summit Site Services logo",
        width: 160,
        height: 64,
      },
    },
  ],
};
