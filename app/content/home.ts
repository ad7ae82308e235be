import type { Benefit, CategoryTile, HeroSlide, OfferCard, PromoBanner } from "./types.ts";

export const heroSlides: HeroSlide[] = [
  {
    id: "drill",
    eyebrow: "Save 20% this week",
    title: "Cordless Drills at Trade Prices",
    text: "Brushless power, two batteries and a fast charger. Drill, drive and get the job finished for 20% less.",
    discountPercent: 20,
    ctaLabel: "Shop By Category",
    image: {
      src: "/images/content/hero-drill.svg",
      alt: "Orange cordless drill with a 20% off badge",
      width: 640,
      height: 400,
    },
  },
  {
    id: "tools-kit",
    eyebrow: "Save 22% on complete kits",
    title: "The Tools Kit That Does It All",
    text: "Spanners, sockets, screwdrivers and a hammer in one tough carry case. Everything for the van or the garage, 22% off.",
    discountPercent: 22,
    ctaLabel: "Shop By Category",
    image: {
      src: "/images/content/hero-tools-kit.svg",
      alt: "Open tools kit case holding a spanner, screwdriver, hammer and sockets, with a 22% off badge",
      width: 640,
      height: 400,
    },
  },
  {
    id: "chainsaw",
    eyebrow: "Save 25% on garden power",
    title: "Chainsaws Built for Hard Work",
    text: "Clear storm damage, fell small trees and stock up on firewood with a reliable chainsaw at 25% off.",
    discountPercent: 25,
    ctaLabel: "Shop By Category",
    image: {
      src: "/images/content/hero-chainsaw.svg",
      alt: "Orange chainsaw with a long guide bar and a 25% off badge",
      width: 640,
      height: 400,
    },
  },
];

export const benefits: Benefit[] = [
  { id: "free-shipping", title: "Free Shipping", text: "Free shipping on all US orders" },
  { id: "support", title: "Online Support 24/7", text: "Help online whenever you need it, day or night" },
  { id: "money-back", title: "Money Back Guarantee", text: "Money back guarantee under 7 days" },
  { id: "member-discount", title: "Member Discount", text: "Member discount on every order over $120.00" },
];

export const categoryTiles: CategoryTile[] = [
  {
    name: "Automotive",
    categorySlug: "automotive",
    text: "Socket sets, jacks, diagnostic tools and garage essentials.",
    image: {
      src: "/images/content/tile-automotive.svg",
      alt: "Car with a spanner above it",
      width: 320,
      height: 240,
    },
  },
  {
    name: "Gardening",
    categorySlug: "gardening",
    text: "Trimmers, chainsaws, pruners and hand tools for every plot.",
    image: {
      src: "/images/content/tile-gardening.svg",
      alt: "Young plant next to a garden trowel",
      width: 320,
      height: 240,
    },
  },
  {
    name: "Hand",
    categorySlug: "hand",
    text: "Hammers, screwdrivers, spanners and pliers that last.",
    image: {
      src: "/images/content/tile-hand-tools.svg",
      alt: "Crossed hammer and screwdriver",
      width: 320,
      height: 240,
    },
  },
  {
    name: "Electrical",
    categorySlug: "electrical",
    text: "Testers, multimeters, cable and fittings for safe installs.",
    image: {
      src: "/images/content/tile-electrical.svg",
      alt: "Electrical plug with a lightning bolt",
      width: 320,
      height: 240,
    },
  },
  {
    name: "Safety",
    categorySlug: "safety",
    text: "Hard hats, eye protection, gloves and hi-vis workwear.",
    image: {
      src: "/images/content/tile-safety.svg",
      alt: "Hard hat above a pair of safety goggles",
      width: 320,
      height: 240,
    },
  },
  {
    name: "Construction",
    categorySlug: "construction",
    text: "Levels, trowels, mixers and site kit for every build.",
    image: {
      src: "/images/content/tile-construction.svg",
      alt: "Stack of bricks beside a traffic cone",
      width: 320,
      height: 240,
    },
  },
];

export const promoBanners: PromoBanner[] = [
  {
    id: "multimeter",
    eyebrow: "25% flat off",
    title: "Digital Multimeters",
    text: "Measure voltage, current and resistance with confidence. Every multimeter is 25% flat off.",
    ctaLabel: "Shop Now",
    image: {
      src: "/images/content/promo-multimeter.svg",
      alt: "Digital multimeter with test leads",
      width: 560,
      height: 280,
    },
  },
  {
    id: "tools-kit-box",
    eyebrow: "10%-20% discount",
    title: "Tools Kit Boxes",
    text: "Keep your kit organised on site and in the van. Save 10%-20% across our range of tools kit boxes.",
    ctaLabel: "Shop Now",
    image: {
      src: "/images/content/promo-tools-kit-box.svg",
      alt: "Closed orange tools kit box with a carry handle",
      width: 560,
      height: 280,
    },
  },
];

export const offerCards: OfferCard[] = [
  {
    id: "drill",
    title: "Cordless Drill",
    badge: "15% off",
    text: "Compact drill driver for home and trade jobs.",
    image: {
      src: "/images/content/offer-drill.svg",
      alt: "Cordless drill",
      width: 280,
      height: 200,
    },
  },
  {
    id: "battery",
    title: "Power Tool Batteries",
    badge: "Up to 25% off",
    text: "Spare batteries and chargers to keep you working.",
    image: {
      src: "/images/content/offer-battery.svg",
      alt: "Power tool battery pack with charge indicator",
      width: 280,
      height: 200,
    },
  },
  {
    id: "jigsaw",
    title: "Jigsaws",
    badge: "From $50.00",
    text: "Clean curves and straight cuts in wood, metal and plastic.",
    image: {
      src: "/images/content/offer-jigsaw.svg",
      alt: "Jigsaw with its blade below the base plate",
      width: 280,
      height: 200,
    },
  },
  {
    id: "power-tools",
    title: "Power Tools",
    badge: "15% flat off",
    text: "Saws, drills and grinders from the brands you trust.",
    image: {
      src: "/images/content/offer-power-tools.svg",
      alt: "Circular saw blade and a cordless drill",
      width: 280,
      height: 200,
    },
  },
];
