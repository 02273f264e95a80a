// SPDX-License-Identifier: AGPL-3.0-or-later
// The help: every word the engine can put on the table has an explanation, taken
// from the sources the server itself uses (the published option schemas, which the
// server's catalogue test checks against the engine, and the engine's own name
// tables), not from a second list kept here.
import { render } from "preact";
import { act } from "preact/test-utils";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { parseRoute } from "../src/app";
import { cardFace } from "../src/cards";
import { GAMES, GLOSSARY, GUIDES, PHASE_TERMS, PLAIN_PHASES, TROPHY_SUITS, TROPHY_TRUMPS, challengeTitle, term } from "../src/help/content";
import { Board } from "../src/ui/boards";
import { HelpPage, Term } from "../src/ui/Help";
import { describeEvent, type Json } from "../src/words";
import { fixture } from "./helpers";

const repo = join(process.cwd(), "..", "..");
const read = (p: string) => readFileSync(join(repo, p), "utf8");
const schema = (game: string): Json => JSON.parse(read(`protocol/schemas/options/${game}.json`));

/** The strings of a C++ `std::array<std::string_view, …> NAME{ "a", "b", … };`. */
function cppNames(file: string, name: string): string[] {
  const m = read(file).match(new RegExp(`${name}\\s*\\{([^}]*)\\}`));
  if (!m) throw new Error(`${name} not found in ${file}`);
  return [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
}

/** Each `pattern` match's first group in La Casa's Challenge files (one file each). */
function challengeFiles(pattern: RegExp): string[] {
  const dir = "engine/games/la_casa/challenges";
  return readdirSync(join(repo, dir))
    .filter((f) => f.endsWith(".cpp"))
    .flatMap((f) => [...read(`${dir}/${f}`).matchAll(pattern)].map((x) => x[1]));
}

/** The names of La Casa's Challenges: `const Challenge kX{.id = …, .name = "…"`. */
const challengeNames = () => challengeFiles(/const Challenge k\w+\{\s*\.id = \w+,\s*\.name = "([^"]*)"/g);
/** The phases a Challenge adds: `{.phase = Phase::kX, .name = "…"` in its file. */
const challengePhases = () => challengeFiles(/\{\.phase = Phase::k\w+,\s*\.name = "([^"]*)"/g);

let root: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  root = document.getElementById("root")!;
});

