// SPDX-License-Identifier: AGPL-3.0-or-later
import { useEffect, useState } from "preact/hooks";
import { gameTitle } from "../catalogue";
import { describeVerdict, type AsyncVerifier, type Verdict } from "../verify";
import { loadVerifier } from "../verify-client";
import { FAMILY_SYMBOL } from "../cards";
import { cap, describeAction, familyName, humanize, type Json } from "../words";
import { challengeTitle } from "../help/content";
import { t as tr } from "../i18n";
import { Board } from "./boards";
import { Card, Cards, Pick } from "./Card";
import { replaySeatName, ScoreSheet } from "./Table";
import { HelpButton } from "./Help";
import { savedToken } from "../net";
import { decisionsBySeq, type ReviewOptions } from "../review-view";
import { lazyRunner, Mark, ReviewAt, ReviewPanel, reviewResult, type ReviewRunner, type ReviewState } from "./Review";

// La Casa's table game keeps its Challenge and Ruling Family in the full state as the
// engine numbers them (engine/games/la_casa/la_casa_game.h, cards.h; -1: none); its
// Solo and Domination states give the names.
const LC_CHALLENGES = [
  "anarchy", "bandits", "betrayal", "bruto", "capitano", "carita", "cards_on_the_table", "the_club",
  "cousins", "figura", "kin", "mangia_cake", "minions", "pass_the_buck", "revenge", "slap_down",
];
const LC_FAMILIES = ["guns", "knives", "masks", "fists"];

function named(v: unknown, names: string[]): string | null {
  if (typeof v === "string") return v;
  return typeof v === "number" && v >= 0 && v < names.length ? names[v] : null;
}

/** Where a full state is: round (or hand), tricks played, Challenge and Ruling Family, when it says. */
export function position(state: Json, game = ""): { round: number | null; tricks: number | null; challenge: string | null; ruling: string | null } {
  const round = typeof state?.round === "number" ? state.round : typeof state?.hand_number === "number" ? state.hand_number : null;
  const tricks = typeof state?.tricks_played === "number" ? state.tricks_played : null;
  const laCasa = game === "la-casa";
  const challenge = laCasa ? named(state?.challenge, LC_CHALLENGES) : null;
  const ruling = laCasa ? named(state?.ruling, LC_FAMILIES) : null;
  return { round, tricks, challenge, ruling };
}

/** "the_club" → "The Club", "cards_on_the_table" → "Cards on the Table". */
function titleWords(id: string): string {
  return humanize(id)
    .split(" ")
    .map((w, i) => (i > 0 && (w === "on" || w === "the") ? w : cap(w)))
    .join(" ");
}

/** "Round 3" or "Hand 3" in the page's language; `roundWord` is "Round" or "Hand". */
function roundLabel(roundWord: string, n: number): string {
  return tr(roundWord === "Hand" ? "sheet.hand" : "sheet.round", { n });
}

