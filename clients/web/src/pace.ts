// SPDX-License-Identifier: AGPL-3.0-or-later
// Correspondence tables (docs/protocol.md, "Correspondence tables"): the times per
// move the create form offers, and durations from seconds to days in words.
import { t as tr } from "./i18n";

/** The create form's "time per move" choices, in seconds (1 h, 12 h, 1 d, 3 d, 7 d). */
export const PACES: number[] = [3600, 12 * 3600, 24 * 3600, 3 * 24 * 3600, 7 * 24 * 3600];

/** A time left (or a time per move) in milliseconds, as the page shows it: "m:ss"
 * under an hour, "5 h 12 min" under a day, "2 d 3 h" beyond. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  const m = Math.floor(s / 60);
  if (s < 24 * 3600) return tr("time.hoursMinutes", { h: Math.floor(m / 60), m: m % 60 });
  const h = Math.floor(m / 60);
  return tr("time.daysHours", { d: Math.floor(h / 24), h: h % 24 });
}

/** A time per move in words: "1 h", "12 h", "3 d" (whole units), else as formatDuration. */
export function paceWords(seconds: number): string {
  if (seconds % (24 * 3600) === 0) return tr("time.days", { n: seconds / (24 * 3600) });
  if (seconds % 3600 === 0) return tr("time.hours", { n: seconds / 3600 });
  return formatDuration(seconds * 1000);
}
