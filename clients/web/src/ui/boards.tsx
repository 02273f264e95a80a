// SPDX-License-Identifier: AGPL-3.0-or-later
// The middle of the table for each game: what the seat's view shows, laid out.
// Only fields of the view are drawn; nothing is worked out from the rules.
import type { ComponentChildren } from "preact";
import { FAMILY_SYMBOL, LOKA_SUIT_SYMBOL } from "../cards";
import { humanize, type Json, plural } from "../words";
import { Card, CardBack, Cards } from "./Card";
import { Term, TermBar } from "./Help";
import { challengeTerm, challengeTitle, phaseTerm, trophySuit } from "../help/content";
import { has, t as tr } from "../i18n";
import { familyName } from "../words";

/** A view's phase (or another word of the server's) in the page's language, else as sent. */
function word(prefix: string, s: string | null | undefined): string {
  if (s === null || s === undefined) return "";
  return has(`${prefix}.${s}`) ? tr(`${prefix}.${s}`) : humanize(String(s));
}

export interface BoardProps {
  view: Json;
  name: (seat: number) => string;
}

function Fact({ label, term, children }: { label: string; term?: string; children: ComponentChildren }) {
  return (
    <div class="fact">
      <span class="fact-label">{term ? <Term id={term} label={label} /> : label}</span> <span class="fact-value">{children}</span>
    </div>
  );
}

function Family({ f }: { f: string | null | undefined }) {
  if (!f) return <span>{tr("b.none")}</span>;
  const sym = FAMILY_SYMBOL[f] ?? LOKA_SUIT_SYMBOL[f];
  return (
    <span class={`fam s-${f}`}>
      {sym ? <span aria-hidden="true">{sym} </span> : null}
      {familyName(f)}
    </span>
  );
}

function Area({ title, term, children, cls }: { title: string; term?: string; children: ComponentChildren; cls?: string }) {
  return (
    <section class={`area ${cls ?? ""}`} aria-label={title}>
      <h3>{term ? <Term id={term} label={title} /> : title}</h3>
      {children}
    </section>
  );
}

/** Cards of a trick in play order, each under the name of its player. */
function TrickCards({ plays, name, inert }: { plays: Json[]; name: (s: number) => string; inert?: boolean }) {
  if (plays.length === 0) return <p class="muted">{tr("b.noCard")}</p>;
  return (
    <div class="trick">
      {plays.map((p, i) => (
        <div class="played" key={i}>
          {p.mud ? (
            <span class="card mud">
              <Term id="trophy-case:mud" label={tr("b.mud")} />
            </span>
          ) : p.face_down || !p.card ? (
            <CardBack small={false} label={tr("b.faceDown")} />
          ) : (
            <Card id={p.card} dim={p.eliminated} inert={inert} />
          )}
          <span class="who">
            {typeof p.seat === "number" ? name(p.seat) : p.player === "human" ? tr("b.you") : p.player === "robot" ? tr("b.robot") : ""}
            {p.eliminated ? " ✗" : ""}
            {p.as_gallowglass ? tr("b.asGallowglass") : ""}
            {p.call ? ` “${p.call}”` : ""}
          </span>
        </div>
      ))}
    </div>
  );
}

function LastTrick({ cards, winner }: { cards: Json[]; winner: string }) {
  return (
    <Area title={tr("b.lastTrick", { who: winner })} cls="last-trick">
      <div class="trick small-trick">
        {cards.map((p, i) => (
          <div class="played" key={i}>
            {p.card ? <Card id={p.card} small inert dim={p.eliminated} /> : <CardBack small />}
            {p.who ? <span class="who">{p.who}</span> : null}
          </div>
        ))}
      </div>
    </Area>
  );
}

