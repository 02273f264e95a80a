// SPDX-License-Identifier: AGPL-3.0-or-later
// The Italian guides and glossary (src/help/content.it.ts) against the English ones:
// every term and section translated, nothing left over, the same shape, no empty text.
import { afterEach, describe, expect, it } from "vitest";
import { GAMES, GLOSSARY, GUIDES, GUIDES_EN, term, TROPHY_SUITS } from "../src/help/content";
import { GUIDES_IT, TERMS_IT } from "../src/help/content.it";
import { setLang } from "../src/i18n";

const words = (b: unknown) => typeof b === "string" || (typeof b === "object" && b !== null && "list" in b);
const filled = (s: unknown) => typeof s === "string" && s.trim().length > 0;

describe("the help in Italian", () => {
  afterEach(() => setLang("en", false));

  it("translates every glossary entry and no other", () => {
    expect([...GLOSSARY.keys()].filter((id) => !(id in TERMS_IT))).toEqual([]);
    expect(Object.keys(TERMS_IT).filter((id) => !GLOSSARY.has(id))).toEqual([]);
  });

  it("gives each entry the English one's shape: as many paragraphs, players and a card where it has them", () => {
    for (const [id, en] of GLOSSARY) {
      const it_ = TERMS_IT[id];
      expect(filled(it_.title), id).toBe(true);
      expect(it_.text.length, id).toBe(en.text.length);
      for (const p of it_.text) expect(filled(p), id).toBe(true);
      expect(!!it_.players, `${id} players`).toBe(!!en.players);
      if (it_.players) expect(filled(it_.players), id).toBe(true);
      expect(!!it_.card, `${id} card`).toBe(!!en.card);
      if (it_.card) for (const k of ["setup", "changes", "scoring"] as const) expect(filled(it_.card[k]), `${id} ${k}`).toBe(true);
    }
  });

  it("translates every section of every guide, paragraph for paragraph and item for item", () => {
    for (const g of GAMES) {
      const en = GUIDES_EN[g];
      const it_ = GUIDES_IT[g];
      expect(filled(it_.title) && filled(it_.tagline), g).toBe(true);
      expect(Object.keys(it_.sections).sort(), g).toEqual(en.sections.map((s) => s.id).sort());
      for (const s of en.sections) {
        const mine = it_.sections[s.id];
        expect(filled(mine.title), `${g} ${s.id}`).toBe(true);
        const enWords = s.blocks.filter(words);
        expect(mine.text.length, `${g} ${s.id}`).toBe(enWords.length);
        enWords.forEach((b, i) => {
          const m = mine.text[i];
          expect(typeof m, `${g} ${s.id} ${i}`).toBe(typeof b);
          if (typeof b === "string") expect(filled(m), `${g} ${s.id} ${i}`).toBe(true);
          else {
            const list = (m as { list: string[] }).list;
            expect(list.length, `${g} ${s.id} ${i}`).toBe((b as { list: string[] }).list.length);
            for (const x of list) expect(filled(x), `${g} ${s.id} ${i}`).toBe(true);
          }
        });
      }
    }
  });

  it("serves the page's language, with the same ids, terms and rule references", () => {
    setLang("it", false);
    expect(GUIDES["la-casa"].sections.find((s) => s.id === "ruling")!.title).toBe("La Famiglia Regnante");
    expect(GUIDES["la-casa"].sections.map((s) => s.rules)).toEqual(GUIDES_EN["la-casa"].sections.map((s) => s.rules));
    expect(GUIDES["la-casa"].sections.map((s) => s.blocks.filter((b) => !words(b)))).toEqual(GUIDES_EN["la-casa"].sections.map((s) => s.blocks.filter((b) => !words(b))));
    expect(term("la-casa:ruling-family")!.title).toBe("Famiglia Regnante");
    expect(term("la-casa:ruling-family")!.rules).toEqual(GLOSSARY.get("la-casa:ruling-family")!.rules);
    // The Challenges keep the names on their cards.
    expect(term("challenge:bandits")!.title).toBe("Bandits");
    expect(term("challenge:bandits")!.card!.setup).toMatch(/Famiglia Regnante/);
    expect(TROPHY_SUITS[0].name).toBe("Labirinti");
    expect(TROPHY_SUITS[0].colourName).toBe("rosso");
    setLang("en", false);
    expect(term("la-casa:ruling-family")!.title).toBe("Ruling Family");
    expect(TROPHY_SUITS[0].name).toBe("Mazes");
  });
});
