// SPDX-License-Identifier: AGPL-3.0-or-later
// Actions and events in words, for buttons and the log. Generic: any field this file
// does not know is still shown, so a new action or event of a game reads sensibly.
import { cardName, FAMILY_SYMBOL, LOKA_SUIT_SYMBOL } from "./cards";
import { challengeTitle } from "./help/content";

export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export function cap(s: string): string {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/** "1 card", "3 cards": a count with its noun, singular or plural. */
export function plural(n: number, noun: string, many?: string): string {
  return `${n} ${n === 1 ? noun : (many ?? noun + "s")}`;
}

export function humanize(s: string): string {
  return s.replace(/_/g, " ");
}

function family(f: string | null | undefined): string {
  if (!f) return "no family";
  const sym = FAMILY_SYMBOL[f] ?? LOKA_SUIT_SYMBOL[f] ?? "";
  return `${cap(f)}${sym ? " " + sym : ""}`;
}

function cards(list: string[] | undefined, game: string): string {
  if (!list || list.length === 0) return "nothing";
  return list.map((c) => cardName(c, game)).join(", ");
}

/** "build B1 (8)": a Casino build with its value, when the view shows it. */
function buildName(id: string, view?: Json): string {
  const b = Array.isArray(view?.table?.builds) ? view.table.builds.find((x: Json) => x?.id === id) : undefined;
  return typeof b?.value === "number" ? `build ${id} (${b.value})` : `build ${id}`;
}

/** A short label for one legal action; `view` (the seat's view) names builds' values. */
export function describeAction(a: Json, game: string, view?: Json): string {
  const c = (id: string) => cardName(id, game);
  switch (a.type) {
    case "play": {
      let s = `Play ${c(a.card)}`;
      if (a.call) s += a.call === "ours" ? ", calling “ours”" : ", calling “yours”";
      if (a.as_gallowglass) s += " as gallowglass";
      return s;
    }
    case "elect":
      return `Elect ${family(a.family)}`;
    case "pass":
      return "Pass";
    case "discard":
      return `Discard ${c(a.card)}`;
    case "bid":
      return `Bid ${plural(a.tricks, "trick")}`;
    case "name_family":
      return `Name ${family(a.family)}`;
    case "set_aside":
      return a.cards.length === 0 ? "Keep every card" : `Set aside ${cards(a.cards, game)}`;
    case "eliminate":
      return `Eliminate ${c(a.card)}`;
    case "no_elimination":
      return "Eliminate nothing";
    case "reveal":
      return `Reveal ${c(a.card)}`;
    case "pass_card":
      return `Pass ${c(a.card)} to the left`;
    case "steal":
      return `Steal ${c(a.card)}`;
    case "no_steal":
      return "Steal nothing";
    case "give":
      return `Give ${c(a.card)}`;
    case "choose_challenge":
      return `Challenge: ${challengeTitle(a.challenge)}`;
    case "deal":
      return "Deal the next round";
    case "take_pile":
      return a.pile === "face_up" ? "Take the face-up card" : "Take the stock card";
    case "capture": {
      const taken = [...(a.loose ?? []).map(c), ...(a.builds ?? []).map((b: string) => buildName(b, view))];
      return `Capture ${taken.join(" + ")} with ${c(a.card)}`;
    }
    case "build":
      return `Build ${c(a.card)} on ${cards(a.loose, game)}`;
    case "increase":
      return `Raise ${buildName(a.build, view)} with ${c(a.card)}`;
    case "trail":
      return `Trail ${c(a.card)}`;
    case "ask":
      return `Ask seat ${a.target + 1} about ${c(a.card)}`;
    case "done_asking":
      return "Done asking";
    case "name_gallowglass":
      return a.suit === "none" ? "No gallowglass" : `Gallowglass: ${family(a.suit)}`;
    case "fold":
      return "Fold (out of this trick)";
    default:
      return cap(humanize(String(a.type))) + fieldsText(a);
  }
}

/** Numbers per side or seat: "3 – 1". */
function list(v: Json): string {
  return Array.isArray(v) ? v.join(" – ") : String(v ?? "");
}

function fieldsText(o: Json): string {
  const parts = Object.entries(o)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `${humanize(k)} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/** One line of the event log. `who(seat)` names a seat. */
export function describeEvent(e: Json, game: string, who: (seat: number) => string): string | null {
  const c = (id: string) => cardName(id, game);
  const s = typeof e.seat === "number" ? who(e.seat) : "";
  switch (e.type) {
    case "play":
      if (e.player) return `${e.player === "human" ? "You" : "The Robot"} played ${c(e.card)}${e.column ? ` (column ${e.column})` : ""}.`;
      return `${s} played ${c(e.card)}${e.call ? ` calling “${e.call}”` : ""}${e.as_gallowglass ? " as gallowglass" : ""}${e.from === "tableau" ? " from the tableau" : ""}.`;
    case "trick": {
      const w = typeof e.winner === "string" ? (e.winner === "human" ? "You" : "The Robot") : who(e.winner);
      const pts = e.points !== undefined ? ` (${plural(e.points, "point")}${e.reason ? ", " + humanize(e.reason) : ""})` : "";
      return `${w} won trick${e.number ? " " + e.number : ""}${pts}.`;
    }
    case "deal":
      if (e.hand_number) return `Hand ${e.hand_number} dealt by ${who(e.dealer)}.`;
      if (e.round) return `Round ${e.round}: ${who(e.dealer)} deals${e.challenge ? `, challenge ${challengeTitle(e.challenge)}` : ""}.`;
      return "New hands are dealt.";
    case "hand":
      return null;
    case "round_start":
      return `Round ${e.round} begins${e.challenge && e.challenge !== "none" ? `: ${challengeTitle(e.challenge)}` : ""}.`;
    case "selection":
      return `The Casa shows ${c(e.card)}.`;
    case "pass":
      return `${s} passes.`;
    case "election_round":
      return "Nobody elected: second round of the Election.";
    case "elect":
      return `${s} elects ${family(e.family)}.`;
    case "discard":
      return e.card ? `${s} discards ${c(e.card)}.` : `${s} discards a card.`;
    case "set_aside":
      return e.cards ? `${s} sets aside ${cards(e.cards, game)}.` : `${s} sets aside ${plural(e.count, "card")}.`;
    case "cousins":
      return `${s} names ${family(e.family)} as Cousins.`;
    case "bid":
      return `${s} bids ${e.tricks}.`;
    case "ruling_family":
      return `${family(e.family)} rules.`;
    case "commit":
      return e.announced_family ? `The leader commits a card: ${family(e.announced_family)} led.` : `${plural(e.count, "card")} committed.`;
    case "my_commit":
      return `You commit ${c(e.card)}.`;
    case "slap_reveal":
      return `Revealed: ${e.cards.map((x: Json) => `${who(x.seat)} ${c(x.card)}`).join(", ")}.`;
    case "eliminate":
      return `${s} eliminates ${c(e.card)}.`;
    case "no_elimination":
      return `${s} eliminates nothing.`;
    case "reveal":
      return `${s} reveals ${c(e.card)}.`;
    case "pass_card":
      return e.card ? `${s} passes ${c(e.card)} to ${who(e.to)}.` : `${s} passes a card to ${who(e.to)}.`;
    case "take_back":
      return `${s} takes back ${plural(e.count, "card")}.`;
    case "steal":
      return `${s} steals ${c(e.card)}.`;
    case "no_steal":
      return `${s} steals nothing.`;
    case "give":
      return e.card ? `${s} gives ${c(e.card)}.` : `${s} gives a card from the ${e.from}.`;
    case "turn_up":
      return `${c(e.card)} turns up.`;
    case "choose_challenge":
      return `${s} chooses ${challengeTitle(e.challenge)}.`;
    case "take_pile":
      return `${s} takes the ${e.pile === "face_up" ? "face-up card" : "stock card"}.`;
    case "draw":
      return e.card ? `You draw ${c(e.card)}.` : "A card is drawn.";
    case "capture":
      return `${s} captures ${cards(e.taken, game)} with ${c(e.card)}${e.sweep ? " — a sweep!" : ""}.`;
    case "build":
      return `${s} builds ${e.build?.value ?? ""} with ${c(e.card)} on ${cards(e.loose, game)}.`;
    case "increase":
      return `${s} raises a build with ${c(e.card)}.`;
    case "trail":
      return `${s} trails ${c(e.card)}.`;
    case "question":
      return `${who(e.asker)} asks ${who(e.target)} (${c(e.card)}): ${e.text}`;
    case "done_asking":
      return `${s} is done asking.`;
    case "gallowglass":
      return `${s} names ${e.suit === "none" ? "no gallowglass" : family(e.suit) + " gallowglass"}.`;
    case "replace":
      return `${s} replaces ${c(e.returned)} with ${c(e.card)}.`;
    case "mud":
      return `${s} plays Mud.`;
    case "fold":
      return `${s} folds.`;
    case "redeal":
      return `${s} shows an all-trump hand: redeal.`;
    case "round_end": {
      // Casino gives the round's points per side in `sides`, the others in `points`.
      const pts = e.points ?? (Array.isArray(e.sides) ? e.sides.map((x: Json) => x?.points ?? 0) : undefined);
      const one = Array.isArray(pts) ? pts.length === 1 && pts[0] === 1 : pts === 1;
      const round = pts === undefined ? "" : ` ${list(pts)} ${one ? "point" : "points"} this round,`;
      return `Round ${e.round ?? ""} over:${round} ${list(e.scores ?? e.total)} in all.`;
    }
    case "hand_end":
      return e.hands_played !== undefined ? `Hand ${e.hands_played} over.` : `Hand over: game points ${list(e.game_points)}.`;
    case "game_over":
      return "Game over.";
    default:
      return `${s ? s + ": " : ""}${cap(humanize(String(e.type)))}${fieldsText(Object.fromEntries(Object.entries(e).filter(([k]) => k !== "seat")))}.`;
  }
}
