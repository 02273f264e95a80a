// SPDX-License-Identifier: AGPL-3.0-or-later
// Creating a duplicate event (docs/events.md) from the lobby: the game, the
// boards and who sits for each side, a server bot or a player named by id.
// The page knows no rule: it offers every split of the seats into equal sides,
// and whatever the server refuses (a split the game does not have, an unknown
// player) comes back in the server's own words.
import { useState } from "preact/hooks";
import type { App } from "../app";
import type { Outgoing } from "../net";
import { gameTitle, type GameInfo } from "../catalogue";
import { t as tr } from "../i18n";
import { plural, type Json } from "../words";

export interface MemberChoice {
  kind: string; // a bot name, "me", or "player"
  id: string; // the player id when kind is "player"
}

/** The create_event message of the form's choices. */
export function eventMessage(
  game: string, players: number, boards: number, sides: { name: string; members: MemberChoice[] }[], me: string,
): Outgoing<"create_event"> {
  return {
    type: "create_event", game, players, boards,
    sides: sides.map((s) => {
      const side: Outgoing<"create_event">["sides"][number] = {
        members: s.members.map((m) =>
          m.kind === "me" ? { player_id: me } : m.kind === "player" ? { player_id: m.id.trim() } : { bot: m.kind }),
      };
      if (s.name.trim()) side.name = s.name.trim();
      return side;
    }),
  };
}

/** The ways `players` seats split into equal sides: [sides, members per side]. */
export function splits(players: number): [number, number][] {
  const out: [number, number][] = [];
  for (let per = 1; per <= players; per++) if (players % per === 0 && players / per >= 2) out.push([players / per, per]);
  return out;
}

export function EventForm({ app, catalogue }: { app: App; catalogue: GameInfo[] }) {
  const games = catalogue.filter((g) => g.players.some((n) => n >= 2));
  const [game, setGame] = useState(games[0]?.name ?? "");
  const info = games.find((g) => g.name === game);
  const counts = (info?.players ?? []).filter((n) => n >= 2);
  const [players, setPlayers] = useState(counts[0] ?? 2);
  const [split, setSplit] = useState(0);
  const [boards, setBoards] = useState(1);
  const [names, setNames] = useState<string[]>([]);
  const [members, setMembers] = useState<Record<string, MemberChoice>>({});
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const options = splits(players);
  const [sideCount, per] = options[Math.min(split, options.length - 1)] ?? [players, 1];
  const bots: string[] = app.state.bots.length ? app.state.bots : ["robot"];
  const member = (s: number, i: number): MemberChoice => members[`${s}.${i}`] ?? { kind: s === 0 && i === 0 ? "me" : bots.includes("robot") ? "robot" : bots[0], id: "" };
  const setMember = (s: number, i: number, m: MemberChoice) => setMembers({ ...members, [`${s}.${i}`]: m });
  const me = app.state.me?.player_id ?? "";
  return (
    <details class="event-form">
      <summary>{tr("evf.summary")}</summary>
      <p class="muted">
        {tr("evf.intro")} <code class="player-id">{me}</code>.
      </p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setError("");
          setBusy(true);
          const sides = Array.from({ length: sideCount }, (_, s) => ({
            name: names[s] ?? "",
            members: Array.from({ length: per }, (_, i) => member(s, i)),
          }));
          try {
            const r = await app.conn.request(eventMessage(game, players, boards, sides, me));
            app.navigate(`/event/${r.event}`);
          } catch (err) {
            setError((err as Json)?.message ?? String(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <label>
          {tr("evf.game")}{" "}
          <select id="event-game" value={game} onChange={(e) => { setGame((e.target as HTMLSelectElement).value); setSplit(0); }}>
            {games.map((g) => <option key={g.name} value={g.name}>{gameTitle(g.name, games)}</option>)}
          </select>
        </label>{" "}
        <label>
          {tr("evf.players")}{" "}
          <select id="event-players" value={players} onChange={(e) => { setPlayers(Number((e.target as HTMLSelectElement).value)); setSplit(0); }}>
            {counts.map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </label>{" "}
        <label>
          {tr("evf.sides")}{" "}
          <select id="event-sides" value={split} onChange={(e) => setSplit(Number((e.target as HTMLSelectElement).value))}>
            {options.map(([n, p], i) => <option key={i} value={i}>{tr("evf.split", { n, players: plural(p, "player") })}</option>)}
          </select>
        </label>{" "}
        <label>
          {tr("evf.boards")}{" "}
          <input id="event-boards" type="number" min={1} max={32} value={boards} onInput={(e) => setBoards(Number((e.target as HTMLInputElement).value))} />
        </label>
        {Array.from({ length: sideCount }, (_, s) => (
          <fieldset key={`${s}-${sideCount}`} class="event-side">
            <legend>{tr("ev.side", { n: s + 1 })}</legend>
            <input aria-label={tr("evf.sideName", { n: s + 1 })} placeholder={tr("ev.side", { n: s + 1 })} maxLength={32} value={names[s] ?? ""}
              onInput={(e) => { const n = [...names]; n[s] = (e.target as HTMLInputElement).value; setNames(n); }} />
            {Array.from({ length: per }, (_, i) => {
              const m = member(s, i);
              return (
                <span key={i} class="event-member">
                  {" "}
                  <select aria-label={tr("evf.member", { n: s + 1, m: i + 1 })} value={m.kind} onChange={(e) => setMember(s, i, { ...m, kind: (e.target as HTMLSelectElement).value })}>
                    <option value="me">{tr("evf.me")}</option>
                    {bots.map((b) => <option key={b} value={b}>{tr("evf.bot", { bot: b })}</option>)}
                    <option value="player">{tr("evf.player")}</option>
                  </select>
                  {m.kind === "player" ? (
                    <input aria-label={tr("evf.memberId", { n: s + 1, m: i + 1 })} placeholder="p…" value={m.id}
                      onInput={(e) => setMember(s, i, { ...m, id: (e.target as HTMLInputElement).value })} />
                  ) : null}
                </span>
              );
            })}
          </fieldset>
        ))}
        <button type="submit" name="create-event" disabled={busy || !me}>{tr("evf.create")}</button>
        {error ? <p class="error" role="alert">{error}</p> : null}
      </form>
    </details>
  );
}
