// SPDX-License-Identifier: AGPL-3.0-or-later
// Builds what the player may click from a request's `legal` list, and nothing else:
// the page knows no rule. Actions naming one `card` light that card up wherever it
// is drawn; the rest become buttons, or a selection list when there are many.
import type { Json } from "./words";

/** Action types whose `card` is a card drawn on the table or in the hand. */
const CARD_TYPES = new Set([
  "play", "discard", "reveal", "pass_card", "steal", "give", "eliminate",
  "capture", "build", "increase", "trail",
]);
/** More legal values of one type than this become a selection list. */
export const SELECT_THRESHOLD = 8;

export interface ChoiceGroup {
  type: string;
  actions: Json[];
  asSelect: boolean;
}

export interface Choices {
  byCard: Map<string, Json[]>;
  groups: ChoiceGroup[];
  /** Actions naming a set of cards (`cards`: The Club's set-aside): chosen by tapping cards. */
  multi: Json[];
  /** The cards that can be tapped into such a set. */
  toggles: Set<string>;
}

export function buildChoices(legal: Json[] | undefined): Choices {
  const byCard = new Map<string, Json[]>();
  const groupsByType = new Map<string, Json[]>();
  const multi: Json[] = [];
  const toggles = new Set<string>();
  for (const a of legal ?? []) {
    if (a && Array.isArray(a.cards) && a.cards.every((c: unknown) => typeof c === "string")) {
      multi.push(a);
      for (const c of a.cards) toggles.add(c);
    } else if (a && typeof a.card === "string" && CARD_TYPES.has(a.type)) {
      const list = byCard.get(a.card) ?? [];
      list.push(a);
      byCard.set(a.card, list);
    } else {
      const t = String(a?.type);
      const list = groupsByType.get(t) ?? [];
      list.push(a);
      groupsByType.set(t, list);
    }
  }
  const groups = [...groupsByType.entries()].map(([type, actions]) => ({
    type,
    actions,
    asSelect: actions.length > SELECT_THRESHOLD,
  }));
  return { byCard, groups, multi, toggles };
}

/** Cards drawn clickable during one render, so the choices panel can offer the rest. */
export class DrawnCards {
  private seen = new Set<string>();
  reset(): void {
    this.seen.clear();
  }
  add(id: string): void {
    this.seen.add(id);
  }
  has(id: string): boolean {
    return this.seen.has(id);
  }
}

/** The action of `multi` whose `cards` are exactly `chosen` (in any order), or undefined. */
export function matchCards(multi: Json[], chosen: Set<string>): Json | undefined {
  return multi.find((a) => a.cards.length === chosen.size && a.cards.every((c: string) => chosen.has(c)));
}

/** The most cards one action of `multi` names. */
export function maxCards(multi: Json[]): number {
  return multi.reduce((m, a) => Math.max(m, a.cards.length), 0);
}
