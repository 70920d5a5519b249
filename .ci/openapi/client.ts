// A small client made only of the types that openapi-typescript generates from the
// service's schema: it makes the calls of the README and docs/tour.md, and `tsc --strict`
// checks every body and every answer against the schema.

import type { components, paths } from "./build/schema";

type Schemas = components["schemas"];
type Body<P extends keyof paths, M extends "get" | "post"> = paths[P][M] extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;
type Answer<P extends keyof paths, M extends "get" | "post", S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { "application/json": infer A } } };
}
  ? A
  : never;

// The calculator and advice have one path per ruleset (advice: the rulesets it is given
// for), each with that ruleset's own body.
type RulesetPath<A extends string> = Extract<keyof paths, `/api/v1/rulesets/${string}/${A}/`>;
type RulesetOf<P, A extends string> = P extends `/api/v1/rulesets/${infer R}/${A}/` ? R : never;
export type Scored = RulesetOf<RulesetPath<"score">, "score">;
export type Advised = RulesetOf<RulesetPath<"advice">, "advice">;
type ScorePath<R extends Scored> = `/api/v1/rulesets/${R}/score/` & keyof paths;
type AdvicePath<R extends Advised> = `/api/v1/rulesets/${R}/advice/` & keyof paths;

export type Game = Schemas["GameOut"];
export type Problem = Schemas["ProblemOut"];

export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

export class DiceClient {
  constructor(
    private readonly base: string,
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  private async call<T>(method: "GET" | "POST", path: string, body?: unknown, token?: string): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await this.fetcher(this.base + path, init);
    const data: unknown = await response.json();
    if (!response.ok) throw new ProblemError(data as Problem);
    return data as T;
  }

  createGame(body: Body<"/api/v1/games/", "post">) {
    return this.call<Answer<"/api/v1/games/", "post", 201>>("POST", "/api/v1/games/", body);
  }
  listGames(query: paths["/api/v1/games/"]["get"]["parameters"]["query"] = {}) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) search.set(key, String(value));
    }
    return this.call<Answer<"/api/v1/games/", "get", 200>>("GET", `/api/v1/games/?${search}`);
  }
  game(id: string) {
    return this.call<Answer<"/api/v1/games/{id}/", "get", 200>>("GET", `/api/v1/games/${id}/`);
  }
  roll(id: string, token: string, body: Body<"/api/v1/games/{id}/roll/", "post"> = {}) {
    return this.call<Answer<"/api/v1/games/{id}/roll/", "post", 200>>("POST", `/api/v1/games/${id}/roll/`, body, token);
  }
  hold(id: string, token: string, body: Body<"/api/v1/games/{id}/hold/", "post">) {
    return this.call<Answer<"/api/v1/games/{id}/hold/", "post", 200>>("POST", `/api/v1/games/${id}/hold/`, body, token);
  }
  score(id: string, token: string, body: Body<"/api/v1/games/{id}/score/", "post">) {
    return this.call<Answer<"/api/v1/games/{id}/score/", "post", 200>>("POST", `/api/v1/games/${id}/score/`, body, token);
  }
  scratch(id: string, token: string, body: Body<"/api/v1/games/{id}/scratch/", "post">) {
    return this.call<Answer<"/api/v1/games/{id}/scratch/", "post", 200>>("POST", `/api/v1/games/${id}/scratch/`, body, token);
  }
  bank(id: string, token: string, body: Body<"/api/v1/games/{id}/bank/", "post">) {
    return this.call<Answer<"/api/v1/games/{id}/bank/", "post", 200>>("POST", `/api/v1/games/${id}/bank/`, body, token);
  }
  pass(id: string, token: string) {
    const body: Body<"/api/v1/games/{id}/pass/", "post"> = {};
    return this.call<Answer<"/api/v1/games/{id}/pass/", "post", 200>>("POST", `/api/v1/games/${id}/pass/`, body, token);
  }
  join(id: string, body: Body<"/api/v1/games/{id}/join/", "post">) {
    return this.call<Answer<"/api/v1/games/{id}/join/", "post", 201>>("POST", `/api/v1/games/${id}/join/`, body);
  }
  start(id: string, token: string) {
    return this.call<Answer<"/api/v1/games/{id}/start/", "post", 200>>("POST", `/api/v1/games/${id}/start/`, {}, token);
  }
  leave(id: string, token: string) {
    return this.call<Answer<"/api/v1/games/{id}/leave/", "post", 200>>("POST", `/api/v1/games/${id}/leave/`, {}, token);
  }
  events(id: string) {
    return this.call<Answer<"/api/v1/games/{id}/events/", "get", 200>>("GET", `/api/v1/games/${id}/events/`);
  }
  hint(id: string) {
    return this.call<Answer<"/api/v1/games/{id}/hint/", "get", 200>>("GET", `/api/v1/games/${id}/hint/`);
  }
  rulesets() {
    return this.call<Answer<"/api/v1/rulesets/", "get", 200>>("GET", "/api/v1/rulesets/");
  }
  calculate<R extends Scored>(ruleset: R, body: Body<ScorePath<R>, "post">) {
    return this.call<Answer<ScorePath<R>, "post", 200>>("POST", `/api/v1/rulesets/${ruleset}/score/`, body);
  }
  advice<R extends Advised>(ruleset: R, body: Body<AdvicePath<R>, "post">) {
    return this.call<Answer<AdvicePath<R>, "post", 200>>("POST", `/api/v1/rulesets/${ruleset}/advice/`, body);
  }
  leaderboard(query: paths["/api/v1/leaderboard/"]["get"]["parameters"]["query"]) {
    const search = new URLSearchParams({ ruleset: query.ruleset });
    if (query.period !== undefined) search.set("period", query.period);
    if (query.limit !== undefined) search.set("limit", String(query.limit));
    return this.call<Answer<"/api/v1/leaderboard/", "get", 200>>("GET", `/api/v1/leaderboard/?${search}`);
  }
}

