import { useEffect, useState } from "preact/hooks";
import { gameTitle } from "../catalogue";
import { checkDeal, commitmentText, type DealCheck } from "../commitment";
import { describeAction, type Json } from "../words";
import { Board } from "./boards";
import { Card, Cards, Pick } from "./Card";
import { ScoreSheet } from "./Table";

export async function loadReplay(table: string): Promise<Json> {
  for (const url of [`/api/tables/${encodeURIComponent(table)}/replay`, `/api/games/${encodeURIComponent(table)}`]) {
    const r = await fetch(url);
    if (r.ok) return r.json();
    if (r.status === 403) throw new Error("This game is still being played: its replay opens when it is over.");
    if (r.status !== 404) throw new Error(`${url}: ${r.status}`);
  }
  throw new Error("No such game.");
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

/** The deal commitment: what the table published before play, what it revealed, and the browser's check. */
function FairDeal({ table, check }: { table: string; check: DealCheck | null }) {
  if (!check) return <p class="muted">Checking the deal commitment…</p>;
  if (check.kind === "none") {
    return (
      <section class="fair-deal" aria-label="Deal commitment">
        <h3>Deal commitment</h3>
        <p class="muted">This table published no commitment to its deal (it was created before commitments existed).</p>
      </section>
    );
  }
  const verdict =
    check.kind === "match" ? (
      <p class="deal-verdict ok">✓ The revealed seed and salt match the commitment the table published before play.</p>
    ) : check.kind === "mismatch" ? (
      <p class="deal-verdict bad">
        ✗ The revealed seed and salt do <strong>not</strong> match the commitment: SHA-256 gives <code>{check.computed}</code>.
      </p>
    ) : (
      <p class="deal-verdict muted">Not checked here: {check.why}.</p>
    );
  const origin = typeof location === "undefined" ? "http://HOST:PORT" : location.origin;
  return (
    <section class="fair-deal" aria-label="Deal commitment">
      <h3>Deal commitment</h3>
      <dl>
        <dt>Published before play (SHA-256)</dt>
        <dd><code class="deal-hash">{check.hash}</code></dd>
        <dt>Revealed at the end</dt>
        <dd>
          seed <code class="deal-seed">{check.seed}</code>, salt <code class="deal-salt">{check.salt}</code>
        </dd>
        <dt>Hashed text</dt>
        <dd><code>{commitmentText(check.salt, check.seed)}</code></dd>
      </dl>
      {verdict}
      <p class="muted">
        This page checks the commitment only. To replay the deal from the seed and every move through the rules engine,
        run <code>casa verify {table} --url {origin}</code> (see docs/fair-play.md).
      </p>
    </section>
  );
}

export function ReplayPage({ id, navigate }: { id: string; navigate: (p: string) => void }) {
  const [replay, setReplay] = useState<Json | null>(null);
  const [error, setError] = useState("");
  const [step, setStep] = useState(0);
  const [deal, setDeal] = useState<DealCheck | null>(null);
  useEffect(() => {
    loadReplay(id).then(
      (r) => {
        setReplay(r);
        setStep(r.log.length);
        checkDeal(r).then(setDeal, (e) =>
          setDeal({ kind: "unavailable", hash: r.deal_commitment?.hash ?? "", seed: r.deal?.seed ?? "", salt: r.deal?.salt ?? "", why: String(e?.message ?? e) }),
        );
      },
      (e) => setError(String(e.message ?? e)),
    );
  }, [id]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!replay || (e.target as HTMLElement)?.tagName === "INPUT") return;
      if (e.key === "ArrowRight") setStep((s) => Math.min(replay.log.length, s + 1));
      if (e.key === "ArrowLeft") setStep((s) => Math.max(0, s - 1));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [replay]);
  if (error) return <p class="error">{error}</p>;
  if (!replay) return <p class="muted">Loading the replay…</p>;
  const name = (s: number) => (s === -1 ? "the Robot" : (replay.seats?.[s]?.name ?? replay.seats?.[s]?.bot ?? `Seat ${s + 1}`));
  const log: Json[] = replay.log;
  const at = step === 0 ? null : log[step - 1];
  // A log entry may carry the full state after it; the final state always comes.
  const state = step === 0 ? replay.initial_state : (at?.state ?? (step === log.length ? replay.final_state : null));
  const hands = allHands(state);
  const ctx = { game: replay.game, byCard: new Map(), drawn: null, selected: null, pick: () => {} };
  const rows = (replay.rounds ?? []).map((r: Json) => ({ label: `Round ${r.round}`, scores: Array.isArray(r.scores) ? r.scores : [] }));
  return (
    <div class="replay">
      <h2>
        Replay: {gameTitle(replay.game)} <span class="muted">· table {replay.table}</span>
      </h2>
      <p>
        {replay.seats?.map((s: Json, i: number) => name(i) + (s.bot ? " (bot)" : "")).join(", ")} · winners:{" "}
        {(replay.winners ?? []).map(name).join(", ") || "none"}
      </p>
      <div class="replay-controls">
        <button type="button" onClick={() => setStep(0)} disabled={step === 0} aria-label="First move">«</button>
        <button type="button" onClick={() => setStep(Math.max(0, step - 1))} disabled={step === 0} aria-label="Previous move">◀</button>
        <span class="step">
          Move {step} of {log.length}
        </span>
        <button type="button" onClick={() => setStep(Math.min(log.length, step + 1))} disabled={step === log.length} aria-label="Next move">▶</button>
        <button type="button" onClick={() => setStep(log.length)} disabled={step === log.length} aria-label="Last move">»</button>
        <input type="range" min={0} max={log.length} value={step} aria-label="Move" onInput={(e) => setStep(Number((e.target as HTMLInputElement).value))} />
      </div>
      <p class="replay-move">{at ? `${name(at.seat)}: ${describeAction(at.action, replay.game)}${at.auto ? ` (${at.auto})` : ""}` : "The deal."}</p>
      <Pick.Provider value={ctx}>
        {hands ? (
          <section class="replay-hands" aria-label="Every hand">
            {hands.map((h, i) => (
              <div key={i} class="tableau">
                <span class="who">{name(i)}</span> <Cards ids={h} small inert />
              </div>
            ))}
          </section>
        ) : null}
        {trickCards(state).length ? (
          <section class="area" aria-label="Trick">
            <h3>Trick</h3>
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
        {state && Array.isArray(state.scores) ? <p>Scores: {state.scores.map((x: Json) => JSON.stringify(x)).join(" – ")}</p> : null}
      </Pick.Provider>
      <ScoreSheet rows={rows} name={name} />
      <FairDeal table={replay.table} check={deal} />
      <ol class="replay-log" aria-label="Every move">
        {log.map((e, i) => (
          <li key={i} class={i === step - 1 ? "current" : ""}>
            <button type="button" class="link" onClick={() => setStep(i + 1)}>
              {name(e.seat)}: {describeAction(e.action, replay.game)}
            </button>
          </li>
        ))}
      </ol>
      <p>
        <a href="/" onClick={(e) => { e.preventDefault(); navigate("/"); }}>Back to the lobby</a>
      </p>
    </div>
  );
}
