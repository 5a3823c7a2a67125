// @ts-check
// Create a tournament (POST /api/tournaments): every setting the request takes, each with the
// server's default until changed. The game's options are the lobby's fields.

import { api } from "../api.js";
import { loadGames } from "../catalog.js";
import { chosenTimeControl, clockSelect } from "../clocks.js";
import { clear, h, put } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { formatText } from "../tournaments.js";
import { configOf, optionField } from "./lobby.js";

/** @typedef {import("../app.js").PageContext} PageContext */
/** @typedef {import("../catalog.js").Game} Game */

const FORMATS = ["swiss", "round_robin", "ladder"];

/** A number field, empty for the server's default.
 * @param {string} id @param {string} label @param {string} help
 * @param {{min?: number, max?: number, value?: number, placeholder?: string}} [bounds] */
function numberField(id, label, help, bounds = {}) {
  const input = h("input", { id, type: "number", inputmode: "numeric", step: 1,
    min: bounds.min, max: bounds.max, value: bounds.value, placeholder: bounds.placeholder,
    "aria-describedby": `${id}-help` });
  const node = h("div", { class: "field", id: `${id}-field` },
    h("label", { for: id }, label), input, h("small", { id: `${id}-help` }, help));
  return { node, input, read: () => (input.value === "" ? null : Number(input.value)) };
}

/** A check box with its label. @param {string} id @param {string} label @param {boolean} on */
function checkField(id, label, on) {
  const input = h("input", { type: "checkbox", id, checked: on });
  return { node: h("div", { class: "field check" }, input, h("label", { for: id }, label)),
    input };
}

