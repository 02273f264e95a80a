// SPDX-License-Identifier: AGPL-3.0-or-later
// The games taught in the page: a guide per game and a glossary of every word the
// table shows, in English; content.it.ts holds the same in Italian, and the help's
// own buttons and headings are in the catalogue (src/i18n, keys "help.*"). The rule
// ids (LC-…, CA-…, CO-…, TC-…) point to the rules each passage restates.
import { lang, t } from "../i18n";
import { GUIDES_IT, TERMS_IT } from "./content.it";

export type GameName = "la-casa" | "casino" | "conference" | "trophy-case";
export const GAMES: GameName[] = ["la-casa", "casino", "conference", "trophy-case"];

/** A block of a section: a paragraph, a list, or a pointer to glossary entries. */
export type Block = string | { list: string[] } | { terms: string[] } | { symbols: GameName };

export interface Section {
  id: string;
  title: string;
  blocks: Block[];
  rules?: string[];
}

/** The three parts of a Challenge card. */
export interface ChallengeCard {
  setup: string;
  changes: string;
  scoring: string;
}

export interface Term {
  id: string;
  game: GameName;
  title: string;
  text: string[];
  rules: string[];
  card?: ChallengeCard;
  players?: string; // e.g. "2 and 4 players"
}

export interface Guide {
  game: GameName;
  title: string;
  tagline: string;
  sections: Section[];
}

/** Words of the help's own frame (buttons, headings), from the catalogue in the page's language. */
export const UI = {
  get howToPlay() { return t("help.howToPlay"); },
  howToPlayGame: (title: string) => t("help.howToPlayGame", { title }),
  get allGames() { return t("help.allGames"); },
  get close() { return t("help.close"); },
  get contents() { return t("help.contents"); },
  get glossary() { return t("help.glossary"); },
  get rules() { return t("help.rules"); },
  get rulesPrefix() { return t("help.rulesPrefix"); },
  get setup() { return t("help.setup"); },
  get changes() { return t("help.changes"); },
  get scoring() { return t("help.scoring"); },
  get players() { return t("help.players"); },
  get openFullRules() { return t("help.openFullRules"); },
  get backToLobby() { return t("nav.backToLobby"); },
  get helpIndexTitle() { return t("help.howToPlay"); },
  get helpIndexIntro() { return t("help.indexIntro"); },
  get helpReviewTitle() { return t("help.reviewTitle"); },
  get helpReviewText() { return t("help.reviewText"); },
  noSuchGame: (g: string) => t("help.noSuchGame", { game: g }),
  whatIs: (term: string) => t("help.whatIs", { term }),
  get ruleRef() { return t("help.ruleRef"); },
  termMark: "?",
  get none() { return t("value.none"); },
};

// ---- La Casa --------------------------------------------------------------------

