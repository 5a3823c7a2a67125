// @ts-check
// The lobby: create a match in any game with its options and seats, or join an open seat.
// The games, their options and player counts come from GET /api/games; a game module may add
// hints for its options (OPTION_HINTS, see catalog.js).

import { api } from "../api.js";
import { gameModule, gameName, loadGames } from "../catalog.js";
import { chosenTimeControl, clockSelect, timeControlText } from "../clocks.js";
import { clear, h, link, notice, put, timeTag } from "../dom.js";
import { gettext, interpolate, interpolateNodes, ngettext } from "../i18n.js";
import { opponentNodes } from "../matchinfo.js";

/** @typedef {import("../app.js").PageContext} PageContext */
/** @typedef {import("../catalog.js").Game} Game */
/** An option of a game (GET /api/games): name, type, default, choices, labels, help...
 * @typedef {Object<string, any>} Option */
/** A bot of GET /api/bots: its level, description and rating.
 * @typedef {{level: number, description?: string, rating?: number, provisional?: boolean}} Bot */
/** @typedef {{kind: string, level?: number, username?: string}} SeatRequest */
/**
 * @typedef {object} OptionField
 * @property {HTMLElement} node
 * @property {() => unknown} read
 * @property {(value: unknown) => void} set
 * @property {string} name
 */

/** One option as a field: its label and help in players' words (GET /api/games), a list of
 * named values where the game names them, and set(value) for the presets.
 * @param {string} game @param {Option} option @returns {OptionField} */
export function optionField(game, option) {
  const id = `opt-${option.name}`;
  const helpId = `${id}-help`;
  const label = h("label", { for: id }, option.label || option.name.replaceAll("_", " "));
  const help = h("small", { id: helpId }, option.help || option.description || "",
    h("span", { class: "muted" }, ` (${option.name})`));
  /** @type {{value: string, label: string}[]} */
  const named = option.value_labels || [];
  const valueText = (/** @type {unknown} */ value) => (value === undefined || value === null ? "" : JSON.stringify(value));
  /** @type {HTMLSelectElement | HTMLInputElement} */
  let input;
  /** @type {() => unknown} */
  let read;
  /** @type {(value: unknown) => void} */
  let set;
  if (named.length || option.choices || option.type === "choice" || option.type === "bool") {
    /** @type {string[][]} */
    const values = named.length ? named.map((v) => [v.value, v.label])
      : option.type === "bool" ? [["true", gettext("On")], ["false", gettext("Off")]]
        : (option.choices || []).map((/** @type {unknown} */ choice) =>
          [JSON.stringify(choice), String(choice)]);
    input = h("select", { id, name: option.name, "aria-describedby": helpId },
      option.default === null ? h("option", { value: "" }, gettext("Default")) : null,
      values.map(([value, text]) => h("option", { value }, text)));
    // A JSON option with named values keeps its free-form values (an objective list) possible.
    const free = option.type === "json" ? h("input", {
      id: `${id}-other`, type: "text", spellcheck: "false", class: "other-value",
      "aria-label": interpolate(gettext("%(option)s: another value (JSON)"),
        { option: option.label || option.name }),
      placeholder: gettext("another value (JSON)"),
    }) : null;
    read = () => {
      const text = free?.value.trim();
      if (text) {
        try {
          return JSON.parse(text);
        } catch {
          return text;
        }
      }
      return input.value === "" ? undefined : JSON.parse(input.value);
    };
    set = (value) => {
      const text = valueText(value);
      if (free) free.value = "";
      if ([.../** @type {HTMLSelectElement} */ (input).options].some((o) => o.value === text)) {
        input.value = text;
      }
      else if (free) free.value = text;
    };
    set(option.default);
    return { node: h("div", { class: "field" }, label, input, free, help), read, set, name: option.name };
  }
  if (option.type === "int") {
    input = h("input", {
      id, name: option.name, type: "number", inputmode: "numeric", step: 1,
      min: option.minimum, max: option.maximum,
      placeholder: option.default === null ? gettext("default") : null,
      "aria-describedby": helpId,
    });
    read = () => (input.value === "" ? undefined : Number(input.value));
    set = (value) => {
      input.value = /** @type {any} */ (value ?? "");
    };
  } else {
    // Known values for a free-form (JSON) option, offered as suggestions.
    const suggestions = gameModule(game).OPTION_HINTS[option.name]?.suggestions;
    const listId = suggestions ? `${id}-list` : null;
    input = h("input", {
      id, name: option.name, type: "text", list: listId, spellcheck: "false",
      placeholder: option.default === null ? gettext("default (random)")
        : JSON.stringify(option.default),
      "aria-describedby": helpId,
    });
    read = () => {
      const text = input.value.trim();
      if (!text) return undefined;
      try {
        return JSON.parse(text);
      } catch {
        return text; // a bare word such as first_game
      }
    };
    set = (value) => {
      input.value = value === null || value === undefined ? ""
        : typeof value === "string" ? value : JSON.stringify(value);
    };
    if (suggestions) {
      set(option.default);
      return { node: h("div", { class: "field" }, label, input,
        h("datalist", { id: listId }, suggestions.map((v) => h("option", { value: v }))), help),
      read, set, name: option.name };
    }
  }
  set(option.default);
  return { node: h("div", { class: "field" }, label, input, help), read, set, name: option.name };
}

