// SPDX-License-Identifier: AGPL-3.0-or-later
// The middle of the table for each game: what the seat's view shows, laid out.
// Only fields of the view are drawn; nothing is worked out from the rules.
import type { ComponentChildren } from "preact";
import { cardFace, FAMILY_SYMBOL, LOKA_SUIT_SYMBOL } from "../cards";
import { cap, humanize, type Json, plural } from "../words";
import { Card, CardBack, Cards } from "./Card";
import { Term, TermBar } from "./Help";
import { challengeTerm, challengeTitle, phaseTerm, trophySuit } from "../help/content";

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
  if (!f) return <span>none</span>;
  const sym = FAMILY_SYMBOL[f] ?? LOKA_SUIT_SYMBOL[f];
  return (
    <span class={`fam s-${f}`}>
      {sym ? <span aria-hidden="true">{sym} </span> : null}
      {cap(f)}
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
  if (plays.length === 0) return <p class="muted">No card yet.</p>;
  return (
    <div class="trick">
      {plays.map((p, i) => (
        <div class="played" key={i}>
          {p.mud ? (
            <span class="card mud">
              <Term id="trophy-case:mud" label="Mud" />
            </span>
          ) : p.face_down || !p.card ? (
            <CardBack small={false} label="a face-down card" />
          ) : (
            <Card id={p.card} dim={p.eliminated} inert={inert} />
          )}
          <span class="who">
            {typeof p.seat === "number" ? name(p.seat) : p.player === "human" ? "You" : p.player === "robot" ? "Robot" : ""}
            {p.eliminated ? " ✗" : ""}
            {p.as_gallowglass ? " (gallowglass)" : ""}
            {p.call ? ` “${p.call}”` : ""}
          </span>
        </div>
      ))}
    </div>
  );
}

