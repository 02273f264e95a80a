// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Ref } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { formatDuration, paceWords } from "../pace";
import type { App } from "../app";
import { buildChoices, DrawnCards, matchCards, maxCards, type ChoiceGroup } from "../choices";
import { decisionLines } from "../phrases";
import { clockLeft, type TableEntry } from "../store";
import { cap, describeAction, describeEvent, humanize, plural, type Json } from "../words";
import { Board } from "./boards";
import { Card, Pick, type PickContext } from "./Card";
import { gameTitle } from "../catalogue";
import { statusWord } from "./Lobby";
import { HELP_CLOSED, HelpButton } from "./Help";
import { InviteFriends } from "./Friends";
import { loadReplay } from "./Replay";
import { has, listWords, t as tr } from "../i18n";

/** An action type as a button's word ("Bid"), an unknown one as the server names it. */
function typeWord(type: string): string {
  return has(`type.${type}`) ? tr(`type.${type}`) : cap(humanize(type));
}

/** A game mode in words (an unknown one as the server says it). */
function modeWord(m: string): string {
  return has(`mode.${m}`) ? tr(`mode.${m}`) : cap(humanize(m));
}

const drawn = new DrawnCards();

/** Scrolls `el` into view when part of it is outside the window. */
function inView(el: Element | null, block: ScrollLogicalPosition): void {
  if (!el || typeof el.getBoundingClientRect !== "function") return;
  const r = el.getBoundingClientRect();
  if (r.top >= 0 && r.bottom <= window.innerHeight) return;
  el.scrollIntoView?.({ block, behavior: "auto" });
}

/**
 * Brings a decision into view: the hand and its controls (the dock) and every card
 * that can be clicked (also on the board: a trick to steal from). When all of them fit
 * in the window their lowest edge goes to its bottom, which keeps the most of the
 * board above in view; when they do not fit, the dock wins.
 */
function decisionInView(page: HTMLElement | null, dock: HTMLElement | null): void {
  if (!page || !dock || typeof dock.getBoundingClientRect !== "function") return;
  const boxes = [dock, ...page.querySelectorAll<HTMLElement>("button.card.legal")].map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0);
  if (!boxes.length) return;
  const top = Math.min(...boxes.map((r) => r.top));
  const bottom = Math.max(...boxes.map((r) => r.bottom));
  const h = window.innerHeight;
  if (top >= 0 && bottom <= h) return;
  if (bottom - top <= h) window.scrollBy(0, bottom > h ? bottom - h + 4 : top - 4);
  else inView(dock, "end");
}

/**
 * Keyboard play: a control that was pressed is gone once the move is sent, which
 * leaves the focus nowhere. When the focus was last in the play area and is now
 * lost, the next decision's first control takes it, so Tab and Enter go on from there.
 */
function decisionFocus(page: HTMLElement | null, wasInPlay: boolean): void {
  if (!page || !wasInPlay) return;
  const active = document.activeElement;
  if (active && active !== document.body) return; // focus still somewhere: on a control, in the chat, a dialog
  const first = page.querySelector<HTMLElement>(
    ".dock button.card.legal, .dock .choices button.choice:not([disabled]), .dock .choices select, .play-area button.card.legal",
  );
  first?.focus({ preventScroll: true }); // decisionInView has scrolled what needs to be seen
}

export function seatNamer(state: Json, mySeat: number) {
  return (seat: number): string => {
    if (seat === -1) return tr("seat.robot");
    const seats = state?.seats ?? [];
    const s = seats[seat];
    let base = s?.name ?? tr("seat.n", { n: seat + 1 });
    // Two bots (or players) of one name: the seat tells them apart, as in the replay.
    if (s?.name && seats.some((o: Json) => o.seat !== seat && o.name === s.name)) base = tr("seat.botSeat", { name: s.name, n: seat + 1 });
    return seat === mySeat ? tr("seat.you", { name: base }) : base;
  };
}

function teamLabel(teams: number[][] | undefined, seat: number): string | null {
  if (!teams || teams.every((t) => t.length <= 1)) return null;
  const i = teams.findIndex((t) => t.includes(seat));
  return i < 0 ? null : tr("seat.team", { letter: String.fromCharCode(65 + i) });
}

