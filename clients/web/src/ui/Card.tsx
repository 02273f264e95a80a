// SPDX-License-Identifier: AGPL-3.0-or-later
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { cardFace } from "../cards";
import type { DrawnCards } from "../choices";
import type { Json } from "../words";
import { t as tr } from "../i18n";

/** What the current request lets the player click: actions by card id. */
export interface PickContext {
  game: string;
  byCard: Map<string, Json[]>;
  drawn: DrawnCards | null;
  selected: string | null;
  pick: (card: string) => void;
  /** Cards tapped in and out of a chosen set (The Club's set-aside), and the set. */
  toggles?: Set<string>;
  chosen?: Set<string>;
}
export const Pick = createContext<PickContext>({
  game: "",
  byCard: new Map(),
  drawn: null,
  selected: null,
  pick: () => {},
});

interface CardProps {
  id: string;
  small?: boolean;
  note?: string; // e.g. the seat that played it
  dim?: boolean; // e.g. eliminated or face-down in a trick
  inert?: boolean; // never clickable (the last trick, a replay)
}

/** A face-up card. Lit and clickable when the request has an action for it. */
export function Card({ id, small, note, dim, inert }: CardProps) {
  const ctx = useContext(Pick);
  const f = cardFace(id, ctx.game || undefined);
  const actions = inert ? undefined : ctx.byCard.get(id);
  const toggle = !inert && !!ctx.toggles?.has(id);
  const cls = `card s-${f.suit}${small ? " small" : ""}${dim ? " dim" : ""}`;
  const face = (
    <>
      <span class={f.rank.length > 3 ? "rank long" : "rank"}>{f.rank}</span>
      <span class="sym" aria-hidden="true">{f.symbol}</span>
      {note ? <span class="note">{note}</span> : null}
    </>
  );
  if (toggle) {
    ctx.drawn?.add(id);
    const on = !!ctx.chosen?.has(id);
    return (
      <button
        type="button"
        class={`${cls} legal toggle${on ? " selected" : ""}`}
        data-card={id}
        title={f.name}
        aria-pressed={on}
        aria-label={f.name}
        onClick={() => ctx.pick(id)}
      >
        {face}
      </button>
    );
  }
  if (actions) {
    ctx.drawn?.add(id);
    return (
      <button
        type="button"
        class={`${cls} legal${ctx.selected === id ? " selected" : ""}`}
        data-card={id}
        title={f.name}
        aria-label={`${f.name}${actions.length > 1 ? tr("card.severalChoices") : ""}`}
        onClick={() => ctx.pick(id)}
      >
        {face}
      </button>
    );
  }
  const playable = (ctx.byCard.size > 0 || (ctx.toggles?.size ?? 0) > 0) && !inert;
  return (
    <span class={`${cls}${playable ? " unplayable" : ""}`} data-card={id} title={f.name} role="img" aria-label={f.name}>
      {face}
    </span>
  );
}

/** A face-down card (or a count of them). */
export function CardBack({ count, small, label }: { count?: number; small?: boolean; label?: string }) {
  return (
    <span class={`card back${small ? " small" : ""}`} role="img" aria-label={label ?? tr("card.faceDown", { n: count ?? 1 })}>
      {count !== undefined && count !== 1 ? <span class="count">{count}</span> : null}
    </span>
  );
}

export function Cards({ ids, small, inert }: { ids: string[]; small?: boolean; inert?: boolean }) {
  return (
    <span class="cards">
      {ids.map((c) => (
        <Card key={c} id={c} small={small} inert={inert} />
      ))}
    </span>
  );
}