const LC_CHALLENGES: Term[] = [
  {
    id: "challenge:anarchy",
    game: "la-casa",
    title: "Anarchy",
    players: "2 and 4 players",
    rules: ["LC-7.1"],
    text: ["Nobody has to follow the lead family this round."],
    card: {
      setup: "Usual deal; the top Casa card names the Ruling Family.",
      changes: "You may play any card at any time: following the lead family is not required.",
      scoring: "The side with the most tricks scores 1 (a tie goes to the side holding the Mangia-Cake).",
    },
  },
  {
    id: "challenge:bandits",
    game: "la-casa",
    title: "Bandits",
    players: "2 and 4 players",
    rules: ["LC-7.2", "LC-11.4"],
    text: ["Whoever played a Bruto (a 1 or a 2) may steal from the finished trick."],
    card: {
      setup: "Usual deal; the top Casa card names the Ruling Family.",
      changes:
        "Once a trick's winner is known, each player who put a 1 or 2 into it (the latest first) may take one face-up card of the trick that is not a 1 or 2 into their hand, and must then put any card of theirs face down into the trick. The winner captures the trick as it is after these swaps.",
      scoring: "Most tricks scores 1; on a tie, the side holding the Mangia-Cake.",
    },
  },
  {
    id: "challenge:betrayal",
    game: "la-casa",
    title: "Betrayal",
    players: "2 and 4 players",
    rules: ["LC-7.3", "LC-11.5"],
    text: ["Each player gets a secret 1 whose family they must not capture."],
    card: {
      setup:
        "The four 1s are taken out; each player gets one as a private reference card (with two players, the other two are out of play). There is no Ruling Family and the dealer leads.",
      changes:
        "A trick you win that holds any card of your reference family does not count for you (it is still captured). The 1s are never played.",
      scoring: "The side with the most counting tricks scores 1; a tie goes to the side holding the Mangia-Cake.",
    },
  },
  {
    id: "challenge:bruto",
    game: "la-casa",
    title: "Bruto",
    players: "4 players",
    rules: ["LC-7.4", "LC-11.3"],
    text: ["A played 1 or 2 may knock another card out of the trick."],
    card: {
      setup: "Usual deal; the top Casa card names the Ruling Family.",
      changes:
        "When you play a 1 or 2 (not as the lead), you may at once eliminate one other card already in the trick: an opponent's, your partner's, another Bruto or the Mangia-Cake. An eliminated card is out of play and cannot win. The lead family stays what it was.",
      scoring: "Most tricks scores 1; on a tie, the side holding the Mangia-Cake.",
    },
  },
  {
    id: "challenge:capitano",
    game: "la-casa",
    title: "Capitano",
    players: "2 and 4 players",
    rules: ["LC-7.5", "LC-11.2"],
    text: ["Every 5 played crowns its family as the Ruling Family."],
    card: {
      setup: "Two extra cards each (four players hold 9; two players get a fifth tableau stack). No Ruling Family at the start.",
      changes:
        "Whenever a 5 is played, its family becomes the Ruling Family at once, until the next 5. A trick is won under the Ruling Family in force when its last card is played.",
      scoring: "Most tricks scores 1; on a tie, the side holding the Mangia-Cake.",
    },
  },
  {
    id: "challenge:carita",
    game: "la-casa",
    title: "Carita",
    players: "2 and 4 players",
    rules: ["LC-7.6"],
    text: ["Charity: this round you want as few tricks as possible."],
    card: {
      setup: "Usual deal; the top Casa card names the Ruling Family.",
      changes: "Play as usual.",
      scoring: "The side with the fewest tricks scores 1; on a tie, the side holding the Mangia-Cake.",
    },
  },
  {
    id: "challenge:cards_on_the_table",
    game: "la-casa",
    title: "Cards on the Table",
    players: "4 players",
    rules: ["LC-7.7", "LC-11.7"],
    text: ["After each play you lay one hand card face up in front of you."],
    card: {
      setup: "Usual deal; the top Casa card names the Ruling Family.",
      changes:
        "Right after you play to a trick, if you still have cards in hand, you put one of them face up in front of you, for all to see. You may play from your hand or from your face-up cards, and following counts both.",
      scoring: "Most tricks scores 1; on a tie, the side holding the Mangia-Cake.",
    },
  },
  {
    id: "challenge:the_club",
    game: "la-casa",
    title: "The Club",
    players: "4 players",
    rules: ["LC-7.8", "LC-11.8"],
    text: ["Before play, each player may hide up to two cards for later."],
    card: {
      setup:
        "Usual deal and Ruling Family. Then each player in turn, from the dealer's left, sets aside up to two hand cards face down.",
      changes:
        "Set-aside cards are not in your hand: you do not have to follow with them and cannot play them. As soon as your hand is empty they come back into it.",
      scoring: "Most tricks scores 1; on a tie, the side holding the Mangia-Cake.",
    },
  },
  {
    id: "challenge:cousins",
    game: "la-casa",
    title: "Cousins",
    players: "2 and 4 players",
    rules: ["LC-7.9", "LC-11.11", "LC-2.5"],
    text: ["A second family, the Cousins, ranks just below the Ruling Family."],
    card: {
      setup:
        "Usual deal and Ruling Family; then the player on the dealer's left (after an Election: on the elector's left) names another family as the Cousins.",
      changes:
        "A trick is won by the highest Ruling Family card; without one, by the highest Cousins card; without one, by the highest card of the lead family.",
      scoring: "Most tricks scores 1; on a tie, the side holding the Mangia-Cake.",
    },
  },
  {
    id: "challenge:figura",
    game: "la-casa",
    title: "Figura",
    players: "2 and 4 players",
    rules: ["LC-7.10", "LC-11.17"],
    text: ["Players bid for the right to choose the Ruling Family."],
    card: {
      setup:
        "No card is turned from the Casa. The dealer opens with a bid of at least 1 trick; then each player in turn raises or passes (a pass is final) until one bidder is left.",
      changes: "The highest bidder names any family as the Ruling Family and leads the first trick.",
      scoring: "If the bidder's side wins at least as many tricks as it bid, it scores 1; otherwise nobody scores.",
    },
  },
  {
    id: "challenge:kin",
    game: "la-casa",
    title: "Kin",
    players: "4 players",
    rules: ["LC-7.11", "LC-11.6"],
    text: ["Partners' cards of the same family add up."],
    card: {
      setup: "Usual deal; the top Casa card names the Ruling Family.",
      changes:
        "When both partners play a card of the same family to one trick, the two count as a single card of that family worth their sum. If it wins, the trick goes to the partner who played the higher of the two.",
      scoring: "Most tricks scores 1; on a tie, the side holding the Mangia-Cake.",
    },
  },
  {
    id: "challenge:mangia_cake",
    game: "la-casa",
    title: "Mangia-Cake",
    players: "2 players",
    rules: ["LC-7.12", "LC-11.12"],
    text: ["Whoever captures the Mangia-Cake wins the round on the spot."],
    card: {
      setup:
        "Each player gets a fifth tableau stack. The top Casa card names the Ruling Family; if it is the Mangia-Cake, all cards are dealt again. A Mangia-Cake dealt face up on a tableau swaps with the card under it.",
      changes: "The round stops as soon as the trick holding the Mangia-Cake is captured.",
      scoring: "The player who captures the Mangia-Cake scores 1; nobody else scores.",
    },
  },
  {
    id: "challenge:minions",
    game: "la-casa",
    title: "Minions",
    players: "2 and 4 players",
    rules: ["LC-7.13"],
    text: ["The small cards (0s, 1s and 2s) are what counts this round."],
    card: {
      setup: "Two extra cards each. The top Casa card names the Ruling Family; if it is the Mangia-Cake, all cards are dealt again.",
      changes: "Play as usual.",
      scoring:
        "Each side counts the 0s, 1s and 2s it captured (the Mangia-Cake is the 0); the most scores 1. On a tie, the side holding the Mangia-Cake.",
    },
  },
  {
    id: "challenge:pass_the_buck",
    game: "la-casa",
    title: "Pass the Buck",
    players: "4 players",
    rules: ["LC-7.14", "LC-11.9"],
    text: ["After each play you hand one card to the player on your left."],
    card: {
      setup: "Usual deal; the top Casa card names the Ruling Family.",
      changes:
        "Right after you play, if you hold two or more cards, you pass one of them to the player on your left before they play. With one card left you keep it. A card you receive must be used to follow if it can.",
      scoring: "Most tricks scores 1; on a tie, the side holding the Mangia-Cake.",
    },
  },
  {
    id: "challenge:revenge",
    game: "la-casa",
    title: "Revenge",
    players: "2 and 4 players",
    rules: ["LC-7.15"],
    text: ["The 4s (the Zii) are poison this round."],
    card: {
      setup: "Two extra cards each; the top Casa card names the Ruling Family.",
      changes: "Play as usual.",
      scoring: "Each side counts the 4s it captured; the fewest scores 1. On a tie, the side holding the Mangia-Cake.",
    },
  },
  {
    id: "challenge:slap_down",
    game: "la-casa",
    title: "Slap-Down",
    players: "4 players",
    rules: ["LC-7.16", "LC-11.10"],
    text: ["Everyone commits a card face down, then all are turned together."],
    card: {
      setup: "Usual deal; the top Casa card names the Ruling Family.",
      changes:
        "The leader commits a card face down and the table is told its family (always truthfully). The other three then commit one card each, at the same time and in any order, following that family if they can. Only the number of commits is shown until all four are in; then all are revealed and the trick is decided. A committed card cannot be taken back.",
      scoring: "Most tricks scores 1; on a tie, the side holding the Mangia-Cake.",
    },
  },
];

