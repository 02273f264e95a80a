// SPDX-License-Identifier: AGPL-3.0-or-later
// Calls the player back while the tab is hidden: when it becomes their turn, a chat
// line arrives, one of their games ends or they are invited to an event, the title and the favicon show a count, an optional sound plays
// (generated with WebAudio, no sound file) and, with the player's permission, a
// system notification appears. Showing the tab again clears the count.

import { t } from "./i18n";

const BASE_TITLE = "La Casa";
const SOUND_KEY = "casa.sound";
const NOTIFY_KEY = "casa.notify";

/** The favicon's drawing (public/favicon.svg), with a red count in its corner. */
export function faviconWithCount(count: number): string {
  const badge =
    count > 0
      ? `<circle cx="46" cy="18" r="17" fill="#d7263d" stroke="#fff" stroke-width="3"/>` +
        `<text x="46" y="25" font-size="${count > 9 ? 17 : 22}" font-family="sans-serif" font-weight="bold" text-anchor="middle" fill="#fff">${count > 99 ? "99" : count}</text>`
      : "";
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#0f2a1e"/>` +
    `<rect x="26" y="11" width="28" height="40" rx="4" fill="#fbfaf5" stroke="#ffd166" stroke-width="2.5"/>` +
    `<path d="M31 34 L40 25 L49 34 L49 45 L31 45 Z" fill="#b3261e"/>${badge}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export type AlertKind = "turn" | "chat" | "over" | "invite";

const TITLE_KEY: Record<AlertKind, string> = {
  turn: "alert.turnTitle",
  chat: "alert.chatTitle",
  over: "alert.overTitle",
  invite: "alert.inviteTitle",
};
/** The tones of each kind (Hz, one after another). */
const TONES: Record<AlertKind, number[]> = { turn: [660, 880], chat: [520], over: [880, 660, 440], invite: [520, 780] };

export class Alerts {
  unread = 0;
  private turns = 0;
  private chats = 0;
  private overs = 0;
  private invites = 0;
  private listeners = new Set<() => void>();
  private audio: AudioContext | null = null;

  constructor(private doc: Document = document) {
    doc.addEventListener("visibilitychange", () => {
      if (!doc.hidden) this.clear();
    });
  }

  onChange(f: () => void): void {
    this.listeners.add(f);
  }

  get sound(): boolean {
    return localStorage.getItem(SOUND_KEY) === "on";
  }
  set sound(on: boolean) {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
    if (on) this.beep("turn"); // a user gesture: lets the browser start audio, and a sample
    this.emit();
  }

  /** Notifications are on when the player asked for them and the browser allows them. */
  get notify(): boolean {
    return localStorage.getItem(NOTIFY_KEY) === "on" && typeof Notification !== "undefined" && Notification.permission === "granted";
  }
  get notifyBlocked(): boolean {
    return typeof Notification === "undefined" || Notification.permission === "denied";
  }
  /** Called from a click: asks the browser's permission the first time. */
  async setNotify(on: boolean): Promise<void> {
    localStorage.setItem(NOTIFY_KEY, on ? "on" : "off");
    if (on && typeof Notification !== "undefined" && Notification.permission === "default") {
      await Notification.requestPermission();
    }
    this.emit();
  }

  /** Something the player should come back for; counted only while the tab is hidden. */
  notice(kind: AlertKind, text: string): void {
    if (!this.doc.hidden) return;
    this.unread++;
    if (kind === "turn") this.turns++;
    else if (kind === "chat") this.chats++;
    else if (kind === "over") this.overs++;
    else this.invites++;
    this.show();
    if (this.sound) this.beep(kind);
    if (this.notify) {
      try {
        const n = new Notification(t(TITLE_KEY[kind]), { body: text, tag: `casa-${kind}`, icon: "/icon-192.png" });
        n.onclick = () => {
          window.focus();
          n.close();
        };
      } catch {
        // Some browsers allow notifications only from a service worker: the title still shows it.
      }
    }
  }

  clear(): void {
    if (this.unread === 0) return;
    this.unread = this.turns = this.chats = this.overs = this.invites = 0;
    this.show();
  }

  /** The title for the current count: "(2) Your turn · La Casa". */
  title(): string {
    if (this.unread === 0) return BASE_TITLE;
    const parts: string[] = [];
    if (this.turns) parts.push(t("alert.turn"));
    if (this.overs) parts.push(t("alert.over"));
    if (this.invites) parts.push(t("alert.invite"));
    if (this.chats) parts.push(t("alert.chat", { n: this.chats }));
    const what = parts.length === 2 && this.turns && this.chats ? t("alert.turnAndChat") : parts.join(", ");
    return `(${this.unread}) ${what} · ${BASE_TITLE}`;
  }

  private show(): void {
    this.doc.title = this.title();
    let link = this.doc.querySelector<HTMLLinkElement>("link[rel~='icon']");
    if (!link) {
      link = this.doc.createElement("link");
      link.rel = "icon";
      this.doc.head.appendChild(link);
    }
    link.type = "image/svg+xml";
    link.href = this.unread ? faviconWithCount(this.unread) : "/favicon.svg";
    this.emit();
  }

  private emit(): void {
    for (const f of this.listeners) f();
  }

  /** Short tones: rising for a turn, one soft tone for chat, falling for a game's end, two for an invitation. */
  private beep(kind: AlertKind): void {
    try {
      const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
      if (!Ctx) return;
      this.audio ??= new Ctx();
      const ctx = this.audio;
      const notes = TONES[kind];
      notes.forEach((f, i) => {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        const t0 = ctx.currentTime + i * 0.16;
        osc.type = "sine";
        osc.frequency.value = f;
        gain.gain.setValueAtTime(0.0001, t0);
        gain.gain.exponentialRampToValueAtTime(0.2, t0 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.15);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t0);
        osc.stop(t0 + 0.16);
      });
    } catch {
      // No audio device: the title and favicon still show it.
    }
  }
}
