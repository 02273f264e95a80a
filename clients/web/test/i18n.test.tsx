// SPDX-License-Identifier: AGPL-3.0-or-later
// The message catalogues: English and Italian hold the same keys, no empty message,
// the same placeholders and plural forms; no page writes words outside them; the
// main views render in both languages without a missing key.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "preact";
import { act } from "preact/test-utils";
import ts from "typescript";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CATALOGUES, LANGS, MISSING, formatNumber, initialLang, lang, setLang, t, type Lang, type Message } from "../src/i18n";
import { decisionLines } from "../src/phrases";
import { describeAction, describeEvent, plural } from "../src/words";
import { cardName } from "../src/cards";
import { Root } from "../src/ui/Root";
import { TablePage } from "../src/ui/Table";
import { ReplayPage } from "../src/ui/Replay";
import { HelpPage } from "../src/ui/Help";
import { LeaderboardPage } from "../src/ui/Ratings";
import type { Json } from "../src/words";
import { fixture, makeApp } from "./helpers";

const SRC = join(__dirname, "../src");
const placeholders = (m: Message): string[] =>
  [...new Set((typeof m === "string" ? [m] : Object.values(m)).flatMap((s) => [...s.matchAll(/\{(\w+)\}/g)].map((x) => x[1])))].sort();

describe("the catalogues", () => {
  const [en, it_] = [CATALOGUES.en, CATALOGUES.it];

  it("hold the same keys in English and Italian", () => {
    expect(Object.keys(en).filter((k) => !(k in it_))).toEqual([]);
    expect(Object.keys(it_).filter((k) => !(k in en))).toEqual([]);
    expect(Object.keys(en).length).toBeGreaterThan(400);
  });

  it("have no empty message", () => {
    for (const l of LANGS)
      for (const [k, m] of Object.entries(CATALOGUES[l])) {
        const forms = typeof m === "string" ? [m] : Object.values(m);
        expect(forms.length, `${l} ${k}`).toBeGreaterThan(0);
        for (const f of forms) expect(f.trim(), `${l} ${k}`).not.toBe("");
      }
  });

  it("use the same placeholders in both languages", () => {
    const differ = Object.keys(en).filter((k) => placeholders(en[k]).join() !== placeholders(it_[k]).join());
    expect(differ).toEqual([]);
  });

  it("give every plural message the forms its language needs", () => {
    for (const l of LANGS) {
      // "one" and "other" (the fallback of any other category, such as Italian's
      // "many" for millions).
      for (const [k, m] of Object.entries(CATALOGUES[l])) {
        if (typeof m === "string") continue;
        for (const f of ["one", "other"]) expect(m[f], `${l} ${k}.${f}`).toBeTypeOf("string");
        for (const f of Object.keys(m)) expect(new Intl.PluralRules(l).resolvedOptions().pluralCategories, `${l} ${k}`).toContain(f);
        // A plural chooses by the count {n}; it must say it is plural in both languages.
        expect(typeof CATALOGUES[l === "en" ? "it" : "en"][k], k).toBe("object");
      }
    }
  });

  it("say a missing key as ⟦key⟧, so that a test or a look finds it", () => {
    expect(t("no.such.key")).toBe(`${MISSING}no.such.key⟧`);
  });
});

describe("t()", () => {
  afterEach(() => setLang("en"));

  it("fills placeholders, formats numbers and picks plurals per language", () => {
    setLang("en");
    expect(plural(1, "card")).toBe("1 card");
    expect(plural(3, "card")).toBe("3 cards");
    expect(t("a.bid", { n: 1 })).toBe("Bid 1 trick");
    expect(formatNumber(12345)).toBe("12,345");
    setLang("it");
    expect(plural(1, "card")).toBe("1 carta");
    expect(plural(3, "card")).toBe("3 carte");
    expect(plural(0, "point")).toBe("0 punti");
    expect(t("a.bid", { n: 2 })).toBe("Dichiara 2 prese");
    expect(formatNumber(12345)).toBe("12.345");
  });

  it("names cards and suits in Italian", () => {
    setLang("it");
    expect(cardName("G7", "la-casa")).toBe("7 di Pistole");
    expect(cardName("AS", "casino")).toBe("Asso di Picche");
    expect(cardName("QH", "casino")).toBe("Regina di Cuori");
    expect(cardName("TD", "casino")).toBe("10 di Quadri");
    expect(cardName("WC", "conference")).toBe("Cavaliere di Acqua");
    expect(cardName("FOOL", "conference")).toBe("il Matto");
    expect(cardName("MAZ9", "trophy-case")).toBe("9 di Labirinti (rosso)");
    expect(cardName("T-DEATH", "trophy-case")).toBe("Morte (trionfo)");
    setLang("en");
    expect(cardName("G7", "la-casa")).toBe("7 of Guns");
    expect(cardName("T-DEATH", "trophy-case")).toBe("the Death (trump)");
  });

  it("says actions and events in the page's language", () => {
    setLang("it");
    expect(describeAction({ type: "steal", card: "G7" }, "la-casa")).toBe("Ruba 7 di Pistole");
    const who = (s: number) => ["ann", "bea"][s];
    expect(describeEvent({ type: "trick", winner: 1, number: 3, points: 1 }, "la-casa", who)).toBe("bea ha vinto la presa 3 (1 punto).");
    expect(describeEvent({ type: "round_end", round: 2, points: [3, 1], scores: [8, 14] }, "casino", who)).toBe("Fine del giro 2: 3 – 1 punti in questo giro, 8 – 14 in tutto.");
  });

  it("keeps a phrase for every action type in both languages", () => {
    // test/phrases.test.ts checks the English phrases against the engine's action
    // types; here every one of them has its Italian counterpart.
    const keys = Object.keys(CATALOGUES.en).filter((k) => k.startsWith("phrase."));
    expect(keys.length).toBeGreaterThan(25);
    for (const k of keys) expect(CATALOGUES.it[k], k).toBeTruthy();
    setLang("it");
    expect(decisionLines([{ type: "steal", card: "G7" }, { type: "no_steal" }], "la-casa", "steal").map((l) => l.text)).toEqual([
      "Ruba una carta dalla presa (Bandits)",
      "Non rubare nulla (Bandits)",
    ]);
  });
});