const SOLO_CHALLENGES: Term[] = [
  {
    id: "solo:betrayal",
    game: "la-casa",
    title: "Betrayal (Solo)",
    rules: ["LC-8.5"],
    text: ["Two reference 1s: one beside the Casa, one for you. No Ruling Family."],
    card: {
      setup:
        "One random 1 lies face up as the Casa's reference and another face up as yours; the other two go back into the deck. There is no Ruling Family, and the round has 17 tricks.",
      changes: "A trick holding a card of either reference family counts for nobody.",
      scoring: "You score 1 with more counting tricks than the Robot; on a tie, whoever holds the Mangia-Cake.",
    },
  },
  {
    id: "solo:capitano",
    game: "la-casa",
    title: "Capitano (Solo)",
    rules: ["LC-8.5", "LC-7.5", "LC-11.14"],
    text: ["Every 5 played crowns its family; the Casa card stays face down."],
    card: {
      setup: "The Casa card lies face down: no Ruling Family at the start.",
      changes: "Each 5 played makes its family the Ruling Family at once, until the next 5.",
      scoring: "You score 1 with more tricks than the Robot; on a tie, whoever holds the Mangia-Cake.",
    },
  },
  {
    id: "solo:carita",
    game: "la-casa",
    title: "Carita (Solo)",
    rules: ["LC-8.5"],
    text: ["You want fewer tricks than the Robot."],
    card: {
      setup: "Usual Solo set-up; the Casa card names the Ruling Family.",
      changes: "Play as usual.",
      scoring: "You score 1 with fewer tricks than the Robot; on a tie, whoever holds the Mangia-Cake.",
    },
  },
  {
    id: "solo:cousins",
    game: "la-casa",
    title: "Cousins (Solo)",
    rules: ["LC-8.5", "LC-11.14"],
    text: ["You name a second family that ranks just below the Ruling Family."],
    card: {
      setup: "Usual Solo set-up; after the Casa card names the Ruling Family you name another family as the Cousins.",
      changes: "A trick is won by the highest Ruling card, else the highest Cousins card, else the highest card of the lead family.",
      scoring: "As without a Challenge: you score 1 with at least 11 of the 18 tricks.",
    },
  },
  {
    id: "solo:minions",
    game: "la-casa",
    title: "Minions (Solo)",
    rules: ["LC-8.5", "LC-7.13"],
    text: ["The 0s, 1s and 2s are what counts."],
    card: {
      setup: "Usual Solo set-up; a Mangia-Cake in the Casa means a new deal.",
      changes: "Play as usual.",
      scoring: "You score 1 if you captured more 0s, 1s and 2s than the Robot; on a tie, whoever holds the Mangia-Cake.",
    },
  },
  {
    id: "solo:revenge",
    game: "la-casa",
    title: "Revenge (Solo)",
    rules: ["LC-8.5", "LC-7.15"],
    text: ["The 4s are poison."],
    card: {
      setup: "Usual Solo set-up; the Casa card names the Ruling Family.",
      changes: "Play as usual.",
      scoring: "You score 1 if you captured fewer 4s than the Robot; on a tie, whoever holds the Mangia-Cake.",
    },
  },
];

