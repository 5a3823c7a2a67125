// The lobby: create a match in any game with its options and seats, or join an open seat.
// The games, their options and player counts come from GET /api/games; a game module may add
// hints for its options (OPTION_HINTS, see catalog.js).

import { api } from "../api.js";
import { gameModule, gameName, loadGames } from "../catalog.js";
import { clear, h, link, notice, put, timeTag, turnSecondsText } from "../dom.js";
import { opponents } from "../matchinfo.js";

const HOURS = [1, 2, 4, 8, 12, 24, 48, 72];
const DAYS = [1, 2, 3, 5, 7, 14];

function optionField(game, option) {
  const id = `opt-${option.name}`;
  const label = h("label", { for: id }, option.name.replaceAll("_", " "));
  const help = h("small", { id: `${id}-help` }, option.description || "");
  let input;
  let read;
  const choices = option.choices;
  if (choices || option.type === "choice") {
    input = h("select", { id, name: option.name, "aria-describedby": `${id}-help` },
      option.default === null ? h("option", { value: "" }, "default") : null,
      (choices || []).map((choice) => h("option", {
        value: JSON.stringify(choice), selected: choice === option.default,
      }, String(choice))));
    read = () => (input.value === "" ? undefined : JSON.parse(input.value));
  } else if (option.type === "bool") {
    input = h("select", { id, name: option.name, "aria-describedby": `${id}-help` },
      option.default === null ? h("option", { value: "" }, "default") : null,
      h("option", { value: "true", selected: option.default === true }, "on"),
      h("option", { value: "false", selected: option.default === false }, "off"));
    read = () => (input.value === "" ? undefined : input.value === "true");
  } else if (option.type === "int") {
    input = h("input", {
      id, name: option.name, type: "number", inputmode: "numeric", step: 1,
      min: option.minimum, max: option.maximum,
      value: option.default ?? "", placeholder: option.default === null ? "default" : null,
      "aria-describedby": `${id}-help`,
    });
    read = () => (input.value === "" ? undefined : Number(input.value));
  } else {
    // Known values for a free-form (JSON) option, offered as suggestions.
    const suggestions = gameModule(game).OPTION_HINTS[option.name]?.suggestions;
    const listId = suggestions ? `${id}-list` : null;
    input = h("input", {
      id, name: option.name, type: "text", list: listId, spellcheck: "false",
      value: typeof option.default === "string" ? option.default : "",
      placeholder: option.default === null ? "default" : JSON.stringify(option.default),
      "aria-describedby": `${id}-help`,
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
    if (suggestions) {
      return { node: h("div", { class: "field" }, label, input,
        h("datalist", { id: listId }, suggestions.map((v) => h("option", { value: v }))), help),
      read, name: option.name };
    }
  }
  return { node: h("div", { class: "field" }, label, input, help), read, name: option.name };
}

function seatRow(index, bots, initialKind) {
  const kind = h("select", { id: `seat-${index}-kind`, "aria-label": `Seat ${index + 1}` },
    h("option", { value: "me", selected: initialKind === "me" }, "Me"),
    h("option", { value: "bot", selected: initialKind === "bot" }, "Bot"),
    h("option", { value: "user" }, "Invite a player"),
    h("option", { value: "open" }, "Open seat (anyone may join)"));
  const level = h("select", { id: `seat-${index}-level`, "aria-label": `Seat ${index + 1} bot level` },
    (bots.length ? bots : [1, 2, 3].map((l) => ({ level: l }))).map((bot) => h("option", {
      value: bot.level,
    }, `Level ${bot.level}${bot.rating ? ` (${bot.rating}${bot.provisional ? "?" : ""})` : ""}`
      + `${bot.description ? ` — ${bot.description.replace(/^.*? level \d+\. /, "")}` : ""}`)));
  const username = h("input", {
    id: `seat-${index}-username`, "aria-label": `Seat ${index + 1} username`,
    placeholder: "username", autocapitalize: "none", spellcheck: "false",
  });
  const row = h("li", { class: "seat-row" },
    h("span", { class: "seat-no" }, `Seat ${index + 1}`), kind, level, username);
  const sync = () => {
    level.hidden = kind.value !== "bot";
    username.hidden = kind.value !== "user";
  };
  kind.addEventListener("change", sync);
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

function createForm(games, ctx) {
  const gameSelect = h("select", { id: "game", name: "game" },
    games.map((g) => h("option", { value: g.slug }, g.name)));
  const playersBox = h("div", { class: "field" });
  const optionsBox = h("fieldset", { class: "options" });
  const seatsBox = h("fieldset", { class: "seats" });
  const rated = h("input", { id: "rated", type: "checkbox", checked: true });
  const clock = h("select", { id: "clock" },
    h("option", { value: "" }, "No clock (casual pace)"),
    h("optgroup", { label: "Hours per turn" },
      HOURS.map((n) => h("option", { value: `h${n}` }, `${n} h per turn`))),
    h("optgroup", { label: "Days per turn" },
      DAYS.map((n) => h("option", { value: `d${n}` }, `${n} d per turn`))));
  const error = h("p", { class: "error", role: "alert", id: "create-error" });
  const submit = h("button", { type: "submit", class: "primary" }, "Create match");
  let fields = [];
  let seats = [];
  let playersInput = null;
  const botsCache = {};

  async function bots(slug) {
    if (!botsCache[slug]) botsCache[slug] = api.get(`/api/bots?game=${slug}`).catch(() => []);
    return botsCache[slug];
  }

  async function renderSeats() {
    const slug = gameSelect.value;
    const list = await bots(slug);
    const count = Number(playersInput.value);
    const previous = seats.map((seat) => seat.read());
    seats = [];
    const ol = h("ol", { class: "plain" });
    for (let i = 0; i < count; i += 1) {
      const row = seatRow(i, list, i === 0 ? "me" : "bot");
      seats.push(row);
      ol.append(row.node);
      const before = previous[i];
      if (before) {
        row.node.querySelector(`#seat-${i}-kind`).value = before.kind;
        row.node.querySelector(`#seat-${i}-kind`).dispatchEvent(new Event("change"));
        if (before.level) row.node.querySelector(`#seat-${i}-level`).value = before.level;
        if (before.username) row.node.querySelector(`#seat-${i}-username`).value = before.username;
      }
    }
    clear(seatsBox).append(h("legend", null, "Seats (turn order is the game's)"), ol);
  }

  async function renderGame() {
    const game = games.find((g) => g.slug === gameSelect.value);
    fields = game.options.map((option) => optionField(game.slug, option));
    put(clear(optionsBox), h("legend", null, `${game.name} options`),
      fields.length ? fields.map((f) => f.node) : h("p", { class: "muted" }, "No options."));
    playersInput = h("select", { id: "players" },
      Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => {
        const n = game.min_players + i;
        return h("option", { value: n, selected: n === Math.max(2, game.min_players) },
          n === 1 ? "1 (solo)" : String(n));
      }));
    playersInput.addEventListener("change", renderSeats);
    clear(playersBox).append(h("label", { for: "players" }, "Players"), playersInput);
    seats = [];
    await renderSeats();
  }

  gameSelect.addEventListener("change", renderGame);
  const node = h("form", { id: "create-form", class: "card" },
    h("h2", null, "New match"),
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "game" }, "Game"), gameSelect),
      playersBox,
      h("div", { class: "field" }, h("label", { for: "clock" }, "Time control"), clock),
      h("div", { class: "field check" }, rated, h("label", { for: "rated" }, "Rated"))),
    seatsBox, optionsBox, error, submit);

  node.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const config = {};
    for (const field of fields) {
      const value = field.read();
      if (value !== undefined) config[field.name] = value;
    }
    let timeControl = null;
    if (clock.value) {
      const amount = Number(clock.value.slice(1));
      timeControl = clock.value[0] === "h" ? { hours_per_turn: amount } : { days_per_turn: amount };
    }
    const body = {
      game: gameSelect.value, config, seats: seats.map((seat) => seat.read()),
      rated: rated.checked, time_control: timeControl,
    };
    submit.disabled = true;
    try {
      const match = await api.post("/api/matches", body);
      ctx.navigate(`/match/${match.id}`);
    } catch (err) {
      const fieldsErr = err.extra?.fields;
      error.textContent = fieldsErr
        ? `${err.message} ${JSON.stringify(fieldsErr)}` : err.message;
    } finally {
      submit.disabled = false;
    }
  });
  renderGame();
  return node;
}

function openList(matches, ctx) {
  if (!matches.length) return h("p", { class: "muted" }, "No open seats right now.");
  return h("ul", { class: "plain open-list" }, matches.map((match) => h("li", {
    dataset: { match: match.id },
  },
  h("strong", null, gameName(match.game)), ` · ${match.players} players · `,
  `with ${opponents(match).filter((n) => n !== "open seat").join(", ") || "nobody yet"} · `,
  match.rated ? "rated" : "casual", ` · ${turnSecondsText(match.turn_seconds)} · `,
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
  }, "Join"), " ", link(`/match/${match.id}`, "Look"))));
}

export async function render(main, _params, ctx) {
  const [games, open] = await Promise.all([
    loadGames(),
    api.get("/api/matches?scope=open&limit=50", { signal: ctx.signal }),
  ]);
  main.append(
    h("h1", null, "Lobby"),
    h("div", { class: "columns wide-left" },
      createForm(games, ctx),
      h("section", { class: "card", "aria-labelledby": "h-open" },
        h("h2", { id: "h-open" }, "Open seats"), openList(open.results, ctx))));
}
