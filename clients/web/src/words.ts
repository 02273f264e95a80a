// SPDX-License-Identifier: AGPL-3.0-or-later
// Actions and events in words, for buttons and the log. Generic: any field this file
// does not know is still shown, so a new action or event of a game reads sensibly.
import { cardName, FAMILY_SYMBOL, LOKA_SUIT_SYMBOL } from "./cards";
import { challengeTitle } from "./help/content";
import { t } from "./i18n";

export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export function cap(s: string): string {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/** "1 card", "3 cards": a count with its noun, from the catalogue's plural `count.NOUN`. */
export function plural(n: number, noun: "card" | "point" | "trick" | "player" | "bot" | "gamePoint" | "cardPoint" | "move" | "game"): string {
  return t(`count.${noun}`, { n });
}

export function humanize(s: string): string {
  return s.replace(/_/g, " ");
}

/** A family's or suit's name in the page's language (an unknown one as the server says it). */
export function familyName(f: string): string {
  const k = `family.${f}`;
  const v = t(k);
  return v.startsWith("⟦") ? cap(f) : v;
}

/** Why a trick ended (Trophy Case: "trump", "last_in", "highest"), in words. */
export function reasonWord(r: string): string {
  const v = t(`reason.${r}`);
  return v.startsWith("⟦") ? humanize(r) : v;
}

function family(f: string | null | undefined): string {
  if (!f) return t("family.none");
  const sym = FAMILY_SYMBOL[f] ?? LOKA_SUIT_SYMBOL[f] ?? "";
  return `${familyName(f)}${sym ? " " + sym : ""}`;
}

function cards(list: string[] | undefined, game: string): string {
  if (!list || list.length === 0) return t("w.nothing");
  return list.map((c) => cardName(c, game)).join(", ");
}

/** "build B1 (8)": a Casino build with its value, when the view shows it. */
function buildName(id: string, view?: Json): string {
  const b = Array.isArray(view?.table?.builds) ? view.table.builds.find((x: Json) => x?.id === id) : undefined;
  return typeof b?.value === "number" ? t("w.buildValue", { id, value: b.value }) : t("w.build", { id });
}

/** A short label for one legal action; `view` (the seat's view) names builds' values. */
export function describeAction(a: Json, game: string, view?: Json): string {
  const c = (id: string) => cardName(id, game);
  switch (a.type) {
    case "play": {
      let s = t("a.play", { card: c(a.card) });
      if (a.call) s += a.call === "ours" ? t("a.callingOurs") : t("a.callingYours");
      if (a.as_gallowglass) s += t("a.asGallowglass");
      return s;
    }
    case "elect":
      return t("a.elect", { family: family(a.family) });
    case "pass":
      return t("a.pass");
    case "discard":
      return t("a.discard", { card: c(a.card) });
    case "bid":
      return t("a.bid", { n: a.tricks });
    case "name_family":
      return t("a.nameFamily", { family: family(a.family) });
    case "set_aside":
      return a.cards.length === 0 ? t("a.keepAll") : t("a.setAside", { cards: cards(a.cards, game) });
    case "eliminate":
      return t("a.eliminate", { card: c(a.card) });
    case "no_elimination":
      return t("a.noElimination");
    case "reveal":
      return t("a.reveal", { card: c(a.card) });
    case "pass_card":
      return t("a.passCard", { card: c(a.card) });
    case "steal":
      return t("a.steal", { card: c(a.card) });
    case "no_steal":
      return t("a.noSteal");
    case "give":
      return t("a.give", { card: c(a.card) });
    case "choose_challenge":
      return t("a.chooseChallenge", { challenge: challengeTitle(a.challenge) });
    case "deal":
      return t("a.deal");
    case "take_pile":
      return a.pile === "face_up" ? t("a.takeFaceUp") : t("a.takeStock");
    case "capture": {
      const taken = [...(a.loose ?? []).map(c), ...(a.builds ?? []).map((b: string) => buildName(b, view))];
      return t("a.capture", { taken: taken.join(" + "), card: c(a.card) });
    }
    case "build":
      return t("a.build", { card: c(a.card), cards: cards(a.loose, game) });
    case "increase":
      return t("a.increase", { build: buildName(a.build, view), card: c(a.card) });
    case "trail":
      return t("a.trail", { card: c(a.card) });
    case "ask":
      return t("a.ask", { seat: a.target + 1, card: c(a.card) });
    case "done_asking":
      return t("a.doneAsking");
    case "name_gallowglass":
      return a.suit === "none" ? t("a.noGallowglass") : t("a.gallowglass", { family: family(a.suit) });
    case "fold":
      return t("a.fold");
    default:
      // An action type this page does not know: its name and fields as the server sends them.
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
    case "play": {
      if (e.player) return t(e.player === "human" ? "e.playedHuman" : "e.playedRobot", { card: c(e.card), column: e.column ? t("e.column", { n: e.column }) : "" });
      const extra = `${e.call ? t("e.calling", { call: e.call }) : ""}${e.as_gallowglass ? t("e.asGallowglass") : ""}${e.from === "tableau" ? t("e.fromTableau") : ""}`;
      return t("e.played", { who: s, card: c(e.card), extra });
    }
    case "trick": {
      const pts = e.points !== undefined ? ` (${plural(e.points, "point")}${e.reason ? ", " + reasonWord(e.reason) : ""})` : "";
      const number = e.number ? " " + e.number : "";
      if (e.winner === "human") return t("e.trickWonYou", { number, points: pts });
      const w = typeof e.winner === "string" ? t("e.theRobot") : who(e.winner);
      return t("e.trickWon", { who: w, number, points: pts });
    }
    case "deal":
      if (e.hand_number) return t("e.handDealt", { n: e.hand_number, who: who(e.dealer) });
      if (e.round) return e.challenge ? t("e.roundDealsChallenge", { n: e.round, who: who(e.dealer), challenge: challengeTitle(e.challenge) }) : t("e.roundDeals", { n: e.round, who: who(e.dealer) });
      return t("e.newHands");
    case "hand":
      return null;
    case "round_start":
      return e.challenge && e.challenge !== "none" ? t("e.roundBeginsChallenge", { n: e.round, challenge: challengeTitle(e.challenge) }) : t("e.roundBegins", { n: e.round });
    case "selection":
      return t("e.selection", { card: c(e.card) });
    case "pass":
      return t("e.pass", { who: s });
    case "election_round":
      return t("e.electionRound");
    case "elect":
      return t("e.elect", { who: s, family: family(e.family) });
    case "discard":
      return e.card ? t("e.discard", { who: s, card: c(e.card) }) : t("e.discardHidden", { who: s });
    case "set_aside":
      return t("e.setAside", { who: s, cards: e.cards ? cards(e.cards, game) : plural(e.count, "card") });
    case "cousins":
      return t("e.cousins", { who: s, family: family(e.family) });
    case "bid":
      return t("e.bid", { who: s, n: e.tricks });
    case "ruling_family":
      return t("e.rulingFamily", { family: family(e.family) });
    case "commit":
      return e.announced_family ? t("e.commitLed", { family: family(e.announced_family) }) : t("e.committed", { n: e.count });
    case "my_commit":
      return t("e.myCommit", { card: c(e.card) });
    case "slap_reveal":
      return t("e.revealed", { cards: e.cards.map((x: Json) => `${who(x.seat)} ${c(x.card)}`).join(", ") });
    case "eliminate":
      return t("e.eliminate", { who: s, card: c(e.card) });
    case "no_elimination":
      return t("e.noElimination", { who: s });
    case "reveal":
      return t("e.reveal", { who: s, card: c(e.card) });
    case "pass_card":
      return e.card ? t("e.passCard", { who: s, card: c(e.card), to: who(e.to) }) : t("e.passCardHidden", { who: s, to: who(e.to) });
    case "take_back":
      return t("e.takeBack", { who: s, cards: plural(e.count, "card") });
    case "steal":
      return t("e.steal", { who: s, card: c(e.card) });
    case "no_steal":
      return t("e.noSteal", { who: s });
    case "give":
      return e.card ? t("e.give", { who: s, card: c(e.card) }) : t("e.giveHidden", { who: s, from: e.from });
    case "turn_up":
      return t("e.turnUp", { card: c(e.card) });
    case "choose_challenge":
      return t("e.chooseChallenge", { who: s, challenge: challengeTitle(e.challenge) });
    case "take_pile":
      return t(e.pile === "face_up" ? "e.takeFaceUp" : "e.takeStock", { who: s });
    case "draw":
      return e.card ? t("e.drawYou", { card: c(e.card) }) : t("e.draw");
    case "capture":
      return t(e.sweep ? "e.captureSweep" : "e.capture", { who: s, cards: cards(e.taken, game), card: c(e.card) });
    case "build":
      return t("e.build", { who: s, value: e.build?.value ?? "", card: c(e.card), cards: cards(e.loose, game) });
    case "increase":
      return t("e.increase", { who: s, card: c(e.card) });
    case "trail":
      return t("e.trail", { who: s, card: c(e.card) });
    case "question":
      // The question's text is the server's (the game's question cards).
      return t("e.question", { asker: who(e.asker), target: who(e.target), card: c(e.card), text: e.text });
    case "done_asking":
      return t("e.doneAsking", { who: s });
    case "gallowglass":
      return e.suit === "none" ? t("e.noGallowglass", { who: s }) : t("e.gallowglass", { who: s, family: family(e.suit) });
    case "replace":
      return t("e.replace", { who: s, returned: c(e.returned), card: c(e.card) });
    case "mud":
      return t("e.mud", { who: s });
    case "fold":
      return t("e.fold", { who: s });
    case "redeal":
      return t("e.redeal", { who: s });
    case "round_end": {
      // Casino gives the round's points per side in `sides`, the others in `points`.
      const pts = e.points ?? (Array.isArray(e.sides) ? e.sides.map((x: Json) => x?.points ?? 0) : undefined);
      const one = Array.isArray(pts) ? pts.length === 1 && pts[0] === 1 : pts === 1;
      const total = list(e.scores ?? e.total);
      if (pts === undefined) return t("e.roundOver", { round: e.round ?? "", total });
      return t("e.roundOverPoints", { round: e.round ?? "", points: list(pts), total, n: one ? 1 : 2 });
    }
    case "hand_end":
      return e.hands_played !== undefined ? t("e.handOver", { n: e.hands_played }) : t("e.handOverPoints", { points: list(e.game_points) });
    case "game_over":
      return t("e.gameOver");
    default:
      // An event this page does not know: its name and fields as the server sends them.
      return `${s ? s + ": " : ""}${cap(humanize(String(e.type)))}${fieldsText(Object.fromEntries(Object.entries(e).filter(([k]) => k !== "seat")))}.`;
  }
}