const LC_TERMS: Term[] = [
  {
    id: "la-casa:families",
    game: "la-casa",
    title: "Families",
    rules: ["LC-1.1", "LC-1.2"],
    text: [
      "La Casa's four suits are called families: Guns ◎, Knives †, Masks ☺ and Fists ✚, each numbered 1 to 9. The number is the card's value.",
      "The 1s and 2s are the Bruti, the 4s the Zii (Zio or Zia), the 5s the Capitani.",
    ],
  },
  {
    id: "la-casa:mangia-cake",
    game: "la-casa",
    title: "Mangia-Cake",
    rules: ["LC-1.3", "LC-2.2", "LC-2.4", "LC-5.1"],
    text: [
      "The 37th card ✿, worth 0. It has no family of its own: while a Ruling Family exists it counts as that family's lowest card; while there is none it belongs to no family, may always be played and wins only when it is alone in the trick.",
      "It breaks ties: when two sides have the same number of tricks, the side that captured the Mangia-Cake takes the point.",
    ],
  },
  {
    id: "la-casa:ruling-family",
    game: "la-casa",
    title: "Ruling Family",
    rules: ["LC-2.1", "LC-2.5", "LC-4.5"],
    text: [
      "The trump family of the round. Any Ruling Family card beats every card of another family; the highest one played wins the trick.",
      "Usually it is the family of the card turned up from the top of the Casa (the Selection). If that card is the Mangia-Cake there is no Ruling Family this round. Some Challenges choose it differently (Figura, Capitano, Betrayal), and the Election lets players choose.",
    ],
  },
  {
    id: "la-casa:lead-family",
    game: "la-casa",
    title: "Lead family",
    rules: ["LC-2.3", "LC-2.4"],
    text: [
      "The family of the first card of the trick. Everyone must play a card of that family if they can; otherwise any card. Without a Ruling Family card in the trick, the highest card of the lead family wins.",
    ],
  },
  {
    id: "la-casa:cousins",
    game: "la-casa",
    title: "Cousins",
    rules: ["LC-7.9", "LC-2.5"],
    text: ["A family named in the Cousins Challenge. It ranks between the Ruling Family and the lead family: it beats the lead family but not the Ruling Family."],
  },
  {
    id: "la-casa:casa",
    game: "la-casa",
    title: "The Casa",
    rules: ["LC-4.1", "LC-4.2", "LC-4.5", "LC-4.7"],
    text: [
      "The face-down pile left over after the deal (9 cards with four players, 5 with two). Its top card is turned up to name the Ruling Family; the rest stay hidden and out of play for the round.",
    ],
  },
  {
    id: "la-casa:selection",
    game: "la-casa",
    title: "Selection",
    rules: ["LC-4.5"],
    text: ["Turning up the top Casa card: its family is the Ruling Family for the round (none if it is the Mangia-Cake)."],
  },
  {
    id: "la-casa:election",
    game: "la-casa",
    title: "Election",
    rules: ["LC-6"],
    text: [
      "A table option. After the Casa card is turned up, players in turn (from the dealer's left) may elect its family or pass. The elector takes the card, discards one card face down and leads.",
      "If everybody passes, the card goes back face down and a second round lets each player elect any other family; if it comes back to the dealer, the dealer must choose.",
      "The electing side must win the majority of the tricks (4 of 7, 9 of 16) to score 1; if it fails, the other side scores 2. A Challenge with its own scoring still scores its own way.",
    ],
  },
  {
    id: "la-casa:tableau",
    game: "la-casa",
    title: "Tableau",
    rules: ["LC-4.2", "LC-4.4"],
    text: [
      "With two players each one has, besides a hand of 8, four stacks in front of them: a face-down card under a face-up one. You may play your face-up stack cards as if they were in your hand, and they count for following. After each trick a stack whose top was played turns its hidden card up. Nobody knows the face-down cards, not even their owner.",
    ],
  },
  {
    id: "la-casa:reference",
    game: "la-casa",
    title: "Reference card",
    rules: ["LC-7.3", "LC-8.5"],
    text: ["In Betrayal, your secret 1. Tricks you win holding a card of its family do not count for you."],
  },
  {
    id: "la-casa:set-aside",
    game: "la-casa",
    title: "Set aside",
    rules: ["LC-7.8"],
    text: ["In The Club, up to two cards kept face down out of your hand. They return when your hand is empty."],
  },
  {
    id: "la-casa:bidding",
    game: "la-casa",
    title: "Bidding",
    rules: ["LC-7.10"],
    text: ["In Figura, each bid is a number of tricks the bidder's side promises to win. The highest bidder names the Ruling Family and leads."],
  },
  {
    id: "la-casa:target",
    game: "la-casa",
    title: "Target",
    rules: ["LC-5.5"],
    text: ["The points a side needs to win (12 unless the table says otherwise). The game ends after the round in which a side reaches it; the higher score wins, and a tie plays on."],
  },
  {
    id: "la-casa:robot",
    game: "la-casa",
    title: "The Robot",
    rules: ["LC-8.1", "LC-8.4"],
    text: [
      "Your opponent in Solo: 18 cards in four columns of 3, 4, 5 and 6, only the bottom card of each face up. It plays only face-up cards, by fixed rules: it leads its highest card; if it can follow, it plays its highest card of the lead family when that would win, else its lowest; if it cannot follow, its highest Ruling Family card, else its lowest card. Ties go to the column nearest the Casa.",
    ],
  },
  {
    id: "la-casa:pile",
    game: "la-casa",
    title: "Draw pile",
    rules: ["LC-8.1", "LC-8.2"],
    text: ["In Solo you hold 3 cards; after each trick you draw one from this pile while it lasts."],
  },
  {
    id: "la-casa:stock",
    game: "la-casa",
    title: "Stock and face-up card",
    rules: ["LC-9.1", "LC-9.3"],
    text: [
      "In Domination, the cards not dealt form a stock with its top card face up beside it. After each trick, while the stock lasts, the winner takes either the face-up card or the top stock card, the other player gets the other one, and a new card is turned face up.",
    ],
  },
  {
    id: "format:challenges",
    game: "la-casa",
    title: "Challenges format",
    rules: ["LC-5.4"],
    text: ["Each round turns up the next card of the shuffled Challenge deck (15 cards with four players, 10 with two); the deck is reshuffled when used up. Play to the target."],
  },
  {
    id: "format:classic",
    game: "la-casa",
    title: "Classic format",
    rules: ["LC-5.4"],
    text: ["No Challenges: every round is the base game. Play to the target."],
  },
  {
    id: "format:sticky",
    game: "la-casa",
    title: "Sticky format",
    rules: ["LC-5.4", "LC-11.16"],
    text: ["Four players: before each deal the dealer chooses the round's Challenge, each one once until all have been played."],
  },
  {
    id: "format:domination",
    game: "la-casa",
    title: "Domination",
    rules: ["LC-9"],
    text: [
      "Two players, no Challenges: hands of 5, a Casa of 5 and a stock to draw from. An Election always decides the Ruling Family. 16 tricks; the elector scores 1 with at least 9 of them, otherwise the other player scores 2.",
    ],
  },
  {
    id: "format:solo",
    game: "la-casa",
    title: "Solo",
    rules: ["LC-8"],
    text: ["One player against the Robot over 6 rounds, one of each Solo Challenge in random order. Each round is worth 1 point; 4 points win the game."],
  },
];

