// SPDX-License-Identifier: AGPL-3.0-or-later
// The game review on the replay page (docs/review.md): the button that starts it
// (the review itself is loaded only then, review-client.ts), its progress with a
// way to cancel, and its result: per seat the accuracy and the verdicts counted,
// the graph of each side's expected result along the game (a click goes to that
// decision), the verdict marks of the move list and, at a costly decision, what
// would have been better, in the table's words.
import { useEffect, useRef, useState } from "preact/hooks";
import { t as tr } from "../i18n";
import {
  betterAction,
  costly,
  countsText,
  DEPTHS,
  graphLines,
  percent,
  phaseBefore,
  sideName,
  VERDICT_SYMBOL,
  verdictWord,
  type Review,
  type ReviewDecision,
  type ReviewError,
  type ReviewOptions,
  type Verdict,
} from "../review-view";
import type { Json } from "../words";

/** What the page knows of the review. */
export type ReviewState =
  | { kind: "idle" }
  | { kind: "running"; cancel: () => void }
  | { kind: "done"; review: Review }
  | { kind: "failed"; why: string };

/** Starts a review of a replay's text; resolves with the review's JSON (an error's JSON too). */
export type ReviewRunner = (text: string, options: ReviewOptions) => { done: Promise<Review | ReviewError>; cancel(): void };

/** The runner of this build: the review's module in a worker, fetched on the first use. */
export const lazyRunner: ReviewRunner = (text, options) => {
  let cancelled = false;
  let cancelRun: () => void = () => {};
  const done = import("../review-client").then((m) => {
    if (cancelled) throw new Error("cancelled");
    const run = m.startReview(text, options);
    cancelRun = run.cancel;
    return run.done;
  });
  return {
    done,
    cancel() {
      cancelled = true;
      cancelRun();
    },
  };
};

/**
 * Whether the replay is of a finished game: only those are reviewed (a review in
 * mid-game would show a player the value of their options). The server serves
 * replays of finished games only; a replay that says otherwise, or has no final
 * state, is not offered a review.
 */
export function reviewable(replay: Json): boolean {
  return !!replay && replay.game_over !== false && !!replay.final_state && Array.isArray(replay.log) && replay.log.length > 0;
}

/** A verdict's mark: its symbol for the eye, its word for screen readers. */
export function Mark({ verdict }: { verdict: Verdict }) {
  return (
    <span class={`mark v-${verdict}`} title={verdictWord(verdict)}>
      <span aria-hidden="true">{VERDICT_SYMBOL[verdict]}</span>
      <span class="sr-only">{`, ${verdictWord(verdict)}`}</span>
    </span>
  );
}

/** At the move shown: its verdict and, when it cost something, the better action and why. */
export function ReviewAt({ decision, replay, index }: { decision: ReviewDecision; replay: Json; index: number }) {
  const game = replay.game;
  if (!costly(decision.verdict)) {
    return (
      <p class={`review-at v-${decision.verdict}`}>
        <Mark verdict={decision.verdict} /> {tr(`rv.at.${decision.verdict === "forced" ? "forced" : "fine"}`, { verdict: verdictWord(decision.verdict) })}
      </p>
    );
  }
  const b = betterAction(decision, game, phaseBefore(replay, index));
  return (
    <div class={`review-at v-${decision.verdict}`}>
      <p>
        <Mark verdict={decision.verdict} /> {tr("rv.at.costly", { verdict: verdictWord(decision.verdict) })}
      </p>
      <p class="better">
        {tr("rv.better")} <strong class="better-action">{b.action}</strong>
        {b.does ? <span class="muted"> ({b.does})</span> : null}
      </p>
      <p class="why">{b.why}</p>
    </div>
  );
}

const W = 600;
/** The graph's height: taller on a narrow screen, where the graph is drawn smaller. */
function graphHeight(): number {
  return typeof matchMedia === "function" && matchMedia("(max-width: 600px)").matches ? 320 : 160;
}

