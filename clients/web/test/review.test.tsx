// SPDX-License-Identifier: AGPL-3.0-or-later
// The game review on the replay page: a hand-written review of the La Casa fixture
// game (test/fixtures/review-la-casa.json, the JSON of docs/review.md) drawn as
// marks, a graph, accuracies and the better action in the table's words; and the
// real WebAssembly module (src/wasm/casa-review.wasm) on the fixture games.
import { render } from "preact";
import { act } from "preact/test-utils";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setLang } from "../src/i18n";
import { makeReviewer } from "../src/review";
import { betterAction, countsText, graphLines, type Review, type ReviewError, type ReviewOptions } from "../src/review-view";
import { HelpPage } from "../src/ui/Help";
import { ReplayPage } from "../src/ui/Replay";
import type { ReviewRunner } from "../src/ui/Review";
import type { AsyncVerifier } from "../src/verify";
import type { Json } from "../src/words";
import { fixture } from "./helpers";

let root: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  root = document.getElementById("root")!;
});
afterEach(() => setLang("en", false));

const noVerifier = () => new Promise<AsyncVerifier>(() => {});

/** A runner the test answers by hand; it records what it was asked. */
function handRunner() {
  const calls: { text: string; options: ReviewOptions; cancelled: boolean; answer: (r: Review | ReviewError) => void }[] = [];
  const runner: ReviewRunner = (text, options) => {
    let answer: (r: Review | ReviewError) => void = () => {};
    const done = new Promise<Review | ReviewError>((res) => (answer = res));
    const call = { text, options, cancelled: false, answer };
    calls.push(call);
    return { done, cancel: () => (call.cancelled = true) };
  };
  return { runner, calls };
}

async function settle(until: () => boolean) {
  for (let i = 0; i < 100 && !until(); i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 5));
    });
  }
}

async function showReplay(replay: Json, runner: ReviewRunner) {
  (globalThis as Json).fetch = async (url: string) =>
    url.includes(`/api/tables/${replay.table}/replay`) ? { ok: true, status: 200, text: async () => JSON.stringify(replay) } : { ok: false, status: 404 };
  await act(async () => {
    render(<ReplayPage id={replay.table} navigate={() => {}} verifier={noVerifier} reviewer={runner} />, root);
  });
  await settle(() => !!root.querySelector(".replay-controls"));
}

const click = (el: Element | null) => act(() => void el!.dispatchEvent(new MouseEvent("click", { bubbles: true })));

async function reviewed(replay: Json = fixture("replay-la-casa.json"), review: Review = fixture("review-la-casa.json")) {
  const { runner, calls } = handRunner();
  await showReplay(replay, runner);
  await click(root.querySelector(".review-button"));
  await act(async () => calls[0].answer(review));
  await settle(() => !!root.querySelector(".review-graph"));
  return { calls, replay, review };
}

