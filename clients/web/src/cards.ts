// SPDX-License-Identifier: AGPL-3.0-or-later
// How a card id of each game looks: a rank, a suit or family symbol, a colour and a
// full name for screen readers. Nothing here knows what a card is worth or when it
// may be played; the server's request says that.
import { has, t } from "./i18n";

export interface CardFace {
  id: string;
  rank: string; // big text in the corner: "7", "K", "∞", "21"
  symbol: string; // suit / family symbol
  suit: string; // css class of the colour: "guns", "hearts", "fire", "tc-red", "trump"
  name: string; // full words: "7 of Guns"
}

const LA_CASA: Record<string, [string, string]> = {
  G: ["Guns", "◎"],
  K: ["Knives", "†"],
  M: ["Masks", "☺"],
  F: ["Fists", "✚"],
};
export const FAMILY_SYMBOL: Record<string, string> = { guns: "◎", knives: "†", masks: "☺", fists: "✚" };

const CASINO_SUITS: Record<string, [string, string]> = {
  S: ["Spades", "♠"],
  H: ["Hearts", "♥"],
  D: ["Diamonds", "♦"],
  C: ["Clubs", "♣"],
};
const CASINO_RANKS: Record<string, string> = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };

const LOKA_SUITS: Record<string, [string, string, string]> = {
  E: ["Earth", "♁", "earth"],
  A: ["Air", "☁", "air"],
  F: ["Fire", "▲", "fire"],
  W: ["Water", "≈", "water"],
};
export const LOKA_SUIT_SYMBOL: Record<string, string> = { earth: "♁", air: "☁", fire: "▲", water: "≈" };
const LOKA_COURT: Record<string, string> = { J: "Jack", C: "Cavalier", Q: "Queen", K: "King" };

const TC_SUITS: Record<string, [string, string]> = {
  MAZ: ["Mazes", "▦"],
  BOO: ["Books", "▤"],
  RAI: ["Rain", "☂"],
  BUG: ["Bugs", "✺"],
  FRO: ["Fromps", "◉"],
  INK: ["Inkblots", "✹"],
  SCY: ["Scythes", "☽"],
  PLU: ["Plungers", "⊥"],
  FAC: ["Faces", "☻"],
  TIM: ["Time", "◷"],
  LAM: ["Lamps", "☀"],
  HIV: ["Hives", "⬡"],
  EAR: ["Ears", "◐"],
  ZUR: ["Zurfs", "❖"],
  TOP: ["Tops", "▼"],
};
const TC_COLOURS = ["red", "orange", "yellow", "green", "blue"];

// Card names come from the catalogue (family.*, suit.*, rank.*, tc.*); the tables
// above keep the English names as codes for the colours' CSS classes.
const fam = (english: string): string => t(`family.${english.toLowerCase()}`);
const rank = (r: string): string => (r === "T" ? "10" : ["A", "J", "Q", "K", "C"].includes(r) ? t(`rank.${r}`) : r);

function titleCase(s: string): string {
  return s.charAt(0) + s.slice(1).toLowerCase();
}

export function gameOfCard(id: string): string {
  if (/^[GKMF][1-9]$/.test(id) || id === "MC") return "la-casa";
  if (/^[A2-9TJQK][SHDC]$/.test(id)) return "casino";
  if (/^([EAFW](10|[1-9]|[JCQK])|T([1-9]|1[0-9]|2[01])|FOOL|GOOD|EVIL)$/.test(id)) return "conference";
  return "trophy-case";
}

export function cardFace(id: string, game?: string): CardFace {
  const g = game ?? gameOfCard(id);
  if (g === "la-casa") {
    if (id === "MC") return { id, rank: "MC", symbol: "✿", suit: "cake", name: t("card.mangiaCake") };
    const fam = LA_CASA[id[0]];
    if (fam) return { id, rank: id.slice(1), symbol: fam[1], suit: fam[0].toLowerCase(), name: t("card.of", { rank: id.slice(1), suit: t(`family.${fam[0].toLowerCase()}`) }) };
  }
  if (g === "casino") {
    const s = CASINO_SUITS[id[1]];
    if (s) {
      const r = id[0] === "T" ? "10" : id[0];
      return { id, rank: r, symbol: s[1], suit: s[0].toLowerCase(), name: t("card.of", { rank: CASINO_RANKS[id[0]] ? rank(id[0]) : id[0], suit: t(`suit.${s[0].toLowerCase()}`) }) };
    }
  }
  if (g === "conference") {
    if (id === "FOOL") return { id, rank: "0", symbol: "✱", suit: "fool", name: t("card.fool") };
    if (id === "GOOD") return { id, rank: "G", symbol: "☀", suit: "good", name: t("card.good") };
    if (id === "EVIL") return { id, rank: "E", symbol: "☾", suit: "evil", name: t("card.evil") };
    if (id[0] === "T") return { id, rank: id.slice(1), symbol: "★", suit: "trump", name: t("card.confTrump", { n: id.slice(1) }) };
    const s = LOKA_SUITS[id[0]];
    if (s) {
      const r = id.slice(1);
      return { id, rank: r, symbol: s[1], suit: s[2], name: t("card.of", { rank: LOKA_COURT[r] ? rank(r) : r, suit: fam(s[0]) }) };
    }
  }
  if (g === "trophy-case") {
    if (id.startsWith("T-")) {
      const n = titleCase(id.slice(2));
      const named = has(`tc.trump.${id.slice(2)}`) ? t(`tc.trump.${id.slice(2)}`) : n;
      return { id, rank: named, symbol: "★", suit: "trump", name: t("card.tcTrump", { name: named }) };
    }
    const code = id.slice(0, 3);
    const s = TC_SUITS[code];
    if (s) {
      const idx = Object.keys(TC_SUITS).indexOf(code);
      const colour = TC_COLOURS[Math.floor(idx / 3)];
      const v = id.slice(3) === "X" ? "∞" : id.slice(3);
      return { id, rank: v, symbol: s[1], suit: `tc-${colour}`, name: t("card.tcSuit", { rank: v, suit: t(`tc.suit.${code}`), colour: t(`colour.${colour}`) }) };
    }
  }
  return { id, rank: id, symbol: "", suit: "unknown", name: id };
}

export function cardName(id: string, game?: string): string {
  return cardFace(id, game).name;
}