describe("the language of the page", () => {
  afterEach(() => {
    localStorage.removeItem("casa.lang");
    setLang("en", false);
  });

  it("follows the saved choice, else the browser (it* → Italian), and sets <html lang>", () => {
    localStorage.removeItem("casa.lang");
    const nav = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(navigator), "language");
    const langs = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(navigator), "languages");
    try {
      Object.defineProperty(navigator, "languages", { value: ["it-IT", "en"], configurable: true });
      expect(initialLang()).toBe("it");
      Object.defineProperty(navigator, "languages", { value: ["de-DE"], configurable: true });
      expect(initialLang()).toBe("en");
      localStorage.setItem("casa.lang", "it");
      expect(initialLang()).toBe("it");
    } finally {
      delete (navigator as Json).languages;
      if (langs) Object.defineProperty(Object.getPrototypeOf(navigator), "languages", langs);
      if (nav) Object.defineProperty(Object.getPrototypeOf(navigator), "language", nav);
    }
    setLang("it");
    expect(document.documentElement.lang).toBe("it");
    expect(localStorage.getItem("casa.lang")).toBe("it");
    setLang("en");
    expect(document.documentElement.lang).toBe("en");
  });
});

// ---- No words outside the catalogue -----------------------------------------------

/** Words written into JSX (text, or a label attribute) in a .tsx file of src/. */
function literalWords(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const out: string[] = [];
  const words = /[A-Za-zÀ-ÿ]{2,}/;
  const ATTRS = new Set(["aria-label", "title", "placeholder", "label", "alt", "summary"]);
  const visit = (n: ts.Node) => {
    if (ts.isJsxText(n) && words.test(n.text)) {
      // Commands and file names in <code> are the same in every language.
      const el = n.parent;
      const tag = ts.isJsxElement(el) ? el.openingElement.tagName.getText(sf) : "";
      if (tag !== "code") out.push(n.text.trim());
    }
    if (ts.isJsxAttribute(n) && ATTRS.has(n.name.getText(sf)) && n.initializer) {
      const init = n.initializer;
      if (ts.isStringLiteral(init) && words.test(init.text)) out.push(`${n.name.getText(sf)}="${init.text}"`);
      if (ts.isJsxExpression(init) && init.expression && (ts.isStringLiteral(init.expression) || ts.isNoSubstitutionTemplateLiteral(init.expression)) && words.test(init.expression.text))
        out.push(`${n.name.getText(sf)}={"${init.expression.text}"}`);
    }
    // A string literal as a JSX child: {"Some words"}.
    if (ts.isJsxExpression(n) && n.expression && ts.isStringLiteral(n.expression) && words.test(n.expression.text) && (ts.isJsxElement(n.parent) || ts.isJsxFragment(n.parent)))
      out.push(`{"${n.expression.text}"}`);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? tsxFiles(join(dir, d.name)) : d.name.endsWith(".tsx") ? [join(dir, d.name)] : [],
  );
}

describe("no words outside the catalogue", () => {
  it("finds no text written into the JSX of src/", () => {
    const found: string[] = [];
    for (const f of tsxFiles(SRC)) for (const w of literalWords(f)) found.push(`${f.slice(SRC.length + 1)}: ${w}`);
    expect(found).toEqual([]);
  }, 60_000);

  it("would find one (the scan itself works)", () => {
    const tmp = join(tmpdir(), "casa-i18n-probe.tsx");
    writeFileSync(tmp, `export const X = () => <p aria-label="Hello there">Some words <code>casa verify</code>{"more words"}</p>;`);
    expect(literalWords(tmp)).toEqual(['aria-label="Hello there"', "Some words", '{"more words"}']);
  });
});

// ---- The main views, rendered in both languages ---------------------------------

let root: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  root = document.getElementById("root")!;
});
const settle = () => new Promise((r) => setTimeout(r, 20));