/** The game options as a request's `config`: each field that holds a value.
 * @param {OptionField[]} fields @returns {Object<string, unknown>} */
export function configOf(fields) {
  /** @type {Object<string, unknown>} */
  const config = {};
  for (const field of fields) {
    const value = field.read();
    if (value !== undefined) config[field.name] = value;
  }
  return config;
}

/** @param {Bot} bot */
function botWords(bot) {
  // The description's first sentence names the bot ("<Game> level 1.", "<Game> niveau 1."):
  // the option says the level already.
  const what = bot.description ? bot.description.replace(/^[^.]*?\d+\.\s*/, "") : "";
  return what ? interpolate(gettext("Level %(level)s: %(description)s"),
    { level: bot.level, description: what.replace(/\.$/, "") })
    : interpolate(gettext("Level %(level)s"), { level: bot.level });
}

/** @param {Bot | undefined} bot */
function ratingWords(bot) {
  if (!bot?.rating) return "";
  return bot.provisional
    ? interpolate(gettext("Rating %(rating)s (provisional: few rated games yet)"),
      { rating: bot.rating })
    : interpolate(gettext("Rating %(rating)s"), { rating: bot.rating });
}

/** @param {number} index @param {Bot[]} bots @param {SeatRequest | undefined} initial
 * @returns {{node: HTMLElement, read: () => SeatRequest}} */
function seatRow(index, bots, initial) {
  /** @type {Bot[]} */
  const list = bots.length ? bots : [1, 2, 3, 4].map((l) => ({ level: l }));
  const seatName = interpolate(gettext("Seat %(n)s"), { n: index + 1 });
  const kind = h("select", { id: `seat-${index}-kind`, "aria-label": seatName },
    h("option", { value: "me" }, gettext("Me")),
    h("option", { value: "bot" }, gettext("Bot")),
    h("option", { value: "user" }, gettext("Invite a player")),
    h("option", { value: "open" }, gettext("Open seat (anyone may join)")));
  const level = h("select", {
    id: `seat-${index}-level`,
    "aria-label": interpolate(gettext("Seat %(n)s bot level"), { n: index + 1 }),
  },
    list.map((bot) => h("option", { value: bot.level }, botWords(bot))));
  const rating = h("small", { class: "muted bot-rating", id: `seat-${index}-rating` });
  const username = h("input", {
    id: `seat-${index}-username`,
    "aria-label": interpolate(gettext("Seat %(n)s username"), { n: index + 1 }),
    placeholder: gettext("username"), autocapitalize: "none", spellcheck: "false",
  });
  const row = h("li", { class: "seat-row" },
    h("span", { class: "seat-no" }, seatName), kind, level, username, rating);
  const sync = () => {
    level.hidden = kind.value !== "bot";
    username.hidden = kind.value !== "user";
    rating.textContent = kind.value === "bot"
      ? ratingWords(list.find((bot) => String(bot.level) === level.value)) : "";
  };
  kind.value = initial?.kind || "bot";
  if (initial?.level) level.value = String(initial.level);
  if (initial?.username) username.value = initial.username;
  kind.addEventListener("change", sync);
  level.addEventListener("change", sync);
  sync();
  return {
    node: row,
    read: () => {
      if (kind.value === "bot") return { kind: "bot", level: Number(level.value) };
      if (kind.value === "user") return { kind: "user", username: username.value.trim() };
      return { kind: kind.value };
    },
  };
}