/** Each side's expected result along the game; a click on the graph goes to that decision. */
export function ReviewGraph({ review, name, log, current, onJump }: { review: Review; name: (s: number) => string; log: Json[]; current: number; onJump: (logIndex: number) => void }) {
  const [H, setH] = useState(graphHeight);
  useEffect(() => {
    if (typeof matchMedia !== "function") return;
    const q = matchMedia("(max-width: 600px)");
    const on = () => setH(graphHeight());
    q.addEventListener?.("change", on);
    return () => q.removeEventListener?.("change", on);
  }, []);
  const lines = graphLines(review, W, H);
  const n = review.decisions.length;
  const band = n <= 1 ? W : W / (n - 1);
  const indexOf = (d: ReviewDecision) => log.findIndex((e) => e?.seq === d.seq);
  const here = review.decisions.findIndex((d) => log[current - 1]?.seq === d.seq);
  return (
    <figure class="review-graph">
      <figcaption>
        {tr(review.measure === "win" ? "rv.graph.win" : "rv.graph.score")} <span class="muted">{tr("rv.graph.click")}</span>
      </figcaption>
      <svg viewBox={`-6 -6 ${W + 12} ${H + 12}`} preserveAspectRatio="xMinYMid meet" role="img" aria-label={tr("rv.graph.label")}>
        <rect class="frame" x={0} y={0} width={W} height={H} />
        <line class="even" x1={0} x2={W} y1={H / 2} y2={H / 2} />
        {here >= 0 ? <line class="here" x1={lines[0]?.points[here]?.x} x2={lines[0]?.points[here]?.x} y1={0} y2={H} /> : null}
        {lines.map((l) => (
          <path key={l.side} class={`side side-${l.side}`} d={l.path} />
        ))}
        {/* Hit areas: a band per decision, for the pointer. */}
        {review.decisions.map((d, i) => (
          <rect key={d.seq} class="hit" x={(n <= 1 ? 0 : i * band - band / 2)} y={0} width={band} height={H} onClick={() => onJump(indexOf(d))}>
            <title>{`${name(d.seat)}: ${verdictWord(d.verdict)}`}</title>
          </rect>
        ))}
        {/* The costly decisions, marked on the deciding seat's line; each one a button. */}
        {lines.length
          ? review.decisions.map((d, i) => {
              if (!costly(d.verdict)) return null;
              const side = review.sides.findIndex((s) => s.includes(d.seat));
              const p = lines[Math.max(0, side)].points[i];
              const label = tr("rv.graph.point", { who: name(d.seat), verdict: verdictWord(d.verdict), n: indexOf(d) + 1 });
              return (
                <circle
                  key={`m${d.seq}`}
                  class={`point v-${d.verdict}`}
                  cx={p.x}
                  cy={p.y}
                  r={5}
                  role="button"
                  tabIndex={0}
                  aria-label={label}
                  onClick={() => onJump(indexOf(d))}
                  onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), onJump(indexOf(d)))}
                >
                  <title>{label}</title>
                </circle>
              );
            })
          : null}
      </svg>
      <ul class="graph-legend">
        {review.sides.map((s, i) => (
          <li key={i}>
            <svg viewBox="0 0 24 8" class="swatch" aria-hidden="true">
              <line class={`side side-${i}`} x1={0} x2={24} y1={4} y2={4} />
            </svg>{" "}
            {sideName(s, name)}
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** The review's section: the button and its choices, the progress, or the result. */
export function ReviewPanel({
  replay,
  state,
  onStart,
  name,
  log,
  current,
  onJump,
}: {
  replay: Json;
  state: ReviewState;
  onStart: (options: ReviewOptions) => void;
  name: (s: number) => string;
  log: Json[];
  current: number;
  onJump: (logIndex: number) => void;
}) {
  const [depth, setDepth] = useState<string>("normal");
  const [bots, setBots] = useState(false);
  const started = useRef(0);
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    if (state.kind !== "running") return;
    started.current = Date.now();
    setElapsed(0);
    const id = setInterval(() => setElapsed(Math.round((Date.now() - started.current) / 1000)), 1000);
    return () => clearInterval(id);
  }, [state.kind]);
  if (!reviewable(replay)) return null;
  const start = () => {
    const options: ReviewOptions = { iterations: DEPTHS.find((d) => d.id === depth)?.iterations };
    if (bots) options.seats = (replay.seats ?? []).map((_: Json, i: number) => i);
    onStart(options);
  };
  const hasBots = (replay.seats ?? []).some((s: Json) => s?.bot);
  let body;
  if (state.kind === "running") {
    body = (
      <p class="review-running" role="status">
        <span class="spinner" aria-hidden="true" /> {tr("rv.running", { s: elapsed })}{" "}
        <button type="button" class="review-cancel" onClick={state.cancel}>
          {tr("rv.cancel")}
        </button>
      </p>
    );
  } else if (state.kind === "done") {
    const r = state.review;
    body = (
      <>
        <table class="review-seats">
          <thead>
            <tr>
              <th scope="col">{tr("rv.player")}</th>
              <th scope="col">{tr("rv.accuracy")}</th>
              <th scope="col">{tr("rv.verdicts")}</th>
            </tr>
          </thead>
          <tbody>
            {r.seats.map((s) => (
              <tr key={s.seat}>
                <th scope="row">{name(s.seat)}</th>
                <td class="accuracy">{s.accuracy === null ? tr("rv.noDecision") : tr("rv.accuracyValue", { n: s.accuracy })}</td>
                <td class="counts">
                  {countsText(s)}
                  {s.forced ? <span class="muted">{` · ${tr("rv.count.forced", { n: s.forced })}`}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {r.decisions.length ? <ReviewGraph review={r} name={name} log={log} current={current} onJump={onJump} /> : <p class="muted">{tr("rv.nothing")}</p>}
        <p class="muted review-legend">
          {(["best", "good", "inaccuracy", "mistake", "blunder", "forced"] as Verdict[]).map((v) => (
            <span key={v} class="legend-item">
              <span class={`mark v-${v}`} aria-hidden="true">{VERDICT_SYMBOL[v]}</span> {verdictWord(v)}
            </span>
          ))}
        </p>
        <p class="muted review-budget">{tr("rv.budget", { n: r.iterations, seed: r.seed, measure: percent(r.thresholds.blunder) })}</p>
      </>
    );
  } else {
    body = (
      <>
        {state.kind === "failed" ? <p class="error review-failed">{state.why}</p> : null}
        <div class="review-start">
          <label class="inline">
            {tr("rv.depth")}{" "}
            <select value={depth} onChange={(e) => setDepth((e.target as HTMLSelectElement).value)} name="review-depth">
              {DEPTHS.map((d) => (
                <option key={d.id} value={d.id}>
                  {tr(`rv.depth.${d.id}`, { n: d.iterations })}
                </option>
              ))}
            </select>
          </label>
          {hasBots ? (
            <label class="inline">
              <input type="checkbox" name="review-bots" checked={bots} onChange={(e) => setBots((e.target as HTMLInputElement).checked)} /> {tr("rv.bots")}
            </label>
          ) : null}
          <button type="button" class="primary review-button" onClick={start}>
            {tr("rv.button")}
          </button>
        </div>
      </>
    );
  }
  return (
    <section class="review" aria-label={tr("rv.title")}>
      <h3>{tr("rv.title")}</h3>
      <p class="muted">{tr("rv.intro")}</p>
      {body}
    </section>
  );
}

/** Turns the runner's answer into the panel's state (the review's own errors in words). */
export function reviewResult(r: Review | ReviewError): ReviewState {
  if ("error" in r) {
    const known = r.error === "not_over" ? tr("rv.error.notOver") : null;
    return { kind: "failed", why: known ?? tr("rv.failed", { error: r.why ?? r.error }) };
  }
  return { kind: "done", review: r };
}
