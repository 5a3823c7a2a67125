// A small typed client: read a match (a view and its legal moves) and build a legal move for
// each game, with only the types openapi-typescript generates from docs/openapi.yaml.
// `npm run clients` generates the types and type-checks this file with tsc --noEmit.

import type { components, operations, paths } from "../generated/schema";

type Schemas = components["schemas"];
export type MatchDetail = Schemas["MatchDetail"];
export type Move = Schemas["MoveInputRequest"]["move"];
export type MoveInput = paths["/api/matches/{match_id}/moves"]["post"]["requestBody"] extends
  { content: { "application/json": infer Body } } ? Body : never;

/** One takeable disc of the lowest colour id: always a legal Nibble take. */
export function nibbleMove(detail: Schemas["NibbleMatchDetail"]): Schemas["NibbleMove"] | null {
  const takeable = detail.legal_moves?.takeable;
  if (!takeable) return null;
  const colour = Object.keys(takeable).sort((a, b) => Number(a) - Number(b))[0];
  const cell = colour === undefined ? undefined : takeable[colour]?.[0];
  return cell === undefined ? null : { take: [cell] };
}

/** Place when a stack takes the discard's top, else flip, recycle or end the turn. */
export function nimbleMove(detail: Schemas["NimbleMatchDetail"]): Schemas["NimbleMove"] | null {
  const moves = detail.legal_moves ?? [];
  const place = moves.find((move): move is Schemas["NimblePlace"] => move.action === "place");
  if (place) return { action: "place", stack: place.stack };
  for (const action of ["flip", "recycle", "end_turn", "return"] as const) {
    if (moves.some((move) => move.action === action)) return { action };
  }
  return null;
}

const ROTATIONS = [0, 90, 180, 270] as const;
type Rotation = Schemas["NimaliaPlace"]["rotation"];

function rotation(value: number | undefined): Rotation | null {
  return ROTATIONS.find((r) => r === value) ?? null;
}

/** The first hand card at the first legal anchor, as the view shows them. */
export function nimaliaMove(detail: Schemas["NimaliaMatchDetail"]): Schemas["NimaliaMove"] | null {
  const legal = detail.legal_moves;
  if (!legal || legal.undo) return null;
  const card = legal.cards[0];
  const anchor = legal.anchors[0];
  const turn = rotation(legal.rotations[0]);
  if (card === undefined || anchor === undefined || turn === null) return null;
  // The view says who we are and what we hold: the card must be in the hand.
  const hand = detail.view?.hand ?? [];
  if (!hand.some((held) => held.id === card)) return null;
  const [row, col] = anchor;
  if (row === undefined || col === undefined) return null;
  return { card, row, col, rotation: turn };
}

/** The move to send for the caller's seat, or null when it need not act. */
export function chooseMove(detail: MatchDetail): Move | null {
  if (!detail.is_your_turn) return null;
  switch (detail.game) {
    case "nibble":
      return nibbleMove(detail);
    case "nimble":
      return nimbleMove(detail);
    case "nimalia":
      return nimaliaMove(detail);
  }
}

/** What a finished match says: its reason and, for a Nimalia solo game, the rank title. */
export function result(detail: MatchDetail): string | null {
  const outcome = detail.outcome;
  if (outcome === null) return null;
  if (!("ranks" in outcome)) return `called off: ${outcome.reason}`;
  if (detail.game === "nimalia" && "title" in outcome && outcome.title !== undefined) {
    return `${outcome.reason}: ${outcome.title}`;
  }
  return outcome.reason;
}

/** The body of POST /api/matches/{id}/moves. */
export function moveBody(detail: MatchDetail): MoveInput | null {
  const move = chooseMove(detail);
  return move === null ? null : { move, expected_version: detail.version };
}

/** Read a match and play one move when it is the caller's turn. */
export async function playOnce(base: string, token: string, matchId: string): Promise<string> {
  const headers = { Authorization: `Token ${token}`, "Content-Type": "application/json" };
  const read = await fetch(`${base}/api/matches/${matchId}`, { headers });
  const detail = (await read.json()) as MatchDetail;
  const body = moveBody(detail);
  if (body === null) return result(detail) ?? "waiting";
  const sent = await fetch(`${base}/api/matches/${matchId}/moves`, {
    method: "POST", headers, body: JSON.stringify(body),
  });
  const answer = (await sent.json()) as Schemas["MoveResult"] | Schemas["Error"];
  return "code" in answer ? answer.code : `moved, seq ${answer.seq}`;
}

export type MatchListQuery = NonNullable<operations["matches_list"]["parameters"]["query"]>;
export type InboxQuery = NonNullable<operations["me_inbox"]["parameters"]["query"]>;

/** A list's URL from a typed query: `sort`, `status`, `game` are the schema's enums. */
export function listUrl(path: "/api/matches", query: MatchListQuery): string;
export function listUrl(path: "/api/me/inbox", query: InboxQuery): string;
export function listUrl(path: string, query: MatchListQuery | InboxQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** My finished matches, grouped by the day each ended (latest first, as `sort=ended` pages
 * them), from the summaries' `finished_at`. */
export function byDayEnded(page: Schemas["PaginatedMatchSummaryList"]): Map<string, string[]> {
  const days = new Map<string, string[]>();
  for (const match of page.results) {
    const day = match.finished_at?.slice(0, 10) ?? "running";
    days.set(day, [...(days.get(day) ?? []), match.id]);
  }
  return days;
}

export const finishedByEnd = listUrl("/api/matches", { status: "finished", sort: "ended" });
export const myTurnByTimeLeft = listUrl("/api/me/inbox", { my_turn: true, sort: "time_left" });
// @ts-expect-error: the inbox has no `ended` order (it holds no finished match)
export const notAnInboxOrder = listUrl("/api/me/inbox", { sort: "ended" });