function LastTrick({ cards, winner }: { cards: Json[]; winner: string }) {
  return (
    <Area title={`Last trick — won by ${winner}`} cls="last-trick">
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
        <Fact label="Round">{v.round}</Fact>
        <Fact label="Challenge">{v.challenge ? <Term id={challengeTerm(v.challenge)} label={challengeTitle(v.challenge)} /> : "none"}</Fact>
        <Fact label="Ruling" term="la-casa:ruling-family">
          <Family f={v.ruling_family} />
        </Fact>
        <Fact label="Lead" term="la-casa:lead-family">
          <Family f={v.lead_family} />
        </Fact>
        {v.cousins ? (
          <Fact label="Cousins" term="la-casa:cousins">
            <Family f={v.cousins} />
          </Fact>
        ) : null}
        <Fact label="Phase">
          <Term id={phaseTerm("la-casa", v.phase) ?? ""} label={humanize(v.phase)} />
        </Fact>
        <Fact label="Target" term="la-casa:target">{v.target}</Fact>
        <Fact label="Tricks">
          {v.tricks_played}/{v.total_tricks}
        </Fact>
      </div>
      <div class="sides">
        {(v.scores ?? []).map((sc: number, i: number) => (
          <div class="side" key={i}>
            <b>{sideName(i)}</b>: {plural(sc, "point")}, {plural(v.tricks_won?.[i] ?? 0, "trick")} this round
          </div>
        ))}
      </div>
      <div class="row">
        <Area title="The Casa" term="la-casa:casa" cls="casa">
          {v.casa?.top ? <Card id={v.casa.top} /> : <CardBack count={v.casa?.count ?? 0} />}
          <span class="muted"> {plural(v.casa?.count ?? 0, "card")}</span>
        </Area>
        {v.election_state ? (
          <Area title="Election" term="la-casa:election">
            <p>
              Nominated <Family f={v.election_state.nominated} />, round {v.election_state.round}
              {v.election_state.elector >= 0 ? `, elected by ${name(v.election_state.elector)}` : ""}
              {v.election_state.passed?.length ? `; passed: ${v.election_state.passed.map(name).join(", ")}` : ""}
            </p>
            {v.election_state.discard ? (
              <p>
                Your discard: <Card id={v.election_state.discard} small inert />
              </p>
            ) : null}
          </Area>
        ) : null}
        {v.bidding ? (
          <Area title="Bidding" term="la-casa:bidding">
            <p>
              {v.bidding.bid ? `${name(v.bidding.bidder)} bids ${v.bidding.bid}` : "No bid yet"}
              {v.bidding.passed?.length ? `; passed: ${v.bidding.passed.map(name).join(", ")}` : ""}
            </p>
          </Area>
        ) : null}
      </div>
      {v.tableaux ? (
        <Area title="Tableaux" term="la-casa:tableau">
          {v.tableaux.map((stacks: Json[], seat: number) => (
            <div class="tableau" key={seat}>
              <span class="who">{name(seat)}</span>
              {stacks.map((st, i) => (
                <span class="stack" key={i}>
                  {st.up ? <Card id={st.up} /> : <span class="card empty" aria-label="empty" />}
                  {st.down ? <span class="under">+1 face down</span> : null}
                </span>
              ))}
            </div>
          ))}
        </Area>
      ) : null}
      {(v.face_up ?? []).some((r: string[]) => r.length) ? (
        <Area title="Cards on the Table" term="challenge:cards_on_the_table">
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
      <Area title="Trick" cls="current-trick">
        <TrickCards plays={v.trick ?? []} name={name} />
        {v.phase === "slap_down" || v.commits ? <p>{plural(v.commits ?? 0, "card")} committed face down.</p> : null}
        {v.my_commit ? (
          <p>
            Your commit: <Card id={v.my_commit} small inert />
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
          <Term id="la-casa:reference" label="Your reference card" />: <Card id={v.reference} small inert />
        </p>
      ) : null}
      {v.set_aside?.length ? (
        <p>
          <Term id="la-casa:set-aside" label="Set aside" />: <Cards ids={v.set_aside} small inert />
        </p>
      ) : null}
      {v.round_result ? (
        <Area title="Round result">
          {v.round_result.points.map((p: number, i: number) => (
            <div key={i}>
              {sideName(i)}: {plural(p, "point")}, {plural(v.round_result.tricks?.[i] ?? 0, "trick")}, counted {v.round_result.counts?.[i]}
            </div>
          ))}
        </Area>
      ) : null}
      <TermBar game="la-casa" />
    </div>
  );
}

const who = (p: string) => (p === "human" ? "You" : "Robot");

function LaCasaSolo({ view: v }: BoardProps) {
  return (
    <div class="board la-casa solo">
      <div class="facts">
        <Fact label="Round">
          {v.round}/{v.rounds}
        </Fact>
        <Fact label="Challenge">{v.challenge ? <Term id={challengeTerm(v.challenge, true)} label={challengeTitle(v.challenge)} /> : "none"}</Fact>
        <Fact label="Ruling" term="la-casa:ruling-family">
          <Family f={v.ruling} />
        </Fact>
        <Fact label="Lead" term="la-casa:lead-family">
          <Family f={v.lead} />
        </Fact>
        {v.cousins ? (
          <Fact label="Cousins" term="la-casa:cousins">
            <Family f={v.cousins} />
          </Fact>
        ) : null}
        <Fact label="Your points">{v.points}</Fact>
        <Fact label="Tricks">
          You {v.tricks?.human ?? 0} – Robot {v.tricks?.robot ?? 0}
        </Fact>
        <Fact label="Pile" term="la-casa:pile">{v.pile}</Fact>
      </div>
      <div class="row">
        <Area title="The Robot" term="la-casa:robot" cls="robot">
          <div class="columns">
            {(v.robot?.columns ?? []).map((c: Json) => (
              <span class="stack" key={c.column}>
                {c.face_up ? <Card id={c.face_up} inert /> : <span class="card empty" />}
                {c.face_down ? <span class="under">+{c.face_down} down</span> : null}
              </span>
            ))}
          </div>
        </Area>
        <Area title="The Casa" term="la-casa:casa" cls="casa">
          {v.casa?.card ? <Card id={v.casa.card} inert /> : <CardBack />}
        </Area>
      </div>
      <Area title="Trick" cls="current-trick">
        <TrickCards plays={v.trick ?? []} name={() => ""} />
      </Area>
      {v.last_trick ? (
        <LastTrick
          cards={v.last_trick.cards.map((c: string, i: number) => ({ card: c, who: i === 0 ? (v.last_trick.winner ? "" : "") : "" }))}
          winner={who(v.last_trick.winner)}
        />
      ) : null}
      {v.round_points?.length ? <p>Points per round: {v.round_points.join(", ")}</p> : null}
      {v.winner ? <p class="result">{v.winner === "human" ? "You beat the Robot!" : "The Robot wins."}</p> : null}
      <TermBar game="la-casa" mode="solo" />
    </div>
  );
}

function Domination({ view: v, name }: BoardProps) {
  return (
    <div class="board la-casa domination">
      <div class="facts">
        <Fact label="Round">{v.round}</Fact>
        <Fact label="Ruling" term="la-casa:ruling-family">
          <Family f={v.ruling} />
        </Fact>
        <Fact label="Lead" term="la-casa:lead-family">
          <Family f={v.lead} />
        </Fact>
        <Fact label="Phase">
          <Term id={phaseTerm("la-casa", v.phase) ?? ""} label={humanize(v.phase)} />
        </Fact>
        <Fact label="Target" term="la-casa:target">{v.target}</Fact>
        <Fact label="Stock" term="la-casa:stock">{v.stock}</Fact>
      </div>
      <div class="row">
        <Area title="The Casa" term="la-casa:casa" cls="casa">
          {v.casa?.top ? <Card id={v.casa.top} inert /> : <CardBack count={v.casa?.count} />}
        </Area>
        <Area title="Face-up card">{v.face_up ? <Card id={v.face_up} inert /> : <span class="muted">none</span>}</Area>
        {v.election ? (
          <Area title="Election" term="la-casa:election">
            <p>
              Round {v.election.round}, nominated <Family f={v.election.nominated} />
              {v.election.elector !== null && v.election.elector !== undefined ? `, elected by ${name(v.election.elector)}` : ""}
            </p>
          </Area>
        ) : null}
      </div>
      <Area title="Trick" cls="current-trick">
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
        <Fact label="Round">{v.round}</Fact>
        <Fact label="Dealer">{name(v.dealer)}</Fact>
        <Fact label="Deck">{v.deck}</Fact>
        <Fact label="Target" term="casino:target">{v.options?.target}</Fact>
        {v.only_trail ? (
          <Fact label="Note" term="casino:sweep">
            only trailing is possible
          </Fact>
        ) : null}
      </div>
      <Area title="On the table" cls="casino-table">
        <div class="loose">
          {(v.table?.loose ?? []).length ? <Cards ids={v.table.loose} /> : <span class="muted">no loose card</span>}
        </div>
        {(v.table?.builds ?? []).map((b: Json) => (
          <div class="build" key={b.id}>
            <b>
              {b.id}: <Term id="casino:build" label={`build of ${b.value}`} />
            </b>{" "}
            by {name(b.owner)} <Cards ids={b.cards} small />
          </div>
        ))}
      </Area>
      <Area title="Captured">
        {(v.captures ?? []).map((c: string[], seat: number) => (
          <div key={seat}>
            {name(seat)}: {plural(c.length, "card")}
            {v.sweeps && v.teams ? "" : ""}
          </div>
        ))}
      </Area>
      {v.asking ? (
        <Area title="Questions" term="casino:question-cards">
          <p>
            {name(v.asking.asker)} may ask about <Cards ids={v.asking.cards} small inert />
          </p>
        </Area>
      ) : null}
      {(v.questions ?? []).length ? (
        <Area title="Questions asked" term="casino:question-cards">
          {v.questions.slice(-4).map((q: Json, i: number) => (
            <p key={i}>
              {name(q.asker)} → {name(q.target)}: {q.text}
            </p>
          ))}
        </Area>
      ) : null}
      {v.last_round ? (
        <Area title="Last round">
          <table class="sheet">
            <thead>
              <tr>
                <th>Side</th>
                <th>Cards</th>
                <th>Spades</th>
                <th>10♦</th>
                <th>2♠</th>
                <th>Aces</th>
                <th>Points</th>
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
        <Fact label="Hand">{v.hand_number}</Fact>
        <Fact label="Dealer">{name(v.dealer)}</Fact>
        <Fact label="Contract" term={v.contract ? "conference:contract" : "conference:allegiance"}>
          {v.contract ?? "—"}
        </Fact>
        <Fact label="Direction" term="conference:direction">
          {v.direction}
        </Fact>
        <Fact label="Phase">
          <Term id={phaseTerm("conference", v.phase) ?? ""} label={humanize(v.phase)} />
        </Fact>
        {v.gallowglass ? (
          <Fact label="Gallowglass" term="conference:gallowglass">
            <Family f={v.gallowglass === "none" ? null : v.gallowglass} />
          </Fact>
        ) : null}
      </div>
      <div class="sides">
        {(v.sides ?? []).map((side: number[], i: number) => (
          <div class="side" key={i}>
            <b>{side.map(name).join(" & ")}</b>: {plural(v.game_points?.[i] ?? 0, "game point")}, {plural(v.tricks_won?.[i] ?? 0, "trick")}
          </div>
        ))}
      </div>
      {v.phase === "discard" ? <p><Term id="conference:discard" label="Discard" />: the dealer discards {plural(v.discard_target ?? 0, "card")}: {v.discard_size} down.</p> : null}
      {v.discard?.length ? (
        <p>
          Your discard: <Cards ids={v.discard} small inert />
        </p>
      ) : null}
      <Area title={t?.led ? `Trick — ${cap(t.led)} led` : "Trick"} cls="current-trick">
        <TrickCards plays={t?.plays ?? []} name={name} />
      </Area>
      {v.tricks?.length ? (
        <LastTrick
          cards={v.tricks[v.tricks.length - 1].plays.map((p: Json) => ({ ...p, who: name(p.seat) }))}
          winner={name(v.tricks[v.tricks.length - 1].winner)}
        />
      ) : null}
      {v.calls?.length ? (
        <p><Term id="conference:allegiance" label="Calls" />: {v.calls.map((c: Json) => `${name(c.seat)} “${c.call}”`).join(", ")}</p>
      ) : null}
      {v.last_hand ? (
        <Area title="Last hand">
          {v.last_hand.card_points.map((p: number, i: number) => (
            <div key={i}>
              {(v.sides?.[i] ?? []).map(name).join(" & ")}: {plural(p, "card point")}, {plural(v.last_hand.tricks[i] ?? 0, "trick")}, awarded{" "}
              {v.last_hand.awarded[i]}
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
        <Fact label="Hand">{v.hand_number}</Fact>
        <Fact label="Dealer">{name(v.dealer)}</Fact>
        <Fact label="Target" term="trophy-case:scoring">{v.target}</Fact>
        <Fact label="Stock" term="trophy-case:redeal">{v.stock_size}</Fact>
        {t?.led_suit ? (
          <Fact label="Led" term="trophy-case:led">
            {trophySuit(t.led_suit) ? <span aria-hidden="true">{trophySuit(t.led_suit)!.symbol} </span> : null}
            {cardFace(`${t.led_suit}1`, "trophy-case").name.replace(/^1 of /, "")}
          </Fact>
        ) : null}
        {t?.folded?.length ? <Fact label="Folded" term="trophy-case:fold">{t.folded.map(name).join(", ")}</Fact> : null}
      </div>
      <Area title="Trick" cls="current-trick">
        <TrickCards plays={t?.plays ?? []} name={name} />
      </Area>
      {v.last_trick?.trick ? (
        <LastTrick
          cards={v.last_trick.trick.plays.map((p: Json) => ({ ...p, who: name(p.seat) }))}
          winner={`${name(v.last_trick.winner)} (${plural(v.last_trick.points, "point")}, ${humanize(v.last_trick.reason)})`}
        />
      ) : v.last_trick ? (
        <p>
          Last trick: {name(v.last_trick.winner)}, {plural(v.last_trick.points ?? 0, "point")}.
        </p>
      ) : null}
      {/* Every hand shown since the last reshuffle, oldest first (TC-3.2). */}
      {(Array.isArray(v.shown) ? v.shown : []).map((s: Json, i: number) => (
        <p key={i}>
          {name(s.seat)} showed <Cards ids={s.cards} small inert />
        </p>
      ))}
      <TermBar game="trophy-case" />
    </div>
  );
}

export function Board(props: BoardProps) {
  const v = props.view;
  if (!v) return <p class="muted">Waiting for the game to start.</p>;
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