function LaCasaTable({ view: v, name }: BoardProps) {
  const sideName = (i: number) => (v.teams?.[i] ?? []).map(name).join(" & ");
  return (
    <div class="board la-casa">
      <div class="facts">
        <Fact label={tr("b.round")}>{v.round}</Fact>
        <Fact label={tr("b.challenge")}>{v.challenge ? <Term id={challengeTerm(v.challenge)} label={challengeTitle(v.challenge)} /> : tr("b.none")}</Fact>
        <Fact label={tr("b.ruling")} term="la-casa:ruling-family">
          <Family f={v.ruling_family} />
        </Fact>
        <Fact label={tr("b.lead")} term="la-casa:lead-family">
          <Family f={v.lead_family} />
        </Fact>
        {v.cousins ? (
          <Fact label={tr("b.cousins")} term="la-casa:cousins">
            <Family f={v.cousins} />
          </Fact>
        ) : null}
        <Fact label={tr("b.phase")}>
          <Term id={phaseTerm("la-casa", v.phase) ?? ""} label={word("phase", v.phase)} />
        </Fact>
        <Fact label={tr("b.target")} term="la-casa:target">{v.target}</Fact>
        <Fact label={tr("b.tricks")}>
          {v.tricks_played}/{v.total_tricks}
        </Fact>
      </div>
      <div class="sides">
        {(v.scores ?? []).map((sc: number, i: number) => (
          <div class="side" key={i}>
            <b>{sideName(i)}</b>: {tr("b.sideLine", { points: plural(sc, "point"), tricks: plural(v.tricks_won?.[i] ?? 0, "trick") })}
          </div>
        ))}
      </div>
      <div class="row">
        <Area title={tr("b.casa")} term="la-casa:casa" cls="casa">
          {v.casa?.top ? <Card id={v.casa.top} /> : <CardBack count={v.casa?.count ?? 0} />}
          <span class="muted"> {plural(v.casa?.count ?? 0, "card")}</span>
        </Area>
        {v.election_state ? (
          <Area title={tr("b.election")} term="la-casa:election">
            <p>
              {tr("b.nominated")} <Family f={v.election_state.nominated} />
              {tr("b.electionRound", { n: v.election_state.round })}
              {v.election_state.elector >= 0 ? tr("b.electedBy", { who: name(v.election_state.elector) }) : ""}
              {v.election_state.passed?.length ? tr("b.passed", { names: v.election_state.passed.map(name).join(", ") }) : ""}
            </p>
            {v.election_state.discard ? (
              <p>
                {tr("b.yourDiscard")} <Card id={v.election_state.discard} small inert />
              </p>
            ) : null}
          </Area>
        ) : null}
        {v.bidding ? (
          <Area title={tr("b.bidding")} term="la-casa:bidding">
            <p>
              {v.bidding.bid ? tr("b.bids", { who: name(v.bidding.bidder), n: v.bidding.bid }) : tr("b.noBid")}
              {v.bidding.passed?.length ? tr("b.passed", { names: v.bidding.passed.map(name).join(", ") }) : ""}
            </p>
          </Area>
        ) : null}
      </div>
      {v.tableaux ? (
        <Area title={tr("b.tableaux")} term="la-casa:tableau">
          {v.tableaux.map((stacks: Json[], seat: number) => (
            <div class="tableau" key={seat}>
              <span class="who">{name(seat)}</span>
              {stacks.map((st, i) => (
                <span class="stack" key={i}>
                  {st.up ? <Card id={st.up} /> : <span class="card empty" aria-label={tr("b.empty")} />}
                  {st.down ? <span class="under">{tr("b.faceDownOne")}</span> : null}
                </span>
              ))}
            </div>
          ))}
        </Area>
      ) : null}
      {(v.face_up ?? []).some((r: string[]) => r.length) ? (
        <Area title={tr("b.cardsOnTable")} term="challenge:cards_on_the_table">
          {v.face_up.map((row: string[], seat: number) =>
            row.length ? (
              <div class="tableau" key={seat}>
                <span class="who">{name(seat)}</span>
                <Cards ids={row} />
              </div>
            ) : null,
          )}
        </Area>
      ) : null}
      <Area title={tr("b.trick")} cls="current-trick">
        <TrickCards plays={v.trick ?? []} name={name} />
        {v.phase === "slap_down" || v.commits ? <p>{tr("b.committed", { n: v.commits ?? 0 })}</p> : null}
        {v.my_commit ? (
          <p>
            {tr("b.yourCommit")} <Card id={v.my_commit} small inert />
          </p>
        ) : null}
      </Area>
      {v.last_trick ? (
        <LastTrick
          cards={v.last_trick.cards.map((p: Json) => ({ ...p, who: name(p.seat) }))}
          winner={name(v.last_trick.winner)}
        />
      ) : null}
      {v.reference ? (
        <p>
          <Term id="la-casa:reference" label={tr("b.reference")} />: <Card id={v.reference} small inert />
        </p>
      ) : null}
      {v.set_aside?.length ? (
        <p>
          <Term id="la-casa:set-aside" label={tr("b.setAside")} />: <Cards ids={v.set_aside} small inert />
        </p>
      ) : null}
      {v.round_result ? (
        <Area title={tr("b.roundResult")}>
          {v.round_result.points.map((p: number, i: number) => (
            <div key={i}>
              {sideName(i)}: {tr("b.counted", { points: plural(p, "point"), tricks: plural(v.round_result.tricks?.[i] ?? 0, "trick"), n: v.round_result.counts?.[i] })}
            </div>
          ))}
        </Area>
      ) : null}
      <TermBar game="la-casa" />
    </div>
  );
}

