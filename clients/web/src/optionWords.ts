// SPDX-License-Identifier: AGPL-3.0-or-later
// The create form's options in players' words (the catalogue's "opt.GAME.KEY" and
// "choice.GAME.KEY.VALUE"). The server's own descriptions (GET /api/games) are
// written for bot authors, with rule ids and accepted spellings, and are shown as the
// server sends them (English): they stay one click away under "Rules reference". An
// option missing here shows the server's text, so a new option still reads sensibly.
import { has, t } from "./i18n";

/** The option's description for players, or null when the catalogue has none. */
export function optionWords(game: string, key: string): string | null {
  const k = `opt.${game}.${key}`;
  return has(k) ? t(k) : null;
}

/** An option's name in the page's language, or null (then the server's title shows). */
export function optionLabel(game: string, key: string): string | null {
  const k = `optLabel.${game}.${key}`;
  return has(k) ? t(k) : null;
}

/** A game's one-line description in the page's language, or null. */
export function gameDescription(game: string): string | null {
  const k = `gameDesc.${game}`;
  return has(k) ? t(k) : null;
}

/** A choice's label in players' words, or null. */
export function choiceWords(game: string, key: string, value: unknown): string | null {
  const k = `choice.${game}.${key}.${String(value)}`;
  return has(k) ? t(k) : null;
}
