// SPDX-License-Identifier: AGPL-3.0-or-later
// The leaderboard of one game (ratings with their deviation, a provisional
// mark, the solo table) and a player's public profile. Both read the server's
// HTTP API (docs/protocol.md, HTTP); neither ever shows a card.
import { useEffect, useState } from "preact/hooks";
import { gameTitle } from "../catalogue";
import { plural, type Json } from "../words";

export const LEADERBOARD_GAMES = ["la-casa", "casino", "conference", "trophy-case"];

async function getJson(url: string): Promise<Json> {
  const r = await fetch(url, { headers: { Accept: "application/json" } });
  if (r.status === 404) throw new Error("Not found.");
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
      <h2>Leaderboard</h2>
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
        A game counts for these ratings when every seat is a person. To rate a game with bots, choose{" "}
        <b>Ratings: rated, bots too</b> in the create form (the bots then hold ratings of their own). Solo games
        against the Robot are listed apart.
      </p>
      {error ? <p class="error">{error}</p> : !board ? <p class="muted">Loading…</p> : <RatingTable board={board} navigate={navigate} />}
      {board?.solo?.length ? <SoloTable rows={board.solo} navigate={navigate} /> : null}
    </div>
  );
}

function RatingTable({ board, navigate }: { board: Json; navigate: Nav }) {
  const rows: Json[] = board.ratings ?? [];
  if (!rows.length)
    return (
      <p class="muted">
        No rated games of {gameTitle(board.game)} yet: games with bots are unrated unless their creator asked for a rating.
      </p>
    );
  const anyProvisional = rows.some((r) => r.provisional);
  return (
    <table class="ratings">
      <thead>
        <tr><th>#</th><th>Player</th><th>Rating</th><th>Games</th></tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={r.player_id} class={r.provisional ? "provisional" : ""}>
            <td>{i + 1}</td>
            <td><Link to={profilePath(r.player_id)} navigate={navigate}>{r.name}</Link></td>
            <td class="rating">
              {ratingText(r)}
              {r.provisional ? <abbr class="prov" title="Provisional: fewer games than needed for a settled rating" aria-label="provisional">?</abbr> : null}
            </td>
            <td>{r.games}</td>
          </tr>
        ))}
      </tbody>
      {anyProvisional ? (
        <caption class="prov-note">
          <span aria-hidden="true">?</span> provisional: too few games yet for a settled rating, so it still moves a lot.
        </caption>
      ) : null}
    </table>
  );
}

function SoloTable({ rows, navigate }: { rows: Json[]; navigate: Nav }) {
  return (
    <>
      <h3>Solo against the Robot</h3>
      <table class="ratings solo">
        <thead>
          <tr><th>Player</th><th>Games</th><th>Won</th><th>Best score</th></tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.player_id}>
              <td><Link to={profilePath(s.player_id)} navigate={navigate}>{s.name}</Link></td>
              <td>{s.games}</td>
              <td>{Math.round(s.win_rate * 100)} %</td>
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
  if (error) return <p class="error">{error === "Not found." ? "No such player." : error}</p>;
  if (!p) return <p class="muted">Loading…</p>;
  return (
    <div class="profile">
      <h2>{p.name}</h2>
      {p.ratings.length ? (
        <table class="ratings">
          <thead><tr><th>Game</th><th>Rating</th><th>Games</th></tr></thead>
          <tbody>
            {p.ratings.map((r: Json) => (
              <tr key={r.game} class={r.provisional ? "provisional" : ""}>
                <td><Link to={`/leaderboard/${r.game}`} navigate={navigate}>{gameTitle(r.game)}</Link></td>
                <td class="rating">
                  {ratingText(r)}
                  {r.provisional ? <abbr class="prov" title="Provisional" aria-label="provisional">?</abbr> : null}
                  {r.provisional ? <span class="prov-inline"> (provisional)</span> : null}
                </td>
                <td>{r.games}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No rated games yet.</p>
      )}
      {p.solo.map((s: Json) => (
        <p key={s.game} class="solo-record">
          {gameTitle(s.game)} Solo: {s.wins} won of {s.games}, best score {s.best_score}.
        </p>
      ))}
      <h3>Recent games</h3>
      {p.recent.length ? (
        <ul class="table-list recent">
          {p.recent.map((g: Json) => (
            <li key={g.table}>
              <span>
                {gameTitle(g.game)}, {plural(g.players, "player")}: {g.winner ? "won" : "lost"}, score {g.score}
                {g.rated ? ` (${Math.round(g.rating_before)} → ${Math.round(g.rating_after)})` : ""}
              </span>
              <Link to={`/replay/${encodeURIComponent(g.table)}`} navigate={navigate}>Replay</Link>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No finished games yet.</p>
      )}
    </div>
  );
}
