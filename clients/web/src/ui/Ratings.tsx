// SPDX-License-Identifier: AGPL-3.0-or-later
// The leaderboard of one game (ratings with their deviation, a provisional
// mark, the solo table) and a player's public profile. Both read the server's
// HTTP API (docs/protocol.md, HTTP); neither ever shows a card.
import { useEffect, useState } from "preact/hooks";
import { gameTitle } from "../catalogue";
import { formatNumber, t as tr } from "../i18n";
import { plural, type Json } from "../words";

/** The error of a 404, told apart from the server's own messages. */
const NOT_FOUND = "Not found.";

export const LEADERBOARD_GAMES = ["la-casa", "casino", "conference", "trophy-case"];

async function getJson(url: string): Promise<Json> {
  const r = await fetch(url, { headers: { Accept: "application/json" } });
  if (r.status === 404) throw new Error(NOT_FOUND);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}

export const loadLeaderboard = (game: string) => getJson(`/api/leaderboard?game=${encodeURIComponent(game)}`);
export const loadProfile = (id: string) => getJson(`/api/players/${encodeURIComponent(id)}`);

/** "1662 ± 290": the rating and deviation rounded for people. */
export function ratingText(r: Json): string {
  return `${Math.round(r.rating)} ± ${Math.round(r.deviation)}`;
}

export function profilePath(id: string): string {
  return `/players/${encodeURIComponent(id)}`;
}

type Nav = (path: string) => void;

function Link({ to, navigate, children }: { to: string; navigate: Nav; children: preact.ComponentChildren }) {
  return (
    <a href={to} onClick={(e) => { e.preventDefault(); navigate(to); }}>
      {children}
    </a>
  );
}

/** Hook: loads `url`'s JSON once per key; returns [data, error]. */
function useJson(load: () => Promise<Json>, key: string): [Json | null, string] {
  const [data, setData] = useState<Json | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    setData(null);
    setError("");
    load().then(setData, (e) => setError(String(e.message ?? e)));
  }, [key]);
  return [data, error];
}

export function LeaderboardPage({ game, navigate }: { game: string; navigate: Nav }) {
  const [board, error] = useJson(() => loadLeaderboard(game), game);
  return (
    <div class="leaderboard">
      <h2>{tr("nav.leaderboard")}</h2>
      <nav class="game-tabs">
        {LEADERBOARD_GAMES.map((g) => (
          <a
            key={g}
            href={`/leaderboard/${g}`}
            class={g === game ? "current" : ""}
            aria-current={g === game ? "page" : undefined}
            onClick={(e) => { e.preventDefault(); navigate(`/leaderboard/${g}`); }}
          >
            {gameTitle(g)}
          </a>
        ))}
      </nav>
      <p class="rating-rules">
        {tr("lb.rulesBefore")} <b>{tr("lb.rulesChoice")}</b> {tr("lb.rulesAfter")}
      </p>
      {error ? <p class="error">{error === NOT_FOUND ? tr("lb.notFound") : error}</p> : !board ? <p class="muted">{tr("lb.loading")}</p> : <RatingTable board={board} navigate={navigate} />}
      {board?.solo?.length ? <SoloTable rows={board.solo} navigate={navigate} /> : null}
    </div>
  );
}

function RatingTable({ board, navigate }: { board: Json; navigate: Nav }) {
  const rows: Json[] = board.ratings ?? [];
  if (!rows.length)
    return (
      <p class="muted">
        {tr("lb.none", { game: gameTitle(board.game) })}
      </p>
    );
  const anyProvisional = rows.some((r) => r.provisional);
  return (
    <table class="ratings">
      <thead>
        <tr><th>#</th><th>{tr("lb.player")}</th><th>{tr("lb.rating")}</th><th>{tr("lb.games")}</th></tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={r.player_id} class={r.provisional ? "provisional" : ""}>
            <td>{i + 1}</td>
            <td><Link to={profilePath(r.player_id)} navigate={navigate}>{r.name}</Link></td>
            <td class="rating">
              {ratingText(r)}
              {r.provisional ? <abbr class="prov" title={tr("lb.provTitle")} aria-label={tr("lb.prov")}>?</abbr> : null}
            </td>
            <td>{r.games}</td>
          </tr>
        ))}
      </tbody>
      {anyProvisional ? (
        <caption class="prov-note">
          <span aria-hidden="true">?</span> {tr("lb.provNote")}
        </caption>
      ) : null}
    </table>
  );
}

function SoloTable({ rows, navigate }: { rows: Json[]; navigate: Nav }) {
  return (
    <>
      <h3>{tr("lb.solo")}</h3>
      <table class="ratings solo">
        <thead>
          <tr><th>{tr("lb.player")}</th><th>{tr("lb.games")}</th><th>{tr("lb.won")}</th><th>{tr("lb.best")}</th></tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.player_id}>
              <td><Link to={profilePath(s.player_id)} navigate={navigate}>{s.name}</Link></td>
              <td>{s.games}</td>
              <td>{formatNumber(Math.round(s.win_rate * 100))} %</td>
              <td>{s.best_score}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function ProfilePage({ id, navigate }: { id: string; navigate: Nav }) {
  const [p, error] = useJson(() => loadProfile(id), id);
  if (error) return <p class="error">{error === NOT_FOUND ? tr("lb.noPlayer") : error}</p>;
  if (!p) return <p class="muted">{tr("lb.loading")}</p>;
  return (
    <div class="profile">
      <h2>{p.name}</h2>
      {p.ratings.length ? (
        <table class="ratings">
          <thead><tr><th>{tr("lb.game")}</th><th>{tr("lb.rating")}</th><th>{tr("lb.games")}</th></tr></thead>
          <tbody>
            {p.ratings.map((r: Json) => (
              <tr key={r.game} class={r.provisional ? "provisional" : ""}>
                <td><Link to={`/leaderboard/${r.game}`} navigate={navigate}>{gameTitle(r.game)}</Link></td>
                <td class="rating">
                  {ratingText(r)}
                  {r.provisional ? <abbr class="prov" title={tr("lb.provShort")} aria-label={tr("lb.prov")}>?</abbr> : null}
                  {r.provisional ? <span class="prov-inline">{tr("lb.provInline")}</span> : null}
                </td>
                <td>{r.games}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">{tr("lb.noRated")}</p>
      )}
      {p.solo.map((s: Json) => (
        <p key={s.game} class="solo-record">
          {tr("lb.soloRecord", { game: gameTitle(s.game), wins: s.wins, games: s.games, best: s.best_score })}
        </p>
      ))}
      <h3>{tr("lb.recent")}</h3>
      {p.recent.length ? (
        <ul class="table-list recent">
          {p.recent.map((g: Json) => (
            <li key={g.table}>
              <span>
                {tr("lb.recentLine", { game: gameTitle(g.game), players: plural(g.players, "player"), result: g.winner ? tr("lb.wonOne") : tr("lb.lost"), score: g.score })}
                {g.rated ? ` (${Math.round(g.rating_before)} → ${Math.round(g.rating_after)})` : ""}
              </span>
              <Link to={`/replay/${encodeURIComponent(g.table)}`} navigate={navigate}>{tr("lb.replay")}</Link>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">{tr("lb.noFinished")}</p>
      )}
    </div>
  );
}