const who = (p: string) => (p === "human" ? tr("b.you") : tr("b.robot"));

function LaCasaSolo({ view: v }: BoardProps) {
  return (
    <div class="board la-casa solo">
      <div class="facts">
        <Fact label={tr("b.round")}>
          {v.round}/{v.rounds}
        </Fact>
        <Fact label={tr("b.challenge")}>{v.challenge ? <Term id={challengeTerm(v.challenge, true)} label={challengeTitle(v.challenge)} /> : tr("b.none")}</Fact>
        <Fact label={tr("b.ruling")} term="la-casa:ruling-family">
          <Family f={v.ruling} />
        </Fact>
        <Fact label={tr("b.lead")} term="la-casa:lead-family">
          <Family f={v.lead} />
        </Fact>
        {v.cousins ? (
          <Fact label={tr("b.cousins")} term="la-casa:cousins">
            <Family f={v.cousins} />
          </Fact>
        ) : null}
        <Fact label={tr("b.yourPoints")}>{v.points}</Fact>
        <Fact label={tr("b.tricks")}>{tr("b.soloTricks", { you: v.tricks?.human ?? 0, robot: v.tricks?.robot ?? 0 })}</Fact>
        <Fact label={tr("b.pile")} term="la-casa:pile">{v.pile}</Fact>
      </div>
      <div class="row">
        <Area title={tr("b.theRobot")} term="la-casa:robot" cls="robot">
          <div class="columns">
            {(v.robot?.columns ?? []).map((c: Json) => (
              <span class="stack" key={c.column}>
                {c.face_up ? <Card id={c.face_up} inert /> : <span class="card empty" />}
                {c.face_down ? <span class="under">{tr("b.down", { n: c.face_down })}</span> : null}
              </span>
            ))}
          </div>
        </Area>
        <Area title={tr("b.casa")} term="la-casa:casa" cls="casa">
          {v.casa?.card ? <Card id={v.casa.card} inert /> : <CardBack />}
        </Area>
      </div>
      <Area title={tr("b.trick")} cls="current-trick">
        <TrickCards plays={v.trick ?? []} name={() => ""} />
      </Area>
      {v.last_trick ? (
        <LastTrick
          cards={v.last_trick.cards.map((c: string, i: number) => ({ card: c, who: i === 0 ? (v.last_trick.winner ? "" : "") : "" }))}
          winner={who(v.last_trick.winner)}
        />
      ) : null}
      {v.round_points?.length ? <p>{tr("b.pointsPerRound", { list: v.round_points.join(", ") })}</p> : null}
      {v.winner ? <p class="result">{v.winner === "human" ? tr("b.youBeat") : tr("b.robotWins")}</p> : null}
      <TermBar game="la-casa" mode="solo" />
    </div>
  );
}

function Domination({ view: v, name }: BoardProps) {
  return (
    <div class="board la-casa domination">
      <div class="facts">
        <Fact label={tr("b.round")}>{v.round}</Fact>
        <Fact label={tr("b.ruling")} term="la-casa:ruling-family">
          <Family f={v.ruling} />
        </Fact>
        <Fact label={tr("b.lead")} term="la-casa:lead-family">
          <Family f={v.lead} />
        </Fact>
        <Fact label={tr("b.phase")}>
          <Term id={phaseTerm("la-casa", v.phase) ?? ""} label={word("phase", v.phase)} />
        </Fact>
        <Fact label={tr("b.target")} term="la-casa:target">{v.target}</Fact>
        <Fact label={tr("b.stock")} term="la-casa:stock">{v.stock}</Fact>
      </div>
      <div class="row">
        <Area title={tr("b.casa")} term="la-casa:casa" cls="casa">
          {v.casa?.top ? <Card id={v.casa.top} inert /> : <CardBack count={v.casa?.count} />}
        </Area>
        <Area title={tr("b.faceUp")}>{v.face_up ? <Card id={v.face_up} inert /> : <span class="muted">{tr("b.none")}</span>}</Area>
        {v.election ? (
          <Area title={tr("b.election")} term="la-casa:election">
            <p>
              {tr("b.dominationElection", { n: v.election.round })} <Family f={v.election.nominated} />
              {v.election.elector !== null && v.election.elector !== undefined ? tr("b.electedBy", { who: name(v.election.elector) }) : ""}
            </p>
          </Area>
        ) : null}
      </div>
      <Area title={tr("b.trick")} cls="current-trick">
        <TrickCards plays={v.trick ?? []} name={name} />
      </Area>
      {v.last_trick ? (
        <LastTrick
          cards={v.last_trick.cards.map((c: string, i: number) => ({ card: c, who: name(v.last_trick.seats[i]) }))}
          winner={name(v.last_trick.winner)}
        />
      ) : null}
      <TermBar game="la-casa" mode="domination" />
    </div>
  );
}

