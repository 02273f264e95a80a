// SPDX-License-Identifier: AGPL-3.0-or-later
// What a decision does, in words, from the action types of the request's `legal`
// list (and, for the few types whose meaning depends on it, the view's `phase`).
// The page still knows no rule: the catalogue (src/i18n/*.json, keys
// "phrase.GAME.TYPE", and "phrase.GAME.TYPE@PHASE" where the phase changes the
// meaning) only names each action type of each game; the server's request says which
// of them are open now.
import { CATALOGUES, lang, type Lang } from "./i18n";
import { cap, humanize, type Json } from "./words";

type Entry = string | Record<string, string>;

/** The phrase table of a language: game → action type → phrase, or phase → phrase ("*": any other). */
export function phraseTable(l: Lang = lang()): Record<string, Record<string, Entry>> {
  const out: Record<string, Record<string, Entry>> = {};
  for (const [key, text] of Object.entries(CATALOGUES[l])) {
    const m = /^phrase\.([a-z-]+)\.([a-z_]+)(?:@([a-z_]+))?$/.exec(key);
    if (!m || typeof text !== "string") continue;
    const [, game, type, phase] = m;
    const g = (out[game] ??= {});
    if (!phase && g[type] === undefined) g[type] = text;
    else {
      const e = g[type];
      const obj = typeof e === "object" ? e : e === undefined ? {} : { "*": e };
      obj[phase ?? "*"] = text;
      g[type] = obj;
    }
  }
  return out;
}

const tables = new Map<Lang, Record<string, Record<string, Entry>>>();

/** The phrase of one action type of a game, or null when the table lacks it. */
export function phrase(game: string, type: string, phase?: string | null, l: Lang = lang()): string | null {
  let table = tables.get(l);
  if (!table) tables.set(l, (table = phraseTable(l)));
  const e = table[game]?.[type];
  if (e === undefined) return null;
  if (typeof e === "string") return e;
  return (phase && e[phase]) || e["*"] || null;
}

/** The action types of a legal list, each once, in the list's order. */
export function decisionTypes(legal: Json[] | undefined): string[] {
  const out: string[] = [];
  for (const a of legal ?? []) {
    const t = String(a?.type);
    if (!out.includes(t)) out.push(t);
  }
  return out;
}

export interface DecisionLine {
  type: string;
  text: string;
}

/** One line per action type of the decision: what each choice does. */
export function decisionLines(legal: Json[] | undefined, game: string, phase?: string | null): DecisionLine[] {
  return decisionTypes(legal).map((type) => ({ type, text: phrase(game, type, phase) ?? cap(humanize(type)) }));
}