const LA_CASA: Guide = {
  game: "la-casa",
  title: "La Casa",
  tagline: "A trick-taking game of four crime families, a Mangia-Cake and sixteen Challenges. For 4 players in two teams, 2 players head to head, or 1 against the Robot.",
  sections: [
    {
      id: "cards",
      title: "The cards",
      rules: ["LC-1"],
      blocks: [
        "37 cards: four families — Guns ◎, Knives †, Masks ☺ and Fists ✚ — numbered 1 to 9, and the Mangia-Cake ✿, worth 0. A card's number is its value.",
        { terms: ["la-casa:families", "la-casa:mangia-cake"] },
      ],
    },
    {
      id: "sides",
      title: "Sides and the deal",
      rules: ["LC-3", "LC-4"],
      blocks: [
        {
          list: [
            "Four players: partners sit opposite each other (seats 1 and 3 against 2 and 4). Each gets 7 cards; the other 9 form the Casa.",
            "Two players: each gets a hand of 8 and a tableau of four stacks; the other 5 form the Casa.",
            "The deal moves one seat to the left each round. The player on the dealer's left leads the first trick.",
          ],
        },
        { terms: ["la-casa:casa", "la-casa:tableau"] },
      ],
    },
    {
      id: "ruling",
      title: "The Ruling Family",
      rules: ["LC-2.1", "LC-2.2", "LC-4.5"],
      blocks: [
        "At the start of a round the top card of the Casa is turned up. Its family is the Ruling Family — the trumps — for the whole round. If it is the Mangia-Cake, no family rules.",
        { terms: ["la-casa:ruling-family", "la-casa:selection"] },
      ],
    },
    {
      id: "tricks",
      title: "Playing a trick",
      rules: ["LC-2.3", "LC-2.4", "LC-2.5", "LC-2.6"],
      blocks: [
        {
          list: [
            "The leader plays any card; its family is the lead family.",
            "Going left, each player must play a card of the lead family if they have one; otherwise any card.",
            "The highest Ruling Family card wins; if none was played, the highest card of the lead family.",
            "The winner takes the trick face down and leads the next one. The round ends when all cards are played.",
          ],
        },
        { terms: ["la-casa:lead-family"] },
      ],
    },
    {
      id: "scoring",
      title: "Scoring and winning",
      rules: ["LC-5.1", "LC-5.3", "LC-5.5"],
      blocks: [
        "Without a Challenge that says otherwise, the side with the most tricks scores 1 point. On equal tricks the side that captured the Mangia-Cake scores; if nobody did, nobody scores.",
        "The game ends after the round in which a side reaches the target (12 points): the higher score wins; equal scores play on.",
        { terms: ["la-casa:target"] },
      ],
    },
    {
      id: "challenges",
      title: "The 16 Challenges",
      rules: ["LC-7"],
      blocks: [
        "In the usual format each round turns up a Challenge card that changes the round: its set-up, its play or its scoring. Four players use 15 of them (not Mangia-Cake), two players use 10. The card in force is shown on the table; tap its name to read it.",
        { terms: LC_CHALLENGES.map((t) => t.id) },
      ],
    },
    {
      id: "formats",
      title: "Formats",
      rules: ["LC-5.4"],
      blocks: [{ terms: ["format:challenges", "format:classic", "format:sticky"] }],
    },
    {
      id: "election",
      title: "The Election (optional)",
      rules: ["LC-6"],
      blocks: [{ terms: ["la-casa:election"] }],
    },
    {
      id: "domination",
      title: "Domination (two players)",
      rules: ["LC-9"],
      blocks: [
        {
          list: [
            "Each player gets 5 cards; 5 more form the Casa; the rest are a stock with its top card face up.",
            "The top Casa card is turned up and an Election is held; the elector does not take that card, and leads.",
            "After each trick, while the stock lasts, the winner takes the face-up card or the top of the stock and the other player gets the other one.",
            "16 tricks: the elector scores 1 with at least 9, otherwise the other player scores 2.",
          ],
        },
        { terms: ["format:domination", "la-casa:stock"] },
      ],
    },
    {
      id: "solo",
      title: "Solo against the Robot",
      rules: ["LC-8"],
      blocks: [
        {
          list: [
            "The Robot's 18 cards lie in four columns; one card is the Casa; you hold 3 and draw from a pile of 15.",
            "You lead the first trick, then the winner of each trick leads. After each trick the Robot's uncovered cards turn up and you draw a card.",
            "6 rounds of 18 tricks, one of each Solo Challenge. Without a Challenge you score 1 for 11 tricks or more. 4 points win; the Robot never scores.",
          ],
        },
        { terms: ["format:solo", "la-casa:robot", "la-casa:pile"] },
        { terms: SOLO_CHALLENGES.map((t) => t.id) },
      ],
    },
    {
      id: "words",
      title: "More words on the table",
      blocks: [{ terms: ["la-casa:cousins", "la-casa:reference", "la-casa:set-aside", "la-casa:bidding"] }],
    },
  ],
};

// ---- Casino ---------------------------------------------------------------------

const CASINO_TERMS: Term[] = [
  {
    id: "casino:capture",
    game: "casino",
    title: "Capture",
    rules: ["CA-3.1", "CA-3.2"],
    text: [
      "Play a number card to take table cards of the same value: a single card of that value, several loose cards adding up to it, or a build of that value — as many such groups as you like at once.",
      "A Jack, Queen or King takes exactly one loose card of its own rank.",
    ],
  },
  {
    id: "casino:build",
    game: "casino",
    title: "Build",
    rules: ["CA-3.3", "CA-3.4", "CA-3.6", "CA-4"],
    text: [
      "A pile of number cards with a total value (2 to 10) and an owner, shown as B1, B2, … with its value. You make one by playing a number card onto loose cards; you raise one by adding a card to it. You must keep in your hand a card of the build's value to capture it later.",
      "A build is taken only whole, by a card of exactly its value. Its owner may not trail; ownership passes to whoever raises it.",
    ],
  },
  {
    id: "casino:trail",
    game: "casino",
    title: "Trail",
    rules: ["CA-3.5", "CA-4.2"],
    text: ["Put a card face up on the table without taking anything. Not allowed while you own a build."],
  },
  {
    id: "casino:question-cards",
    game: "casino",
    title: "Question cards",
    rules: ["CA-6"],
    text: [
      "A table option. After a capture, the capturer may pick cards they took from the table and ask another player each card's question. Answers go in the chat; questions never change the play or the score.",
    ],
  },
  {
    id: "casino:sweep",
    game: "casino",
    title: "Sweep",
    rules: ["CA-7"],
    text: [
      "A table option. A capture that leaves the table empty scores 1 extra point (not with the round's last card). After a sweep the next player can only trail.",
    ],
  },
  {
    id: "casino:scoring",
    game: "casino",
    title: "Round scoring",
    rules: ["CA-5.2"],
    text: [
      "At the end of a round: most cards 3 points, most spades 1, Big Casino (10♦) 2, Little Casino (2♠) 1, each ace 1. A tie for most cards or spades scores for nobody.",
    ],
  },
  {
    id: "casino:partners",
    game: "casino",
    title: "Partners",
    rules: ["CA-2.1"],
    text: ["With four players, an option: seats 1 and 3 play against 2 and 4, pooling their captures and score."],
  },
  {
    id: "casino:target",
    game: "casino",
    title: "Target",
    rules: ["CA-5.3"],
    text: ["21 points unless the table says otherwise. After the round in which a side reaches it, the highest total wins; a tie at the top plays another round."],
  },
];

