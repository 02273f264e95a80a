// SPDX-License-Identifier: AGPL-3.0-or-later
import { useEffect, useState } from "preact/hooks";
import type { App, NewTable } from "../app";
import type { DisconnectPolicy } from "../protocol.gen";
import { choicesAt, effectiveFormat, fieldApplies, gameTitle, loadCatalogue, parseText, type GameInfo, type OptionField } from "../catalogue";
import { savedName } from "../net";
import { choiceWords, gameDescription, optionLabel, optionWords } from "../optionWords";
import { EventForm } from "./EventForm";
import { YourGames } from "./YourGames";
import { PACES, paceWords } from "../pace";
import type { Json } from "../words";
import { HelpLinks } from "./Help";
import { PasskeysPanel } from "./Passkeys";
import { UI as HELP_UI } from "../help/content";
import { has, t as tr } from "../i18n";

/** A table status in words (an unknown one as the server says it). */
export function statusWord(s: string): string {
  return has(`status.${s}`) ? tr(`status.${s}`) : s;
}

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
        {tr("name.label")}{" "}
        <input name="name" required maxLength={32} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </label>
      <button type="submit">{tr("name.save")}</button>
    </form>
  );
}

function FieldInput({ f, value, set, players, game }: { f: OptionField; value: unknown; set: (v: unknown) => void; players: number; game: string }) {
  const id = `opt-${f.key}`;
  const plain = f.testing ? null : optionWords(game, f.key);
  // Testing options keep the server's words (they are for developers).
  const label = (f.testing ? null : optionLabel(game, f.key)) ?? f.label;
  const help = plain ? (
    <small id={`${id}-help`}>
      {plain}{" "}
      {f.description ? (
        <details class="rules-ref">
          <summary>{tr("form.rulesRef")}</summary>
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
          {label}
        </label>
        {help}
      </div>
    );
  if (f.kind === "select") {
    const choices = choicesAt(f, players);
    return (
      <div class="field">
        <label for={id}>{label}</label>
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
          {choices.some((c) => c.value === f.default) ? null : <option value="">{f.default !== undefined && f.default !== null ? tr("form.usualValue", { value: String(f.default) }) : tr("form.notSet")}</option>}
          {choices.map((c, i) => (
            <option value={c.value === f.default ? "" : String(i)} key={i}>
              {choiceWords(game, f.key, c.value) ?? c.label}
              {c.value === f.default ? tr("form.usual") : ""}
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
        <label for={id}>{label}</label>
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
      <label for={id}>{label}</label>
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
  const [pace, setPace] = useState("");
  const [grace, setGrace] = useState("");
  const [takeover, setTakeover] = useState("");
  const [rated, setRated] = useState("");
  const playersOk = counts.includes(players) ? players : counts[0];
  const message = (): NewTable => {
    const opts: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(options)) if (v !== undefined && fields.some((f) => f.key === k)) opts[k] = v;
    const m: NewTable = { game, players: playersOk, options: opts };
    if (priv) m.private = true;
    if (pace) {
      m.correspondence = true;
      m.move_timeout_seconds = Number(pace);
    } else if (timer) m.move_timeout_seconds = Number(timer);
    if (rated) m.rated = rated === "true";
    if (grace || takeover) {
      m.disconnect_policy = {};
      if (grace) m.disconnect_policy.grace_seconds = Number(grace);
      if (takeover) m.disconnect_policy.takeover = takeover as DisconnectPolicy["takeover"]; // the select's values
    }
    return m;
  };
  const format = effectiveFormat(info?.fields ?? [], playersOk, options);
  const fields = (info?.fields ?? []).filter((f) => fieldApplies(f, playersOk, format));
  return (
    <form
      class="create-form"
      aria-label={tr("form.label")}
      onSubmit={(e) => {
        e.preventDefault();
        const bots = (e as SubmitEvent).submitter?.getAttribute("name") === "play-now";
        app.createTable(message(), bots);
      }}
    >
      <h2>{tr("form.title")}</h2>
      <div class="field">
        <label for="game">{tr("form.game")}</label>
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
        {gameDescription(game) ?? info?.description ? <small>{gameDescription(game) ?? info?.description}</small> : null}
      </div>
      <div class="field">
        <label for="players">{tr("form.players")}</label>
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
        <label for="pace">{tr("form.pace")}</label>
        <select id="pace" name="pace" aria-describedby="pace-help" value={pace} onChange={(e) => setPace((e.target as HTMLSelectElement).value)}>
          <option value="">{tr("form.paceNone")}</option>
          {PACES.map((s) => (
            <option value={String(s)} key={s}>
              {paceWords(s)}
            </option>
          ))}
        </select>
        <small id="pace-help">{tr("form.paceHelp")}</small>
      </div>
      {pace ? null : (
        <div class="field">
          <label for="timer">{tr("form.timer")}</label>
          <input id="timer" name="move_timeout_seconds" type="number" min={0} max={3600} value={timer} onInput={(e) => setTimer((e.target as HTMLInputElement).value)} />
        </div>
      )}
      <div class="field">
        <label class="inline">
          <input type="checkbox" name="private" checked={priv} onChange={(e) => setPriv((e.target as HTMLInputElement).checked)} /> {tr("form.private")}
        </label>
      </div>
      <div class="field">
        <label for="rated">{tr("form.ratings")}</label>
        <select id="rated" name="rated" value={rated} onChange={(e) => setRated((e.target as HTMLSelectElement).value)}>
          <option value="">{tr("form.ratedPeople")}</option>
          <option value="true">{tr("form.ratedBots")}</option>
          <option value="false">{tr("form.unrated")}</option>
        </select>
      </div>
      <details>
        <summary>{tr("form.disconnect")}</summary>
        <div class="field">
          <label for="grace">{tr("form.grace")}</label>
          <input id="grace" name="grace_seconds" type="number" min={0} max={3600} value={grace} onInput={(e) => setGrace((e.target as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label for="takeover">{tr("form.takeover")}</label>
          <select id="takeover" name="takeover" value={takeover} onChange={(e) => setTakeover((e.target as HTMLSelectElement).value)}>
            <option value="">{tr("form.takeoverDefault")}</option>
            <option value="robot">{tr("form.takeoverRobot")}</option>
            <option value="strong">{tr("form.takeoverStrong")}</option>
            <option value="none">{tr("form.takeoverNone")}</option>
            <option value="forfeit">{tr("form.takeoverForfeit")}</option>
          </select>
        </div>
      </details>
      {fields.some((f) => f.testing) ? (
        <details class="testing">
          <summary>{tr("form.testing")}</summary>
          {fields
            .filter((f) => f.testing)
            .map((f) => (
              <FieldInput key={game + f.key} f={f} value={options[f.key]} set={(v) => setOptions({ ...options, [f.key]: v })} players={playersOk} game={game} />
            ))}
        </details>
      ) : null}
      <div class="buttons">
        <button type="submit" name="create" class="primary">
          {tr("form.create")}
        </button>
        <button type="submit" name="play-now" class="primary">
          {tr("form.playNow")}
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
  const mine = Object.values(app.state.tables).flatMap((t) =>
    t.state && t.state.seat >= 0 && t.state.status !== "over" && t.state.status !== "closed" ? [{ id: t.id, state: t.state }] : []);
  return (
    <div class="lobby">
      <NameForm app={app} />
      <PasskeysPanel />
      <YourGames app={app} catalogue={catalogue ?? undefined} />
      {app.state.myTables === null && mine.length ? (
        <section aria-label={tr("lobby.yourTables")}>
          <h2>{tr("lobby.yourTables")}</h2>
          <ul class="table-list">
            {mine.map((t) => (
              <li key={t.id}>
                <a href={`/table/${t.id}`} onClick={(e) => { e.preventDefault(); app.navigate(`/table/${t.id}`); }}>
                  {tr("lobby.tableLine", { game: gameTitle(t.state.game, catalogue ?? undefined), id: t.id, status: statusWord(t.state.status) })}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-label={tr("lobby.open")}>
        <h2>{tr("lobby.open")}</h2>
        {app.state.lobby.length === 0 ? <p class="muted">{tr("lobby.none")}</p> : null}
        <ul class="table-list">
          {app.state.lobby.map((s: Json) => {
            const taken = s.seats?.filter((x: Json) => x.kind !== "empty").length ?? 0;
            return (
              <li key={s.table}>
                <span>
                  <b>{gameTitle(s.game, catalogue ?? undefined)}</b> · {tr("lobby.seated", { taken, players: s.players })} ·{" "}
                  {s.seats?.filter((x: Json) => x.name).map((x: Json) => x.name).join(", ")}
                  {s.move_timeout_seconds ? tr("lobby.perMove", { n: s.move_timeout_seconds }) : ""}
                </span>{" "}
                <a class="button" href={`/table/${s.table}`} onClick={(e) => { e.preventDefault(); app.navigate(`/table/${s.table}`); }}>
                  {tr("lobby.openButton")}
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
      {catalogue === null ? <p class="muted">{tr("lobby.loading")}</p> : <CreateForm app={app} catalogue={catalogue} />}
      {catalogue?.length ? <EventForm app={app} catalogue={catalogue} /> : null}
      {catalogueError ? <p class="muted">{tr("lobby.noCatalogue", { error: catalogueError })}</p> : null}
    </div>
  );
}