describe("the glossary covers what the engine produces", () => {
  const lc = schema("la-casa");
  const challenges: string[] = lc.properties.challenge.enum;
  const byPlayers: Record<string, string[]> = lc.properties.challenge["x-enum-by-players"];

  it("reads the engine's 16 Challenges from the schema and the engine alike", () => {
    expect(challenges).toHaveLength(16);
    expect([...challenges].sort()).toEqual(challengeNames().sort());
  });

  it("explains every Challenge as its card: set-up, what changes, how it scores, with its rule", () => {
    for (const c of challenges) {
      const t = GLOSSARY.get(`challenge:${c}`);
      expect(t, `no glossary entry for the Challenge ${c}`).toBeDefined();
      expect(t!.card?.setup && t!.card?.changes && t!.card?.scoring, c).toBeTruthy();
      expect(t!.rules.some((r) => /^LC-7\.\d+$/.test(r)), c).toBe(true);
      // Its title is what the table prints, not the engine name.
      expect(challengeTitle(c)).toBe(t!.title);
      expect(t!.title).not.toContain("_");
    }
  });

  it("says which player counts use each Challenge, as the engine does (LC-7.0)", () => {
    for (const c of challenges) {
      const counts = ["2", "4"].filter((p) => byPlayers[p].includes(c));
      const players = GLOSSARY.get(`challenge:${c}`)!.players!;
      for (const p of ["2", "4"]) expect(players.includes(p), `${c}: ${players}`).toBe(counts.includes(p));
    }
  });

  it("explains every Solo Challenge with its own card", () => {
    expect(byPlayers["1"]).toHaveLength(6);
    for (const c of byPlayers["1"]) {
      const t = GLOSSARY.get(`solo:${c}`);
      expect(t, `no glossary entry for the Solo Challenge ${c}`).toBeDefined();
      expect(t!.card?.scoring, c).toBeTruthy();
      expect(t!.rules).toContain("LC-8.5");
    }
  });

  it("explains every format and every option a player can set, in every game", () => {
    for (const f of lc.properties.format.enum) expect(GLOSSARY.get(`format:${f}`), `format ${f}`).toBeDefined();
    for (const g of GAMES) {
      for (const [key, p] of Object.entries<Json>(schema(g).properties)) {
        if (p["x-testing"]) continue;
        expect(term(`option:${g}:${key}`), `option ${g}.${key}`).toBeDefined();
      }
    }
    for (const v of schema("conference").properties.good_evil.enum.filter((x: string) => x !== "off"))
      expect(term(`conference:good_evil:${v}`), `good_evil ${v}`).toBeDefined();
  });

  it("names every Trophy Case suit, its symbol and its colour as the engine and the cards do", () => {
    const codes = cppNames("engine/games/trophy_case/cards.h", "kSuitCodes");
    const names = cppNames("engine/games/trophy_case/cards.h", "kSuitNames");
    const colours = cppNames("engine/games/trophy_case/cards.h", "kColourNames");
    expect(TROPHY_SUITS.map((s) => s.code)).toEqual(codes);
    expect(TROPHY_SUITS.map((s) => s.name)).toEqual(names);
    // TC-1.3: three suits to a colour, in rule order.
    expect(TROPHY_SUITS.map((s) => s.colour)).toEqual(codes.map((_, i) => colours[Math.floor(i / 3)]));
    for (const s of TROPHY_SUITS) {
      const face = cardFace(`${s.code}1`, "trophy-case");
      expect(face.symbol, s.code).toBe(s.symbol);
      expect(face.suit).toBe(`tc-${s.colour}`);
    }
    const trumps = cppNames("engine/games/trophy_case/cards.h", "kTrumpIds").map((id) => cardFace(id, "trophy-case").rank);
    expect(TROPHY_TRUMPS).toEqual(trumps);
  });

  it("has no dangling pointer: every term a guide lists exists", () => {
    for (const g of GAMES)
      for (const s of GUIDES[g].sections)
        for (const b of s.blocks) if (typeof b === "object" && "terms" in b) for (const id of b.terms) expect(term(id), `${g}/${s.id}: ${id}`).toBeDefined();
  });

  it("explains every decision phase the engines name, by the Challenge or variant that brings it", () => {
    const phases: Record<string, string[]> = {
      // `case Phase::kX: return "name";` and `kPhaseNames{"a", "b", …}` in the engines,
      // and the phases each La Casa Challenge declares in its own file.
      "la-casa": [
        ...[...read("engine/games/la_casa/la_casa_game.cpp").matchAll(/case Phase::k\w+: return "(\w+)";/g)].map((m) => m[1]),
        ...challengePhases(),
        ...cppNames("engine/games/la_casa/domination_game.cpp", "kPhaseNames"),
        ...cppNames("engine/games/la_casa/solo_game.cpp", "kPhaseNames"),
      ],
      casino: cppNames("engine/games/casino/casino.cpp", "kPhaseNames\\[\\]\\s*="),
      conference: [...read("engine/games/conference/conference.cpp").matchAll(/case Phase::k\w+: return "(\w+)";/g)].map((m) => m[1]),
    };
    expect(phases["la-casa"].length).toBeGreaterThan(16);
    expect(phases.casino).toContain("ask");
    expect(phases.conference).toContain("gallowglass");
    for (const [game, list] of Object.entries(phases))
      for (const ph of list) {
        if (PLAIN_PHASES.includes(ph)) continue;
        const id = PHASE_TERMS[game]?.[ph];
        expect(id && term(id), `${game} phase ${ph}`).toBeTruthy();
      }
  });

  it("prints a Challenge in the log by its card's name", () => {
    expect(describeEvent({ type: "deal", round: 2, dealer: 1, challenge: "pass_the_buck" }, "la-casa", (s) => `seat ${s}`)).toBe("Round 2: seat 1 deals, challenge Pass the Buck.");
    expect(describeEvent({ type: "choose_challenge", seat: 0, challenge: "the_club" }, "la-casa", (s) => `seat ${s}`)).toBe("seat 0 chooses The Club.");
  });

  it("cites rule ids of the game it explains", () => {
    const prefix: Record<string, string> = { "la-casa": "LC-", casino: "CA-", conference: "CO-", "trophy-case": "TC-" };
    for (const t of GLOSSARY.values()) for (const r of t.rules) expect(r.startsWith(prefix[t.game]), `${t.id}: ${r}`).toBe(true);
  });
});

