// SPDX-License-Identifier: AGPL-3.0-or-later
// "Your games" (docs/protocol.md, "Your games"): the lobby's list of this player's
// unfinished tables, from the server (the same on every device with the token):
// those waiting for you first, with whose turn it is and the time left.
import { useEffect, useState } from "preact/hooks";
import type { App } from "../app";
import { gameTitle, type GameInfo } from "../catalogue";
import { formatDuration } from "../pace";
import type { MyTable } from "../store";
import { t as tr } from "../i18n";

/** How often the panel asks the server again, and redraws its times left. */
const REFRESH_MS = 60_000;
const TICK_MS = 1_000;

/** The names of the seats a table waits for (seat numbers for unnamed ones). */
export function waitingFor(t: MyTable): string {
  const names = t.turn.map((seat) => t.seats?.find((s) => s.seat === seat)?.name ?? tr("seat.empty", { n: seat + 1 }));
  return names.join(", ");
}

/** Milliseconds left on the table's clock `now`, or null when it has none. */
export function timeLeft(t: MyTable, listedAt: number, now = Date.now()): number | null {
  if (typeof t.remaining_ms !== "number") return null;
  return Math.max(0, t.remaining_ms - (now - listedAt));
}

export function GameLine({ t, listedAt, catalogue, open, now }: { t: MyTable; listedAt: number; catalogue?: GameInfo[]; open: (id: string) => void; now?: number }) {
  const left = timeLeft(t, listedAt, now);
  return (
    <li class={`my-table${t.your_turn ? " your-move" : ""}`} data-table={t.table}>
      {/* One span: the list's rows spread their children apart. */}
      <span>
      <a href={`/table/${t.table}`} onClick={(e) => { e.preventDefault(); open(t.table); }}>
        <b>{gameTitle(t.game, catalogue)}</b>
      </a>{" "}
      {t.correspondence ? <span class="tag">{tr("lobby.correspondence")}</span> : null}{" "}
      {t.your_turn ? (
        <b class="your-turn">{tr("lobby.yourMove")}</b>
      ) : t.status === "waiting" ? (
        <span class="muted">{tr("lobby.waitingPlayers")}</span>
      ) : t.turn.length ? (
        <span>{tr("lobby.waitingFor", { names: waitingFor(t) })}</span>
      ) : null}
      {left !== null ? <span class={`time-left${t.your_turn && left < 3600_000 ? " urgent" : ""}`}> · {tr("lobby.timeLeft", { time: formatDuration(left) })}</span> : null}
      </span>
    </li>
  );
}

export function YourGames({ app, catalogue }: { app: App; catalogue?: GameInfo[] }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    app.refreshMyTables();
    const again = setInterval(() => app.refreshMyTables(), REFRESH_MS);
    const tick = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => {
      clearInterval(again);
      clearInterval(tick);
    };
  }, []);
  const list = app.state.myTables;
  if (!list || list.length === 0) return null;
  return (
    <section class="your-games" aria-label={tr("lobby.yourGames")}>
      <h2>{tr("lobby.yourGames")}</h2>
      <ul class="table-list">
        {list.map((t) => (
          <GameLine key={t.table} t={t} listedAt={app.state.myTablesAt} catalogue={catalogue} open={(id) => app.navigate(`/table/${id}`)} now={now} />
        ))}
      </ul>
    </section>
  );
}
