// SPDX-License-Identifier: AGPL-3.0-or-later
// The page's words, in English and Italian. Every string the page shows comes from
// one catalogue per language (en.json, it.json: flat keys, the same in both), through
// t(key, params): "{name}" placeholders, numbers in the language's format, and plurals
// (a value { "one": …, "other": … } chosen by Intl.PluralRules from the count `n`).
// The long prose of the games' guides lives in src/help/content.ts (English) and
// src/help/content.it.ts (Italian), of the same shape.
// Text the server sends (error messages, the option descriptions of /api/games, chat)
// is shown as the server sends it.
import en from "./en.json";
import it from "./it.json";

export type Lang = "en" | "it";
export type Message = string | Record<string, string>;
export type Catalogue = Record<string, Message>;

export const CATALOGUES: Record<Lang, Catalogue> = { en: en as Catalogue, it: it as Catalogue };
/** Each language named in itself, for the switch. */
export const LANG_NAMES: Record<Lang, string> = { en: "English", it: "Italiano" };
export const LANGS: Lang[] = ["en", "it"];
const KEY = "casa.lang";
/** What a key missing from the catalogue shows (tests look for it). */
export const MISSING = "⟦";

function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

/** The saved choice, else the browser's language: Italian for it*, else English. */
export function initialLang(): Lang {
  const saved = storage()?.getItem(KEY);
  if (saved === "en" || saved === "it") return saved;
  const nav = typeof navigator === "undefined" ? "" : (navigator.languages?.[0] ?? navigator.language ?? "");
  return /^it\b/i.test(nav) ? "it" : "en";
}

let current: Lang = initialLang();
const listeners = new Set<() => void>();
applyHtmlLang();

function applyHtmlLang(): void {
  if (typeof document !== "undefined" && document.documentElement) document.documentElement.lang = current;
}

export function lang(): Lang {
  return current;
}

/** Switches the page's language, remembers it and re-renders (listeners). */
export function setLang(l: Lang, remember = true): void {
  if (remember) storage()?.setItem(KEY, l);
  if (l === current) return;
  current = l;
  applyHtmlLang();
  for (const f of listeners) f();
}

export function onLangChange(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

const plurals = new Map<Lang, Intl.PluralRules>();
const numbers = new Map<Lang, Intl.NumberFormat>();

export function formatNumber(n: number, l: Lang = current): string {
  let f = numbers.get(l);
  if (!f) numbers.set(l, (f = new Intl.NumberFormat(l)));
  return f.format(n);
}

function pluralForm(n: number, l: Lang): string {
  let r = plurals.get(l);
  if (!r) plurals.set(l, (r = new Intl.PluralRules(l)));
  return r.select(n);
}

/** Whether the catalogue of `l` has `key`. */
export function has(key: string, l: Lang = current): boolean {
  return key in CATALOGUES[l];
}

/**
 * The message `key` in the current language, `{name}` replaced by params.name
 * (numbers formatted for the language). A plural message picks its form from
 * params.n. A key missing from the catalogue shows as ⟦key⟧.
 */
export function t(key: string, params?: Record<string, unknown>, l: Lang = current): string {
  let m: Message | undefined = CATALOGUES[l][key];
  if (m === undefined) return `${MISSING}${key}⟧`;
  if (typeof m !== "string") {
    const n = Number(params?.n);
    m = m[pluralForm(n, l)] ?? m.other;
  }
  if (!params) return m;
  return m.replace(/\{(\w+)\}/g, (all, name: string) => {
    if (!(name in params)) return all;
    const v = params[name];
    return typeof v === "number" ? formatNumber(v, l) : String(v ?? "");
  });
}

/** "ann, bea and carl" / "ann, bea e carl". */
export function listWords(names: string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return t("list.and", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}