/** The next whole hour a day from now, as a datetime-local value (the browser's time zone). */
function tomorrow() {
  const start = new Date(Date.now() + 24 * 3600 * 1000);
  start.setMinutes(0, 0, 0);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}`
    + `T${pad(start.getHours())}:00`;
}

/**
 * @param {HTMLElement} main @param {string[]} _params @param {PageContext} ctx
 */
export async function render(main, _params, ctx) {
  const games = await loadGames();
  const name = h("input", { id: "t-name", required: true, maxlength: 100, autocomplete: "off" });
  const game = h("select", { id: "t-game" }, games.map((g) => h("option", { value: g.slug }, g.name)));
  const format = h("select", { id: "t-format" },
    FORMATS.map((value) => h("option", { value }, formatText(value))));
  const size = h("select", { id: "t-size", "aria-describedby": "t-size-help" });
  const clock = clockSelect();
  clock.id = "t-clock";
  clock.querySelector("option[value='']")?.remove();
  clock.value = "d3";
  const weekend = checkField("t-weekend", gettext("Pause on weekends"), false);
  const vacation = checkField("t-vacation", gettext("Vacations stop the clock"), true);
  const rated = checkField("t-rated", gettext("Rated"), true);
  const plans = checkField("t-plans", gettext("Plans (conditional moves) allowed"), true);
  const bots = checkField("t-bots", gettext("I may enter bots"), false);
  const starts = h("input", { id: "t-starts", type: "datetime-local", required: true,
    value: tomorrow(), "aria-describedby": "t-starts-help" });
  const rounds = numberField("t-rounds", gettext("Rounds"), gettext("Swiss: 1 to 20."),
    { min: 1, max: 20, value: 5 });
  const minPlayers = numberField("t-min-players", gettext("Fewest players"),
    gettext("With fewer at the start it is cancelled."), { min: 2, max: 1000, value: 2 });
  const maxPlayers = numberField("t-max-players", gettext("Most players"),
    gettext("Empty: no limit (a round robin takes 10)."), { min: 2, max: 1000 });
  const minRating = numberField("t-min-rating", gettext("Lowest rating"),
    gettext("In this game; a new player counts as 1500. Empty: anyone."));
  const minGames = numberField("t-min-games", gettext("Fewest rated games"),
    gettext("Rated games of this game played. Empty: anyone."), { min: 0 });
  const roundDays = numberField("t-round-days", gettext("Days a round lasts at most"),
    gettext("Empty: a round ends when all its matches are over. Matches still running then "
      + "go on under their own clocks."), { min: 1, max: 60 });
  const placing = h("input", { id: "t-placing", autocomplete: "off",
    placeholder: "6, 4, 2, 0", "aria-describedby": "t-placing-help" });
  const placingField = h("div", { class: "field", id: "t-placing-field" },
    h("label", { for: "t-placing" }, gettext("Points per place")), placing,
    h("small", { id: "t-placing-help" }, gettext("Tables of 3 or 4: the points of each place, "
      + "first place first, never rising; tied players share. Empty: 4, 2, 0 and 6, 4, 2, 0.")));
  const reach = numberField("t-reach", gettext("Places a player may challenge up"),
    gettext("Ladder: 1 to 20."), { min: 1, max: 20, value: 3 });
  const challengeDays = numberField("t-challenge-days", gettext("Days to answer a challenge"),
    gettext("Ladder: the challenged player's days to make a first move; unanswered, the "
      + "challenger wins."), { min: 1, max: 30, value: 7 });
  const optionsBox = h("fieldset", { class: "options" });
  const error = h("p", { class: "error", role: "alert", id: "create-error" });
  const submit = h("button", { type: "submit", class: "primary" }, gettext("Create tournament"));
  /** @type {import("./lobby.js").OptionField[]} */
  let fields = [];

  const sync = () => {
    const ladder = format.value === "ladder";
    const swiss = format.value === "swiss";
    if (ladder) size.value = "2";
    size.disabled = ladder;
    rounds.node.hidden = !swiss;
    roundDays.node.hidden = ladder;
    reach.node.hidden = !ladder;
    challengeDays.node.hidden = !ladder;
    placingField.hidden = size.value === "2";
  };
  const renderGame = () => {
    const chosen = /** @type {Game} */ (games.find((g) => g.slug === game.value));
    const low = Math.max(2, chosen.min_players);
    put(clear(size), Array.from({ length: Math.max(0, chosen.max_players - low + 1) },
      (_, i) => h("option", { value: low + i }, String(low + i))));
    fields = chosen.options.map((option) => optionField(chosen.slug, option));
    put(clear(optionsBox),
      h("legend", null, interpolate(gettext("%(game)s options"), { game: chosen.name })),
      fields.length ? fields.map((f) => f.node) : h("p", { class: "muted" }, gettext("No options.")));
    sync();
  };
  game.addEventListener("change", renderGame);
  format.addEventListener("change", sync);
  size.addEventListener("change", sync);

  const form = h("form", { id: "tournament-form", class: "card" },
    h("div", { class: "field" }, h("label", { for: "t-name" }, gettext("Name")), name),
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "t-game" }, gettext("Game")), game),
      h("div", { class: "field" }, h("label", { for: "t-format" }, gettext("Format")), format),
      h("div", { class: "field" }, h("label", { for: "t-size" }, gettext("Players a table")),
        size, h("small", { id: "t-size-help" }, gettext("A ladder is for two.")))),
    h("fieldset", null, h("legend", null, gettext("Time")),
      h("div", { class: "field" }, h("label", { for: "t-clock" }, gettext("Clock")), clock),
      weekend.node, vacation.node,
      h("div", { class: "field" }, h("label", { for: "t-starts" }, gettext("Starts")), starts,
        h("small", { id: "t-starts-help" }, gettext("Entries are taken until then (at most 90 "
          + "days ahead)."))),
      rounds.node, roundDays.node, reach.node, challengeDays.node),
    h("fieldset", null, h("legend", null, gettext("Who may enter")),
      minPlayers.node, maxPlayers.node, minRating.node, minGames.node, bots.node),
    h("fieldset", null, h("legend", null, gettext("Matches")), rated.node, plans.node,
      placingField),
    h("details", { class: "raw-options" }, h("summary", null, gettext("Game options")),
      optionsBox),
    error, submit);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const config = configOf(fields);
    const control = /** @type {Object<string, unknown>} */ (
      chosenTimeControl(clock.value, weekend.input.checked));
    control.vacation_allowed = vacation.input.checked;
    const chosen = format.value;
    /** @type {Object<string, unknown>} */
    const body = {
      name: name.value.trim(), game: game.value, format: chosen,
      players_per_match: Number(size.value), config, time_control: control,
      rated: rated.input.checked, plans: plans.input.checked, bots_allowed: bots.input.checked,
      starts_at: new Date(starts.value).toISOString(),
      min_players: minPlayers.read() ?? 2, max_players: maxPlayers.read(),
      min_rating: minRating.read(), min_games: minGames.read(),
    };
    if (chosen === "swiss") body.rounds = rounds.read();
    if (chosen !== "ladder") body.round_days = roundDays.read();
    if (chosen === "ladder") {
      body.challenge_reach = reach.read();
      body.challenge_days = challengeDays.read();
    }
    const points = placing.value.trim();
    if (size.value !== "2" && points) {
      body.placing_points = points.split(/[\s,;/]+/).filter(Boolean).map(Number);
    }
    submit.disabled = true;
    try {
      const created = await api.post("/api/tournaments", body);
      ctx.navigate(`/tournament/${created.summary.id}`);
    } catch (err) {
      const fieldErrors = err.extra?.fields;
      error.textContent = fieldErrors ? `${err.message} ${JSON.stringify(fieldErrors)}`
        : err.message;
    } finally {
      submit.disabled = false;
    }
  });
  renderGame();
  put(main, h("h1", null, gettext("New tournament")), form);
}
