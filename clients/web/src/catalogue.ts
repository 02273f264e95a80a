// SPDX-License-Identifier: AGPL-3.0-or-later
// The games catalogue the server publishes at GET /api/games: per game its name,
// player counts and a JSON Schema of its options. The create form is generated
// from it, so a new option needs no change here.
import { has, t } from "./i18n";
import type { Json } from "./words";

export interface OptionField {
  key: string;
  schema: Json;
  label: string;
  description: string;
  testing: boolean;
  kind: "boolean" | "select" | "number" | "text";
  choices: { label: string; value: unknown }[]; // for "select"
  min?: number;
  max?: number;
  default?: unknown;
}

export interface GameInfo {
  name: string;
  title: string;
  description: string;
  players: number[];
  fields: OptionField[];
}

const TITLES: Record<string, string> = {
  "la-casa": "La Casa",
  casino: "Casino",
  conference: "Conference",
  "trophy-case": "Trophy Case",
};

/** A game's name: the page's catalogue first (the same proper names in every language), then the server's title. */
export function gameTitle(name: string, catalogue?: GameInfo[]): string {
  return has(`game.${name}`) ? t(`game.${name}`) : (catalogue?.find((g) => g.name === name)?.title ?? TITLES[name] ?? name);
}

function playerCounts(g: Json): number[] {
  const p = g.players ?? g.player_counts;
  if (Array.isArray(p)) return p.filter((x) => Number.isInteger(x));
  const min = p?.min ?? g.min_players;
  const max = p?.max ?? g.max_players;
  if (Number.isInteger(min) && Number.isInteger(max)) {
    const out: number[] = [];
    for (let i = min; i <= max; i++) out.push(i);
    return out;
  }
  return [];
}

function valuesOf(s: Json): unknown[] | null {
  if (Array.isArray(s.enum)) return s.enum;
  if ("const" in s) return [s.const];
  if (s.type === "boolean") return [false, true];
  if (s.type === "null") return [null];
  return null;
}

function labelOf(v: unknown): string {
  if (v === true) return t("value.yes");
  if (v === false) return t("value.no");
  if (v === null) return t("value.none");
  return String(v).replace(/_/g, " ");
}

export function fieldOf(key: string, s: Json): OptionField {
  const base = {
    key,
    schema: s,
    label: s.title ?? key.replace(/_/g, " "),
    description: s.description ?? "",
    testing: !!s["x-testing"],
    choices: [] as { label: string; value: unknown }[],
    default: s.default,
  };
  if (Array.isArray(s["x-form-enum"]))
    return { ...base, kind: "select", choices: s["x-form-enum"].map((v: unknown) => ({ label: labelOf(v), value: v })) };
  const alts: Json[] | undefined = s.anyOf ?? s.oneOf;
  // true/false, also spelt "on"/"off": a checkbox.
  if (alts?.some((a) => a.type === "boolean")) return { ...base, kind: "boolean" };
  if (alts) {
    const vals: unknown[] = [];
    let closed = true;
    for (const a of alts) {
      const v = valuesOf(a);
      if (v) vals.push(...v);
      else closed = false;
    }
    if (closed && vals.length) return { ...base, kind: "select", choices: vals.map((v) => ({ label: labelOf(v), value: v })) };
    return { ...base, kind: "text" };
  }
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (Array.isArray(s.enum)) return { ...base, kind: "select", choices: s.enum.map((v: unknown) => ({ label: labelOf(v), value: v })) };
  if (types.includes("boolean") && types.length === 1) return { ...base, kind: "boolean" };
  if (types.includes("integer") || types.includes("number"))
    return { ...base, kind: "number", min: s.minimum, max: s.maximum };
  return { ...base, kind: "text" };
}

export function normaliseCatalogue(doc: Json): GameInfo[] {
  const list: Json[] = Array.isArray(doc) ? doc : (doc?.games ?? []);
  return list.map((g) => {
    const schema = g.options ?? g.options_schema ?? g.schema ?? {};
    const props: Record<string, Json> = schema.properties ?? {};
    return {
      name: g.name,
      title: g.title ?? TITLES[g.name] ?? g.name,
      description: g.description ?? "",
      players: playerCounts(g),
      fields: Object.entries(props).map(([k, s]) => fieldOf(k, s)),
    };
  });
}

/** Reads a text field: JSON when it looks like JSON, a list for array schemas. */
export function parseText(f: OptionField, text: string): unknown {
  const t = text.trim();
  if (t === "") return undefined;
  if (/^[[{"]|^(true|false|null|-?\d+)$/.test(t)) {
    try {
      return JSON.parse(t);
    } catch {
      /* fall through */
    }
  }
  const types = Array.isArray(f.schema.type) ? f.schema.type : [f.schema.type];
  if (types.includes("array")) return t.split(/[\s,]+/).filter(Boolean);
  return t;
}

export async function loadCatalogue(): Promise<GameInfo[]> {
  const r = await fetch("/api/games", { headers: { Accept: "application/json" } });
  if (!r.ok) throw new Error(`GET /api/games: ${r.status}`);
  return normaliseCatalogue(await r.json());
}

/** The format a form's values select: the chosen one, the only one allowed at this
 * player count, or the schema's default (`x-enum-by-players`, La Casa). */
export function effectiveFormat(fields: OptionField[], players: number, options: Record<string, unknown>): unknown {
  const f = fields.find((x) => x.key === "format");
  if (!f) return undefined;
  if (options.format !== undefined) return options.format;
  const allowed = choicesAt(f, players);
  return allowed.length === 1 ? allowed[0].value : f.default;
}

/** Whether a field applies at this player count (`x-players`) and format (`x-formats`). */
export function fieldApplies(f: OptionField, players: number, format?: unknown): boolean {
  const only = f.schema["x-players"];
  if (Array.isArray(only) && !only.includes(players)) return false;
  const formats = f.schema["x-formats"];
  return format === undefined || !Array.isArray(formats) || formats.includes(format);
}

/** The choices of a select at this player count (the schema's `x-enum-by-players`). */
export function choicesAt(f: OptionField, players: number): { label: string; value: unknown }[] {
  const by = f.schema["x-enum-by-players"]?.[String(players)];
  return Array.isArray(by) ? f.choices.filter((c) => by.includes(c.value)) : f.choices;
}
