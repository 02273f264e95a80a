// SPDX-License-Identifier: AGPL-3.0-or-later
import { useEffect, useState } from "preact/hooks";
import { gameTitle } from "../catalogue";
import { plural, type Json } from "../words";

export async function loadEvent(event: string): Promise<Json> {
  const r = await fetch(`/api/events/${encodeURIComponent(event)}`);
  if (r.ok) return r.json();
  if (r.status === 404) throw new Error("No such event.");
  throw new Error(`/api/events/${event}: ${r.status}`);
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** A duplicate event (docs/events.md): standings against the field, then each board. */
export function EventView({ event, navigate }: { event: Json; navigate: (p: string) => void }) {
  const sides: Json[] = event.sides ?? [];
  const sideName = (s: number) => sides[s]?.name || `Side ${s + 1}`;
  const link = (href: string, text: string) => (
    <a href={href} onClick={(e) => { e.preventDefault(); navigate(href); }}>{text}</a>
  );
  return (
    <div class="event">
      <h2>
        Duplicate event: {gameTitle(event.game)} <span class="muted">· {plural(event.players, "player")} · {plural(event.boards, "board")} · {event.status === "over" ? "over" : "running"}</span>
      </h2>
      <section aria-label="Standings">
        <h3>Standings</h3>
        <table class="sheet standings">
          <thead>
            <tr><th>#</th><th>Side</th><th>Against the field</th><th>Points</th><th>Hands</th></tr>
          </thead>
          <tbody>
            {(event.standings ?? []).map((row: Json) => (
              <tr key={row.side} data-side={row.side}>
                <td>{row.rank}</td>
                <td>{row.name || sideName(row.side)}</td>
                <td class="total">{signed(row.total)}</td>
                <td>{row.points}</td>
                <td>{row.hands}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {(event.results ?? []).map((board: Json) => {
        const tables = (event.tables ?? []).filter((t: Json) => t.board === board.board);
        return (
          <section key={board.board} class="event-board" aria-label={`Board ${board.board}`}>
            <h3>Board {board.board}</h3>
            {board.revealed ? (
              <table class="sheet board-results">
                <thead>
                  <tr><th>Table</th><th>Side</th><th>Score</th><th>Difference</th></tr>
                </thead>
                <tbody>
                  {(board.differences ?? []).map((d: Json) => {
                    const t = tables.find((x: Json) => x.rotation === d.rotation);
                    return (
                      <tr key={`${d.side}-${d.rotation}`}>
                        <td>{t?.table ? link(`/replay/${t.table}`, `Table ${d.rotation + 1}`) : `Table ${d.rotation + 1}`}</td>
                        <td>{sideName(d.side)}</td>
                        <td>{d.score}</td>
                        <td class="difference">{signed(d.difference)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            ) : (
              <p class="muted">
                Hidden until every table has played it ·{" "}
                {tables.map((t: Json) => `table ${t.rotation + 1}: ${t.status.replace("_", " ")}`).join(", ")}
              </p>
            )}
          </section>
        );
      })}
      <p>{link("/", "Back to the lobby")}</p>
    </div>
  );
}

export function EventPage({ id, navigate }: { id: string; navigate: (p: string) => void }) {
  const [event, setEvent] = useState<Json | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    let live = true;
    const load = () =>
      loadEvent(id).then(
        (e) => {
          if (!live) return;
          setEvent(e);
          if (e.status !== "over") timer = setTimeout(load, 3000);
        },
        (e) => live && setError(String(e.message ?? e)),
      );
    let timer: ReturnType<typeof setTimeout> | undefined;
    load();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [id]);
  if (error) return <p class="error">{error}</p>;
  if (!event) return <p class="muted">Loading the event…</p>;
  return <EventView event={event} navigate={navigate} />;
}