/** @param {Game[]} games @param {PageContext} ctx */
function createForm(games, ctx) {
  const wanted = ctx.query?.get("game");
  const gameSelect = h("select", { id: "game", name: "game" },
    games.map((g) => h("option", { value: g.slug, selected: g.slug === wanted }, g.name)));
  const learnBox = h("p", { class: "learn-links", id: "learn-links" });
  const playersBox = h("div", { class: "field" });
  const presetsBox = h("fieldset", { class: "presets", id: "presets" });
  const optionsBox = h("fieldset", { class: "options" });
  const optionsDetails = h("details", { class: "raw-options", id: "raw-options" },
    h("summary", null, gettext("All options")), optionsBox);
  const seatsBox = h("fieldset", { class: "seats" });
  const rated = h("input", { id: "rated", type: "checkbox", checked: true });
  // A match may forbid plans (conditional moves); the game decides where they apply at all.
  const plans = h("input", { id: "plans", type: "checkbox", checked: true,
    "aria-describedby": "plans-help" });
  const clock = clockSelect();
  const weekendPause = h("input", { id: "weekend-pause", type: "checkbox", disabled: true,
    "aria-describedby": "weekend-pause-help" });
  clock.addEventListener("change", () => {
    weekendPause.disabled = !clock.value;
  });
  const error = h("p", { class: "error", role: "alert", id: "create-error" });
  const submit = h("button", { type: "submit", class: "primary" }, gettext("Create match"));
  /** @type {OptionField[]} */
  let fields = [];
  /** @type {{node: HTMLElement, read: () => SeatRequest}[]} */
  let seats = [];
  /** @type {HTMLSelectElement | null} */
  let playersInput = null;
  /** @type {Object<string, Promise<Bot[]>>} */
  const botsCache = {};

  /** @param {string} slug @returns {Promise<Bot[]>} */
  async function bots(slug) {
    if (!botsCache[slug]) botsCache[slug] = api.get(`/api/bots?game=${slug}`).catch(() => []);
    return botsCache[slug];
  }

  async function renderSeats() {
    const slug = gameSelect.value;
    const list = await bots(slug);
    const count = Number(/** @type {HTMLSelectElement} */ (playersInput).value);
    // Seats keep what was chosen (an invitation included) when the game or the count changes.
    const previous = seats.map((seat) => seat.read());
    seats = [];
    const ol = h("ol", { class: "plain" });
    for (let i = 0; i < count; i += 1) {
      const row = seatRow(i, list, previous[i] || { kind: i === 0 ? "me" : "bot", level: 1 });
      seats.push(row);
      ol.append(row.node);
    }
    clear(seatsBox).append(h("legend", null, gettext("Seats (turn order is the game's)")), ol);
  }

  /** @param {Game} game @param {Game["presets"][number] | undefined} preset */
  function applyPreset(game, preset) {
    for (const field of fields) {
      const option = /** @type {Option} */ (game.options.find((o) => o.name === field.name));
      field.set(preset && field.name in preset.config ? preset.config[field.name] : option.default);
    }
    if (preset?.players && playersInput
      && [...playersInput.options].some((o) => Number(o.value) === preset.players)
      && Number(playersInput.value) !== preset.players) {
      playersInput.value = String(preset.players);
      renderSeats();
    }
  }

  async function renderGame() {
    const game = /** @type {Game} */ (games.find((g) => g.slug === gameSelect.value));
    clear(learnBox).append(interpolate(gettext("New to %(game)s?"), { game: game.name }), " ",
      link(`/rules/${game.slug}`, interpolate(gettext("%(game)s rules"), { game: game.name })),
      " · ",
      link(`/tutorial/${game.slug}`,
        interpolate(gettext("%(game)s tutorial"), { game: game.name })));
    fields = game.options.map((option) => optionField(game.slug, option));
    put(clear(optionsBox),
      h("legend", null, interpolate(gettext("%(game)s options"), { game: game.name })),
      fields.length ? fields.map((f) => f.node) : h("p", { class: "muted" }, gettext("No options.")));
    const wantedPreset = ctx.query?.get("preset");
    const presets = game.presets || [];
    const first = presets.find((p) => p.key === wantedPreset) || presets[0];
    put(clear(presetsBox), h("legend", null, gettext("How do you want to play?")),
      presets.map((preset) => {
        const radioId = `preset-${preset.key}`;
        const radio = h("input", {
          type: "radio", name: "preset", id: radioId, value: preset.key,
          checked: preset === first, "aria-describedby": `${radioId}-help`,
        });
        radio.addEventListener("change", () => applyPreset(game, preset));
        return h("div", { class: "preset" }, radio,
          h("label", { for: radioId }, preset.name),
          h("small", { id: `${radioId}-help` }, preset.description));
      }));
    presetsBox.hidden = !presets.length;
    playersInput = h("select", { id: "players" },
      Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => {
        const n = game.min_players + i;
        return h("option", { value: n, selected: n === Math.max(2, game.min_players) },
          n === 1 ? gettext("1 (solo)") : String(n));
      }));
    playersInput.addEventListener("change", renderSeats);
    clear(playersBox).append(h("label", { for: "players" }, gettext("Players")), playersInput);
    applyPreset(game, first);
    await renderSeats();
  }

  gameSelect.addEventListener("change", renderGame);
  const node = h("form", { id: "create-form", class: "card" },
    h("h2", null, gettext("New match")),
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "game" }, gettext("Game")), gameSelect),
      playersBox,
      h("div", { class: "field" }, h("label", { for: "clock" }, gettext("Clock")), clock),
      h("div", { class: "field check" }, weekendPause,
        h("label", { for: "weekend-pause" }, gettext("Pause on weekends")),
        h("small", { id: "weekend-pause-help" },
          gettext("No clock runs on Saturdays and Sundays in its player's time zone."))),
      h("div", { class: "field check" }, rated, h("label", { for: "rated" }, gettext("Rated"))),
      h("div", { class: "field check" }, plans,
        h("label", { for: "plans" }, gettext("Plans allowed")),
        h("small", { id: "plans-help" },
          gettext("Players may plan their replies ahead, in the games that have plans.")))),
    learnBox, presetsBox, seatsBox, optionsDetails, error, submit);

  node.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const config = configOf(fields);
    const timeControl = chosenTimeControl(clock.value, weekendPause.checked);
    const body = {
      game: gameSelect.value, config, seats: seats.map((seat) => seat.read()),
      rated: rated.checked, time_control: timeControl, plans: plans.checked,
    };
    submit.disabled = true;
    try {
      const match = await api.post("/api/matches", body);
      ctx.navigate(`/match/${match.id}`);
    } catch (err) {
      const fieldsErr = err.extra?.fields;
      error.textContent = fieldsErr
        ? `${err.message} ${JSON.stringify(fieldsErr)}` : err.message;
      if (err.code === "invalid_config") optionsDetails.open = true;
    } finally {
      submit.disabled = false;
    }
  });
  renderGame();
  return node;
}