async function views(l: Lang): Promise<Record<string, string>> {
  setLang(l, false);
  const out: Record<string, string> = {};
  const catalogue = fixture("catalogue.json");
  const replays: Record<string, Json> = {};
  for (const g of ["la-casa", "casino", "conference", "trophy-case"]) {
    const r = fixture(`replay-${g}.json`);
    replays[r.table] = r;
  }
  (globalThis as Json).fetch = async (url: string) => {
    const m = /\/api\/tables\/([^/]+)\/replay/.exec(url);
    if (m && replays[decodeURIComponent(m[1])]) return { ok: true, status: 200, text: async () => JSON.stringify(replays[decodeURIComponent(m[1])]) };
    if (url.startsWith("/api/games")) return { ok: true, status: 200, json: async () => catalogue };
    if (url.startsWith("/api/leaderboard")) return { ok: true, status: 200, json: async () => ({ game: "la-casa", ratings: [{ player_id: "p1", name: "ann", rating: 1500, deviation: 200, games: 2, provisional: true }], solo: [] }) };
    if (url.startsWith("/api/version")) return { ok: true, status: 200, json: async () => ({ version: "1.0.0" }) };
    return { ok: false, status: 404, json: async () => ({}), text: async () => "" };
  };
  localStorage.setItem("casa.name", "ann");
  const grab = async (name: string, node: preact.ComponentChild) => {
    await act(async () => {
      render(node, root);
      await settle();
    });
    for (let i = 0; i < 30 && /Loading|Carico/.test(root.textContent ?? ""); i++) await act(async () => { await settle(); });
    out[name] = root.innerHTML;
    render(null, root);
  };
  // The lobby in its frame (header, footer with the language switch).
  await grab("lobby", <Root app={makeApp().app} />);
  // A table at a decision, and a finished one.
  {
    const { app } = makeApp();
    const st = fixture("la-casa-4p-state.json");
    app.receive(st);
    app.receive({ ...fixture("la-casa-4p-request.json"), table: st.table });
    await grab("table", <TablePage app={app} id={st.table} />);
    app.receive({ type: "game_over", table: st.table, seq: 40, winners: [0, 2], scores: [11, 7] });
    await grab("game over", <TablePage app={app} id={st.table} />);
  }
  {
    const { app } = makeApp();
    const st = fixture("la-casa-2p-bidding.json");
    app.receive(st.state ?? st);
    if (st.request) app.receive(st.request);
    await grab("bidding", <TablePage app={app} id={(st.state ?? st).table} />);
  }
  for (const r of Object.values(replays))
    await grab(`replay ${r.game}`, <ReplayPage id={r.table} navigate={() => {}} verifier={() => Promise.reject(new Error("none"))} />);
  for (const g of ["la-casa", "casino", "conference", "trophy-case"]) await grab(`help ${g}`, <HelpPage game={g} navigate={() => {}} />);
  await grab("leaderboard", <LeaderboardPage game="la-casa" navigate={() => {}} />);
  return out;
}

describe("the main views in both languages", () => {
  afterEach(() => setLang("en", false));

  it("show no missing key, in English and in Italian, and differ between them", async () => {
    const en = await views("en");
    const it_ = await views("it");
    for (const [name, html] of Object.entries({ ...Object.fromEntries(Object.entries(en).map(([k, v]) => [`en ${k}`, v])), ...Object.fromEntries(Object.entries(it_).map(([k, v]) => [`it ${k}`, v])) }))
      expect(html.includes(MISSING) ? `${name}: ${html.slice(html.indexOf(MISSING) - 80, html.indexOf(MISSING) + 80)}` : "", name).toBe("");
    expect(en.lobby).toContain("Open tables");
    expect(it_.lobby).toContain("Tavoli aperti");
    expect(it_.lobby).toContain("Italiano");
    expect(it_.table).toContain("La tua mano");
    expect(it_["help la-casa"]).not.toBe(en["help la-casa"]);
    expect(lang()).toBe("it");
  }, 60_000);
});

describe("the switch in the footer", () => {
  afterEach(() => {
    localStorage.removeItem("casa.lang");
    setLang("en", false);
  });

  it("re-renders the page in Italian, remembers it and sets <html lang>", async () => {
    setLang("en", false);
    localStorage.setItem("casa.name", "ann");
    (globalThis as Json).fetch = async () => ({ ok: false, status: 404, json: async () => ({}) });
    await act(async () => {
      render(<Root app={makeApp().app} />, root);
      await settle();
    });
    expect(root.querySelector('.lang-switch button[data-lang="en"]')!.getAttribute("aria-pressed")).toBe("true");
    expect(root.textContent).toContain("Open tables");
    await act(async () => {
      (root.querySelector('.lang-switch button[data-lang="it"]') as HTMLButtonElement).click();
      await settle();
    });
    expect(root.textContent).toContain("Tavoli aperti");
    expect(root.textContent).not.toContain("Open tables");
    expect(root.querySelector('.lang-switch button[data-lang="it"]')!.getAttribute("aria-pressed")).toBe("true");
    expect(document.documentElement.lang).toBe("it");
    expect(localStorage.getItem("casa.lang")).toBe("it");
    render(null, root);
  });
});
