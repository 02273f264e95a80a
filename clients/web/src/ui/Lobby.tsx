// SPDX-License-Identifier: AGPL-3.0-or-later
import { useEffect, useState } from "preact/hooks";
import type { App } from "../app";
import { choicesAt, effectiveFormat, fieldApplies, gameTitle, loadCatalogue, parseText, type GameInfo, type OptionField } from "../catalogue";
import { savedName } from "../net";
import { choiceWords, optionWords } from "../optionWords";
import { EventForm } from "./EventForm";
import type { Json } from "../words";
import { HelpLinks } from "./Help";
import { UI as HELP_UI } from "../help/content";

export function NameForm({ app }: { app: App }) {
  const [name, setName] = useState(savedName() || app.state.me?.name || "");
  return (
    <form
      class="name-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) app.setName(name.trim());
      }}
    >
      <label>
        Your name{" "}
        <input name="name" required maxLength={32} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </label>
      <button type="submit">Save</button>
    </form>
  );
}

function FieldInput({ f, value, set, players, game }: { f: OptionField; value: unknown; set: (v: unknown) => void; players: number; game: string }) {
  const id = `opt-${f.key}`;
  const plain = f.testing ? null : optionWords(game, f.key);
  const help = plain ? (
    <small id={`${id}-help`}>
      {plain}{" "}
      {f.description ? (
        <details class="rules-ref">
          <summary>Rules reference</summary>
          {f.description}
        </details>
      ) : null}
    </small>
  ) : f.description ? (
    <small id={`${id}-help`}>{f.description}</small>
  ) : null;
  if (f.kind === "boolean")
    return (
      <div class="field">
        <label class="inline" for={id}>
          <input id={id} name={f.key} type="checkbox" checked={value === undefined ? !!f.default : !!value} onChange={(e) => set((e.target as HTMLInputElement).checked)} />{" "}
          {f.label}
        </label>
        {help}
      </div>
    );
  if (f.kind === "select") {
    const choices = choicesAt(f, players);
    return (
      <div class="field">
        <label for={id}>{f.label}</label>
        <select
          id={id}
          name={f.key}
          value={value === undefined ? "" : String(choices.findIndex((c) => c.value === value))}
          onChange={(e) => {
            const v = (e.target as HTMLSelectElement).value;
            set(v === "" ? undefined : choices[Number(v)].value);
          }}
        >
          {/* The default is one of the choices: listed once, as the usual one. */}
          {choices.some((c) => c.value === f.default) ? null : <option value="">{f.default !== undefined && f.default !== null ? `usual (${String(f.default)})` : "not set"}</option>}
          {choices.map((c, i) => (
            <option value={c.value === f.default ? "" : String(i)} key={i}>
              {choiceWords(game, f.key, c.value) ?? c.label}
              {c.value === f.default ? " (usual)" : ""}
            </option>
          ))}
        </select>
        {help}
      </div>
    );
  }
  if (f.kind === "number")
    return (
      <div class="field">
        <label for={id}>{f.label}</label>
        <input
          id={id}
          name={f.key}
          type="number"
          min={f.min}
          max={f.max}
          placeholder={f.default !== undefined ? String(f.default) : ""}
          value={value === undefined ? "" : String(value)}
          onInput={(e) => {
            const t = (e.target as HTMLInputElement).value;
            set(t === "" ? undefined : Number(t));
          }}
        />
        {help}
      </div>
    );
  return (
    <div class="field">
      <label for={id}>{f.label}</label>
      <input id={id} name={f.key} type="text" onInput={(e) => set(parseText(f, (e.target as HTMLInputElement).value))} />
      {help}
    </div>
  );
}

