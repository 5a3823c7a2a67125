// @ts-check
// Nimalia's objective names and texts and its solo rank titles in the page's language. The API
// sends them in English, as machine data that is the same for every language (the shared
// long-poll answers): games/nimalia/objectives.py and SOLO_TITLES in games/nimalia/engine.py.
// Each is marked here with gettext_noop, so `makemessages -d djangojs` puts it in the
// catalogues, and the page shows gettext(englishText). A text not listed here (an objective
// added later) shows as the server sent it.

import { gettext, gettext_noop } from "../i18n.js";

// Objectives 1 to 22: name, then text, exactly as the server sends them.
const OBJECTIVE_TEXTS = [
  // 1
  gettext_noop("Otter's neighbours"),
  gettext_noop("For each otter, every species with 2 or more squares next to it scores 1 per such square."),
  // 2
  gettext_noop("Otters flow into a lake"),
  gettext_noop("2 per otter whose river touches a lake square at one of its two ends."),
  // 3
  gettext_noop("Forest patches"),
  gettext_noop("2 per separate forest zone."),
  // 4
  gettext_noop("Gorillas by the lake"),
  gettext_noop("2 per gorilla next to a lake square."),
  // 5
  gettext_noop("Largest savannah"),
  gettext_noop("2 per square of your largest savannah zone."),
  // 6
  gettext_noop("Savannahs of exactly four"),
  gettext_noop("6 per savannah zone of exactly 4 squares."),
  // 7
  gettext_noop("Ice 2x2"),
  gettext_noop("4 per 2x2 block of ice squares (blocks may overlap)."),
  // 8
  gettext_noop("Polar bear groups"),
  gettext_noop("2 per polar bear in a group of 2 or more; -1 per lone polar bear."),
  // 9
  gettext_noop("Weakest terrain"),
  gettext_noop("2 per square of the terrain you have fewest of."),
  // 10
  gettext_noop("Full square"),
  gettext_noop("Largest fully covered k x k square: 2 -> 3, 3 -> 5, 4 -> 8, 5 -> 13, 6 -> 21."),
  // 11
  gettext_noop("Four-terrain rows"),
  gettext_noop("3 per row showing all four terrains."),
  // 12
  gettext_noop("Horizontal pairs"),
  gettext_noop("3 per horizontal run of exactly 2 identical animals."),
  // 13
  gettext_noop("Few giraffes"),
  gettext_noop("Giraffes: 0 -> 8, 1 -> 5, 2 -> 3, 3 or more -> 0."),
  // 14
  gettext_noop("Inland flamingos"),
  gettext_noop("3 per flamingo not on the edge of the reserve."),
  // 15
  gettext_noop("Long river"),
  gettext_noop("Longest river of L otters: L(L-1)/2 points, at most 15."),
  // 16
  gettext_noop("Longest river race"),
  gettext_noop("Longest river: 1st +5, 2nd +2 (3-4 players). No river, no award."),
  // 17
  gettext_noop("Pandas on the edge"),
  gettext_noop("3 per panda on the edge of the reserve."),
  // 18
  gettext_noop("Gorillas yes, pandas no"),
  gettext_noop("Most gorillas: 1st +5, 2nd +2. Most pandas: 1st -5, 2nd -2. Seconds with 3-4 players."),
  // 19
  gettext_noop("Lone penguins"),
  gettext_noop("3 per column with exactly one penguin."),
  // 20
  gettext_noop("Fewest lions"),
  gettext_noop("Fewest lions (everyone tied for fewest) +3; everyone else -2."),
  // 21
  gettext_noop("Crocodiles yes, flamingos no"),
  gettext_noop("Most crocodiles: 1st +5, 2nd +2. Fewest flamingos: 1st +5, 2nd +2. Seconds with 3-4 players."),
  // 22
  gettext_noop("Crocodiles meet giraffes"),
  gettext_noop("2 per crocodile next to a giraffe."),
];

// The solo variant's rank titles, lowest first (outcome.title, view.solo_titles).
const SOLO_TITLES = [
  gettext_noop("Lost in the bush"),
  gettext_noop("Trainee keeper"),
  gettext_noop("Keeper"),
  gettext_noop("Head keeper"),
  gettext_noop("Reserve warden"),
  gettext_noop("Reserve director"),
  gettext_noop("Legendary naturalist"),
];

const KNOWN = new Set([...OBJECTIVE_TEXTS, ...SOLO_TITLES]);

/** An objective's name or text, or a solo title, from the server's English to the page's
 * language; anything else (an unknown objective, a missing value) comes back as it is.
 * @template T @param {T} english @returns {T | string} */
export function nimaliaText(english) {
  return typeof english === "string" && KNOWN.has(english) ? gettext(english) : english;
}