describe("words of the table open their explanation", () => {
  it("opens the active Challenge's card with one click, and closes it again", () => {
    const st = fixture("la-casa-4p-state.json");
    const view = { ...st.view, challenge: "slap_down" };
    act(() => render(<Board view={view} name={(s) => `seat ${s}`} />, root));
    const button = root.querySelector('.facts button.term[data-term="challenge:slap_down"]') as HTMLButtonElement;
    expect(button).not.toBeNull();
    expect(button.textContent).toContain("Slap-Down");
    expect(button.getAttribute("aria-haspopup")).toBe("dialog");
    expect(root.querySelector("dialog")).toBeNull();
    act(() => button.click());
    const dialog = root.querySelector("dialog.help-dialog")!;
    expect(dialog).not.toBeNull();
    expect(dialog.textContent).toContain("What changes");
    expect(dialog.textContent).toContain("How it scores");
    expect(dialog.textContent).toContain(GLOSSARY.get("challenge:slap_down")!.card!.changes);
    expect(dialog.textContent).toContain("LC-7.16");
    act(() => (dialog.querySelector("button.help-close") as HTMLButtonElement).click());
    expect(root.querySelector("dialog")).toBeNull();
  });

  it("gives the Solo board the Solo card of its Challenge", () => {
    const view = { game: "la-casa", mode: "solo", round: 1, rounds: 6, challenge: "capitano", ruling: null, robot: { columns: [] }, casa: { card: null }, trick: [] };
    act(() => render(<Board view={view} name={() => ""} />, root));
    expect(root.querySelector('button.term[data-term="solo:capitano"]')).not.toBeNull();
  });

  it("explains the Trophy Case symbols on the board, suit by suit", () => {
    const view = { game: "trophy-case", hand_number: 1, dealer: 0, target: 30, stock_size: 100, trick: { led_suit: "PLU", plays: [{ seat: 0, card: "PLU3" }] } };
    act(() => render(<Board view={view} name={(s) => `seat ${s}`} />, root));
    expect(root.querySelector(".fact")!.parentElement!.textContent).toContain("⊥");
    act(() => (root.querySelector('button.term[data-term="trophy-case:suits"]') as HTMLButtonElement).click());
    const legend = root.querySelector("dialog table.suit-legend")!;
    for (const s of TROPHY_SUITS) {
      const row = legend.querySelector(`tr[data-suit="${s.code}"]`)!;
      expect(row.textContent).toContain(s.symbol);
      expect(row.textContent).toContain(s.name);
      expect(row.textContent).toContain(s.colour);
    }
  });

  it("explains Conference's contract number", () => {
    const view = { game: "conference", hand_number: 1, dealer: 0, contract: 83, direction: "left", phase: "play", sides: [[0, 1], [2, 3]], trick: { plays: [] } };
    act(() => render(<Board view={view} name={(s) => `seat ${s}`} />, root));
    act(() => (root.querySelector('button.term[data-term="conference:contract"]') as HTMLButtonElement).click());
    expect(root.querySelector("dialog")!.textContent).toContain("83");
  });

  it("shows a word without an entry as plain text, never a dead button", () => {
    act(() => render(<Term id="no-such-term" label="Mystery" />, root));
    expect(root.textContent).toBe("Mystery");
    expect(root.querySelector("button")).toBeNull();
  });
});

describe("the help pages", () => {
  it("routes /help and /help/GAME", () => {
    expect(parseRoute("/help")).toEqual({ page: "help", game: undefined });
    expect(parseRoute("/help/trophy-case")).toEqual({ page: "help", game: "trophy-case" });
  });

  it("teaches La Casa with all 16 Challenges, the 6 Solo Challenges, Election, Domination and Solo", () => {
    act(() => render(<HelpPage game="la-casa" navigate={() => {}} />, root));
    const text = root.textContent!;
    for (const c of schema("la-casa").properties.challenge.enum) expect(text).toContain(challengeTitle(c));
    expect(root.querySelectorAll(".help-term.challenge").length).toBe(16 + 6);
    for (const h of ["The Election (optional)", "Domination (two players)", "Solo against the Robot"]) expect(text).toContain(h);
    expect(root.querySelector(".rule-refs")!.textContent).toMatch(/LC-/);
  });

  it("has a page for each game, and says so for an unknown one", () => {
    for (const g of GAMES) {
      act(() => render(<HelpPage game={g} navigate={() => {}} />, root));
      expect(root.querySelector("h2")!.textContent).toBe(`How to play ${GUIDES[g].title}`);
      expect(root.querySelectorAll(".guide-section").length).toBeGreaterThan(2);
    }
    act(() => render(<HelpPage game="poker" navigate={() => {}} />, root));
    expect(root.textContent).toContain("There is no guide");
    expect(root.querySelectorAll(".help-links a").length).toBe(4);
  });
});