describe("the review on the replay page", () => {
  it("is offered for a finished game and runs on the replay's own text with the depth chosen", async () => {
    const { runner, calls } = handRunner();
    const replay = fixture("replay-la-casa.json");
    await showReplay(replay, runner);
    expect(root.querySelector(".review-button")!.textContent).toBe("Review the game");
    // Bots sit at this table: their decisions can be asked for too.
    const select = root.querySelector('select[name="review-depth"]') as HTMLSelectElement;
    select.value = "quick";
    await act(() => void select.dispatchEvent(new Event("change")));
    const bots = root.querySelector('input[name="review-bots"]') as HTMLInputElement;
    bots.checked = true;
    await act(() => void bots.dispatchEvent(new Event("change")));
    await click(root.querySelector(".review-button"));
    expect(calls.length).toBe(1);
    expect(JSON.parse(calls[0].text)).toEqual(replay);
    expect(calls[0].options).toEqual({ iterations: 200, seats: [0, 1] });
    // While it runs: a status with a way to cancel, and no second button.
    expect(root.querySelector(".review-running")!.getAttribute("role")).toBe("status");
    expect(root.querySelector(".review-button")).toBeNull();
    await click(root.querySelector(".review-cancel"));
    expect(calls[0].cancelled).toBe(true);
    expect(root.querySelector(".review-button")).not.toBeNull();
    // A review that ends after its cancel changes nothing.
    await act(async () => calls[0].answer(fixture("review-la-casa.json")));
    expect(root.querySelector(".review-graph")).toBeNull();
  });

  it("leaves the arrow keys to the depth's list while it has the focus", async () => {
    const replay = fixture("replay-la-casa.json");
    await showReplay(replay, handRunner().runner);
    const select = root.querySelector('select[name="review-depth"]') as HTMLSelectElement;
    await act(() => void select.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft", bubbles: true })));
    expect(root.querySelector(".step")!.textContent).toContain(`Move ${replay.log.length} of`);
    await act(() => void document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft", bubbles: true })));
    expect(root.querySelector(".step")!.textContent).toContain(`Move ${replay.log.length - 1} of`);
  });

  it("is not offered for a game that is not over", async () => {
    const replay = fixture("replay-la-casa.json");
    replay.game_over = false;
    await showReplay(replay, handRunner().runner);
    expect(root.querySelector(".review")).toBeNull();
    expect(root.querySelector(".review-button")).toBeNull();
    const unfinished = fixture("replay-la-casa.json");
    delete unfinished.final_state;
    await showReplay(unfinished, handRunner().runner);
    expect(root.querySelector(".review-button")).toBeNull();
  });

  it("says why when the review refuses the game", async () => {
    const { runner, calls } = handRunner();
    await showReplay(fixture("replay-la-casa.json"), runner);
    await click(root.querySelector(".review-button"));
    await act(async () => calls[0].answer({ error: "not_over", why: "the log does not end the game" }));
    expect(root.querySelector(".review-failed")!.textContent).toBe("This game is not over: a game is reviewed once it ends.");
    expect(root.querySelector(".review-button")).not.toBeNull();
  });

  it("shows each seat's accuracy and its decisions counted by verdict", async () => {
    await reviewed();
    const row = root.querySelector(".review-seats tbody tr")!;
    expect(row.querySelector(".accuracy")!.textContent).toBe("52.5 %");
    expect(row.querySelector(".counts")!.textContent).toBe("1 best, 1 good, 1 inaccuracy, 1 mistake, 1 blunder · 1 only move");
    expect(countsText({ seat: 0, decisions: 7, accuracy: 60, counts: { best: 4, good: 0, inaccuracy: 2, mistake: 0, blunder: 1 } })).toBe("4 best, 2 inaccuracies, 1 blunder");
  });

  it("marks every reviewed decision in the move list with its symbol and, for screen readers, its word", async () => {
    const { replay, review } = await reviewed();
    const items = [...root.querySelectorAll(".replay-log li")];
    expect(items.length).toBe(replay.log.length);
    const marks = items.map((li) => li.querySelector(".mark"));
    const want: Record<number, [string, string]> = {
      3: ["□", "only move"], 5: ["★", "best"], 7: ["??", "blunder"], 8: ["?!", "inaccuracy"], 10: ["✓", "good"], 13: ["?", "mistake"],
    };
    replay.log.forEach((e: Json, i: number) => {
      const w = want[e.seq];
      if (!w) return expect(marks[i], `seq ${e.seq}`).toBeNull();
      expect(marks[i]!.querySelector('[aria-hidden="true"]')!.textContent).toBe(w[0]);
      expect(marks[i]!.querySelector(".sr-only")!.textContent).toBe(`, ${w[1]}`);
      expect(marks[i]!.classList.contains(`v-${w[1] === "only move" ? "forced" : w[1]}`)).toBe(true);
    });
    expect(review.decisions.length).toBe(Object.keys(want).length);
  });

  it("draws each side's expected result at every decision, and a click on a costly point goes to that move", async () => {
    const { replay, review } = await reviewed();
    const lines = graphLines(review, 600, 160);
    expect(lines.map((l) => l.points.map((p) => [p.x, p.y]))).toEqual([
      [[0, 160 - 0.29 * 160], [120, 96], [240, 40], [360, 160 - 0.56 * 160], [480, 160 - 0.63 * 160], [600, 88]],
      [[0, 160 - 0.71 * 160], [120, 64], [240, 120], [360, 160 - 0.44 * 160], [480, 160 - 0.37 * 160], [600, 72]],
    ]);
    const paths = [...root.querySelectorAll(".review-graph path.side")];
    expect(paths.map((p) => p.getAttribute("d"))).toEqual(lines.map((l) => l.path));
    // One band per decision for the pointer, and the three costly decisions as buttons.
    expect(root.querySelectorAll(".review-graph rect.hit").length).toBe(6);
    const points = [...root.querySelectorAll(".review-graph circle.point")];
    expect(points.map((c) => c.getAttribute("class"))).toEqual(["point v-blunder", "point v-inaccuracy", "point v-mistake"]);
    expect(points[0].getAttribute("cx")).toBe("240");
    expect(points[0].getAttribute("cy")).toBe("40");
    const blunderAt = replay.log.findIndex((e: Json) => e.seq === 7);
    expect(points[0].getAttribute("aria-label")).toBe(`robot (seat 1), move ${blunderAt + 1}: blunder`);
    await click(points[0]);
    expect(root.querySelector(".step")!.textContent).toContain(`Move ${blunderAt + 1} of ${replay.log.length}`);
    // A click on the band of a decision goes there too.
    await click(root.querySelectorAll(".review-graph rect.hit")[1]);
    expect(root.querySelector(".step")!.textContent).toContain(`Move ${replay.log.findIndex((e: Json) => e.seq === 5) + 1} of`);
  });

  it("at a costly decision names the better action as the table does, says what it does and what the move cost", async () => {
    const { replay, review } = await reviewed();
    await click(root.querySelector(".review-graph circle.point.v-blunder"));
    const at = root.querySelector(".review-at")!;
    expect(at.classList.contains("v-blunder")).toBe(true);
    expect(at.querySelector(".better-action")!.textContent).toBe("Play 2 of Fists");
    expect(at.querySelector(".better")!.textContent).toBe("Better: Play 2 of Fists (Play a card)");
    expect(at.querySelector(".why")!.textContent).toBe("The review expected 75 % for this side from it, against 25 % from Play 9 of Fists: 50 points in 100 lost.");
    const b = betterAction(review.decisions[2], "la-casa", "play");
    expect(b.action).toBe("Play 2 of Fists");
    expect(b.does).toBe("Play a card");
    // A decision judged best says so, with no better action.
    const bestAt = replay.log.findIndex((e: Json) => e.seq === 5);
    await click(root.querySelectorAll(".replay-log li button")[bestAt]);
    expect(root.querySelector(".review-at")!.textContent).toContain("Review: best.");
    expect(root.querySelector(".review-at .better")).toBeNull();
    // A move of the other seat, not reviewed: nothing.
    await click(root.querySelectorAll(".replay-log li button")[0]);
    expect(root.querySelector(".review-at")).toBeNull();
  });

  it("speaks Italian with the Italian table's words", async () => {
    setLang("it", false);
    await reviewed();
    await click(root.querySelector(".review-graph circle.point.v-blunder"));
    expect(root.querySelector(".review-at .better")!.textContent).toBe("Meglio: Gioca 2 di Pugni (Gioca una carta)");
    expect(root.querySelector(".review h3")!.textContent).toBe("Analisi della partita");
    expect(root.textContent).not.toContain("⟦");
  });
});

describe("the help", () => {
  it("says what the review is and that it uses only what the player could see, in each language", () => {
    act(() => render(<HelpPage navigate={() => {}} />, root));
    expect(root.querySelector(".help-review")!.textContent).toContain("only from what that player could see");
    setLang("it", false);
    act(() => render(<HelpPage navigate={() => {}} />, root));
    expect(root.querySelector(".help-review")!.textContent).toContain("solo da ciò che quel giocatore poteva vedere");
  });
});

describe("the review's WebAssembly module", () => {
  const load = () => makeReviewer(readFileSync(join(process.cwd(), "src/wasm/casa-review.wasm")));

  it("reviews each fixture game, the same way twice, with a verdict for every decision of the seat", async () => {
    const reviewer = await load();
    for (const game of ["la-casa", "casino", "conference", "trophy-case"]) {
      // The text as the server sent it: the states hold numbers beyond 2^53, which a
      // JSON.parse would round.
      const text = readFileSync(join(process.cwd(), `test/fixtures/replay-${game}.json`), "utf8");
      const replay = JSON.parse(text);
      const r = reviewer.review(text, { iterations: 60, seats: [0], seed: "7" }) as Review;
      expect(r.game, game).toBe(game);
      expect(r.iterations).toBe(60);
      expect(r.seed).toBe("7");
      const mine = replay.log.filter((e: Json) => e.seat === 0).map((e: Json) => e.seq);
      expect(r.decisions.map((d) => d.seq), game).toEqual(mine);
      for (const d of r.decisions) {
        expect(["best", "good", "inaccuracy", "mistake", "blunder", "forced"]).toContain(d.verdict);
        expect(d.expected.length).toBe(r.sides.length);
      }
      expect(JSON.stringify(reviewer.review(text, { iterations: 60, seats: [0], seed: "7" }))).toBe(JSON.stringify(r));
    }
  });

  it("refuses a game that is not over, and a replay that is not one", async () => {
    const reviewer = await load();
    // La Casa's 2-player states hold no number beyond 2^53: parsed and written again intact.
    const replay = fixture("replay-la-casa.json");
    expect((reviewer.review(JSON.stringify(replay), { iterations: 10 }) as Review).game).toBe("la-casa");
    replay.log = replay.log.slice(0, 5);
    delete replay.final_state;
    expect((reviewer.review(JSON.stringify(replay), { iterations: 10 }) as ReviewError).error).toBe("not_over");
    expect((reviewer.review("{", {}) as ReviewError).error).toBe("replay");
  });
});
