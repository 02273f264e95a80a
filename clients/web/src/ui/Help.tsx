// SPDX-License-Identifier: AGPL-3.0-or-later
// The games taught in place: a "How to play" page per game (/help/GAME), the words
// of the table as buttons that open their explanation in a dialog (one tap or
// click, keyboard reachable, no hover), and a button that opens a game's whole
// guide over the table. The words themselves are in ../help/content.ts.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import "../help/help.css";
import { GAMES, GUIDES, TROPHY_SUITS, UI, term, type Block, type GameName, type Guide, type Term as TermEntry } from "../help/content";

function isGame(g: string): g is GameName {
  return (GAMES as string[]).includes(g);
}

export function helpPath(game?: string): string {
  return game ? `/help/${game}` : "/help";
}

function RuleRefs({ rules }: { rules: string[] }) {
  if (!rules.length) return null;
  return (
    <small class="rule-refs">
      {UI.rulesPrefix}
      {rules.map((r, i) => (
        <span key={r}>
          {i ? " · " : ""}
          {r}
        </span>
      ))}
    </small>
  );
}

/** One glossary entry, as in the dialog and on the help page. */
export function TermBody({ t }: { t: TermEntry }) {
  return (
    <>
      {t.players ? (
        <p class="term-players">
          {UI.players}: {t.players}
        </p>
      ) : null}
      {t.text.map((p, i) => (
        <p key={i}>{p}</p>
      ))}
      {t.id === "trophy-case:suits" ? <SuitLegend /> : null}
      {t.card ? (
        <dl class="challenge-card">
          <dt>{UI.setup}</dt>
          <dd>{t.card.setup}</dd>
          <dt>{UI.changes}</dt>
          <dd>{t.card.changes}</dd>
          <dt>{UI.scoring}</dt>
          <dd>{t.card.scoring}</dd>
        </dl>
      ) : null}
      <RuleRefs rules={t.rules} />
    </>
  );
}