function CreateForm({ app, catalogue }: { app: App; catalogue: GameInfo[] }) {
  const [game, setGame] = useState(catalogue[0]?.name ?? "la-casa");
  const info = catalogue.find((g) => g.name === game);
  const counts = info?.players.length ? info.players : [1, 2, 3, 4, 5];
  const [players, setPlayers] = useState<number>(counts.includes(4) ? 4 : counts[0]);
  const [options, setOptions] = useState<Record<string, unknown>>({});
  const [priv, setPriv] = useState(false);
  const [timer, setTimer] = useState("");
  const [grace, setGrace] = useState("");
  const [takeover, setTakeover] = useState("");
  const [rated, setRated] = useState("");
  const playersOk = counts.includes(players) ? players : counts[0];
  const message = (): Json => {
    const opts: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(options)) if (v !== undefined && fields.some((f) => f.key === k)) opts[k] = v;
    const m: Json = { game, players: playersOk, options: opts };
    if (priv) m.private = true;
    if (timer) m.move_timeout_seconds = Number(timer);
    if (rated) m.rated = rated === "true";
    if (grace || takeover) {
      m.disconnect_policy = {};
      if (grace) m.disconnect_policy.grace_seconds = Number(grace);
      if (takeover) m.disconnect_policy.takeover = takeover;
    }
    return m;
  };
  const format = effectiveFormat(info?.fields ?? [], playersOk, options);
  const fields = (info?.fields ?? []).filter((f) => fieldApplies(f, playersOk, format));
  return (
    <form
      class="create-form"
      aria-label="Create a table"
      onSubmit={(e) => {
        e.preventDefault();
        const bots = (e as SubmitEvent).submitter?.getAttribute("name") === "play-now";
        app.createTable(message(), bots);
      }}
    >
      <h2>New table</h2>
      <div class="field">
        <label for="game">Game</label>
        <select
          id="game"
          name="game"
          value={game}
          onChange={(e) => {
            setGame((e.target as HTMLSelectElement).value);
            setOptions({});
          }}
        >
          {(catalogue.length ? catalogue.map((g) => g.name) : app.state.games).map((g) => (
            <option value={g} key={g}>
              {gameTitle(g, catalogue)}
            </option>
          ))}
        </select>
        {info?.description ? <small>{info.description}</small> : null}
      </div>
      <div class="field">
        <label for="players">Players</label>
        <select id="players" name="players" value={String(playersOk)} onChange={(e) => setPlayers(Number((e.target as HTMLSelectElement).value))}>
          {counts.map((n) => (
            <option value={String(n)} key={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      {fields
        .filter((f) => !f.testing)
        .map((f) => (
          <FieldInput key={game + f.key} f={f} value={options[f.key]} set={(v) => setOptions({ ...options, [f.key]: v })} players={playersOk} game={game} />
        ))}
      <div class="field">
        <label for="timer">Move timer (seconds, empty for none)</label>
        <input id="timer" name="move_timeout_seconds" type="number" min={0} max={3600} value={timer} onInput={(e) => setTimer((e.target as HTMLInputElement).value)} />
      </div>
      <div class="field">
        <label class="inline">
          <input type="checkbox" name="private" checked={priv} onChange={(e) => setPriv((e.target as HTMLInputElement).checked)} /> Private (only with the invite link)
        </label>
      </div>
      <div class="field">
        <label for="rated">Ratings</label>
        <select id="rated" name="rated" value={rated} onChange={(e) => setRated((e.target as HTMLSelectElement).value)}>
          <option value="">rated when every seat is a person</option>
          <option value="true">rated, bots too</option>
          <option value="false">unrated</option>
        </select>
      </div>
      <details>
        <summary>When a player disconnects</summary>
        <div class="field">
          <label for="grace">Seconds before a bot takes over (server default when empty)</label>
          <input id="grace" name="grace_seconds" type="number" min={0} max={3600} value={grace} onInput={(e) => setGrace((e.target as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label for="takeover">Takeover</label>
          <select id="takeover" name="takeover" value={takeover} onChange={(e) => setTakeover((e.target as HTMLSelectElement).value)}>
            <option value="">server default</option>
            <option value="robot">the robot bot plays the seat</option>
            <option value="strong">the strong bot plays the seat</option>
            <option value="none">the seat waits for its player</option>
          </select>
        </div>
      </details>
      {fields.some((f) => f.testing) ? (
        <details class="testing">
          <summary>Testing options (servers run with --testing)</summary>
          {fields
            .filter((f) => f.testing)
            .map((f) => (
              <FieldInput key={game + f.key} f={f} value={options[f.key]} set={(v) => setOptions({ ...options, [f.key]: v })} players={playersOk} game={game} />
            ))}
        </details>
      ) : null}
      <div class="buttons">
        <button type="submit" name="create" class="primary">
          Create table
        </button>
        <button type="submit" name="play-now" class="primary">
          Play now (bots in the other seats)
        </button>
      </div>
    </form>
  );
}

export function Lobby({ app }: { app: App }) {
  const [catalogue, setCatalogue] = useState<GameInfo[] | null>(null);
  const [catalogueError, setCatalogueError] = useState("");
  useEffect(() => {
    loadCatalogue().then(setCatalogue, (e) => {
      setCatalogueError(String(e.message ?? e));
      setCatalogue([]);
    });
    const h = setInterval(() => app.refreshLobby(), 5000);
    return () => clearInterval(h);
  }, []);
  const mine = Object.values(app.state.tables).filter((t) => t.state && t.state.seat >= 0 && t.state.status !== "over" && t.state.status !== "closed");
  return (
    <div class="lobby">
      <NameForm app={app} />
      {mine.length ? (
        <section aria-label="Your tables">
          <h2>Your tables</h2>
          <ul class="table-list">
            {mine.map((t) => (
              <li key={t.id}>
                <a href={`/table/${t.id}`} onClick={(e) => { e.preventDefault(); app.navigate(`/table/${t.id}`); }}>
                  {gameTitle(t.state.game, catalogue ?? undefined)} · table {t.id} · {t.state.status}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-label="Open tables">
        <h2>Open tables</h2>
        {app.state.lobby.length === 0 ? <p class="muted">No open table right now: create one.</p> : null}
        <ul class="table-list">
          {app.state.lobby.map((s: Json) => {
            const taken = s.seats?.filter((x: Json) => x.kind !== "empty").length ?? 0;
            return (
              <li key={s.table}>
                <span>
                  <b>{gameTitle(s.game, catalogue ?? undefined)}</b> · {taken}/{s.players} seated ·{" "}
                  {s.seats?.filter((x: Json) => x.name).map((x: Json) => x.name).join(", ")}
                  {s.move_timeout_seconds ? ` · ${s.move_timeout_seconds}s per move` : ""}
                </span>{" "}
                <a class="button" href={`/table/${s.table}`} onClick={(e) => { e.preventDefault(); app.navigate(`/table/${s.table}`); }}>
                  Open
                </a>
              </li>
            );
          })}
        </ul>
      </section>
      <section class="lobby-help" aria-label={HELP_UI.howToPlay}>
        <h2>{HELP_UI.howToPlay}</h2>
        <HelpLinks navigate={(p) => app.navigate(p)} />
      </section>
      {catalogue === null ? <p class="muted">Loading the games…</p> : <CreateForm app={app} catalogue={catalogue} />}
      {catalogue?.length ? <EventForm app={app} catalogue={catalogue} /> : null}
      {catalogueError ? <p class="muted">The server publishes no games catalogue ({catalogueError}); options cannot be set.</p> : null}
    </div>
  );
}
