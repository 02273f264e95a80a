// SPDX-License-Identifier: AGPL-3.0-or-later
// The create form's options in players' words. The catalogue's own descriptions
// (GET /api/games) are written for bot authors, with rule ids and accepted
// spellings: they stay one click away under "Rules reference". An option missing
// here shows the catalogue's text, so a new option still reads sensibly.

const WORDS: Record<string, Record<string, string>> = {
  "la-casa": {
    format:
      "How the rounds go. Challenges: every round brings a Challenge that changes the rules for that round. Classic: plain rounds. Sticky (4 players): each dealer picks the next Challenge, each once. Domination: a two-player duel. Solo: one player against the Robot.",
    target: "The game ends after the round in which a side reaches this many points; the higher score wins.",
    election: "After the Casa shows its card, players may vote in a different Ruling Family (the family that beats all others).",
    challenges: "Solo only: play one round of each Solo Challenge, in a random order. Without them, every round is a plain one.",
  },
  casino: {
    target: "The game ends after the round in which a side reaches this total.",
    partners: "Four players only: play in two teams of two (seats 1 and 3 against 2 and 4), sharing captures and score.",
    questions: "After a capture, the capturer may pair a captured card with another player, who answers that card's question in the chat.",
    sweeps: "Clearing the table with a capture scores an extra point.",
  },
  conference: {
    good_evil: "Adds two special cards, GOOD and EVIL. As trumps they simply play as trumps; with allegiance their plays decide who is partnered with whom for the hand.",
    attack_defence: "The dealer always gets the highest trump and the dealer's partner the next one.",
    gallowglass: "After discarding, the dealer names a suit whose cards may then be played in place of the suit led.",
    hands: "How many hands the game lasts; a tie after the last one plays on.",
  },
  "trophy-case": {
    target: "The first player whose trick brings them to this score wins.",
  },
};

const CHOICES: Record<string, Record<string, string>> = {
  "casino.questions": { false: "off", default: "the built-in questions" },
  "conference.good_evil": { off: "off", trumps: "as trumps", allegiance: "with allegiance" },
};

/** The option's description for players, or null when this file has none. */
export function optionWords(game: string, key: string): string | null {
  return WORDS[game]?.[key] ?? null;
}

/** A choice's label in players' words, or null. */
export function choiceWords(game: string, key: string, value: unknown): string | null {
  return CHOICES[`${game}.${key}`]?.[String(value)] ?? null;
}