/** Who sits at an open match already (each marked when on vacation), or "nobody yet".
 * @param {import("../api.js").Match} match */
function players(match) {
  const names = opponentNodes(match, (seat) => Boolean(seat.player));
  return names.length ? h("span", null, names) : gettext("nobody yet");
}

/** @param {import("../api.js").Match[]} matches @param {PageContext} ctx */
function openList(matches, ctx) {
  if (!matches.length) return h("p", { class: "muted" }, gettext("No open seats right now."));
  return h("ul", { class: "plain open-list" }, matches.map((match) => h("li", {
    dataset: { match: match.id },
  },
  h("strong", null, gameName(match.game)), " · ",
  interpolate(ngettext("%(n)s player", "%(n)s players", match.players), { n: match.players }),
  " · ",
  interpolateNodes(gettext("with %(names)s"), { names: players(match) }), " · ",
  match.rated ? gettext("rated") : gettext("casual"), ` · ${timeControlText(match.time_control)} · `,
  timeTag(match.created_at), " ",
  h("button", {
    type: "button", class: "primary",
    onClick: async () => {
      try {
        await api.post(`/api/matches/${match.id}/join`);
        ctx.navigate(`/match/${match.id}`);
      } catch (err) {
        notice(err.message, "error");
      }
    },
  }, gettext("Join")), " ", link(`/match/${match.id}`, gettext("Look")))));
}

/**
 * @param {HTMLElement} main @param {string[]} _params @param {PageContext} ctx
 */
export async function render(main, _params, ctx) {
  const [games, open] = await Promise.all([
    loadGames(),
    api.get("/api/matches?scope=open&limit=50", { signal: ctx.signal }),
  ]);
  main.append(
    h("h1", null, gettext("Lobby")),
    h("div", { class: "columns wide-left" },
      createForm(games, ctx),
      h("section", { class: "card", "aria-labelledby": "h-open" },
        h("h2", { id: "h-open" }, gettext("Open seats")), openList(open.results, ctx))));
}