const CASINO: Guide = {
  game: "casino",
  title: "Casino",
  tagline: "A fishing game with a 52-card deck: capture table cards by value, make builds, and score cards, spades and the two Casinos. For 2 to 4 players.",
  sections: [
    {
      id: "cards",
      title: "Cards and the deal",
      rules: ["CA-1", "CA-2"],
      blocks: [
        "Ace counts 1, number cards their number; Jacks, Queens and Kings have no value. Each round uses a fresh deck: 4 cards face up on the table and 4 to each player. When all hands are empty, 4 more each, until the deck is used up.",
        "Each turn you play exactly one card from your hand, starting with the dealer's left.",
      ],
    },
    {
      id: "plays",
      title: "The four plays",
      rules: ["CA-3"],
      blocks: [{ terms: ["casino:capture", "casino:build", "casino:trail"] }, "Raising a build: add your played card to any build (yours or another's) when the new total is at most 10 and you still hold a card of that total."],
    },
    {
      id: "end",
      title: "End of a round and scoring",
      rules: ["CA-5"],
      blocks: [
        "Cards left on the table at the end go to the last player who captured (to the dealer if nobody did).",
        { terms: ["casino:scoring", "casino:target"] },
      ],
    },
    {
      id: "options",
      title: "Options",
      rules: ["CA-8"],
      blocks: [{ terms: ["casino:partners", "casino:question-cards", "casino:sweep"] }],
    },
  ],
};

// ---- Conference -----------------------------------------------------------------

const CONFERENCE_TERMS: Term[] = [
  {
    id: "conference:deck",
    game: "conference",
    title: "The Loka deck",
    rules: ["CO-1"],
    text: [
      "Four suits — Earth ♁, Air ☁, Fire ▲, Water ≈ — of 14 cards each: King, Queen, Cavalier, Jack, 10 down to 2, Ace (lowest). 21 trumps ★ numbered 1 to 21, and the Fool ✱.",
    ],
  },
  {
    id: "conference:fool",
    game: "conference",
    title: "The Fool",
    rules: ["CO-4.3", "CO-5"],
    text: [
      "May be played at any turn instead of the card you would have to play. It never wins: it leaves the trick and stays with its owner's side. If the other side won that trick, your side pays them one low card from its tricks at the end of the hand.",
    ],
  },
  {
    id: "conference:card-points",
    game: "conference",
    title: "Card points",
    rules: ["CO-1.3", "CO-1.4", "CO-9.1"],
    text: [
      "Honours (trump 1, trump 21 and the Fool), Kings and Aces 5; Queens 4; Cavaliers 3; Jacks 2; every other card 1. Each trick won adds 1 more. A side's hand points are its cards' points plus its tricks.",
    ],
  },
  {
    id: "conference:contract",
    game: "conference",
    title: "Contract",
    rules: ["CO-9.2", "CO-A"],
    text: [
      "The number of hand points a side needs to win the hand: 83, the smallest majority of the 165 points in play (84 with Good and Evil, out of 167).",
      "The side that makes it scores the difference between the two sides' hand points as game points.",
    ],
  },
  {
    id: "conference:discard",
    game: "conference",
    title: "The dealer's discard",
    rules: ["CO-3"],
    text: ["The dealer gets 2 extra cards (4 with Good and Evil) and discards as many face down: never a King or an Honour, and trumps only when nothing else may go. The discard counts for the dealer's side."],
  },
  {
    id: "conference:direction",
    game: "conference",
    title: "Direction",
    rules: ["CO-4.1", "CO-7.3"],
    text: ["Which way the turn goes: normally to the left. In Attack and Defence it goes away from the dealer's partner, so it may be to the right."],
  },
  {
    id: "conference:good_evil",
    game: "conference",
    title: "Good and Evil",
    rules: ["CO-6.1", "CO-6.2"],
    text: [
      "A variant adding two cards, Good ☀ and Evil ☾, trumps just below trump 1. Alone in a trick one is the lowest trump. Played by partners to the same trick they beat everything; played by opponents neither can win.",
    ],
  },
  {
    id: "conference:allegiance",
    game: "conference",
    title: "Allegiance (ours / yours)",
    rules: ["CO-6.3", "CO-9.3"],
    text: [
      "The Good and Evil variant with calls. The first of the two played carries a call, “ours” or “yours”: Good stands for Earth and Air, Evil for Fire and Water. “Ours” means the caller's side scores only the suit cards of its card's two suits and the other side only the other two; “yours” the reverse. Trumps and the Fool always count.",
      "With allegiance there is no contract: the side with more hand points scores the difference.",
    ],
  },
  {
    id: "conference:attack_defence",
    game: "conference",
    title: "Attack and Defence",
    rules: ["CO-7"],
    text: ["A variant: the dealer is given trump 21 and their partner trump 20. The dealer leads the first trick and play goes away from the partner for the whole hand."],
  },
  {
    id: "conference:gallowglass",
    game: "conference",
    title: "Gallowglass",
    rules: ["CO-8"],
    text: [
      "A variant: after the discard the dealer may name a suit as gallowglass. When another suit is led and all your cards of it are courts, you may play a gallowglass card instead, as if it were of the led suit. Gallowglass cards score no card points, nor does a trick won by one.",
    ],
  },
  {
    id: "conference:hands",
    game: "conference",
    title: "Hands",
    rules: ["CO-2.3", "CO-9.4"],
    text: ["A game is 4 hands unless the table says otherwise; then the side with more game points wins (a tie plays more hands)."],
  },
];