/** The README's walk through a game, as a frontend writes it. */
export async function readmeWalkthrough(api: DiceClient): Promise<number> {
  // A whole Yahtzee turn: the create body of the README, no optional field given.
  const game: Game = await api.createGame({ ruleset: "yahtzee", players: [{ name: "Ann" }] });
  const token = game.players[0]?.token;
  if (token === undefined) throw new Error("the answer carries the new seat's token");
  let state = await api.roll(game.id, token);
  const dice: number[] | null = state.turn.dice;
  const choices: Record<string, number> = state.choices;
  state = await api.roll(game.id, token, { hold: [0, 1, 4] });
  state = await api.hold(game.id, token, { hold: [0, 1, 2, 4] });
  state = await api.roll(game.id, token);
  state = await api.score(game.id, token, { category: "threes" });
  const total: number = state.players[0]?.total ?? 0;
  const scratched = await api.scratch(game.id, token, { category: "yahtzee" }).catch((error: unknown) => {
    if (error instanceof ProblemError && error.problem.code === "roll_first") return null;
    throw error;
  });
  for (const event of await api.events(game.id)) {
    const type: Schemas["EventTypeEnum"] = event.type;
    console.log(event.seq, type, event.data);
  }

  // Playing together: open seats, join, start.
  const lobby = await api.createGame({ ruleset: "yatzy", players: [{ name: "Ann" }], open_seats: 2 });
  const waiting = await api.listGames({ status: "waiting" });
  const joined = await api.join(lobby.id, { name: "Cleo" });
  const annToken = lobby.players[0]?.token ?? "";
  await api.start(lobby.id, annToken);
  await api.leave(lobby.id, annToken);

  // Ten Thousand in three calls, with a computer seat; the answer to a bust shows its throw.
  const ten = await api.createGame({
    ruleset: "ten-thousand",
    players: [{ name: "Ann" }, { name: "Bot", computer: "classic" }],
    options: { target: 5000 },
  });
  const tenToken = ten.players[0]?.token ?? "";
  const thrown = await api.roll(ten.id, tenToken);
  const bust: Schemas["BustOut"] | undefined = thrown.turn.last_bust;
  if (thrown.turn.can_bank) await api.bank(ten.id, tenToken, { set_aside: [0] });
  else await api.pass(ten.id, tenToken);

  // Advice, the calculator, the rulesets and the high-score table.
  const hint = await api.hint(ten.id);
  const advice = await api.advice("yahtzee", { scorecard: { chance: 22 }, dice: [3, 3, 5, 1, 3], rolls_left: 2 });
  // Ten Thousand's advice is in the game's objective: each option's chance of winning here.
  const chances = await api.advice("ten-thousand", { totals: [6500, 8000], turn_points: 300, dice: [1, 5, 5, 2, 3, 3] });
  const objective: Schemas["ObjectiveEnum"] = chances.objective;
  const first = chances.options[0]?.value;
  const scores = await api.calculate("yahtzee", { dice: [6, 6, 6, 6, 6], scorecard: { yahtzee: 50 } });
  const selection = await api.calculate("ten-thousand", { dice: [1, 5, 5] });
  const rulesets = await api.rulesets();
  const ids: Schemas["RulesetIdEnum"][] = rulesets.map((ruleset) => ruleset.id);
  const table = await api.leaderboard({ ruleset: "yahtzee", period: "week", limit: 10 });
  console.log(dice, choices, scratched, waiting.count, joined.players.length, bust?.lost, hint.method,
    advice.expected_final, scores.scores, selection.points, ids, table.map((row) => row.rank),
    objective, first);
  return total;
}

/** Each ruleset's bodies are its own: the compiler refuses what the service would refuse. */
export function refusedByTheTypes(api: DiceClient): void {
  // @ts-expect-error: `classic` plays Ten Thousand only
  void api.createGame({ ruleset: "yahtzee", players: [{ name: "Bot", computer: "classic" }] });
  // @ts-expect-error: Yatzy has no house rules
  void api.createGame({ ruleset: "yatzy", players: [{ name: "Ann" }], options: { joker: "free" } });
  // @ts-expect-error: Maxi Yatzy has no `yahtzee` box
  void api.calculate("maxi-yatzy", { dice: [6, 6, 6, 6, 6, 6], scorecard: { yahtzee: 50 } });
  // @ts-expect-error: Ten Thousand's advice needs the seats' totals
  void api.advice("ten-thousand", {});
  // @ts-expect-error: a box game's position is not Ten Thousand's
  void api.advice("ten-thousand", { dice: [3, 3, 5, 1, 3], rolls_left: 2 });
}
