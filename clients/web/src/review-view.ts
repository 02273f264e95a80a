// SPDX-License-Identifier: AGPL-3.0-or-later
// The game review's JSON (docs/review.md, made by review/review.cpp in the
// browser's worker or by `casa review --json`) and what the replay page makes of
// it: verdict marks, the graph's points, the better action in the table's words.
// Nothing here runs the review; the page loads the review itself on demand.
import { t } from "./i18n";
import { phrase } from "./phrases";
import { describeAction, type Json } from "./words";

export type ReviewOptions = { iterations?: number; seed?: string; seats?: number[] };

export const VERDICTS = ["best", "good", "inaccuracy", "mistake", "blunder"] as const;
export type Verdict = (typeof VERDICTS)[number] | "forced";

export type ReviewAction = { action: Json; value: number; visits: number };

export type ReviewDecision = {
  seq: number;
  seat: number;
  played: Json;
  best: Json;
  value_played: number;
  value_best: number;
  loss?: number;
  verdict: Verdict;
  actions: ReviewAction[];
  expected: number[];
  auto?: string;
};

export type ReviewSeat = {
  seat: number;
  name?: string;
  decisions: number;
  forced?: number;
  accuracy: number | null;
  counts: Record<(typeof VERDICTS)[number], number>;
};

export type Review = {
  game: string;
  iterations: number;
  seed: string;
  measure: "score" | "win";
  thresholds: Record<"good" | "inaccuracy" | "mistake" | "blunder", number>;
  seats: ReviewSeat[];
  sides: number[][];
  decisions: ReviewDecision[];
};

export type ReviewError = { error: string; why?: string };

/** The budgets a player can pick (search iterations per decision); the middle one is the library's default. */
export const DEPTHS = [
  { id: "quick", iterations: 200 },
  { id: "normal", iterations: 2000 },
  { id: "deep", iterations: 8000 },
] as const;

/** The mark of a verdict, as chess annotates moves: ?! ? ?? for the costly ones. */
export const VERDICT_SYMBOL: Record<Verdict, string> = {
  best: "★",
  good: "✓",
  inaccuracy: "?!",
  mistake: "?",
  blunder: "??",
  forced: "□",
};

/** A verdict in words ("blunder"), in the page's language. */
export function verdictWord(v: Verdict): string {
  return t(`rv.verdict.${v}`);
}

/** Whether a verdict is one the page explains with the better action. */
export function costly(v: Verdict): boolean {
  return v === "inaccuracy" || v === "mistake" || v === "blunder";
}

/** The review's decisions by the log seq of the action decided there. */
export function decisionsBySeq(r: Review): Map<number, ReviewDecision> {
  return new Map(r.decisions.map((d) => [d.seq, d]));
}

/** The index in the replay's log of the entry with this seq (-1: none). */
export function logIndex(log: Json[], seq: number): number {
  return log.findIndex((e) => e?.seq === seq);
}

/** A side's name: its seats' names, "Ann & Cleo". */
export function sideName(side: number[], name: (seat: number) => string): string {
  return side.map(name).join(" & ");
}

/** A value in [0, 1] as a whole percentage in the page's language ("63 %"). */
export function percent(v: number): string {
  return t("rv.percent", { n: Math.round(v * 100) });
}

export type GraphPoint = { x: number; y: number; decision: ReviewDecision; index: number };
export type GraphLine = { side: number; points: GraphPoint[]; path: string };

/**
 * The graph: one line per side of its expected reward before each reviewed
 * decision (docs/review.md, "The graph"), x from 0 to `width` in decision order,
 * y from `height` (0) to 0 (1).
 */
export function graphLines(r: Review, width: number, height: number): GraphLine[] {
  const n = r.decisions.length;
  const x = (i: number) => (n <= 1 ? width / 2 : (i * width) / (n - 1));
  const y = (v: number) => height - Math.max(0, Math.min(1, v)) * height;
  return r.sides.map((_, s) => {
    const points = r.decisions.map((d, i) => ({ x: x(i), y: y(d.expected?.[s] ?? 0.5), decision: d, index: i }));
    const path = points.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(" ");
    return { side: s, points, path };
  });
}

/** The side (index into `sides`) of a seat, -1 when none holds it. */
export function sideOf(r: Review, seat: number): number {
  return r.sides.findIndex((s) => s.includes(seat));
}

/**
 * What was better at a decision, in the table's words: the action as its button
 * says it (describeAction), what that kind of action does (the decision's phrase,
 * phrases.ts) and the values the review gave it and the move played.
 */
export function betterAction(d: ReviewDecision, game: string, phase?: string | null): { action: string; does: string | null; why: string } {
  const action = describeAction(d.best, game);
  return {
    action,
    does: phrase(game, String(d.best?.type), phase),
    why: t("rv.why", {
      best: percent(d.value_best),
      played: percent(d.value_played),
      move: describeAction(d.played, game),
      loss: Math.round((d.loss ?? d.value_best - d.value_played) * 100),
    }),
  };
}

/** "3 best, 1 mistake": a seat's non-zero counts in words. */
export function countsText(s: ReviewSeat): string {
  return VERDICTS.filter((v) => (s.counts?.[v] ?? 0) > 0)
    .map((v) => t(`rv.count.${v}`, { n: s.counts[v] }))
    .join(", ");
}

/** The phase of the game when the decision at log index i was taken (the state before it). */
export function phaseBefore(replay: Json, i: number): string | null {
  const st = i === 0 ? replay.initial_state : replay.log[i - 1]?.state;
  const p = st?.phase ?? st?.view?.phase;
  return typeof p === "string" ? p : null;
}
