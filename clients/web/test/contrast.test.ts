// SPDX-License-Identifier: AGPL-3.0-or-later
// WCAG 2.1 AA contrast of the page's colours, read from the style sheets as they
// are: each pair names the rule that gives the text its colour and the rule that
// gives what is behind it its background, so a colour changed in the CSS is
// checked here. Text needs 4.5:1; large text (≥ 24px, or ≥ 18.66px bold) and the
// edges of controls 3:1 (WCAG 1.4.3, 1.4.11).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const src = join(__dirname, "../src");
const css = ["style.css", "help/help.css"].map((f) => readFileSync(join(src, f), "utf8")).join("\n");

type Rules = Map<string, Map<string, string>>;

/** Top-level rules (the narrow-screen @media blocks only change sizes): selector -> property -> value, last one wins. */
function parse(text: string): Rules {
  let t = text.replace(/\/\*[\s\S]*?\*\//g, "");
  // Drop @media blocks, braces balanced.
  for (let at = t.indexOf("@media"); at >= 0; at = t.indexOf("@media")) {
    let i = t.indexOf("{", at);
    let depth = 0;
    for (; i < t.length; i++) {
      if (t[i] === "{") depth++;
      else if (t[i] === "}" && --depth === 0) break;
    }
    t = t.slice(0, at) + t.slice(i + 1);
  }
  const rules: Rules = new Map();
  for (const m of t.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const decls = new Map<string, string>();
    for (const d of m[2].split(";")) {
      const k = d.indexOf(":");
      if (k > 0) decls.set(d.slice(0, k).trim(), d.slice(k + 1).trim());
    }
    for (const sel of m[1].split(",").map((s) => s.trim().replace(/\s+/g, " "))) {
      const old = rules.get(sel) ?? new Map();
      for (const [k, v] of decls) old.set(k, v);
      rules.set(sel, old);
    }
  }
  return rules;
}
const rules = parse(css);

function resolve(value: string): string {
  return value.replace(/var\((--[\w-]+)\)/g, (_, name) => {
    const v = rules.get(":root")?.get(name);
    if (!v) throw new Error(`no ${name} in :root`);
    return resolve(v);
  });
}

/** The property of the rule with exactly this selector (background: its colour). */
function prop(selector: string, name: "color" | "background" | "border-color"): string {
  const r = rules.get(selector);
  if (!r) throw new Error(`no rule ${selector}`);
  let v = r.get(name) ?? (name === "background" ? r.get("background-color") : undefined);
  if (!v && name === "border-color") v = r.get("border")?.match(/#[0-9a-f]{3,8}\b|var\([^)]*\)/i)?.[0];
  if (!v) throw new Error(`${selector} has no ${name}`);
  v = resolve(v);
  const colour = v.match(/#[0-9a-f]{3,8}\b|rgba?\([^)]*\)/i)?.[0];
  if (!colour) throw new Error(`${selector} ${name}: no colour in ${v}`);
  return colour;
}

type RGB = [number, number, number];
function rgb(c: string): RGB {
  if (c.startsWith("#")) {
    const h = c.length === 4 ? [...c.slice(1)].map((x) => x + x).join("") : c.slice(1, 7);
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as RGB;
  }
  return c.match(/[\d.]+/g)!.slice(0, 3).map(Number) as RGB;
}
function luminance([r, g, b]: RGB): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
/** `top` drawn with this opacity over `under`. */
function over(top: RGB, alpha: number, under: RGB): RGB {
  return top.map((v, i) => v * alpha + under[i] * (1 - alpha)) as RGB;
}
function ratio(a: RGB, b: RGB): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

const TEXT = 4.5;
const LARGE = 3; // large text, and the edges and marks of controls

/** Backgrounds text sits on: the felt, the panels, the boxes of the table page. */
const SURFACES: Record<string, string> = {
  felt: prop(":root", "background"),
  header: prop("header.top", "background"),
  panel: prop(".board", "background"),
  "own seat, areas": prop(".seat.mine", "background"),
  "decision box": prop(".choices", "background"),
  "game over": prop(".game-over", "background"),
  "invite box": prop(".invite-intro", "background"),
  "first in standings": prop(".event .standings tbody tr:first-child", "background"),
};

interface Pair {
  what: string;
  fg: string;
  bg: string;
  min: number;
}
const pairs: Pair[] = [];
const on = (what: string, fg: string, bgs: Record<string, string>, min = TEXT) => {
  for (const [where, bg] of Object.entries(bgs)) pairs.push({ what: `${what} on ${where}`, fg, bg, min });
};

// Body text, muted text, links and the accent (your turn, summaries, headings of the help).
on("body text", prop(":root", "color"), SURFACES);
on("muted text", prop(".muted", "color"), SURFACES);
on("links", prop("a", "color"), SURFACES);
on("team chat", prop(".team-msg", "color"), { panel: SURFACES.panel });
for (const v of [".deal-verdict.ok", ".deal-verdict.bad", ".deal-verdict.unchecked"]) on(v, prop(v, "color"), { panel: SURFACES.panel });
// Boxes with their own background and the page's text colour.
for (const box of [".errors p", ".closed", ".tag", ".tag.away", ".conn-open", ".conn-connecting", ".countdown", ".countdown.urgent"]) {
  on(`text in ${box}`, prop(":root", "color"), { [box]: prop(box, "background") });
}
// The game review's verdict marks on the panels of the move list and the review
// (text), and its graph's lines on the graph's felt (graphical objects: 3:1).
for (const v of [".v-best", ".v-good", ".v-inaccuracy", ".v-mistake", ".v-blunder", ".v-forced"]) {
  on(`review mark ${v}`, prop(v, "color"), { panel: SURFACES.panel, "own seat, areas": SURFACES["own seat, areas"] });
}
for (const side of [".side-0", ".side-1", ".side-2", ".side-3"]) on(`review graph line ${side}`, prop(side, "color"), { felt: SURFACES.felt }, LARGE);
// Buttons: ink on the button's face, the primary button, the help's marks.
on("button text", prop("button", "color"), { button: prop("button", "background") });
on("primary button text", prop("button", "color"), { "primary button": prop("button.primary", "background") });
on("help mark", prop(".term-mark", "color"), { mark: prop(".term-mark", "background") });
on("input text", prop("button", "color"), { input: prop("input", "background") });
// A button's edge against the felt and panels it sits on (a control's boundary: 3:1),
// and the light of a lit card.
on("button face", prop("button", "background"), { felt: SURFACES.felt, panel: SURFACES.panel, "decision box": SURFACES["decision box"] }, LARGE);
on("lit card's light", prop(".card.legal", "border-color"), { panel: SURFACES.panel, "own seat, areas": SURFACES["own seat, areas"] }, LARGE);
on("focus ring", resolve("var(--focus)"), SURFACES, LARGE);
// Card faces: every suit and colour on the plain face, on the selected face and on its own face.
const face = prop(".card", "background");
const selected = prop(".card.selected", "background");
const suits = [...rules.keys()].filter((s) => /^\.s-[\w-]+$/.test(s));
expect(suits.length).toBeGreaterThan(15);
for (const s of suits) {
  const own = rules.get(s)!.has("background");
  on(`card ${s}`, prop(s, "color"), own ? { "its face": prop(s, "background") } : { face, "selected face": selected });
}
on("card ink", prop(".card", "color"), { face, "selected face": selected });
on("Mangia-Cake mud card", prop(".card.mud", "color"), { mud: prop(".card.mud", "background") });
{
  const [box, back] = [rgb(prop(".card.back .count", "background")), rgb(prop(".card.back", "background"))];
  on("count on a face-down card", prop(".card.back", "color"), { "count box": `rgb(${over(box, 0.6, back).join(",")})` });
}
// Family names and suit words in the text, on the panels.
for (const s of [...rules.keys()].filter((x) => /^\.fam\.s-[\w-]+$/.test(x))) {
  on(s, prop(s, "color"), { panel: SURFACES.panel, "own seat, areas": SURFACES["own seat, areas"] });
}
// Trophy Case's legend in the help: each colour on its cell.
for (const s of [...rules.keys()].filter((x) => /^table\.suit-legend td\.legend-/.test(x))) {
  const own = rules.get(s)!.has("background");
  on(s, prop(s, "color"), { cell: own ? prop(s, "background") : prop("table.suit-legend td.sym", "background") });
}
// A hand's cards that cannot be played now stay readable: faded with opacity over the panel.
{
  const r = rules.get(".hand .card.unplayable")!;
  const alpha = Number(r.get("opacity"));
  const panel = rgb(SURFACES.panel);
  for (const s of suits.filter((x) => !rules.get(x)!.has("background"))) {
    pairs.push({
      what: `unplayable card ${s} (opacity ${alpha})`,
      fg: `rgb(${over(rgb(prop(s, "color")), alpha, panel).join(",")})`,
      bg: `rgb(${over(rgb(face), alpha, panel).join(",")})`,
      // Not an active control: held to the 3:1 of graphical objects (its rank is bold and
      // large on a desktop; its suit is told by the symbol too), not exempt.
      min: LARGE,
    });
  }
}

describe("WCAG AA contrast of the style sheets", () => {
  it("finds the rules it checks", () => {
    expect(pairs.length).toBeGreaterThan(80);
  });
  it.each(pairs.map((p) => [p.what, p] as const))("%s", (_what, p) => {
    const r = ratio(rgb(p.fg), rgb(p.bg));
    expect(Math.round(r * 100) / 100, `${p.fg} on ${p.bg}`).toBeGreaterThanOrEqual(p.min);
  });
});