/** "Round 1 · Challenge: Cousins · Ruling Family: Masks ☺ · 3 tricks played". */
export function positionText(state: Json, game: string, roundWord: string): string {
  const p = position(state, game);
  return [
    p.round !== null ? roundLabel(roundWord, p.round) : null,
    p.challenge ? tr("r.challenge", { name: challengeTitle(p.challenge) ?? titleWords(p.challenge) }) : null,
    p.ruling ? tr("r.ruling", { family: `${familyName(p.ruling)} ${FAMILY_SYMBOL[p.ruling] ?? ""}`.trim() }) : null,
    p.tricks !== null ? tr("r.tricksPlayed", { n: p.tricks }) : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

export interface MoveGroup {
  round: number | null;
  tricks: { trick: number | null; moves: number[] }[];
}

/** The moves grouped by round (or hand) and, where the game counts tricks, by trick. */
export function groupMoves(log: Json[], initial: Json): MoveGroup[] {
  const out: MoveGroup[] = [];
  let last = initial;
  let done = 0; // tricks finished in the current round before the current move
  for (let i = 0; i < log.length; i++) {
    const after = log[i].state ?? last;
    const p = position(after);
    let g = out[out.length - 1];
    if (!g || g.round !== p.round) {
      g = { round: p.round, tricks: [] };
      out.push(g);
      done = 0;
    }
    const trick = p.tricks === null ? null : done + 1;
    let tg = g.tricks[g.tricks.length - 1];
    if (!tg || tg.trick !== trick) {
      tg = { trick, moves: [] };
      g.tricks.push(tg);
    }
    tg.moves.push(i);
    if (p.tricks !== null && p.tricks > done) done = p.tricks;
    last = after;
  }
  return out;
}

/** The replay as the server sent it (the text is what the checks read) and parsed. */
export async function loadReplay(table: string): Promise<{ text: string; replay: Json }> {
  // A private table's game is given to the players who sat there: the token says who asks.
  const token = savedToken();
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  for (const url of [`/api/tables/${encodeURIComponent(table)}/replay`, `/api/games/${encodeURIComponent(table)}`]) {
    const r = await fetch(url, { headers });
    if (r.ok) {
      const text = await r.text();
      return { text, replay: JSON.parse(text) };
    }
    if (r.status === 403) {
      const body = await r.json().catch(() => ({}));
      if (body?.error === "private_table") throw new Error(tr("r.privateTable"));
      throw new Error(tr("r.stillPlaying"));
    }
    if (r.status !== 404) throw new Error(`${url}: ${r.status}`);
  }
  throw new Error(tr("r.noSuchGame"));
}

/** Every hand of a full state, whatever its game calls them. */
function allHands(state: Json): string[][] | null {
  if (!state) return null;
  const h = state.hands ?? state.hand;
  if (Array.isArray(h) && h.every((x: unknown) => Array.isArray(x))) return h;
  if (Array.isArray(h) && h.every((x: unknown) => typeof x === "string")) return [h];
  return null;
}

/** The cards of the trick in play, if the state has one in a shape we can read. */
function trickCards(state: Json): Json[] {
  const t = state?.trick;
  const plays = Array.isArray(t) ? t : Array.isArray(t?.plays) ? t.plays : [];
  return plays.filter((p: Json) => p && typeof p.card === "string");
}

/** What the page knows of the full check: running, its verdict, or why it could not run. */
export type Check = { kind: "running" } | { kind: "done"; verdict: Verdict } | { kind: "unavailable"; why: string };

// The four checks in the order the module runs them (verify/verify.h).
const CHECKS = [
  { id: "commitment", ok: "r.checkCommitment" },
  { id: "deal", ok: "r.checkDeal" },
  { id: "action", ok: "" }, // with the number of moves, below
  { id: "end", ok: "r.checkEnd" },
] as const;

/** The deal commitment and the full check of the game, run in this browser. */
function FairDeal({ replay, check }: { replay: Json; check: Check }) {
  const hash = replay.deal_commitment?.hash;
  const seed = replay.deal?.seed;
  const salt = replay.deal?.salt;
  if (typeof hash !== "string" || typeof seed !== "string" || typeof salt !== "string") {
    return (
      <section class="fair-deal" aria-label={tr("r.dealLabel")}>
        <h3>{tr("r.fairTitle")}</h3>
        <p class="muted">{tr("r.noCommitment")}</p>
      </section>
    );
  }
  const origin = typeof location === "undefined" ? "http://HOST:PORT" : location.origin;
  // The sentence around the link to the fair-play document (casa-server serves it at /fair-play.txt).
  const [howBefore, howAfter] = tr("r.howDocs", { doc: "\u0000" }).split("\u0000");
  let verdict;
  if (check.kind === "running") {
    verdict = <p class="deal-verdict muted">{tr("r.checking")}</p>;
  } else if (check.kind === "unavailable") {
    verdict = <p class="deal-verdict muted">{tr("r.notChecked", { why: check.why })}</p>;
  } else {
    const v = check.verdict;
    // Without a SHA-256 (no WebCrypto here) the module runs the other checks and
    // fails "commitment" last, when they all passed: that check alone is open.
    const unchecked = v.commitment_checked === false;
    const failedAt = v.verified || (unchecked && v.check === "commitment") ? CHECKS.length : CHECKS.findIndex((c) => c.id === v.check);
    const state = v.verified ? "ok" : unchecked && v.check === "commitment" ? "unchecked" : "bad";
    verdict = (
      <>
        <p class={`deal-verdict ${state}`}>{{ ok: "✓ ", unchecked: "? ", bad: "✗ " }[state]}{describeVerdict(v)}</p>
        <ul class="checks" aria-label={tr("r.checks")}>
          {CHECKS.map((c, i) => {
            const text = c.id === "action" ? tr("r.checkActions", { n: v.actions_checked ?? 0 }) : tr(c.ok);
            if (c.id === "commitment" && unchecked) {
              return (
                <li key={c.id} class="check-commitment unchecked">
                  {tr("r.uncheckedBefore")} <code>sha256sum</code> {tr("r.uncheckedMiddle")} <code>casa verify</code>.
                </li>
              );
            }
            if (i < failedAt) return <li key={c.id} class={`check-${c.id} ok`}>✓ {text}</li>;
            if (i === failedAt) return <li key={c.id} class={`check-${c.id} bad`}>✗ {v.why}</li>;
            return <li key={c.id} class={`check-${c.id} muted`}>{tr("r.notReached")}</li>;
          })}
        </ul>
      </>
    );
  }
  return (
    <section class="fair-deal" aria-label={tr("r.dealLabel")}>
      <h3>{tr("r.fairTitle")}</h3>
      <dl>
        <dt>{tr("r.published")}</dt>
        <dd><code class="deal-hash">{hash}</code></dd>
        <dt>{tr("r.revealed")}</dt>
        <dd>
          {tr("r.seed")} <code class="deal-seed">{seed}</code>, {tr("r.salt")} <code class="deal-salt">{salt}</code>
        </dd>
        <dt>{tr("r.hashed")}</dt>
        <dd><code>{`${salt}:${seed}`}</code></dd>
      </dl>
      {verdict}
      <p class="muted">
        {tr("r.sameChecksBefore")} <code>casa verify {replay.table} --url {origin}</code>
        {tr("r.sameChecksAfter")}
      </p>
      <details class="fair-how">
        <summary>{tr("r.howSummary")}</summary>
        <p>
          {tr("r.howText")} <code>casa verify</code> {howBefore}
          <a href="/fair-play.txt">
            <code>docs/fair-play.md</code>
          </a>
          {howAfter}
        </p>
      </details>
    </section>
  );
}

/**
 * The replay viewer. Once the replay is loaded (the server serves it only once the
 * game is over), the full check runs on its text: by default in a Web Worker
 * (verify-client.ts); tests pass a verifier of their own. The game review runs
 * only when the player asks for it (ui/Review.tsx), by default in a Web Worker
 * loaded then (review-client.ts); tests pass a runner of their own.
 */
export function ReplayPage({
  id,
  navigate,
  verifier = loadVerifier,
  reviewer = lazyRunner,
}: {
  id: string;
  navigate: (p: string) => void;
  verifier?: () => Promise<AsyncVerifier>;
  reviewer?: ReviewRunner;
}) {
  const [replay, setReplay] = useState<Json | null>(null);
  const [text, setText] = useState("");
  const [review, setReview] = useState<ReviewState>({ kind: "idle" });
  const [error, setError] = useState("");
  const [step, setStep] = useState(0);
  const [check, setCheck] = useState<Check>({ kind: "running" });
  useEffect(() => {
    let live = true;
    loadReplay(id).then(
      ({ text, replay: r }) => {
        if (!live) return;
        setReplay(r);
        setText(text);
        setReview({ kind: "idle" });
        setStep(r.log.length);
        setCheck({ kind: "running" });
        if (!r.deal_commitment) return;
        verifier()
          .then((v) => v.verify(text))
          .then(
            (verdict) => live && setCheck({ kind: "done", verdict }),
            (e) => live && setCheck({ kind: "unavailable", why: tr("r.cannotRun", { error: String(e?.message ?? e) }) }),
          );
      },
      (e) => setError(String(e.message ?? e)),
    );
    return () => {
      live = false;
    };
  }, [id]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!replay || ["INPUT", "SELECT", "TEXTAREA"].includes((e.target as HTMLElement)?.tagName)) return;
      if (e.key === "ArrowRight") setStep((s) => Math.min(replay.log.length, s + 1));
      if (e.key === "ArrowLeft") setStep((s) => Math.max(0, s - 1));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [replay]);
  // A running review ends with the page.
  useEffect(() => () => (review.kind === "running" ? review.cancel() : undefined), [review]);
  if (error) return <p class="error">{error}</p>;
  if (!replay) return <p class="muted">{tr("r.loading")}</p>;
  const name = (s: number) => replaySeatName(replay.seats, s);
  const roundWord = replay.game === "conference" || replay.game === "trophy-case" ? "Hand" : "Round";
  const log: Json[] = replay.log;
  const at = step === 0 ? null : log[step - 1];
  // A log entry may carry the full state after it; the final state always comes.
  const state = step === 0 ? replay.initial_state : (at?.state ?? (step === log.length ? replay.final_state : null));
  const hands = allHands(state);
  const ctx = { game: replay.game, byCard: new Map(), drawn: null, selected: null, pick: () => {} };
  const startReview = (options: ReviewOptions) => {
    const run = reviewer(text, options);
    let over = false;
    const cancel = () => {
      if (over) return;
      over = true;
      run.cancel();
      setReview({ kind: "idle" });
    };
    setReview({ kind: "running", cancel });
    run.done.then(
      (r) => !over && ((over = true), setReview(reviewResult(r))),
      (e) => !over && ((over = true), setReview({ kind: "failed", why: tr("rv.failed", { error: String(e?.message ?? e) }) })),
    );
  };
  const reviewed = review.kind === "done" ? decisionsBySeq(review.review) : null;
  const atReview = at && reviewed ? reviewed.get(at.seq) : undefined;
  const rows = (replay.rounds ?? []).map((r: Json) => ({ label: `Round ${r.round}`, scores: Array.isArray(r.scores) ? r.scores : [] }));
  return (
    <div class="replay">
      <h2>
        {tr("r.title")} {gameTitle(replay.game)} <span class="muted">· {tr("table.id", { id: replay.table })}</span>
      </h2>
      <p class="replay-help">
        <HelpButton game={replay.game} />
      </p>
      <p>
        {replay.seats?.map((s: Json, i: number) => name(i) + (s.bot && s.name ? tr("r.bot") : "")).join(", ")} ·{" "}
        {tr("r.winners", { names: (replay.winners ?? []).map(name).join(", ") || tr("value.none") })}
      </p>
      <div class="replay-controls">
        <button type="button" onClick={() => setStep(0)} disabled={step === 0} aria-label={tr("r.first")}>«</button>
        <button type="button" onClick={() => setStep(Math.max(0, step - 1))} disabled={step === 0} aria-label={tr("r.previous")}>◀</button>
        <span class="step">
          {tr("r.step", { step, total: log.length })}
        </span>
        <button type="button" onClick={() => setStep(Math.min(log.length, step + 1))} disabled={step === log.length} aria-label={tr("r.next")}>▶</button>
        <button type="button" onClick={() => setStep(log.length)} disabled={step === log.length} aria-label={tr("r.last")}>»</button>
        <input type="range" min={0} max={log.length} value={step} aria-label={tr("r.move")} onInput={(e) => setStep(Number((e.target as HTMLInputElement).value))} />
      </div>
      <p class="replay-where" aria-live="polite">
        {positionText(state, replay.game, roundWord)}
      </p>
      <p class="replay-move">{at ? `${name(at.seat)}: ${describeAction(at.action, replay.game)}${at.auto ? ` (${at.auto})` : ""}` : tr("r.theDeal")}</p>
      {atReview ? <ReviewAt decision={atReview} replay={replay} index={step - 1} /> : null}
      <Pick.Provider value={ctx}>
        {hands ? (
          <section class="replay-hands" aria-label={tr("r.everyHand")}>
            {hands.map((h, i) => (
              <div key={i} class="tableau">
                <span class="who">{name(i)}</span> <Cards ids={h} small inert />
              </div>
            ))}
          </section>
        ) : null}
        {trickCards(state).length ? (
          <section class="area" aria-label={tr("b.trick")}>
            <h3>{tr("b.trick")}</h3>
            <div class="trick">
              {trickCards(state).map((p, i) => (
                <div class="played" key={i}>
                  <Card id={p.card} inert />
                  <span class="who">{typeof p.seat === "number" ? name(p.seat) : (p.player ?? "")}</span>
                </div>
              ))}
            </div>
          </section>
        ) : null}
        {state?.view ? <Board view={state.view} name={name} /> : null}
        {state && Array.isArray(state.scores) ? <p>{tr("r.scores", { list: state.scores.map((x: Json) => JSON.stringify(x)).join(" – ") })}</p> : null}
      </Pick.Provider>
      <ScoreSheet rows={rows} name={name} />
      <ReviewPanel replay={replay} state={review} onStart={startReview} name={name} log={log} current={step} onJump={(i) => i >= 0 && setStep(i + 1)} />
      <FairDeal replay={replay} check={check} />
      <div class="replay-log" aria-label={tr("r.everyMove")}>
        {groupMoves(log, replay.initial_state).map((g, gi) => (
          <section key={gi} class="replay-round">
            <h4>{g.round !== null ? roundLabel(roundWord, g.round) : tr("r.moves")}</h4>
            {g.tricks.map((tg, ti) => (
              <div key={ti} class="replay-trick">
                {tg.trick !== null ? <h5>{tr("r.trick", { n: tg.trick })}</h5> : null}
                <ol start={tg.moves[0] + 1}>
                  {tg.moves.map((i) => {
                    const d = reviewed?.get(log[i].seq);
                    return (
                    <li key={i} class={i === step - 1 ? "current" : ""}>
                      <button type="button" class="link" onClick={() => setStep(i + 1)}>
                        {name(log[i].seat)}: {describeAction(log[i].action, replay.game)}
                        {d ? <> <Mark verdict={d.verdict} /></> : null}
                      </button>
                    </li>
                    );
                  })}
                </ol>
              </div>
            ))}
          </section>
        ))}
      </div>
      <p>
        <a href="/" onClick={(e) => { e.preventDefault(); navigate("/"); }}>{tr("nav.backToLobby")}</a>
      </p>
    </div>
  );
}
