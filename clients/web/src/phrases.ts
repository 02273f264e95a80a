// SPDX-License-Identifier: AGPL-3.0-or-later
// What a decision does, in words, from the action types of the request's `legal`
// list (and, for the few types whose meaning depends on it, the view's `phase`).
// The page still knows no rule: the table (phrases.json) only names each action type
// of each game; the server's request says which of them are open now.
import PHRASES from "./phrases.json";
import { cap, humanize, type Json } from "./words";

type Entry = string | Record<string, string>;
const TABLE = PHRASES as Record<string, Record<string, Entry>>;

/** The phrase of one action type of a game, or null when the table lacks it. */
export function phrase(game: string, type: string, phase?: string | null): string | null {
  const e = TABLE[game]?.[type];
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

/** Every game and action type the table names (for tests and the end-to-end run). */
export function phraseTable(): Record<string, Record<string, Entry>> {
  return TABLE;
}