function Casino({ view: v, name }: BoardProps) {
  return (
    <div class="board casino">
      <div class="facts">
        <Fact label={tr("b.round")}>{v.round}</Fact>
        <Fact label={tr("b.dealer")}>{name(v.dealer)}</Fact>
        <Fact label={tr("b.deck")}>{v.deck}</Fact>
        <Fact label={tr("b.target")} term="casino:target">{v.options?.target}</Fact>
        {v.only_trail ? (
          <Fact label={tr("b.note")} term="casino:sweep">
            {tr("b.onlyTrail")}
          </Fact>
        ) : null}
      </div>
      <Area title={tr("b.onTable")} cls="casino-table">
        <div class="loose">
          {(v.table?.loose ?? []).length ? <Cards ids={v.table.loose} /> : <span class="muted">{tr("b.noLoose")}</span>}
        </div>
        {(v.table?.builds ?? []).map((b: Json) => (
          <div class="build" key={b.id}>
            <b>
              {b.id}: <Term id="casino:build" label={tr("b.buildOf", { n: b.value })} />
            </b>{" "}
            {tr("b.by", { who: name(b.owner) })} <Cards ids={b.cards} small />
          </div>
        ))}
      </Area>
      <Area title={tr("b.captured")}>
        {(v.captures ?? []).map((c: string[], seat: number) => (
          <div key={seat}>
            {name(seat)}: {plural(c.length, "card")}
            {v.sweeps && v.teams ? "" : ""}
          </div>
        ))}
      </Area>
      {v.asking ? (
        <Area title={tr("b.questions")} term="casino:question-cards">
          <p>
            {tr("b.mayAsk", { who: name(v.asking.asker) })} <Cards ids={v.asking.cards} small inert />
          </p>
        </Area>
      ) : null}
      {(v.questions ?? []).length ? (
        <Area title={tr("b.questionsAsked")} term="casino:question-cards">
          {v.questions.slice(-4).map((q: Json, i: number) => (
            <p key={i}>
              {name(q.asker)} → {name(q.target)}: {q.text}
            </p>
          ))}
        </Area>
      ) : null}
      {v.last_round ? (
        <Area title={tr("b.lastRound")}>
          <table class="sheet">
            <thead>
              <tr>
                <th>{tr("b.side")}</th>
                <th>{tr("b.cards")}</th>
                <th>{tr("b.spades")}</th>
                <th>10♦</th>
                <th>2♠</th>
                <th>{tr("b.aces")}</th>
                <th>{tr("b.points")}</th>
              </tr>
            </thead>
            <tbody>
              {v.last_round.map((s: Json, i: number) => (
                <tr key={i}>
                  <td>{(v.teams?.[i] ?? [i]).map(name).join(" & ")}</td>
                  <td>{s.cards}</td>
                  <td>{s.spades}</td>
                  <td>{s.big_casino ? "✓" : ""}</td>
                  <td>{s.little_casino ? "✓" : ""}</td>
                  <td>{s.aces}</td>
                  <td>{s.points}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Area>
      ) : null}
      <TermBar game="casino" />
    </div>
  );
}

function Conference({ view: v, name }: BoardProps) {
  const t = v.trick;
  return (
    <div class="board conference">
      <div class="facts">
        <Fact label={tr("b.hand")}>{v.hand_number}</Fact>
        <Fact label={tr("b.dealer")}>{name(v.dealer)}</Fact>
        <Fact label={tr("b.contract")} term={v.contract ? "conference:contract" : "conference:allegiance"}>
          {v.contract ?? "—"}
        </Fact>
        <Fact label={tr("b.direction")} term="conference:direction">
          {word("direction", v.direction)}
        </Fact>
        <Fact label={tr("b.phase")}>
          <Term id={phaseTerm("conference", v.phase) ?? ""} label={word("phase", v.phase)} />
        </Fact>
        {v.gallowglass ? (
          <Fact label={tr("b.gallowglass")} term="conference:gallowglass">
            <Family f={v.gallowglass === "none" ? null : v.gallowglass} />
          </Fact>
        ) : null}
      </div>
      <div class="sides">
        {(v.sides ?? []).map((side: number[], i: number) => (
          <div class="side" key={i}>
            <b>{side.map(name).join(" & ")}</b>: {plural(v.game_points?.[i] ?? 0, "gamePoint")}, {plural(v.tricks_won?.[i] ?? 0, "trick")}
          </div>
        ))}
      </div>
      {v.phase === "discard" ? <p><Term id="conference:discard" label={tr("b.discard")} />{tr("b.dealerDiscards", { cards: plural(v.discard_target ?? 0, "card"), n: v.discard_size })}</p> : null}
      {v.discard?.length ? (
        <p>
          {tr("b.yourDiscard")} <Cards ids={v.discard} small inert />
        </p>
      ) : null}
      <Area title={t?.led ? tr("b.trickLed", { family: familyName(t.led) }) : tr("b.trick")} cls="current-trick">
        <TrickCards plays={t?.plays ?? []} name={name} />
      </Area>
      {v.tricks?.length ? (
        <LastTrick
          cards={v.tricks[v.tricks.length - 1].plays.map((p: Json) => ({ ...p, who: name(p.seat) }))}
          winner={name(v.tricks[v.tricks.length - 1].winner)}
        />
      ) : null}
      {v.calls?.length ? (
        <p><Term id="conference:allegiance" label={tr("b.calls")} />: {v.calls.map((c: Json) => `${name(c.seat)} “${c.call}”`).join(", ")}</p>
      ) : null}
      {v.last_hand ? (
        <Area title={tr("b.lastHand")}>
          {v.last_hand.card_points.map((p: number, i: number) => (
            <div key={i}>
              {(v.sides?.[i] ?? []).map(name).join(" & ")}: {tr("b.awarded", { points: plural(p, "cardPoint"), tricks: plural(v.last_hand.tricks[i] ?? 0, "trick"), n: v.last_hand.awarded[i] })}
            </div>
          ))}
        </Area>
      ) : null}
      <TermBar game="conference" />
    </div>
  );
}

function TrophyCase({ view: v, name }: BoardProps) {
  const t = v.trick;
  return (
    <div class="board trophy-case">
      <div class="facts">
        <Fact label={tr("b.hand")}>{v.hand_number}</Fact>
        <Fact label={tr("b.dealer")}>{name(v.dealer)}</Fact>
        <Fact label={tr("b.target")} term="trophy-case:scoring">{v.target}</Fact>
        <Fact label={tr("b.stock")} term="trophy-case:redeal">{v.stock_size}</Fact>
        {t?.led_suit ? (
          <Fact label={tr("b.led")} term="trophy-case:led">
            {trophySuit(t.led_suit) ? <span aria-hidden="true">{trophySuit(t.led_suit)!.symbol} </span> : null}
            {has(`tc.suit.${t.led_suit}`) ? tr(`tc.suit.${t.led_suit}`) : t.led_suit}
          </Fact>
        ) : null}
        {t?.folded?.length ? <Fact label={tr("b.folded")} term="trophy-case:fold">{t.folded.map(name).join(", ")}</Fact> : null}
      </div>
      <Area title={tr("b.trick")} cls="current-trick">
        <TrickCards plays={t?.plays ?? []} name={name} />
      </Area>
      {v.last_trick?.trick ? (
        <LastTrick
          cards={v.last_trick.trick.plays.map((p: Json) => ({ ...p, who: name(p.seat) }))}
          winner={`${name(v.last_trick.winner)} (${plural(v.last_trick.points, "point")}, ${word("reason", v.last_trick.reason)})`}
        />
      ) : v.last_trick ? (
        <p>
          {tr("b.lastTrickLine", { who: name(v.last_trick.winner), points: plural(v.last_trick.points ?? 0, "point") })}
        </p>
      ) : null}
      {/* Every hand shown since the last reshuffle, oldest first (TC-3.2). */}
      {(Array.isArray(v.shown) ? v.shown : []).map((s: Json, i: number) => (
        <p key={i}>
          {tr("b.showed", { who: name(s.seat) })} <Cards ids={s.cards} small inert />
        </p>
      ))}
      <TermBar game="trophy-case" />
    </div>
  );
}

export function Board(props: BoardProps) {
  const v = props.view;
  if (!v) return <p class="muted">{tr("b.waiting")}</p>;
  switch (v.game) {
    case "la-casa":
      if (v.mode === "solo") return <LaCasaSolo {...props} />;
      if (v.mode === "domination") return <Domination {...props} />;
      return <LaCasaTable {...props} />;
    case "casino":
      return <Casino {...props} />;
    case "conference":
      return <Conference {...props} />;
    case "trophy-case":
      return <TrophyCase {...props} />;
    default:
      return <pre class="raw">{JSON.stringify(v, null, 1)}</pre>;
  }
}
