// SPDX-License-Identifier: AGPL-3.0-or-later
import { useEffect, useState } from "preact/hooks";
import { gameTitle } from "../catalogue";
import { t as tr } from "../i18n";
import { plural, type Json } from "../words";
import { statusWord } from "./Lobby";

export async function loadEvent(event: string): Promise<Json> {
  const r = await fetch(`/api/events/${encodeURIComponent(event)}`);
  if (r.ok) return r.json();
  if (r.status === 404) throw new Error(tr("ev.noSuch"));
  throw new Error(`/api/events/${event}: ${r.status}`);
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** A duplicate event (docs/events.md): standings against the field, then each board. */
export function EventView({ event, navigate }: { event: Json; navigate: (p: string) => void }) {
  const sides: Json[] = event.sides ?? [];
  const sideName = (s: number) => sides[s]?.name || tr("ev.side", { n: s + 1 });
  const link = (href: string, text: string) => (
    <a href={href} onClick={(e) => { e.preventDefault(); navigate(href); }}>{text}</a>
  );
  return (
    <div class="event">
      <h2>
        {tr("ev.title")} {gameTitle(event.game)} <span class="muted">· {plural(event.players, "player")} · {tr("ev.boards", { n: event.boards })} · {event.status === "over" ? tr("ev.over") : tr("ev.running")}</span>
      </h2>
      <section aria-label={tr("ev.standings")}>
        <h3>{tr("ev.standings")}</h3>
        <table class="sheet standings">
          <thead>
            <tr><th>#</th><th>{tr("ev.sideCol")}</th><th>{tr("ev.field")}</th><th>{tr("ev.points")}</th><th>{tr("ev.hands")}</th></tr>
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
          <section key={board.board} class="event-board" aria-label={tr("ev.board", { n: board.board })}>
            <h3>{tr("ev.board", { n: board.board })}</h3>
            {board.revealed ? (
              <table class="sheet board-results">
                <thead>
                  <tr><th>{tr("ev.table")}</th><th>{tr("ev.sideCol")}</th><th>{tr("ev.score")}</th><th>{tr("ev.difference")}</th></tr>
                </thead>
                <tbody>
                  {(board.differences ?? []).map((d: Json) => {
                    const t = tables.find((x: Json) => x.rotation === d.rotation);
                    return (
                      <tr key={`${d.side}-${d.rotation}`}>
                        <td>{t?.table ? link(`/replay/${t.table}`, tr("ev.tableN", { n: d.rotation + 1 })) : tr("ev.tableN", { n: d.rotation + 1 })}</td>
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
                {tr("ev.hidden")}{" "}
                {tables.map((t: Json) => tr("ev.tableStatus", { n: t.rotation + 1, status: statusWord(t.status) })).join(", ")}
              </p>
            )}
          </section>
        );
      })}
      <p>{link("/", tr("nav.backToLobby"))}</p>
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
  if (!event) return <p class="muted">{tr("ev.loading")}</p>;
  return <EventView event={event} navigate={navigate} />;
}
