import type { BlogPost } from "./types.ts";

export const blogPosts: BlogPost[] = [
  {
    slug: "how-to-choose-a-cordless-drill",
    title: "How to Choose a Cordless Drill",
    description:
      "Drill driver, combi or impact driver? Voltage, brushless motors and batteries explained so you can pick the right cordless drill.",
    excerpt:
      "Drill driver, combi drill or impact driver? We explain voltage, motors, batteries and clutches so you buy the right tool first time.",
    author: "Sam Whitaker",
    publishedAt: "2026-03-12",
    updated: "2026-03-12",
    sections: [
      {
        heading: "Drill driver, combi drill or impact driver?",
        paragraphs: [
          "A drill driver drills holes and drives screws, and is all most homeowners need. A combi drill adds a hammer action for drilling into brick, block and stone, which makes it the most versatile choice for trades. An impact driver delivers short bursts of rotational force, driving long screws and bolts with far less effort, but it is not designed for precise drilling.",
          "If you can only buy one tool, choose a combi drill. If you drive a lot of screws, pair it with an impact driver that uses the same batteries.",
        ],
      },
      {
        heading: "Voltage and power",
        paragraphs: [
          "In the UK, 18V is the standard platform; in the US the same tools are usually sold as 20V max. Compact 12V tools are lighter and ideal for cabinet fitting, electrical work and tight spaces. For drilling masonry or using large auger bits, stick with 18V or 20V max.",
          "Look at the torque figure, measured in newton metres (Nm), to compare models. Around 50Nm is plenty for DIY; 80Nm or more suits heavy trade use.",
        ],
      },
      {
        heading: "Brushed or brushless motors",
        paragraphs: [
          "Brushless motors run cooler, deliver more power from the same battery and last longer because there are no carbon brushes to wear out. They cost a little more, but for anyone using a drill every day the extra runtime and durability quickly pay for themselves.",
        ],
      },
      {
        heading: "Batteries and chargers",
        paragraphs: [
          "Battery capacity is measured in amp hours (Ah). A 2.0Ah pack keeps the drill light; a 4.0Ah or 5.0Ah pack gives you a full day of work on site. Many kits include two batteries, so one can charge while you use the other.",
          "Choose a brand with a wide range of tools on the same battery platform. Once you own a few batteries, adding a saw or grinder as a bare tool is much cheaper.",
        ],
      },
      {
        heading: "Features worth paying for",
        paragraphs: ["Before you buy, check for these:"],
        bullets: [
          "A metal 13mm keyless chuck that grips bits firmly",
          "A clutch with plenty of settings to avoid over-driving screws",
          "Two-speed gearbox: low speed for driving, high speed for drilling",
          "An LED work light and a belt clip",
          "A sturdy carry case to keep the kit together in the van",
        ],
      },
    ],
  },
  {
    slug: "ppe-checklist-for-site-work",
    title: "The PPE Checklist for Site Work",
    description:
      "A head-to-toe personal protective equipment checklist for building sites, from hard hats and eye protection to hi-vis and safety boots.",
    excerpt:
      "Going on site? Use our head-to-toe checklist to make sure you and your crew have the right personal protective equipment for the job.",
    author: "Rachel Okafor",
    publishedAt: "2026-05-07",
    updated: "2026-05-07",
    sections: [
      {
        heading: "Start with a risk assessment",
        paragraphs: [
          "Personal protective equipment is the last line of defence, not the first. Before choosing PPE, look at the hazards on your site and remove or reduce them where you can. Then pick equipment that matches the risks that remain, and make sure it fits the person wearing it.",
          "In the UK, employers must provide suitable PPE free of charge to their workers; in the US, OSHA sets similar requirements. Check the rules that apply to your site and trade.",
        ],
      },
      {
        heading: "Head, eyes and face",
        paragraphs: [
          "A hard hat protects against falling objects and knocks. Replace it after any significant impact, and check the date stamp, as the shell weakens with age and sunlight.",
          "Wear safety glasses or goggles whenever you cut, grind, drill or chisel. For grinding and work with chemicals, add a full face shield over your eye protection.",
        ],
      },
      {
        heading: "Hearing and breathing",
        paragraphs: [
          "Saws, breakers and grinders can easily exceed safe noise levels. Ear defenders or well-fitted earplugs should be worn whenever you have to raise your voice to be heard.",
          "Cutting concrete, brick and timber creates fine dust that damages the lungs. Use on-tool extraction or water suppression where possible, and wear a properly fitted respirator rated for the dust you are creating.",
        ],
      },
      {
        heading: "Hands, body and feet",
        paragraphs: [
          "Choose gloves for the task: cut-resistant gloves for handling sheet metal and glass, impact gloves for demolition, and chemical-resistant gloves for solvents and cement. High-visibility clothing keeps you seen around plant and vehicles, and safety boots with toe caps and midsole protection guard against crushing and nails.",
        ],
      },
      {
        heading: "Your site PPE checklist",
        paragraphs: ["Before every shift, make sure you have:"],
        bullets: [
          "A hard hat in date and free from cracks",
          "Safety glasses or goggles, plus a face shield for grinding",
          "Ear defenders or earplugs",
          "A respirator suited to the dust or fumes on site",
          "Task-appropriate gloves",
          "A hi-vis vest or jacket",
          "Safety boots with toe and midsole protection",
        ],
      },
    ],
  },
  {
    slug: "caring-for-garden-power-tools",
    title: "Caring for Your Garden Power Tools",
    description:
      "Simple maintenance for chainsaws, hedge trimmers and mowers: cleaning, sharpening, battery and fuel care, and storing tools over winter.",
    excerpt:
      "A little care keeps your chainsaw, hedge trimmer and mower running for years. Here is our season-by-season maintenance routine.",
    author: "Tom Ashby",
    publishedAt: "2026-08-20",
    updated: "2026-08-20",
    sections: [
      {
        heading: "Clean after every use",
        paragraphs: [
          "Sap, grass and soil hold moisture against metal parts and lead to rust. After each job, disconnect the battery or spark plug lead, brush off debris and wipe blades with an oily cloth. Never hose down a power tool; water gets into motors and switches.",
        ],
      },
      {
        heading: "Keep cutting edges sharp",
        paragraphs: [
          "A blunt chainsaw chain produces fine dust instead of chips and makes the saw work harder. Sharpen it with a round file and guide every few tanks of fuel, and check the chain tension before every use.",
          "Hedge trimmer blades and mower blades also benefit from regular sharpening. A sharp blade cuts cleanly, which is better for your plants and easier on the motor.",
        ],
      },
      {
        heading: "Look after batteries and fuel",
        paragraphs: [
          "Store lithium-ion batteries indoors, away from frost and direct sunlight, at roughly half charge if they will not be used for a while. Avoid leaving them on the charger for weeks at a time.",
          "For petrol tools, use fresh fuel mixed at the ratio in your manual. Fuel left in the tank for months can gum up the carburettor, so run the tank dry or use a fuel stabiliser before storage.",
        ],
      },
      {
        heading: "Lubricate and inspect",
        paragraphs: ["Once a month during the season, run through these checks:"],
        bullets: [
          "Top up chainsaw bar and chain oil, and clean the oil port",
          "Clean or replace air filters",
          "Check spark plugs on petrol tools and replace worn ones",
          "Inspect cables and plugs on corded tools for cuts or damage",
          "Tighten loose nuts, bolts and guards",
        ],
      },
      {
        heading: "Storing tools over winter",
        paragraphs: [
          "Give every tool a thorough clean, sharpen the blades and apply a light coat of oil to metal parts. Store tools in a dry shed or garage, off the floor, with blade covers fitted. Come spring, they will start first time and be ready for the first cut of the year.",
        ],
      },
    ],
  },
  {
    slug: "setting-up-a-van-tool-kit",
    title: "Setting Up a Van Tool Kit",
    description:
      "How to organise a work van: the core tools every trade needs, storage and racking ideas, security tips and keeping batteries charged.",
    excerpt:
      "A well-organised van saves time on every job. Here is how to choose the core kit, store it safely and keep it secure.",
    author: "Sam Whitaker",
    publishedAt: "2026-10-15",
    updated: "2026-10-15",
    sections: [
      {
        heading: "Plan around the jobs you do",
        paragraphs: [
          "Start by listing the jobs you do most often and the tools each one needs. Everything you use daily should be within reach of the side or rear door; specialist kit can live further back. Weigh what you carry, too, as overloading a van is dangerous and can be illegal.",
        ],
      },
      {
        heading: "The core kit",
        paragraphs: ["Whatever your trade, most vans benefit from:"],
        bullets: [
          "A cordless combi drill and impact driver on the same battery platform",
          "A mixed tools kit with screwdrivers, spanners, sockets, pliers and a hammer",
          "A spirit level, tape measure and utility knife",
          "A multimeter or voltage tester for any electrical work",
          "A first aid kit, fire extinguisher and spare PPE",
        ],
      },
      {
        heading: "Storage and racking",
        paragraphs: [
          "Racking and stackable tool boxes turn a jumble of kit into a system. Use stackable cases for power tools, labelled organisers for fixings and small parts, and secure straps or bars for long items like levels and ladders. Everything should be fixed down so it cannot move under braking.",
        ],
      },
      {
        heading: "Keep batteries charged",
        paragraphs: [
          "An in-van charger or power inverter lets you top up batteries between jobs. Keep at least two charged batteries for each platform you use, and store them in a case away from extreme heat and cold.",
        ],
      },
      {
        heading: "Protect your tools",
        paragraphs: [
          "Tool theft from vans is common, so take tools indoors overnight where you can. Fit additional deadlocks, park with the rear doors against a wall, and mark your tools with your postcode or ZIP code. Keep a list of serial numbers and photos for your insurer.",
        ],
      },
    ],
  },
];

export function findBlogPost(slug: string): BlogPost | undefined {
  return blogPosts.find((post) => post.slug === slug);
}