/** Trophy Case's suits: symbol, name and colour, by colour. */
export function SuitLegend() {
  return (
    <table class="suit-legend">
      <tbody>
        {TROPHY_SUITS.map((s) => (
          <tr key={s.code} data-suit={s.code}>
            <td class={`sym legend-${s.colour}`} aria-hidden="true">
              {s.symbol}
            </td>
            <td>{s.name}</td>
            <td>{s.colourName}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A modal dialog (the platform's <dialog>: focus kept inside, Escape closes). */
function Dialog({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (typeof d.showModal === "function" && !d.open) {
      try {
        d.showModal();
      } catch {
        d.setAttribute("open", "");
      }
    } else d.setAttribute("open", "");
    const close = () => onClose();
    d.addEventListener("close", close);
    return () => d.removeEventListener("close", close);
  }, []);
  // The platform closes it first (Escape does so itself), so that the page behind
  // is no longer inert when the opener takes the focus back.
  const shut = () => {
    const d = ref.current;
    if (d?.open && typeof d.close === "function") d.close();
    onClose();
  };
  return (
    <dialog
      ref={ref}
      class={`help-dialog${wide ? " wide" : ""}`}
      aria-label={title}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself) closes it.
        if (e.target === ref.current) shut();
      }}
    >
      <div class="help-dialog-body">
        <header class="help-dialog-head">
          <h2>{title}</h2>
          <button type="button" class="help-close" autoFocus onClick={shut}>
            {UI.close}
          </button>
        </header>
        {children}
      </div>
    </dialog>
  );
}

/** Closes a dialog and gives the keyboard focus back to the button that opened it. */
function closeTo(setOpen: (o: boolean) => void, opener: HTMLElement | null) {
  setOpen(false);
  opener?.focus();
  // The page may have been scrolled to reach the word: a table brings its pending
  // decision back into view (Table listens).
  window.dispatchEvent(new Event(HELP_CLOSED));
}

/** The window event sent when an explanation or a guide is closed. */
export const HELP_CLOSED = "casa-help-closed";

/**
 * A word of the table that opens its explanation: a button (so a tap, a click,
 * Enter or Space open it), never a hover-only tooltip.
 */
export function Term({ id, children, label }: { id: string; children?: ComponentChildren; label?: string }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const t = term(id);
  if (!t) return <>{children ?? label ?? id}</>;
  return (
    <>
      <button ref={button} type="button" class="term" data-term={t.id} aria-haspopup="dialog" aria-label={`${label ?? t.title}: ${UI.whatIs(t.title)}`} onClick={() => setOpen(true)}>
        {children ?? label ?? t.title}
        <span class="term-mark" aria-hidden="true">
          {UI.termMark}
        </span>
      </button>
      {open ? (
        <Dialog title={t.title} onClose={() => closeTo(setOpen, button.current)}>
          <TermBody t={t} />
          <p class="help-more">
            <a href={`${helpPath(t.game)}#term-${anchor(t.id)}`} target="_blank" rel="noopener">
              {UI.openFullRules}
            </a>
          </p>
        </Dialog>
      ) : null}
    </>
  );
}

function anchor(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "-");
}

function Blocks({ blocks }: { blocks: Block[] }) {
  return (
    <>
      {blocks.map((b, i) => {
        if (typeof b === "string") return <p key={i}>{b}</p>;
        if ("list" in b)
          return (
            <ul key={i}>
              {b.list.map((x, k) => (
                <li key={k}>{x}</li>
              ))}
            </ul>
          );
        if ("symbols" in b) return null; // the suit legend is drawn with its entry
        return (
          <div class="help-terms" key={i}>
            {b.terms.map((id) => {
              const t = term(id);
              if (!t) return null;
              return (
                <article class={`help-term${t.card ? " challenge" : ""}`} id={`term-${anchor(t.id)}`} key={id}>
                  <h4>{t.title}</h4>
                  <TermBody t={t} />
                </article>
              );
            })}
          </div>
        );
      })}
    </>
  );
}

/** A game's whole guide: contents, then each section with its rule ids. */
export function GuideBody({ guide, headingLevel = 2 }: { guide: Guide; headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? "h2" : "h3";
  return (
    <div class={`guide guide-${guide.game}`}>
      <p class="guide-tagline">{guide.tagline}</p>
      <nav class="guide-contents" aria-label={UI.contents}>
        <ul>
          {guide.sections.map((s) => (
            <li key={s.id}>
              <a href={`#${guide.game}-${s.id}`}>{s.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      {guide.sections.map((s) => (
        <section class="guide-section" id={`${guide.game}-${s.id}`} key={s.id} aria-label={s.title}>
          <H>
            {s.title} {s.rules ? <RuleRefs rules={s.rules} /> : null}
          </H>
          <Blocks blocks={s.blocks} />
        </section>
      ))}
    </div>
  );
}

/** "How to play" over the table or the replay: the game's whole guide in a dialog. */
export function HelpButton({ game }: { game: string }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  if (!isGame(game)) return null;
  const guide = GUIDES[game];
  return (
    <>
      <button ref={button} type="button" class="help-button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {UI.howToPlay}
      </button>
      {open ? (
        <Dialog title={UI.howToPlayGame(guide.title)} onClose={() => closeTo(setOpen, button.current)} wide>
          <GuideBody guide={guide} headingLevel={3} />
        </Dialog>
      ) : null}
    </>
  );
}

function navLink(path: string, navigate: (p: string) => void, text: string, cls?: string) {
  return (
    <a
      href={path}
      class={cls}
      onClick={(e) => {
        e.preventDefault();
        navigate(path);
      }}
    >
      {text}
    </a>
  );
}

/** Links to every game's guide (the lobby and the help index). */
export function HelpLinks({ navigate }: { navigate: (p: string) => void }) {
  return (
    <ul class="help-links">
      {GAMES.map((g) => (
        <li key={g}>{navLink(helpPath(g), navigate, GUIDES[g].title, `help-link help-${g}`)}</li>
      ))}
    </ul>
  );
}

/** /help and /help/GAME. */
export function HelpPage({ game, navigate }: { game?: string; navigate: (p: string) => void }) {
  useEffect(() => {
    // Opened at #term-…: scroll to the entry once it is drawn.
    const h = location.hash.slice(1);
    if (h) document.getElementById(h)?.scrollIntoView();
  }, [game]);
  if (!game)
    return (
      <div class="help-page">
        <h2>{UI.helpIndexTitle}</h2>
        <p>{UI.helpIndexIntro}</p>
        <HelpLinks navigate={navigate} />
        <h3 id="review">{UI.helpReviewTitle}</h3>
        <p class="help-review">{UI.helpReviewText}</p>
        <p>{navLink("/", navigate, UI.backToLobby)}</p>
      </div>
    );
  if (!isGame(game))
    return (
      <div class="help-page">
        <p>{UI.noSuchGame(game)}</p>
        <HelpLinks navigate={navigate} />
      </div>
    );
  const guide = GUIDES[game];
  return (
    <div class="help-page">
      <p class="help-crumbs">
        {navLink(helpPath(), navigate, UI.allGames)} · {navLink("/", navigate, UI.backToLobby)}
      </p>
      <h2>{UI.howToPlayGame(guide.title)}</h2>
      <GuideBody guide={guide} />
    </div>
  );
}

/** The words a game's board draws only as symbols (suits, the Mangia-Cake, Mud), as buttons. */
const BOARD_TERMS: Record<string, string[]> = {
  "la-casa": ["la-casa:families", "la-casa:mangia-cake"],
  "la-casa/solo": ["format:solo", "la-casa:families", "la-casa:mangia-cake"],
  "la-casa/domination": ["format:domination", "la-casa:families", "la-casa:mangia-cake"],
  casino: ["casino:capture", "casino:build", "casino:trail", "casino:scoring"],
  conference: ["conference:deck", "conference:fool", "conference:card-points"],
  "trophy-case": ["trophy-case:suits", "trophy-case:trumps", "trophy-case:infinity", "trophy-case:trick-end"],
};

export function TermBar({ game, mode }: { game: string; mode?: string }) {
  const ids = BOARD_TERMS[mode ? `${game}/${mode}` : game] ?? BOARD_TERMS[game];
  if (!ids) return null;
  return (
    <p class="term-bar">
      {ids.map((id) => (
        <Term id={id} key={id} />
      ))}
    </p>
  );
}
