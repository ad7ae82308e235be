/**
 * Deterministic, lightweight flat SVG illustrations for products and brand wordmarks.
 * Output depends only on the inputs, so images can be cached forever and regenerated anywhere.
 */
import { escapeHtml } from "../../app/lib/html-escape.ts";

const NAMED_COLORS: Record<string, string> = {
  yellow: "#f2b705",
  black: "#2b2d31",
  red: "#d63a2f",
  blue: "#2f6fd6",
  green: "#2e9b57",
  orange: "#f07f1a",
  grey: "#8a939c",
  gray: "#8a939c",
  silver: "#b8c0c8",
  white: "#f4f5f6",
  brown: "#8b5a2b",
  purple: "#7b4fc9",
  pink: "#e0528f",
  teal: "#1f9e9a",
  navy: "#22356f",
};

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function hslToHex(h: number, s: number, l: number): string {
  const hue = ((h % 360) + 360) % 360;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + hue / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/** Hex value for a product color name ("Yellow" → "#f2b705"); unknown names get a stable derived color. */
export function colorHex(name: string): string {
  const key = name.trim().toLowerCase();
  const named = NAMED_COLORS[key];
  if (named) return named;
  if (/^#[0-9a-f]{6}$/.test(key)) return key;
  if (/^#[0-9a-f]{3}$/.test(key)) return `#${key[1]}${key[1]}${key[2]}${key[2]}${key[3]}${key[3]}`;
  const h = hash(key);
  return hslToHex(h % 360, 0.55, 0.45 + ((h >>> 9) % 10) / 100);
}

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function mix(hex: string, other: string, t: number): string {
  const a = rgb(hex);
  const b = rgb(other);
  return `#${a
    .map((v, i) =>
      Math.round(v + (b[i] - v) * t)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** c: product color, k: dark accent, m: metal, b: background. */
type P = { c: string; k: string; m: string; b: string };
type Shape = (p: P) => string;

function zigzag(x0: number, y: number, x1: number, step: number, height: number): string {
  let d = `M${x0} ${y}`;
  for (let x = x0; x < x1; x += step) d += `l${step / 2} ${height}l${step / 2} ${-height}`;
  return d;
}

function sawTeeth(cx: number, cy: number, outer: number, inner: number, teeth: number): string {
  const pts: string[] = [];
  for (let i = 0; i < teeth * 2; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = (Math.PI * i) / teeth;
    pts.push(`${Math.round(cx + r * Math.cos(a))} ${Math.round(cy + r * Math.sin(a))}`);
  }
  return `M${pts.join("L")}z`;
}

const threads = (x: number, y0: number, w: number, n: number, gap: number) =>
  Array.from({ length: n }, (_, i) => `M${x} ${y0 + i * gap}l${w} 16`).join("");

const SAW_TEETH = sawTeeth(300, 300, 195, 170, 28);
const TRIMMER_TEETH = zigzag(60, 280, 360, 20, -14) + zigzag(60, 310, 360, 20, 14);
const HANDSAW_TEETH = zigzag(100, 400, 470, 18, 14);

const SHAPES: Record<string, Shape> = {
  drill: ({ c, k, m }) =>
    `<path d="M160 200h210a40 40 0 0 1 40 40v30a40 40 0 0 1-40 40h-80l-14 100h-80l14-100h-50a40 40 0 0 1-40-40v-30a40 40 0 0 1 40-40z" fill="${c}"/><rect x="410" y="222" width="50" height="66" rx="10" fill="${k}"/><rect x="460" y="246" width="90" height="18" rx="4" fill="${m}"/><rect x="178" y="402" width="128" height="62" rx="12" fill="${k}"/><rect x="286" y="318" width="14" height="34" rx="6" fill="${k}"/><rect x="150" y="222" width="90" height="16" rx="8" fill="${k}" opacity=".35"/>`,
  grinder: ({ c, k, m }) =>
    `<rect x="210" y="250" width="270" height="84" rx="42" fill="${c}"/><rect x="440" y="262" width="80" height="60" rx="24" fill="${k}"/><rect x="150" y="240" width="100" height="110" rx="18" fill="${k}"/><rect x="186" y="150" width="28" height="100" rx="12" fill="${k}"/><path d="M60 380a140 44 0 0 1 280 0z" fill="${k}" opacity=".85"/><rect x="60" y="376" width="280" height="14" rx="7" fill="${m}"/>`,
  sawBlade: ({ c, k, m }) =>
    `<path d="${SAW_TEETH}" fill="${m}"/><circle cx="300" cy="300" r="125" fill="${c}"/><path d="M300 190v40M395 355l-35-20M205 355l35-20" stroke="${k}" stroke-width="10" stroke-linecap="round" opacity=".4"/><circle cx="300" cy="300" r="42" fill="${k}"/><circle cx="300" cy="300" r="14" fill="${m}"/>`,
  chainsaw: ({ c, k, m }) =>
    `<rect x="300" y="262" width="250" height="66" rx="33" fill="${m}" stroke="${k}" stroke-width="8" stroke-dasharray="14 8"/><rect x="80" y="210" width="250" height="170" rx="44" fill="${c}"/><path d="M130 214q0-80 90-80h60q40 0 40 60" fill="none" stroke="${k}" stroke-width="24" stroke-linecap="round"/><rect x="96" y="340" width="120" height="22" rx="8" fill="${k}"/><circle cx="260" cy="295" r="34" fill="${k}" opacity=".3"/>`,
  jigsaw: ({ c, k, m }) =>
    `<path d="M190 232v-50q0-40 40-40h140q40 0 40 40v50" fill="none" stroke="${k}" stroke-width="26"/><rect x="150" y="230" width="300" height="110" rx="30" fill="${c}"/><rect x="230" y="262" width="120" height="20" rx="10" fill="${k}" opacity=".3"/><rect x="130" y="340" width="340" height="22" rx="6" fill="${m}"/><path d="M360 362h18l-6 110h-8z" fill="${m}"/>`,
  handSaw: ({ c, m }) =>
    `<path d="M100 330L470 250v150H100z" fill="${m}"/><path d="${HANDSAW_TEETH}" fill="none" stroke="${m}" stroke-width="6"/><path fill-rule="evenodd" d="M460 230h80a30 30 0 0 1 30 30v140a30 30 0 0 1-30 30h-80zM505 280h30v90h-30z" fill="${c}"/>`,
  sander: ({ c, k, m }) =>
    `<path d="M160 360q0-170 140-170t140 170z" fill="${c}"/><rect x="420" y="300" width="120" height="40" rx="14" fill="${k}"/><rect x="130" y="360" width="340" height="40" rx="12" fill="${k}"/><rect x="140" y="400" width="320" height="20" rx="6" fill="${m}"/>`,
  router: ({ c, k, m }) =>
    `<rect x="220" y="140" width="160" height="230" rx="30" fill="${c}"/><rect x="240" y="170" width="120" height="20" rx="10" fill="${k}" opacity=".3"/><rect x="130" y="250" width="90" height="50" rx="25" fill="${k}"/><rect x="380" y="250" width="90" height="50" rx="25" fill="${k}"/><rect x="150" y="370" width="300" height="40" rx="10" fill="${k}"/><rect x="120" y="410" width="360" height="20" rx="6" fill="${m}"/><rect x="292" y="430" width="16" height="50" fill="${m}"/>`,
  hammer: ({ c, k, m }) =>
    `<g transform="rotate(-35 300 300)"><rect x="282" y="190" width="36" height="310" rx="14" fill="${c}"/><rect x="274" y="400" width="52" height="110" rx="20" fill="${k}"/><rect x="200" y="130" width="150" height="70" rx="10" fill="${m}"/><rect x="176" y="140" width="34" height="50" rx="6" fill="${m}"/><path d="M350 140q70 0 100 50l-25 12q-25-30-75-32z" fill="${m}"/></g>`,
  wrench: ({ c, m }) =>
    `<g transform="rotate(-40 300 300)"><rect x="150" y="276" width="300" height="48" rx="24" fill="${c}"/><path fill-rule="evenodd" d="M78 300a62 62 0 1 0 124 0a62 62 0 1 0-124 0zM112 300a28 28 0 1 0 56 0a28 28 0 1 0-56 0z" fill="${m}"/><path d="M525 282A58 58 0 1 0 525 318H490V282z" fill="${m}"/></g>`,
  screwdriver: ({ c, k, m }) =>
    `<g transform="rotate(-35 300 300)"><rect x="290" y="110" width="20" height="200" fill="${m}"/><path d="M290 110l10-30 10 30z" fill="${m}"/><rect x="270" y="300" width="60" height="190" rx="26" fill="${c}"/><path d="M287 330v130M313 330v130" stroke="${k}" stroke-width="10" stroke-linecap="round" opacity=".3"/></g>`,
  pliers: ({ c, k, m }) =>
    `<path d="M292 90l-24 170h30zM308 90l24 170h-30z" fill="${m}"/><path d="M270 270h40L210 500h-44zM290 270h40l104 230h-44z" fill="${c}"/><circle cx="300" cy="265" r="22" fill="${k}"/>`,
  socket: ({ c, k, m }) =>
    `<g transform="rotate(-30 300 260)"><rect x="150" y="240" width="260" height="40" rx="20" fill="${c}"/><circle cx="430" cy="260" r="50" fill="${m}"/><circle cx="430" cy="260" r="20" fill="${k}"/></g><rect x="150" y="400" width="60" height="90" rx="10" fill="${m}"/><rect x="230" y="415" width="52" height="75" rx="10" fill="${m}"/><rect x="302" y="430" width="44" height="60" rx="10" fill="${m}"/><rect x="366" y="442" width="38" height="48" rx="10" fill="${m}"/>`,
  knife: ({ c, k, m }) =>
    `<path d="M80 330l70-50v50z" fill="${m}"/><path d="M150 270h290a30 30 0 0 1 30 30v30a30 30 0 0 1-30 30H150z" fill="${c}"/><rect x="200" y="290" width="160" height="18" rx="9" fill="${k}" opacity=".35"/><rect x="380" y="282" width="40" height="34" rx="8" fill="${k}"/>`,
  sparkPlug: ({ c, k, m }) =>
    `<rect x="282" y="80" width="36" height="50" rx="6" fill="${m}"/><path d="M260 130h80l-10 160h-60z" fill="#f4f1ea" stroke="${k}" stroke-width="6"/><rect x="240" y="290" width="120" height="60" rx="6" fill="${c}"/><rect x="262" y="350" width="76" height="110" fill="${m}"/><path d="${threads(262, 362, 76, 5, 20)}" stroke="${k}" stroke-width="6" opacity=".5"/><path d="M300 460v40h30" stroke="${k}" stroke-width="10" fill="none"/>`,
  jack: ({ c, k, m }) =>
    `<path d="M130 380L60 250" stroke="${k}" stroke-width="18" stroke-linecap="round"/><path d="M200 360L380 200l30 30-160 130z" fill="${c}"/><rect x="370" y="180" width="70" height="24" rx="8" fill="${k}"/><rect x="120" y="360" width="320" height="60" rx="14" fill="${c}"/><circle cx="160" cy="430" r="30" fill="${k}"/><circle cx="400" cy="430" r="30" fill="${k}"/><circle cx="160" cy="430" r="10" fill="${m}"/><circle cx="400" cy="430" r="10" fill="${m}"/>`,
  charger: ({ c, k }) =>
    `<path d="M230 370q-20 80-90 110M370 370q20 80 90 110" fill="none" stroke="${k}" stroke-width="10"/><rect x="170" y="170" width="260" height="200" rx="24" fill="${c}"/><rect x="200" y="200" width="200" height="70" rx="8" fill="${k}"/><path d="M225 235h60M305 235h30" stroke="#7dd3a0" stroke-width="12"/><circle cx="230" cy="315" r="11" fill="#4ade80"/><circle cx="270" cy="315" r="11" fill="#facc15"/><circle cx="310" cy="315" r="11" fill="${k}" opacity=".4"/><rect x="110" y="470" width="60" height="26" rx="6" fill="#d63a2f"/><rect x="430" y="470" width="60" height="26" rx="6" fill="${k}"/>`,
  meter: ({ c, k, m }) =>
    `<path d="M300 466q0 60 120 80M240 466q-10 60-110 70" fill="none" stroke="#c0392b" stroke-width="10"/><rect x="180" y="100" width="240" height="380" rx="36" fill="${c}"/><rect x="210" y="130" width="180" height="90" rx="10" fill="#cfe3d4" stroke="${k}" stroke-width="6"/><path d="M232 175h40M290 175h40M348 175h20" stroke="${k}" stroke-width="12"/><circle cx="300" cy="320" r="62" fill="${k}"/><rect x="292" y="262" width="16" height="50" rx="6" fill="${m}"/><circle cx="240" cy="440" r="16" fill="${k}"/><circle cx="300" cy="440" r="16" fill="#c0392b"/><circle cx="360" cy="440" r="16" fill="${k}"/>`,
  reel: ({ c, k, m }) =>
    `<path d="M420 380q60 60 100 130" fill="none" stroke="${k}" stroke-width="14" stroke-linecap="round"/><rect x="230" y="440" width="140" height="50" rx="10" fill="${k}"/><circle cx="300" cy="290" r="170" fill="${c}"/><circle cx="300" cy="290" r="125" fill="${k}"/><circle cx="300" cy="290" r="100" fill="none" stroke="${m}" stroke-width="14"/><circle cx="300" cy="290" r="72" fill="none" stroke="${m}" stroke-width="14"/><circle cx="300" cy="290" r="40" fill="${c}"/>`,
  helmet: ({ c, k }) =>
    `<path d="M130 370a170 170 0 0 1 340 0z" fill="${c}"/><rect x="284" y="205" width="32" height="160" rx="12" fill="${k}" opacity=".18"/><rect x="90" y="360" width="420" height="40" rx="20" fill="${c}"/><path d="M170 410q130 40 260 0" fill="none" stroke="${k}" stroke-width="10" opacity=".5"/>`,
  weldMask: ({ c, k }) =>
    `<path d="M170 150q130-60 260 0l20 250q-150 100-300 0z" fill="${c}"/><rect x="220" y="230" width="160" height="90" rx="12" fill="#1d2a33"/><rect x="232" y="242" width="136" height="66" rx="8" fill="#2f8f6a" opacity=".6"/><path d="M220 400q80 30 160 0" fill="none" stroke="${k}" stroke-width="10" opacity=".4"/>`,
  glove: ({ c, k }) =>
    `<rect x="205" y="120" width="44" height="180" rx="22" fill="${c}"/><rect x="253" y="95" width="44" height="200" rx="22" fill="${c}"/><rect x="301" y="105" width="44" height="190" rx="22" fill="${c}"/><rect x="349" y="135" width="44" height="160" rx="22" fill="${c}"/><rect x="130" y="250" width="44" height="150" rx="22" fill="${c}" transform="rotate(-35 152 325)"/><rect x="200" y="260" width="195" height="190" rx="50" fill="${c}"/><rect x="210" y="440" width="175" height="70" rx="10" fill="${k}"/>`,
  goggles: ({ c, k }) =>
    `<path d="M120 260L70 240M480 260l50-20" stroke="${k}" stroke-width="14" stroke-linecap="round"/><path d="M120 250h360v80q0 60-70 60h-20q-50 0-70-40h-40q-20 40-70 40h-20q-70 0-70-60z" fill="${c}"/><path d="M140 270h145v55q-10 45-60 45h-30q-55 0-55-45zM315 270h145v55q0 45-55 45h-30q-50 0-60-45z" fill="#9ad1e6" opacity=".8"/>`,
  earDefenders: ({ c, k }) =>
    `<path d="M170 330V230a130 130 0 0 1 260 0v100" fill="none" stroke="${k}" stroke-width="24"/><rect x="120" y="290" width="100" height="150" rx="44" fill="${c}"/><rect x="380" y="290" width="100" height="150" rx="44" fill="${c}"/><rect x="196" y="305" width="28" height="120" rx="12" fill="${k}"/><rect x="376" y="305" width="28" height="120" rx="12" fill="${k}"/>`,
  boot: ({ c, k }) =>
    `<path d="M170 120h160v220l90 30q50 18 50 60v20H150V140q0-20 20-20z" fill="${c}"/><path d="M380 372q70 20 80 70h-90z" fill="${k}" opacity=".3"/><path d="M220 170h80M220 210h80M220 250h80M220 290h80" stroke="${k}" stroke-width="10" opacity=".5"/><rect x="140" y="450" width="340" height="40" rx="12" fill="${k}"/>`,
  respirator: ({ c, k, m }) =>
    `<path d="M180 270L90 220M420 270l90-50" stroke="${k}" stroke-width="10"/><path d="M180 260q120-90 240 0l-20 150q-100 60-200 0z" fill="${c}"/><circle cx="215" cy="370" r="46" fill="${k}"/><circle cx="385" cy="370" r="46" fill="${k}"/><circle cx="300" cy="400" r="26" fill="${m}"/>`,
  jacket: ({ c, k, m }) =>
    `<path d="M230 110l70 40 70-40 110 50 50 180-70 20-30-110v240H170V250l-30 110-70-20 50-180z" fill="${c}"/><path d="M300 150v340" stroke="${k}" stroke-width="6" opacity=".4"/><path d="M170 370h260M170 420h260" stroke="${m}" stroke-width="16"/>`,
  trousers: ({ c, k }) =>
    `<path d="M190 110h220l30 380h-100l-40-260-40 260H160z" fill="${c}"/><rect x="190" y="110" width="220" height="30" fill="${k}" opacity=".35"/><path d="M195 330h70M335 330h70" stroke="${k}" stroke-width="30" opacity=".25"/>`,
  brickTrowel: ({ c, k, m }) =>
    `<g transform="rotate(-30 300 330)"><path d="M160 240h280L300 510z" fill="${m}"/><path d="M300 240v-50h70" stroke="${k}" stroke-width="14" fill="none"/><rect x="350" y="160" width="160" height="54" rx="27" fill="${c}"/></g>`,
  plasterTrowel: ({ c, k, m }) =>
    `<rect x="120" y="330" width="360" height="110" rx="20" fill="${m}"/><path d="M220 330v-60h160v60" fill="none" stroke="${k}" stroke-width="14"/><rect x="200" y="200" width="200" height="70" rx="35" fill="${c}"/>`,
  spade: ({ c, k, m }) =>
    `<rect x="285" y="100" width="30" height="270" fill="${c}"/><path d="M240 95h120" stroke="${k}" stroke-width="26" stroke-linecap="round"/><path d="M220 360h160v110q0 40-80 60-80-20-80-60z" fill="${m}"/>`,
  shears: ({ c, k, m }) =>
    `<path d="M300 280L200 110q-10-20 10-20 30 10 110 180zM300 280L380 120q10-20 25-10-10 60-85 180z" fill="${m}"/><path d="M290 280l-90 220h40l80-210zM310 280l90 220h-40l-80-210z" fill="${c}"/><circle cx="300" cy="280" r="18" fill="${k}"/>`,
  hedgeTrimmer: ({ c, k, m }) =>
    `<rect x="60" y="280" width="300" height="30" fill="${m}"/><path d="${TRIMMER_TEETH}" fill="none" stroke="${m}" stroke-width="6"/><path d="M400 240v-50q0-30 30-30h40q30 0 30 30v100" fill="none" stroke="${k}" stroke-width="22"/><rect x="340" y="240" width="150" height="110" rx="30" fill="${c}"/><rect x="480" y="300" width="70" height="30" rx="14" fill="${k}"/>`,
  mower: ({ c, k, m }) =>
    `<path d="M420 320L520 120h40" fill="none" stroke="${k}" stroke-width="16" stroke-linecap="round"/><rect x="170" y="270" width="180" height="60" rx="16" fill="${k}" opacity=".5"/><path d="M120 320h360l-20 110H140z" fill="${c}"/><circle cx="170" cy="440" r="40" fill="${k}"/><circle cx="430" cy="440" r="40" fill="${k}"/><circle cx="170" cy="440" r="14" fill="${m}"/><circle cx="430" cy="440" r="14" fill="${m}"/>`,
  blower: ({ c, k }) =>
    `<path d="M200 224q0-70 60-70h40q40 0 40 70" fill="none" stroke="${k}" stroke-width="22"/><path d="M350 270l200-20v60l-200-10z" fill="${c}"/><rect x="160" y="220" width="200" height="140" rx="50" fill="${c}"/><rect x="170" y="350" width="120" height="40" rx="10" fill="${k}"/>`,
  wheelbarrow: ({ c, k, m }) =>
    `<path d="M440 430L300 370H110M230 370l-20 110" fill="none" stroke="${k}" stroke-width="14" stroke-linecap="round"/><path d="M140 240h320l-60 130H220z" fill="${c}"/><circle cx="440" cy="430" r="50" fill="${k}"/><circle cx="440" cy="430" r="18" fill="${m}"/>`,
  mixer: ({ c, k }) =>
    `<path d="M200 360l-40 130M400 360l40 130" stroke="${k}" stroke-width="16"/><g transform="rotate(-25 300 280)"><path d="M180 200h240l40 80-40 80H180l-40-80z" fill="${c}"/><rect x="420" y="250" width="60" height="60" rx="8" fill="${k}"/></g><circle cx="160" cy="490" r="22" fill="${k}"/><circle cx="440" cy="490" r="22" fill="${k}"/>`,
  tap: ({ c, k, m }) =>
    `<path d="M300 340V200q0-60 60-60h60q40 0 40 40v40" fill="none" stroke="${m}" stroke-width="34" stroke-linecap="round"/><path d="M460 250v60" stroke="#6ab7e6" stroke-width="10" stroke-dasharray="10 10"/><rect x="260" y="330" width="80" height="160" rx="10" fill="${m}"/><rect x="200" y="280" width="130" height="26" rx="13" fill="${c}"/><rect x="200" y="480" width="200" height="30" rx="8" fill="${k}"/>`,
  crowbar: ({ c }) =>
    `<path d="M160 480L400 160q20-30 60-20t50 40" fill="none" stroke="${c}" stroke-width="30" stroke-linecap="round"/><path d="M160 480l-40 10" stroke="${c}" stroke-width="24" stroke-linecap="round"/>`,
  tileCutter: ({ c, k, m }) =>
    `<path d="M310 300L240 180" stroke="${k}" stroke-width="22" stroke-linecap="round"/><rect x="80" y="380" width="440" height="50" rx="10" fill="${c}"/><rect x="100" y="330" width="400" height="16" rx="8" fill="${m}"/><rect x="280" y="300" width="60" height="60" rx="10" fill="${k}"/><circle cx="310" cy="362" r="14" fill="${m}"/>`,
  tape: ({ c, k, m }) =>
    `<rect x="390" y="392" width="150" height="26" fill="#efe6c6" stroke="${k}" stroke-width="4"/><path d="M410 392v10M430 392v14M450 392v10M470 392v14M490 392v10M510 392v14" stroke="${k}" stroke-width="3"/><rect x="536" y="384" width="10" height="42" fill="${m}"/><rect x="140" y="170" width="250" height="250" rx="60" fill="${c}"/><circle cx="265" cy="295" r="70" fill="${k}"/><circle cx="265" cy="295" r="30" fill="${m}"/><rect x="160" y="400" width="60" height="30" rx="8" fill="${k}"/>`,
  level: ({ c, k }) =>
    `<rect x="60" y="250" width="480" height="100" rx="14" fill="${c}"/><rect x="60" y="330" width="480" height="20" fill="${k}" opacity=".2"/><rect x="250" y="272" width="100" height="40" rx="20" fill="#c8f08f" stroke="${k}" stroke-width="6"/><circle cx="306" cy="292" r="9" fill="#fff" opacity=".8"/><rect x="90" y="266" width="36" height="60" rx="14" fill="#c8f08f" stroke="${k}" stroke-width="6"/><rect x="474" y="266" width="36" height="60" rx="14" fill="#c8f08f" stroke="${k}" stroke-width="6"/>`,
  laser: ({ c, k }) =>
    `<path d="M300 300L40 200M300 300L560 200M300 300L40 420M300 300L560 420" stroke="#34d058" stroke-width="6" opacity=".8"/><rect x="220" y="200" width="160" height="200" rx="24" fill="${c}"/><rect x="250" y="230" width="100" height="70" rx="10" fill="${k}"/><circle cx="300" cy="265" r="16" fill="#34d058"/><rect x="240" y="400" width="120" height="30" rx="8" fill="${k}"/>`,
  square: ({ c, k, m }) =>
    `<rect x="80" y="260" width="460" height="50" fill="${m}"/><path d="${Array.from({ length: 22 }, (_, i) => `M${250 + i * 13} 260v${i % 5 === 0 ? 22 : 12}`).join("")}" stroke="${k}" stroke-width="3"/><path d="M180 200h90v220h-40l-50-40z" fill="${c}"/><circle cx="225" cy="236" r="12" fill="#c8f08f" stroke="${k}" stroke-width="4"/>`,
  pipe: ({ c, k, m }) =>
    `<path d="M150 540V300q0-110 110-110h60" fill="none" stroke="#c77b30" stroke-width="22"/><circle cx="260" cy="300" r="110" fill="${m}"/><circle cx="260" cy="300" r="30" fill="${k}"/><path d="M260 300L520 170M260 300L200 540" stroke="${c}" stroke-width="30" stroke-linecap="round"/>`,
  clamp: ({ c, k, m }) =>
    `<rect x="150" y="100" width="26" height="400" fill="${m}"/><rect x="150" y="100" width="200" height="44" rx="6" fill="${c}"/><rect x="318" y="170" width="24" height="170" fill="${m}"/><rect x="300" y="150" width="60" height="20" rx="6" fill="${k}"/><rect x="150" y="330" width="200" height="44" rx="6" fill="${c}"/><rect x="295" y="374" width="70" height="110" rx="22" fill="${k}"/>`,
  torch: ({ c, k, m }) =>
    `<path d="M300 220L450 150" stroke="${m}" stroke-width="26" stroke-linecap="round"/><path d="M465 142q50-30 85-10-30 22-85 26z" fill="#f59e0b"/><path d="M466 146q30-14 50-6-20 10-50 12z" fill="#60a5fa"/><rect x="240" y="200" width="90" height="60" rx="10" fill="${k}"/><rect x="220" y="250" width="130" height="240" rx="30" fill="${c}"/>`,
  welder: ({ c, k, m }) =>
    `<path d="M200 150h200" stroke="${k}" stroke-width="22" stroke-linecap="round"/><path d="M340 440q40 60 150 40" fill="none" stroke="${k}" stroke-width="12"/><rect x="130" y="180" width="340" height="260" rx="20" fill="${c}"/><rect x="160" y="210" width="150" height="200" rx="10" fill="${k}"/><circle cx="235" cy="280" r="36" fill="${m}"/><rect x="230" y="248" width="10" height="30" fill="${k}"/><circle cx="200" cy="370" r="14" fill="${m}"/><circle cx="270" cy="370" r="14" fill="${m}"/><path d="M340 240h100M340 270h100M340 300h100" stroke="${k}" stroke-width="12" opacity=".3"/>`,
  magnet: ({ c, m }) =>
    `<path fill-rule="evenodd" d="M300 120L480 440H120zM300 230L395 400H205z" fill="${c}"/><circle cx="300" cy="330" r="22" fill="${m}"/>`,
  plane: ({ c, m }) =>
    `<path d="M250 320l60-130h40l-30 130z" fill="${m}"/><path d="M90 400h420l-30-90H140z" fill="${c}"/><rect x="90" y="400" width="420" height="30" fill="${m}"/><path d="M380 310q0-80 60-90 30 0 30 40l-20 50z" fill="#9a5b2e"/><circle cx="170" cy="290" r="30" fill="#9a5b2e"/>`,
  chisel: ({ c, k, m }) =>
    `<g transform="rotate(-35 300 300)"><rect x="280" y="90" width="40" height="220" fill="${m}"/><path d="M280 90h40l-40-24z" fill="${m}"/><rect x="274" y="300" width="52" height="30" fill="${k}"/><rect x="268" y="330" width="64" height="180" rx="24" fill="${c}"/></g>`,
  toolbox: ({ c, k, m }) =>
    `<path d="M220 230v-60h160v60" fill="none" stroke="${k}" stroke-width="26" stroke-linejoin="round"/><rect x="100" y="230" width="400" height="240" rx="24" fill="${c}"/><rect x="100" y="230" width="400" height="60" rx="24" fill="${k}" opacity=".35"/><rect x="150" y="280" width="40" height="30" rx="6" fill="${m}"/><rect x="410" y="280" width="40" height="30" rx="6" fill="${m}"/>`,
  cabinet: ({ c, k, m }) =>
    `<rect x="150" y="100" width="300" height="370" rx="16" fill="${c}"/>${[130, 192, 254, 316, 378]
      .map(
        (y) =>
          `<rect x="175" y="${y}" width="250" height="50" rx="6" fill="${k}" opacity=".25"/><rect x="250" y="${y + 20}" width="100" height="10" rx="5" fill="${m}"/>`,
      )
      .join("")}<circle cx="185" cy="490" r="20" fill="${k}"/><circle cx="415" cy="490" r="20" fill="${k}"/>`,
  bag: ({ c, k }) =>
    `<path d="M200 262q0-120 100-120t100 120" fill="none" stroke="${k}" stroke-width="24"/><path d="M120 260h360l-20 230H140z" fill="${c}"/><rect x="170" y="310" width="100" height="90" rx="10" fill="${k}" opacity=".25"/><rect x="330" y="310" width="100" height="90" rx="10" fill="${k}" opacity=".25"/><rect x="130" y="445" width="340" height="45" rx="6" fill="${k}"/>`,
  brush: ({ c, m }) =>
    `<g transform="rotate(-30 300 300)"><path d="M240 260h120l-6-150H246z" fill="#d9b07a"/><rect x="240" y="260" width="120" height="80" rx="8" fill="${m}"/><rect x="265" y="330" width="70" height="190" rx="30" fill="${c}"/></g>`,
  roller: ({ c, k, m }) =>
    `<path d="M420 185h50v120H300v100" fill="none" stroke="${m}" stroke-width="16" stroke-linejoin="round"/><rect x="120" y="130" width="300" height="110" rx="40" fill="${c}"/><rect x="276" y="380" width="48" height="150" rx="20" fill="${k}"/>`,
  sprayGun: ({ c, k }) =>
    `<path d="M100 290L30 240v100z" fill="${c}" opacity=".25"/><rect x="220" y="330" width="100" height="140" rx="20" fill="${k}" opacity=".35"/><path d="M150 250h280a30 30 0 0 1 30 30v20a30 30 0 0 1-30 30H150z" fill="${c}"/><rect x="100" y="265" width="60" height="50" rx="10" fill="${k}"/><path d="M350 330l30 150h60l-20-150z" fill="${c}"/><path d="M330 330q-10 50 20 90" stroke="${k}" stroke-width="14" fill="none"/>`,
  caulkGun: ({ c, k, m }) =>
    `<rect x="410" y="278" width="140" height="14" fill="${m}"/><rect x="130" y="250" width="280" height="70" rx="10" fill="${m}"/><rect x="150" y="255" width="240" height="60" rx="30" fill="#eef0f2"/><path d="M150 270l-80 15 80 15z" fill="#eef0f2"/><path d="M410 250h40l30 200h-50z" fill="${c}"/><path d="M400 320l-10 120h30l10-120z" fill="${k}"/>`,
  tapeRoll: ({ c }) =>
    `<path fill-rule="evenodd" d="M130 300a170 170 0 1 0 340 0a170 170 0 1 0-340 0zM220 300a80 80 0 1 0 160 0a80 80 0 1 0-160 0z" fill="${c}"/><circle cx="300" cy="300" r="86" fill="none" stroke="#d8cba5" stroke-width="14"/><path d="M300 470h170v-30z" fill="${c}"/>`,
  screw: ({ c, k, m }) =>
    `<g transform="rotate(-30 300 300)"><rect x="270" y="170" width="60" height="280" fill="${m}"/><path d="M270 450l30 70 30-70z" fill="${m}"/><path d="${threads(262, 200, 76, 7, 36)}" stroke="${k}" stroke-width="8" opacity=".45"/><rect x="210" y="130" width="180" height="44" rx="14" fill="${c}"/><rect x="290" y="130" width="20" height="22" fill="${k}"/></g>`,
  bolt: ({ c, k, m }) =>
    `<g transform="rotate(-30 300 300)"><rect x="265" y="190" width="70" height="300" fill="${m}"/><path d="${threads(258, 220, 84, 8, 34)}" stroke="${k}" stroke-width="8" opacity=".45"/><path d="M230 120h140l30 35-30 35H230l-30-35z" fill="${c}"/><path d="M220 360h160l20 30-20 30H220l-20-30z" fill="${k}"/></g>`,
  vacuum: ({ c, k, m }) =>
    `<path d="M440 210q110 0 100 140t-60 150" fill="none" stroke="${k}" stroke-width="22" stroke-linecap="round"/><path d="M170 220h260l-20 240H190z" fill="${c}"/><rect x="150" y="180" width="300" height="60" rx="20" fill="${k}"/><rect x="260" y="165" width="80" height="20" rx="10" fill="${m}"/><circle cx="200" cy="475" r="20" fill="${k}"/><circle cx="400" cy="475" r="20" fill="${k}"/>`,
  washer: ({ c, k, m }) =>
    `<path d="M260 220V120h60" fill="none" stroke="${k}" stroke-width="18" stroke-linecap="round"/><path d="M370 400q60 0 80-80l30-90" fill="none" stroke="${k}" stroke-width="10"/><path d="M470 250L540 100" stroke="${m}" stroke-width="14" stroke-linecap="round"/><rect x="150" y="220" width="220" height="230" rx="30" fill="${c}"/><rect x="180" y="260" width="160" height="60" rx="12" fill="${k}" opacity=".3"/><circle cx="190" cy="470" r="34" fill="${k}"/><circle cx="330" cy="470" r="34" fill="${k}"/>`,
  broom: ({ c, k, m }) =>
    `<path d="M470 90L300 390" stroke="${m}" stroke-width="20" stroke-linecap="round"/><rect x="130" y="380" width="340" height="50" rx="12" fill="${c}"/><path d="M140 430h320v70H140z" fill="${k}"/>`,
  sprayBottle: ({ c, k }) =>
    `<path d="M230 150h160l50 30v20H300l-20 40h-40z" fill="${k}"/><path d="M330 200q-20 40 0 70" stroke="${k}" stroke-width="16" fill="none"/><rect x="255" y="200" width="90" height="60" rx="8" fill="${k}"/><path d="M230 260h140l20 60v170a20 20 0 0 1-20 20H230a20 20 0 0 1-20-20V320z" fill="${c}"/><rect x="235" y="340" width="130" height="90" rx="8" fill="#fff" opacity=".7"/>`,
  bottle: ({ c, k }) =>
    `<path d="M340 210q50-40 90 10v70" fill="none" stroke="${c}" stroke-width="26"/><rect x="210" y="150" width="80" height="50" rx="8" fill="${k}"/><path d="M190 200h170q60 0 60 60v220q0 20-20 20H200q-20 0-20-20V210z" fill="${c}"/><rect x="205" y="300" width="190" height="120" rx="10" fill="#fff" opacity=".75"/>`,
  cloth: ({ c }) =>
    `<rect x="160" y="220" width="280" height="80" rx="14" fill="${c}" opacity=".6"/><rect x="150" y="290" width="300" height="80" rx="14" fill="${c}" opacity=".8"/><rect x="140" y="360" width="320" height="80" rx="14" fill="${c}"/>`,
};

/** Title keywords → illustration, checked in order (first match wins). */
const KEYWORDS: [RegExp, string][] = [
  [/chainsaw/, "chainsaw"],
  [/hedge trimmer/, "hedgeTrimmer"],
  [/welder/, "welder"],
  [/circular saw|mitre saw|saw blade/, "sawBlade"],
  [/jigsaw/, "jigsaw"],
  [/hand saw|\bsaw\b/, "handSaw"],
  [/grinder/, "grinder"],
  [/sander/, "sander"],
  [/router/, "router"],
  [/auger/, "reel"],
  [/pressure washer/, "washer"],
  [/vacuum/, "vacuum"],
  [/tool bag|tool belt/, "bag"],
  [/drill|impact driver/, "drill"],
  [/wrecking bar|crowbar/, "crowbar"],
  [/hammer/, "hammer"],
  [/spanner|wrench/, "wrench"],
  [/screwdriver|soldering/, "screwdriver"],
  [/pliers|stripper|crimp|rivet/, "pliers"],
  [/socket set|ratchet set/, "socket"],
  [/knife|scraper/, "knife"],
  [/spark plug/, "sparkPlug"],
  [/\bjack\b|axle stand/, "jack"],
  [/charger/, "charger"],
  [/multimeter|obd2|code reader|detector|tester/, "meter"],
  [/tape measure|chalk line/, "tape"],
  [/masking tape/, "tapeRoll"],
  [/reel/, "reel"],
  [/welding helmet|welding mask/, "weldMask"],
  [/ear defender/, "earDefenders"],
  [/helmet/, "helmet"],
  [/glove/, "glove"],
  [/glasses|goggles/, "goggles"],
  [/boot/, "boot"],
  [/respirator|dust mask/, "respirator"],
  [/trousers/, "trousers"],
  [/jacket|hi-vis|vest/, "jacket"],
  [/plastering trowel|steamer/, "plasterTrowel"],
  [/trowel/, "brickTrowel"],
  [/spade|shovel/, "spade"],
  [/secateurs|shears|pruner/, "shears"],
  [/mower/, "mower"],
  [/blower/, "blower"],
  [/wheelbarrow/, "wheelbarrow"],
  [/concrete mixer/, "mixer"],
  [/\btap\b|faucet/, "tap"],
  [/tile cutter/, "tileCutter"],
  [/laser/, "laser"],
  [/spirit level|\blevel\b/, "level"],
  [/square/, "square"],
  [/pipe bender/, "pipe"],
  [/pipe cutter|clamp/, "clamp"],
  [/blowtorch|torch/, "torch"],
  [/magnet/, "magnet"],
  [/\bplane\b/, "plane"],
  [/chisel/, "chisel"],
  [/cabinet/, "cabinet"],
  [/organiser|tool box|toolbox/, "toolbox"],
  [/\bbrush\b/, "brush"],
  [/roller/, "roller"],
  [/sprayer|spray gun/, "sprayGun"],
  [/caulk/, "caulkGun"],
  [/spray bottle/, "sprayBottle"],
  [/degreaser|cleaner/, "bottle"],
  [/cloth/, "cloth"],
  [/bolt|anchor/, "bolt"],
  [/screw|nail|plug/, "screw"],
];

const CATEGORY_SHAPES: Record<string, string> = {
  "power-tools": "drill",
  hand: "wrench",
  automotive: "sparkPlug",
  gardening: "spade",
  electrical: "meter",
  safety: "helmet",
  construction: "brickTrowel",
  "measuring-layout": "tape",
  plumbing: "wrench",
  welding: "weldMask",
  woodworking: "plane",
  "painting-decorating": "roller",
  "fasteners-fixings": "screw",
  "storage-workwear": "toolbox",
  cleaning: "sprayBottle",
};

/** Which illustration a product gets: by title keyword, else by category. Exported for tests. */
function illustrationFor(title: string, categorySlug: string): string {
  const t = title.toLowerCase();
  for (const [re, shape] of KEYWORDS) if (re.test(t)) return shape;
  return CATEGORY_SHAPES[categorySlug] ?? "toolbox";
}

const VIEWS = [
  { tint: 0.86, transform: "" },
  { tint: 0.92, transform: "translate(300 300) rotate(-9) scale(.88) translate(-300 -300)" },
  { tint: 0.8, transform: "translate(300 300) scale(1.3) translate(-285 -300)" },
  { tint: 0.9, transform: "translate(300 300) rotate(8) scale(-.84 .84) translate(-300 -300)" },
];

/**
 * A 600×600 flat illustration of the product's tool kind in its color. `index` (1–4) selects the
 * view shown in the slideshow: plain, tilted, close-up or mirrored.
 */
export function renderProductImageSvg(input: {
  id: number;
  title: string;
  categorySlug: string;
  color: string;
  index: number;
}): string {
  const view = (((Math.trunc(input.index) - 1) % 4) + 4) % 4;
  const { tint, transform } = VIEWS[view];
  const c = colorHex(input.color);
  const dark = luminance(c) < 0.3;
  const p: P = {
    c,
    k: dark ? "#5d6670" : "#2f3640",
    m: "#c5ccd3",
    b: mix(c, "#ffffff", tint),
  };
  const shape = SHAPES[illustrationFor(input.title, input.categorySlug)] ?? SHAPES.toolbox;
  const jitter = ((Math.abs(Math.trunc(input.id)) * 53) % 61) - 30;

  let backdrop: string;
  if (view === 0) backdrop = `<ellipse cx="300" cy="535" rx="210" ry="22" fill="${p.k}" opacity=".12"/>`;
  else if (view === 1)
    backdrop = `<circle cx="${300 + jitter}" cy="${300 - jitter}" r="230" fill="${mix(c, "#ffffff", 0.78)}"/>`;
  else if (view === 2)
    backdrop = `<path d="M0 ${420 + jitter}L600 ${260 + jitter}V600H0z" fill="${mix(c, "#ffffff", 0.7)}"/>`;
  else backdrop = `<path d="M0 0H${380 + jitter}L${220 + jitter} 600H0z" fill="${mix(c, "#ffffff", 0.8)}"/>`;

  const body = transform ? `<g transform="${transform}">${shape(p)}</g>` : shape(p);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600" role="img">` +
    `<title>${escapeHtml(input.title)}</title>` +
    `<rect width="600" height="600" fill="${p.b}"/>${backdrop}${body}</svg>`
  );
}

/** A 160×60 wordmark: colored tile, hexagon monogram and the brand name; colors derive from the name. */
export function renderBrandLogoSvg(name: string): string {
  const h = hash(name);
  const hue = h % 360;
  const bg = hslToHex(hue, 0.42, 0.22);
  const accent = hslToHex(hue + 35, 0.75, 0.58);
  const words = name.split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w));
  const initials = words
    .slice(0, 2)
    .map((w) => w[0].toUpperCase())
    .join("");

  const lines =
    name.length > 12 && words.length > 1
      ? [words[0], name.slice(name.indexOf(words[0]) + words[0].length).trim()]
      : [name];
  const longest = Math.max(...lines.map((l) => l.length));
  const size = Math.max(8, Math.min(17, Math.floor(98 / (longest * 0.6))));
  const font = `font-family="Inter,Segoe UI,Helvetica,Arial,sans-serif" font-weight="700"`;
  const text =
    lines.length === 1
      ? `<text x="54" y="${30 + size * 0.35}" ${font} font-size="${size}" fill="#ffffff">${escapeHtml(lines[0])}</text>`
      : `<text x="54" y="${30 - 3}" ${font} font-size="${size}" fill="#ffffff">${escapeHtml(lines[0])}</text>` +
        `<text x="54" y="${30 + size - 1}" ${font} font-size="${size}" fill="${accent}">${escapeHtml(lines[1])}</text>`;

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="60" viewBox="0 0 160 60" role="img">` +
    `<title>${escapeHtml(name)}</title>` +
    `<rect width="160" height="60" rx="8" fill="${bg}"/>` +
    `<path d="M16 14h20l10 16-10 16H16L6 30z" fill="${accent}"/>` +
    `<text x="26" y="35" text-anchor="middle" ${font} font-size="${initials.length > 1 ? 13 : 16}" fill="${bg}">${escapeHtml(initials)}</text>` +
    text +
    `</svg>`
  );
}