const CONFERENCE: Guide = {
  game: "conference",
  title: "Conference",
  tagline: "A partnership trick game for four with the Tarot of Loka: suits, 21 trumps and the Fool, played for a contract of 83 points.",
  sections: [
    {
      id: "deck",
      title: "The deck and the sides",
      rules: ["CO-1", "CO-2"],
      blocks: [
        { terms: ["conference:deck"] },
        "Partners sit side by side: seats 1 and 2 against 3 and 4. Each side has its own chat.",
      ],
    },
    {
      id: "deal",
      title: "Deal and discard",
      rules: ["CO-3"],
      blocks: ["Each player gets 19 cards.", { terms: ["conference:discard"] }],
    },
    {
      id: "play",
      title: "Playing",
      rules: ["CO-4"],
      blocks: [
        {
          list: [
            "The player on the dealer's left leads; the winner of each trick leads the next. 19 tricks.",
            "Follow the led suit; if you cannot, play a trump; if you have none, any card. When a trump is led, play a trump if you can. You never have to beat.",
            "The highest trump wins; without a trump, the highest card of the led suit.",
          ],
        },
        { terms: ["conference:fool", "conference:direction"] },
      ],
    },
    {
      id: "scoring",
      title: "Scoring",
      rules: ["CO-9"],
      blocks: [{ terms: ["conference:card-points", "conference:contract", "conference:hands"] }],
    },
    {
      id: "variants",
      title: "Variants",
      rules: ["CO-6", "CO-7", "CO-8"],
      blocks: [{ terms: ["conference:good_evil", "conference:allegiance", "conference:attack_defence", "conference:gallowglass"] }],
    },
  ],
};

// ---- Trophy Case ----------------------------------------------------------------

/** The 15 suits in rule order (TC-1.1), three to a colour (TC-1.3); symbols as drawn on the cards. */
export const TROPHY_SUITS: { code: string; name: string; symbol: string; colour: string; colourName: string }[] = (
  [
    ["MAZ", "▦", "red"],
    ["BOO", "▤", "red"],
    ["RAI", "☂", "red"],
    ["BUG", "✺", "orange"],
    ["FRO", "◉", "orange"],
    ["INK", "✹", "orange"],
    ["SCY", "☽", "yellow"],
    ["PLU", "⊥", "yellow"],
    ["FAC", "☻", "yellow"],
    ["TIM", "◷", "green"],
    ["LAM", "☀", "green"],
    ["HIV", "⬡", "green"],
    ["EAR", "◐", "blue"],
    ["ZUR", "❖", "blue"],
    ["TOP", "▼", "blue"],
  ] as const
).map(([code, symbol, colour]) => ({
  code,
  symbol,
  colour, // the CSS class's colour
  /** The suit's name in the page's language (catalogue "tc.suit.CODE"). */
  get name() {
    return t(`tc.suit.${code}`);
  },
  /** The colour's name in the page's language. */
  get colourName() {
    return t(`colour.${colour}`);
  },
}));
export const TROPHY_TRUMPS = ["Granola", "Death", "Light", "Snail", "Beauty", "Time", "Grue", "Lobster", "Jester"];

const TROPHY_TERMS: Term[] = [
  {
    id: "trophy-case:suits",
    game: "trophy-case",
    title: "Suits and colours",
    rules: ["TC-1.1", "TC-1.3"],
    text: [
      "15 suits of 11 cards (0 to 9 and ∞), grouped three by three into five colours. The symbol in a card's corner names its suit:",
    ],
  },
  {
    id: "trophy-case:infinity",
    game: "trophy-case",
    title: "∞ (Infinity)",
    rules: ["TC-1.1", "TC-6.1"],
    text: ["The top card of each suit, above the 9. It is worth 2 points to whoever wins the trick."],
  },
  {
    id: "trophy-case:trumps",
    game: "trophy-case",
    title: "Trumps",
    rules: ["TC-1.2", "TC-4.6"],
    text: [
      `Nine named cards ★ (${TROPHY_TRUMPS.join(", ")}) with no suit, colour or value. A trump ends the trick at once and its player wins it. You may play one when you have no card of the led colour.`,
    ],
  },
  {
    id: "trophy-case:led",
    game: "trophy-case",
    title: "Led suit and colour",
    rules: ["TC-3.1", "TC-4.3", "TC-5"],
    text: [
      "The first card of a trick sets its suit and colour. If you hold any card of that colour you must play one (any of its three suits). Every card of the led colour beats every card out of colour; among them, a suit that joins the trick later ranks above the suits before it, whatever the values.",
    ],
  },
  {
    id: "trophy-case:ooc",
    game: "trophy-case",
    title: "Out of colour (OoC)",
    rules: ["TC-4.3", "TC-5.3"],
    text: ["A card of another colour, played by someone with no card of the led colour. Out-of-colour cards rank by value alone and always lose to in-colour cards."],
  },
  {
    id: "trophy-case:fold",
    game: "trophy-case",
    title: "Fold",
    rules: ["TC-4.2", "TC-4.4"],
    text: ["Instead of playing, leave the trick for good; the cards you already put in stay there. You may not fold while you hold a card of the led suit."],
  },
  {
    id: "trophy-case:mud",
    game: "trophy-case",
    title: "Mud",
    rules: ["TC-1.4", "TC-4.5"],
    text: ["Not a card: what a player still in the trick with no cards left “plays” on each turn. It is worth 0, has no suit or colour and ranks below every card."],
  },
  {
    id: "trophy-case:trick-end",
    game: "trophy-case",
    title: "How a trick ends",
    rules: ["TC-4.1", "TC-4.6"],
    text: [
      "Turns go round and round the players still in, not once. The trick ends when a trump is played (its player wins), when only one player is still in (they win), or when nobody still in has a card left (the highest card among them wins).",
    ],
  },
  {
    id: "trophy-case:scoring",
    game: "trophy-case",
    title: "Points",
    rules: ["TC-6.1", "TC-6.3"],
    text: ["The winner scores every card in the trick: each 8 and 9 one point, each ∞ two, each 0 one if the trick holds a trump. The first player to reach the target (30) wins at once."],
  },
  {
    id: "trophy-case:redeal",
    game: "trophy-case",
    title: "Hands and redeals",
    rules: ["TC-2.2", "TC-3.2", "TC-6.3"],
    text: [
      "Hands of 14, 12 or 11 cards for 3, 4 or 5 players. When a trick leaves someone without cards, all hands are thrown in and new ones dealt. A leader holding only trumps shows them and everybody gets a new hand.",
    ],
  },
];

