import type { Testimonial } from "./types.ts";

export const testimonials: Testimonial[] = [
  {
    clientReview:
      "Ordered two combi drills and a box of SDS bits on Monday and they were on site in Leeds by Wednesday. Prices beat my usual merchant by a good margin.",
    userName: "Gareth Holloway",
    userProfile: "Site manager, Leeds",
    starRating: 5,
  },
  {
    clientReview:
      "We kit out three vans every year and ToolHub has made it far cheaper. Invoicing on net 30 keeps our cash flow sensible.",
    userName: "Priya Mistry",
    userProfile: "Operations lead, Mistry Electrical Ltd, Leicester",
    starRating: 5,
  },
  {
    clientReview:
      "Free shipping to Texas and the impact driver showed up in four days. Solid tool, fair price, no fuss.",
    userName: "Marcus Reed",
    userProfile: "General contractor, Austin",
    starRating: 5,
  },
  {
    clientReview:
      "I'm a weekend DIYer, not a pro, and the support team helped me pick the right jigsaw for cutting worktops. Clean cuts first time.",
    userName: "Hannah Clarke",
    userProfile: "DIY shopper, Bristol",
    starRating: 5,
  },
  {
    clientReview:
      "The multimeter deal was too good to pass up. Accurate readings, sturdy leads, and it arrived well packed.",
    userName: "Devon Alvarez",
    userProfile: "Licensed electrician, Phoenix",
    starRating: 5,
  },
  {
    clientReview:
      "Hard hats, gloves and hi-vis for a crew of twelve in one order. Everything matched the listings and the sizes were spot on.",
    userName: "Tom Fairbairn",
    userProfile: "Health and safety officer, Glasgow",
    starRating: 5,
  },
  {
    clientReview:
      "Bought a chainsaw during the 25% off sale to deal with a fallen oak. Started on the second pull and hasn't missed a beat since.",
    userName: "Linda Kowalski",
    userProfile: "Homeowner, Grand Rapids",
    starRating: 5,
  },
  {
    clientReview:
      "Our garage runs on their socket sets and trolley jacks. The member discount on bigger orders adds up quickly over a year.",
    userName: "Ray Donnelly",
    userProfile: "Owner, Donnelly Motors, Belfast",
    starRating: 5,
  },
  {
    clientReview:
      "A cordless hedge trimmer and a spare battery for less than the trimmer alone costs elsewhere. Garden looks sharp again.",
    userName: "Margaret Hughes",
    userProfile: "Keen gardener, Cardiff",
    starRating: 5,
  },
  {
    clientReview:
      "One wrong size on a set of spanners, and the exchange was sorted within the week. That's how you keep a customer.",
    userName: "Jamal Carter",
    userProfile: "Maintenance technician, Atlanta",
    starRating: 5,
  },
  {
    clientReview:
      "Trade quality without trade-counter queues. The laser level I bought is dead accurate over a long wall.",
    userName: "Sean O'Brien",
    userProfile: "Plasterer, Liverpool",
    starRating: 5,
  },
  {
    clientReview:
      "We supply tools to our landscaping teams across two states, and ToolHub's bulk pricing made the switch an easy decision.",
    userName: "Katie Brennan",
    userProfile: "Purchasing manager, Greenway Landscapes, Denver",
    starRating: 5,
  },
  {
    clientReview:
      "Clear product details, honest stock levels and a tools kit that had everything I needed for my first flat.",
    userName: "Oliver Grant",
    userProfile: "First-time homeowner, Manchester",
    starRating: 5,
  },
  {
    clientReview:
      "I run a small joinery workshop and the circular saw blades and clamps I order here are always good value. Quick answers from support too.",
    userName: "Eleanor Price",
    userProfile: "Joiner, Hartley & Sons, York",
    starRating: 5,
  },
  {
    clientReview:
      "Ordered on a Sunday night, got a reply from support within minutes about a battery compatibility question. Impressive service.",
    userName: "Brian Mitchell",
    userProfile: "Handyman, Columbus",
    starRating: 5,
  },
];
