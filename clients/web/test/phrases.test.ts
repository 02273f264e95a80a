// SPDX-License-Identifier: AGPL-3.0-or-later
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildChoices, matchCards, maxCards } from "../src/choices";
import { decisionLines, phrase, phraseTable } from "../src/phrases";
import { LANGS } from "../src/i18n";

// The engine's catalogue of action types: every game's decoder lists each type it
// reads with its fields (check_action_fields(value, {{"play", "card"}, ...})).
// A type added there without a phrase here fails this test.
const GAMES_DIR = join(__dirname, "../../../engine/games");

function engineActionTypes(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const dir of readdirSync(GAMES_DIR)) {
    const game = dir.replace(/_/g, "-");
    for (const f of readdirSync(join(GAMES_DIR, dir))) {
      if (!f.endsWith(".cpp")) continue;
      const src = readFileSync(join(GAMES_DIR, dir, f), "utf8");
      for (const call of src.matchAll(/check_action_fields\(\s*value,\s*\{([\s\S]*?)\}\s*\)\s*\)/g)) {
        for (const m of call[1].matchAll(/\{\s*"([a-z_]+)"\s*,\s*"[a-z_ ]*"\s*\}/g)) {
          if (!out.has(game)) out.set(game, new Set());
          out.get(game)!.add(m[1]);
        }
      }
    }
  }
  return out;
}

describe("decision phrases", () => {
  const types = engineActionTypes();

  it("finds the action types of all four games in the engine", () => {
    expect([...types.keys()].sort()).toEqual(["casino", "conference", "la-casa", "trophy-case"]);
    expect(types.get("la-casa")).toContain("set_aside");
    expect(types.get("la-casa")).toContain("take_pile");
    expect(types.get("trophy-case")).toEqual(new Set(["play", "fold"]));
  });

  it("has a phrase for every action type of every game, in every language", () => {
    const missing: string[] = [];
    for (const l of LANGS) for (const [game, set] of types) for (const t of set) if (!phrase(game, t, undefined, l)) missing.push(`${l} ${game}:${t}`);
    expect(missing).toEqual([]);
  });

  it("names no action type the engine does not have, in any language", () => {
    const extra: string[] = [];
    for (const l of LANGS)
      for (const [game, entries] of Object.entries(phraseTable(l)))
        for (const t of Object.keys(entries)) if (!types.get(game)?.has(t)) extra.push(`${l} ${game}:${t}`);
    expect(extra).toEqual([]);
  });

  it("gives a type the same phases in every language", () => {
    const shape = (l: (typeof LANGS)[number]) =>
      JSON.stringify(Object.entries(phraseTable(l)).map(([g, e]) => [g, Object.entries(e).map(([t, v]) => [t, typeof v === "string" ? "" : Object.keys(v).sort()])]));
    for (const l of LANGS) expect(shape(l), l).toBe(shape("en"));
  });

  it("says what a steal, a give to the left and a set-aside do", () => {
    expect(decisionLines([{ type: "steal", card: "G7" }, { type: "no_steal" }], "la-casa", "steal").map((l) => l.text)).toEqual([
      "Steal a card from the trick (Bandits)",
      "Steal nothing (Bandits)",
    ]);
    expect(decisionLines([{ type: "pass_card", card: "F2" }], "la-casa", "pass_card")[0].text).toBe("Give a card to your left (Pass the Buck)");
    expect(decisionLines([{ type: "set_aside", cards: [] }], "la-casa", "set_aside")[0].text).toBe("Set aside up to two cards (The Club)");
  });

  it("uses the phase where one type means two things", () => {
    expect(phrase("la-casa", "name_family", "name_cousins")).toBe("Name the Cousins family (Cousins)");
    expect(phrase("la-casa", "name_family", "name_ruling_family")).toBe("Name the Ruling Family (Figura)");
    expect(phrase("la-casa", "pass", "bidding")).toMatch(/Figura/);
    expect(phrase("la-casa", "pass", "election")).toMatch(/elect nothing/);
  });

  it("falls back to the type's name for a type it does not know", () => {
    expect(decisionLines([{ type: "shout_loudly" }], "la-casa")[0].text).toBe("Shout loudly");
  });
});

describe("choosing a set of cards by tapping them (The Club)", () => {
  const legal = [
    { type: "set_aside", cards: [] },
    { type: "set_aside", cards: ["G5"] },
    { type: "set_aside", cards: ["K2"] },
    { type: "set_aside", cards: ["G5", "K2"] },
  ];
  it("makes the named cards tappable and no card clickable alone", () => {
    const c = buildChoices(legal);
    expect([...c.toggles].sort()).toEqual(["G5", "K2"]);
    expect(c.byCard.size).toBe(0);
    expect(c.groups).toEqual([]);
    expect(maxCards(c.multi)).toBe(2);
  });
  it("finds the action of the chosen set in any order, and none for a set not offered", () => {
    const c = buildChoices(legal);
    expect(matchCards(c.multi, new Set(["K2", "G5"]))).toEqual({ type: "set_aside", cards: ["G5", "K2"] });
    expect(matchCards(c.multi, new Set())).toEqual({ type: "set_aside", cards: [] });
    expect(matchCards(c.multi, new Set(["G5", "K2", "M1"]))).toBeUndefined();
  });
});