const TROPHY_CASE: Guide = {
  game: "trophy-case",
  title: "Trophy Case",
  tagline: "A bluffing trick game for 3 to 5 players with 174 cards: follow the colour, fold, or end the trick with a trump.",
  sections: [
    {
      id: "cards",
      title: "The cards",
      rules: ["TC-1"],
      blocks: [{ terms: ["trophy-case:suits"] }, { symbols: "trophy-case" }, { terms: ["trophy-case:infinity", "trophy-case:trumps"] }],
    },
    {
      id: "play",
      title: "A trick",
      rules: ["TC-3", "TC-4"],
      blocks: [
        {
          list: [
            "The leader plays any suited card.",
            "On your turn you play a card or fold. With a card of the led colour you must play one; without, any suited card or a trump.",
            "Turns keep going round until the trick ends.",
          ],
        },
        { terms: ["trophy-case:led", "trophy-case:ooc", "trophy-case:fold", "trophy-case:mud", "trophy-case:trick-end"] },
        "The next trick is led by the player on the left of the last winner.",
      ],
    },
    {
      id: "scoring",
      title: "Scoring",
      rules: ["TC-6"],
      blocks: [{ terms: ["trophy-case:scoring", "trophy-case:redeal"] }],
    },
  ],
};

/** The guides in English (content.it.ts gives their words in Italian). */
export const GUIDES_EN: Record<GameName, Guide> = {
  "la-casa": LA_CASA,
  casino: CASINO,
  conference: CONFERENCE,
  "trophy-case": TROPHY_CASE,
};

/** The glossary in English, by id. */
export const GLOSSARY: Map<string, Term> = new Map(
  [...LC_CHALLENGES, ...SOLO_CHALLENGES, ...LC_TERMS, ...CASINO_TERMS, ...CONFERENCE_TERMS, ...TROPHY_TERMS].map((t) => [t.id, t]),
);

/** A term in the page's language: the English entry's ids and rules, the Italian words. */
function localTerm(en: Term): Term {
  if (lang() !== "it") return en;
  const it = TERMS_IT[en.id];
  return it ? { ...en, title: it.title, text: it.text, players: it.players, card: it.card } : en;
}

/** A guide in the page's language: the English structure (terms, symbols, rule ids)
 *  with each section's paragraphs and lists replaced in order by the Italian ones. */
export function localGuide(game: GameName): Guide {
  const en = GUIDES_EN[game];
  if (lang() !== "it") return en;
  const it = GUIDES_IT[game];
  return {
    ...en,
    title: it.title,
    tagline: it.tagline,
    sections: en.sections.map((s) => {
      const words = it.sections[s.id];
      let i = 0;
      const blocks = s.blocks.map((b) => (typeof b === "string" || "list" in b ? (words?.text[i++] ?? b) : b));
      return { ...s, title: words?.title ?? s.title, blocks };
    }),
  };
}

/** The guides in the page's language. */
export const GUIDES: Record<GameName, Guide> = {
  get "la-casa"() {
    return localGuide("la-casa");
  },
  get casino() {
    return localGuide("casino");
  },
  get conference() {
    return localGuide("conference");
  },
  get "trophy-case"() {
    return localGuide("trophy-case");
  },
};

/** Other names a term is looked up by (an option key, a symbol legend). */
const ALIASES: Record<string, string> = {
  "option:la-casa:format": "format:challenges",
  "option:la-casa:target": "la-casa:target",
  "option:la-casa:election": "la-casa:election",
  "option:la-casa:challenges": "format:solo",
  "option:casino:target": "casino:target",
  "option:casino:partners": "casino:partners",
  "option:casino:questions": "casino:question-cards",
  "option:casino:sweeps": "casino:sweep",
  "option:conference:good_evil": "conference:good_evil",
  "option:conference:attack_defence": "conference:attack_defence",
  "option:conference:gallowglass": "conference:gallowglass",
  "option:conference:hands": "conference:hands",
  "option:trophy-case:target": "trophy-case:scoring",
  "conference:good_evil:trumps": "conference:good_evil",
  "conference:good_evil:allegiance": "conference:allegiance",
};

/** A glossary entry by id (or alias), in the page's language. */
export function term(id: string): Term | undefined {
  const en = GLOSSARY.get(id) ?? (ALIASES[id] ? GLOSSARY.get(ALIASES[id]) : undefined);
  return en ? localTerm(en) : undefined;
}

/** The glossary id of a Challenge by its engine name (view.challenge); Solo has its own cards. */
export function challengeTerm(name: string, solo = false): string {
  return `${solo ? "solo" : "challenge"}:${name}`;
}

/** A Challenge's name as printed on its card ("Slap-Down", "The Club"), from its engine name. */
export function challengeTitle(name: string): string {
  return term(`challenge:${name}`)?.title ?? name.replace(/_/g, " ");
}

/** The Trophy Case suit of a suit code, for the "Led" fact. */
export function trophySuit(code: string) {
  return TROPHY_SUITS.find((s) => s.code === code);
}

/**
 * The glossary entry that explains a decision phase of a view (`view.phase`): the
 * Challenge or variant that brings it. Phases every round has ("play",
 * "round_over") need none.
 */
export const PHASE_TERMS: Record<string, Record<string, string>> = {
  "la-casa": {
    choose_challenge: "format:sticky",
    election: "la-casa:election",
    election_discard: "la-casa:election",
    elect: "la-casa:election",
    set_aside: "challenge:the_club",
    name_cousins: "challenge:cousins",
    bidding: "challenge:figura",
    name_ruling_family: "challenge:figura",
    eliminate: "challenge:bruto",
    reveal: "challenge:cards_on_the_table",
    pass_card: "challenge:pass_the_buck",
    slap_down: "challenge:slap_down",
    steal: "challenge:bandits",
    give: "challenge:bandits",
    take_pile: "la-casa:stock",
  },
  casino: { ask: "casino:question-cards" },
  conference: { discard: "conference:discard", gallowglass: "conference:gallowglass" },
  "trophy-case": {},
};

/** The phases that need no explanation of their own. */
export const PLAIN_PHASES = ["play", "round_over", "game_over", "over", "deal"];

export function phaseTerm(game: string, phase: string | undefined): string | undefined {
  return phase ? PHASE_TERMS[game]?.[phase] : undefined;
}