function seatScores(v: Json, players: number): number[] | null {
  if (!v) return null;
  if (Array.isArray(v.seat_scores)) return v.seat_scores;
  if (v.mode === "solo") return [v.points ?? 0];
  if (Array.isArray(v.scores) && v.scores.length === players) return v.scores;
  return null;
}

function handSize(v: Json, seat: number): number | null {
  if (!v) return null;
  if (Array.isArray(v.hand_sizes)) return v.hand_sizes[seat] ?? null;
  if (typeof v.hand_size === "number") return v.hand_size;
  return null;
}

function Countdown({ ms }: { ms: number }) {
  const s = Math.ceil(ms / 1000);
  return <span class={`countdown${s <= 10 ? " urgent" : ""}`}>{formatDuration(ms)}</span>;
}

function Seats({ app, t }: { app: App; t: TableEntry }) {
  const st = t.state!;
  const v = st.view;
  const mySeat = st.seat;
  const name = seatNamer(st, mySeat);
  const scores = seatScores(v, st.players);
  const toAct: number[] = v?.to_act ?? (typeof v?.turn === "number" ? [v.turn] : []);
  const creator = app.createdByMe(t.id);
  const clockMs = clockLeft(t);
  return (
    <ol class="seats" aria-label={tr("seat.label")}>
      {st.seats.map((s: Json) => {
        const team = teamLabel(st.teams, s.seat);
        const acting = st.status === "playing" && toAct.includes(s.seat);
        const hs = handSize(v, s.seat);
        return (
          <li class={`seat${acting ? " acting" : ""}${s.seat === mySeat ? " mine" : ""}${team ? " team-" + team.slice(-1) : ""}`} key={s.seat} data-seat={s.seat}>
            <div class="seat-name">
              {acting ? <span class="turn-mark" aria-label={tr("seat.toAct")}>▶ </span> : null}
              {s.kind === "empty" ? <i>{tr("seat.empty", { n: s.seat + 1 })}</i> : name(s.seat)}
              {s.kind === "bot" ? <span class="tag">{tr("seat.bot")}</span> : null}
              {s.away ? <span class="tag away">{tr("seat.away")}</span> : s.kind === "player" && s.connected === false ? <span class="tag away">{tr("seat.offline")}</span> : null}
              {s.played_by ? <span class="tag">{tr("seat.playedBy", { name: s.played_by })}</span> : null}
              {typeof s.takeover_in_ms === "number" ? (
                <span class="tag">
                  {tr("seat.botIn")} <Countdown ms={s.takeover_in_ms} />
                </span>
              ) : null}
            </div>
            <div class="seat-info">
              {team ? <span class="team">{team}</span> : null}
              {hs !== null ? <span>{plural(hs, "card")}</span> : null}
              {scores ? <span>{plural(scores[s.seat], "point")}</span> : null}
              {acting && clockMs !== null && t.clock?.seats.includes(s.seat) ? <Countdown ms={clockMs} /> : null}
            </div>
            {st.status === "waiting" && s.kind === "empty" ? (
              <div class="seat-actions">
                {mySeat < 0 ? (
                  <button type="button" class="primary" onClick={() => app.sit(t.id, s.seat)}>
                    {tr("seat.sit")}
                  </button>
                ) : null}
                {creator && mySeat >= 0
                  ? app.state.bots.map((b) => (
                      <button type="button" key={b} onClick={() => app.addBot(t.id, s.seat, b)}>
                        {tr("seat.addBot", { bot: b })}
                      </button>
                    ))
                  : null}
              </div>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

function GroupControl({ g, game, view, onPick }: { g: ChoiceGroup; game: string; view: Json; onPick: (a: Json) => void }) {
  const [i, setI] = useState(0);
  if (!g.asSelect)
    return (
      <>
        {g.actions.map((a, k) => (
          <button type="button" class="choice" key={k} onClick={() => onPick(a)}>
            {describeAction(a, game, view)}
          </button>
        ))}
      </>
    );
  return (
    <span class="select-choice">
      <select aria-label={typeWord(g.type)} value={String(i)} onChange={(e) => setI(Number((e.target as HTMLSelectElement).value))}>
        {g.actions.map((a, k) => (
          <option value={String(k)} key={k}>
            {describeAction(a, game, view)}
          </option>
        ))}
      </select>
      <button type="button" class="choice" onClick={() => onPick(g.actions[Math.min(i, g.actions.length - 1)])}>
        {typeWord(g.type)}
      </button>
    </span>
  );
}

function ChoicesPanel({ app, t, pick, selected, setSelected, chosen, setChosen }: { app: App; t: TableEntry; pick: PickContext; selected: string | null; setSelected: (c: string | null) => void; chosen: Set<string>; setChosen: (c: Set<string>) => void }) {
  const game = t.state!.game;
  const view = t.state!.view;
  const legal = t.request?.legal;
  const choices = buildChoices(legal);
  const send = (a: Json) => {
    setSelected(null);
    setChosen(new Set());
    app.act(t.id, a);
  };
  const forCard = selected ? choices.byCard.get(selected) : undefined;
  const hidden = [...new Set([...choices.byCard.keys(), ...choices.toggles])].filter((c) => !drawn.has(c));
  const panel = useRef<HTMLElement>(null);
  // A card chosen from the keyboard: its first choice takes the focus.
  useEffect(() => {
    if (selected && document.activeElement?.matches("button.card")) panel.current?.querySelector<HTMLElement>(".card-choices button.choice")?.focus();
  }, [selected]);
  if (!t.request) return null;
  const lines = decisionLines(legal, game, t.state?.view?.phase);
  const most = maxCards(choices.multi);
  const match = choices.multi.length ? matchCards(choices.multi, chosen) : undefined;
  return (
    <section class="choices" aria-label={tr("move.label")} ref={panel} data-types={lines.map((l) => l.type).join(" ")}>
      <h3>{tr("move.label")}</h3>
      <ul class="decision">
        {lines.map((l) => (
          <li key={l.type} data-type={l.type}>
            {l.text}
          </li>
        ))}
      </ul>
      {choices.byCard.size ? (
        <p class="hint">{forCard ? tr("move.selected") : tr(choices.groups.length ? "move.tapCardOrButton" : "move.tapCard")}</p>
      ) : null}
      {choices.multi.length ? (
        <p class="hint">
          {tr("move.tapUpTo", { n: most })}
        </p>
      ) : null}
      {forCard ? (
        <div class="card-choices">
          {forCard.map((a, k) => (
            <button type="button" class="choice" key={k} onClick={() => send(a)}>
              {describeAction(a, game, view)}
            </button>
          ))}
          <button
            type="button"
            onClick={() => {
              const card = selected;
              setSelected(null);
              document.querySelector<HTMLElement>(`.play-area button.card[data-card="${card}"]`)?.focus();
            }}
          >
            {tr("move.cancel")}
          </button>
        </div>
      ) : null}
      {hidden.length ? (
        <div class="other-cards">
          {hidden.map((c) => (
            <Pick.Provider value={pick} key={c}>
              <Card id={c} small />
            </Pick.Provider>
          ))}
        </div>
      ) : null}
      <div class="buttons">
        {choices.multi.length ? (
          <button type="button" class="choice primary" disabled={!match} onClick={() => match && send(match)}>
            {match ? describeAction(match, game, view) : tr("move.chooseAtMost", { n: most })}
          </button>
        ) : null}
        {choices.groups.map((g) => (
          <GroupControl g={g} game={game} view={t.state?.view} onPick={send} key={g.type} />
        ))}
      </div>
    </section>
  );
}

function Log({ t, name }: { t: TableEntry; name: (s: number) => string }) {
  const game = t.state?.game ?? "";
  const ref = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  });
  const lines = t.log
    .map((l) => ({ l, text: describeEvent(l.event, game, name) }))
    .filter((x) => x.text)
    .slice(-80);
  return (
    <section class="log" aria-label={tr("log.label")}>
      <h3>{tr("log.label")}</h3>
      <ol ref={ref}>
        {lines.map(({ l, text }, i) => (
          <li key={i}>
            {text}
            {l.auto ? <span class="tag">{l.auto === "timer" ? tr("log.timer") : l.auto === "away" ? tr("log.away") : tr("log.left")}</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * For screen readers: the lines of "What happened" that are new since the last
 * render (a card played, a trick won), read out once. The visible log is not a live
 * region: a restored history would be read out whole.
 */
function Announcer({ t, name }: { t: TableEntry; name: (s: number) => string }) {
  const game = t.state?.game ?? "";
  const mark = useRef<{ last: unknown; text: string }>({ last: null, text: "" });
  const m = mark.current;
  const last = t.log[t.log.length - 1] ?? null;
  if (last !== m.last) {
    const at = m.last ? t.log.lastIndexOf(m.last as never) : -1;
    const fresh = at >= 0 ? t.log.slice(at + 1) : t.log.slice(-1);
    m.text = fresh
      .map((l) => describeEvent(l.event, game, name))
      .filter(Boolean)
      .slice(-4)
      .join(" ");
    m.last = last;
  }
  return (
    <p class="sr-only announce" aria-live="polite" aria-atomic="true">
      {m.text}
    </p>
  );
}

function Chat({ app, t }: { app: App; t: TableEntry }) {
  const [text, setText] = useState("");
  const [team, setTeam] = useState(false);
  const seated = (t.state?.seat ?? -1) >= 0;
  // "Team only" means something only where a seat has a partner.
  const teams: number[][] | undefined = t.state?.teams;
  const partnered = seated && !!teams?.some((tm) => tm.length > 1 && tm.includes(t.state!.seat));
  return (
    <section class="chat" aria-label={tr("chat.label")}>
      <h3>{tr("chat.label")}</h3>
      <ol>
        {t.chat.slice(-50).map((c, i) => (
          <li key={i} class={c.team ? "team-msg" : ""}>
            <b>{c.name}</b>
            {c.team ? tr("chat.team") : ""}
            {c.spectator ? tr("chat.spectator") : ""}: {c.text}
          </li>
        ))}
      </ol>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!text.trim()) return;
          app.chat(t.id, text.trim(), team && partnered);
          setText("");
        }}
      >
        <input aria-label={tr("chat.message")} maxLength={500} value={text} placeholder={tr("chat.placeholder")} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
        {partnered ? (
          <label class="inline">
            <input type="checkbox" checked={team} onChange={(e) => setTeam((e.target as HTMLInputElement).checked)} /> {tr("chat.teamOnly")}
          </label>
        ) : null}
        <button type="submit">{tr("chat.send")}</button>
      </form>
    </section>
  );
}

/** A score sheet row's label: the store keeps "Hand" and "Round N"; the words are the page's. */
export function sheetLabel(label: string, handNumber: number): string {
  if (label === "Hand") return tr("sheet.hand", { n: handNumber });
  const m = /^Round ?(\d*)$/.exec(label);
  return m ? tr("sheet.round", { n: m[1] ? Number(m[1]) : "" }).trim() : label;
}

export function ScoreSheet({ rows, name, teams }: { rows: { label: string; scores: number[] }[]; name: (s: number) => string; teams?: number[][] }) {
  if (!rows.length) return null;
  const width = Math.max(...rows.map((r) => r.scores.length));
  const head = Array.from({ length: width }, (_, i) => (teams && teams.length === width ? teams[i].map(name).join(" & ") : width === 1 ? tr("sheet.you") : name(i)));
  return (
    <table class="sheet" aria-label={tr("sheet.label")}>
      <thead>
        <tr>
          <th>{tr("sheet.label")}</th>
          {head.map((h, i) => (
            <th key={i}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i}>
            <td>{sheetLabel(r.label, rows.slice(0, i + 1).filter((x) => x.label === "Hand").length)}</td>
            {r.scores.map((s, k) => (
              <td key={k}>{s}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function InviteLink({ invite }: { invite: string }) {
  const [copied, setCopied] = useState(false);
  const url = `${location.origin}/join/${invite}`;
  return (
    <div class="invite">
      {tr("invite.friends")} <a href={url} class="invite-link">{url}</a>{" "}
      <button
        type="button"
        onClick={() => {
          navigator.clipboard?.writeText(url).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? tr("invite.copied") : tr("invite.copy")}
      </button>
    </div>
  );
}

function GameOver({ app, t, name, innerRef }: { app: App; t: TableEntry; name: (s: number) => string; innerRef?: Ref<HTMLElement> }) {
  const g = t.gameOver!;
  const st = t.state!;
  const offer = t.rematch?.type === "rematch_offer" ? t.rematch : null;
  const winners: number[] = g.winners ?? [];
  const text = winners.length === 0 ? tr("over.noWinner") : tr("over.wins", { names: listWords(winners.map((w) => (w === -1 ? tr("seat.robot") : name(w)))), n: winners.length });
  return (
    <section class="game-over" aria-label={tr("over.title")} ref={innerRef}>
      <h2>{tr("over.title")}</h2>
      <p class="winners">{cap(text)}</p>
      {Array.isArray(g.scores) ? <p>{tr("over.final", { scores: g.scores.map((s: number, i: number) => `${name(i)} ${s}`).join(", ") })}</p> : null}
      <div class="buttons">
        {st.seat >= 0 ? (
          <button type="button" class="primary" onClick={() => app.rematch(t.id)}>
            {tr("over.rematch")}
          </button>
        ) : null}
        <a class="button" href={`/replay/${t.id}`} onClick={(e) => { e.preventDefault(); app.navigate(`/replay/${t.id}`); }}>
          {tr("over.replay")}
        </a>
        <a class="button" href="/" onClick={(e) => { e.preventDefault(); app.navigate("/"); }}>
          {tr("nav.backToLobby")}
        </a>
      </div>
      {offer ? (
        <p>
          {tr("over.offer", { name: offer.by })}{" "}
          <a href={`/join/${offer.invite}`} onClick={(e) => { e.preventDefault(); app.navigate(`/join/${offer.invite}`); }}>
            {tr("over.join")}
          </a>
        </p>
      ) : null}
    </section>
  );
}

/** "ann, bea and robot (seat 3)": names of a finished game's seats, bots told apart by seat. */
export function replaySeatName(seats: Json[] | undefined, s: number): string {
  if (s === -1) return tr("seat.robot");
  const seat = seats?.[s];
  const base = seat?.name ?? seat?.bot ?? tr("seat.n", { n: s + 1 });
  const twin = (seats ?? []).some((o: Json, i: number) => i !== s && (o?.name ?? o?.bot) === base);
  return (seat?.bot && !seat?.name) || twin ? tr("seat.botSeat", { name: base, n: s + 1 }) : base;
}

/**
 * A table the server no longer runs (or never ran). A finished game's replay is kept:
 * its result and a way to watch it; otherwise the page says so and offers the lobby.
 */
function GoneTable({ app, id }: { app: App; id: string }) {
  const [found, setFound] = useState<Json | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    loadReplay(id).then(
      ({ replay }) => live && setFound(replay),
      () => live && setFound(null),
    );
    return () => {
      live = false;
    };
  }, [id]);
  const lobby = (
    <a class="button" href="/" onClick={(e) => { e.preventDefault(); app.navigate("/"); }}>
      {tr("nav.backToLobby")}
    </a>
  );
  if (found === undefined) return <p class="muted">{tr("gone.looking", { id })}</p>;
  if (found === null)
    return (
      <section class="gone" aria-label={tr("gone.label")}>
        <h2>{tr("gone.title", { id })}</h2>
        <p>{tr("gone.text")}</p>
        <div class="buttons">{lobby}</div>
      </section>
    );
  const name = (s: number) => replaySeatName(found.seats, s);
  const winners: number[] = found.winners ?? [];
  return (
    <section class="gone game-over" aria-label={tr("gone.finishedLabel")}>
      <h2>
        {gameTitle(found.game)} <span class="muted">{tr("gone.table", { id })}</span>
        {tr("gone.over")}
      </h2>
      <p class="winners">{winners.length ? tr("over.wins", { names: listWords(winners.map(name)), n: winners.length }) : tr("over.noWinner")}</p>
      {Array.isArray(found.scores) ? <p>{tr("over.final", { scores: found.scores.map((x: Json, i: number) => `${name(i)} ${typeof x === "number" ? x : JSON.stringify(x)}`).join(", ") })}</p> : null}
      <div class="buttons">
        <a class="button primary" href={`/replay/${id}`} onClick={(e) => { e.preventDefault(); app.navigate(`/replay/${id}`); }}>
          {tr("over.replay")}
        </a>
        {lobby}
      </div>
    </section>
  );
}

/**
 * What an invited friend sees first: whose table (its creator, as the server names
 * them), which game, and how many seats are taken and free.
 */
function InviteIntro({ st, name }: { st: Json; name: (s: number) => string }) {
  const seats: Json[] = st.seats ?? [];
  const people = seats.filter((s) => s.kind === "player").map((s) => name(s.seat));
  const bots = seats.filter((s) => s.kind === "bot").length;
  const free = seats.filter((s) => s.kind === "empty").length;
  const creator: string | undefined = st.creator?.name;
  const who = creator ? tr("invite.who", { names: creator, n: 1 }) : people.length ? tr("invite.who", { names: listWords(people), n: people.length }) : tr("invite.youAre");
  const taken = st.players - free;
  // The sentence with its two names in bold: the catalogue's words around them.
  const [before, middle, after] = tr("invite.game", { who: "\u0000", game: "\u0000", taken, n: st.players, bots: bots ? tr("invite.bots", { bots: plural(bots, "bot") }) : "" }).split("\u0000");
  return (
    <section class="invite-intro" aria-label={tr("invite.label")}>
      <p>
        {before}
        <b>{who}</b>
        {middle}
        <b>{gameTitle(st.game)}</b>
        {after}
      </p>
      <p>{free ? tr("invite.free", { n: free }) : tr("invite.full")}</p>
    </section>
  );
}

export function TablePage({ app, id }: { app: App; id: string }) {
  const t = app.state.tables[id];
  const [selected, setSelected] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [, tick] = useState(0);
  const dockRef = useRef<HTMLDivElement>(null);
  const overRef = useRef<HTMLElement>(null);
  const reqSeq = t?.request ? t.request.seq : null;
  // A new decision brings the hand and its controls into view (the page scrolls only
  // when they are not wholly visible); a finished game brings its banner.
  const pageRef = useRef<HTMLDivElement>(null);
  const sheetRef = useRef<HTMLDivElement>(null);
  const sheetRows = t?.sheet.length ?? 0;
  // The newest round stays in view inside the score sheet's own panel.
  useEffect(() => {
    if (sheetRef.current) sheetRef.current.scrollTop = sheetRef.current.scrollHeight;
  }, [sheetRows]);
  // Whether the focus was last inside the play area (a card or a choice).
  const focusInPlay = useRef(false);
  useEffect(() => {
    const onFocus = (e: FocusEvent) => {
      const area = pageRef.current?.querySelector(".play-area");
      focusInPlay.current = !!area && e.target instanceof Node && area.contains(e.target);
    };
    document.addEventListener("focusin", onFocus);
    return () => document.removeEventListener("focusin", onFocus);
  }, []);
  useEffect(() => {
    setChosen(new Set());
    if (reqSeq !== null) {
      decisionInView(pageRef.current, dockRef.current);
      decisionFocus(pageRef.current, focusInPlay.current);
    }
  }, [reqSeq]);
  // The choices of a selected card (Casino: capture, build or trail) come into view too.
  useEffect(() => {
    if (selected !== null) decisionInView(pageRef.current, dockRef.current);
  }, [selected]);
  // A turned phone or a resized window keeps a pending decision in view.
  useEffect(() => {
    if (reqSeq === null) return;
    // So does closing an explanation, which may have needed the page scrolled to its word.
    const onResize = () => decisionInView(pageRef.current, dockRef.current);
    window.addEventListener("resize", onResize);
    window.addEventListener(HELP_CLOSED, onResize);
    return () => {
      window.removeEventListener("resize", onResize);
      window.removeEventListener(HELP_CLOSED, onResize);
    };
  }, [reqSeq]);
  const over = !!t?.gameOver;
  useEffect(() => {
    if (over) inView(overRef.current, "start");
  }, [over]);
  const hasClock = !!t?.clock || !!t?.state?.seats?.some((s: Json) => typeof s.takeover_in_ms === "number");
  useEffect(() => {
    if (!hasClock) return;
    const h = setInterval(() => tick((x) => x + 1), 500);
    return () => clearInterval(h);
  }, [hasClock]);
  if (!t || !t.state) return app.missingTables.has(id) ? <GoneTable app={app} id={id} /> : <p class="muted">{tr("table.opening", { id })}</p>;
  const st = t.state;
  const name = seatNamer(st, st.seat);
  const choices = buildChoices(t.request?.legal);
  const pick: PickContext = {
    game: st.game,
    byCard: choices.byCard,
    drawn,
    selected,
    toggles: choices.toggles,
    chosen,
    pick: (card: string) => {
      if (choices.toggles.has(card)) {
        const next = new Set(chosen);
        if (next.has(card)) next.delete(card);
        else next.add(card);
        setChosen(next);
        return;
      }
      const acts = choices.byCard.get(card) ?? [];
      if (acts.length === 1) {
        setSelected(null);
        app.act(id, acts[0]);
      } else setSelected(card);
    },
  };
  drawn.reset();
  const v = st.view;
  const myTurn = !!t.request;
  return (
    <div class={`table-page game-${st.game}`} ref={pageRef}>
      <header class="table-head">
        <h2>
          {gameTitle(st.game)}
          {v?.mode ? ` — ${modeWord(v.mode)}` : ""} <span class="muted">· {st.players === 1 ? tr("table.solo") : tr("table.players", { n: st.players })} · {tr("table.id", { id: st.table })}</span>
        </h2>
        <div class="status">
          {st.status === "waiting" ? tr("table.waiting") : st.status === "playing" ? (myTurn ? <b class="your-turn">{tr("table.yourTurn")}</b> : tr("table.playing")) : st.status === "over" ? tr("table.finished") : cap(statusWord(st.status))}
          {t.spectating ? <span class="tag">{tr("table.spectating")}</span> : null}
          {st.correspondence ? <span class="tag">{tr("lobby.correspondence")}</span> : null}
          {st.move_timeout_seconds ? <span class="tag">{st.correspondence ? tr("table.pace", { time: paceWords(st.move_timeout_seconds) }) : tr("table.perMove", { n: st.move_timeout_seconds })}</span> : null}
          {myTurn && clockLeft(t) !== null ? <Countdown ms={clockLeft(t)!} /> : null}
          {!myTurn && st.correspondence && t.clock && clockLeft(t) !== null ? (
            <span class="clock-of">{tr("table.clockOf", { name: t.clock.seats.map((s) => name(s)).join(", "), time: formatDuration(clockLeft(t)!) })}</span>
          ) : null}
          <HelpButton game={st.game} />
        </div>
        {st.invite && st.status === "waiting" ? <InviteLink invite={st.invite} /> : null}
        {st.status === "waiting" && st.seat >= 0 ? <InviteFriends app={app} table={st.table} /> : null}
      </header>
      <p class="sr-only your-turn-announce" role="status" aria-live="assertive">
        {myTurn ? tr("table.yourTurnSr", { what: decisionLines(t.request?.legal, st.game, v?.phase).map((l) => l.text).join(tr("table.or")) }) : ""}
      </p>
      <Announcer t={t} name={name} />
      {st.status === "waiting" && st.seat < 0 ? <InviteIntro st={st} name={name} /> : null}
      {t.closed ? <p class="closed">{t.closed.message ?? tr("table.closed")}</p> : null}
      <Pick.Provider value={pick}>
        <div class="table-main">
          <div class="play-area">
            <Seats app={app} t={t} />
            {t.gameOver ? <GameOver app={app} t={t} name={name} innerRef={overRef} /> : null}
            <Board view={v} name={name} />
            <div class="dock" ref={dockRef}>
            {v?.hand ? (
              <section class={`hand${myTurn ? " my-turn" : ""}`} aria-label={tr("hand.label")}>
                <h3>{tr("hand.label")}</h3>
                <div class="cards">
                  {v.hand.map((c: string) => (
                    <Card id={c} key={c} />
                  ))}
                </div>
              </section>
            ) : null}
            <ChoicesPanel app={app} t={t} pick={pick} selected={selected} setSelected={setSelected} chosen={chosen} setChosen={setChosen} />
            </div>
          </div>
          <aside class="side-panel">
            {t.sheet.length ? (
              <div class="sheet-panel" tabIndex={0} aria-label={tr("sheet.scrolls")} ref={sheetRef}>
                <ScoreSheet rows={t.sheet} name={name} teams={st.teams?.length < st.players ? st.teams : undefined} />
              </div>
            ) : null}
            <Log t={t} name={name} />
            <Chat app={app} t={t} />
            <div class="buttons">
              {st.status !== "over" ? (
                <button type="button" onClick={() => app.leave(id)}>
                  {t.spectating ? tr("table.stopWatching") : st.status === "playing" ? tr("table.leavePlaying") : tr("table.leave")}
                </button>
              ) : null}
            </div>
          </aside>
        </div>
      </Pick.Provider>
    </div>
  );
}
