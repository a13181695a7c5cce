// The lobby: pick a scenario (the suggested first game leads, calibration arenas come
// last), say who plays each side, create the game and hand out its seat links.
"use strict";
let scenarios = [], bots = [], firstGame = null;
let about = {};  // bot name -> {about, options, time_limit, seconds} for the chosen ruleset
let ruleset = null;
let uploaded = null;  // the text of an uploaded scenario file, once it validated
let wantedSeats = null;  // seats to set once the scenario's sides are drawn

async function load() {
  scenarios = await (await fetch("/api/scenarios")).json();
  bots = await (await fetch("/api/bots")).json();
  firstGame = await (await fetch("/api/first-game")).json();
  const groups = {
    first: el("optgroup", undefined, {label: "Play these first"}),
    calibration: el("optgroup", undefined, {label: "Calibration arenas (mirrored forces for warbench calibrate)"}),
  };
  for (const s of scenarios) {
    const label = s.calibration ? `${s.title} (${s.id}): calibration arena` : `${s.title} (${s.id})` + (s.first ? ": suggested first game" : "");
    groups[s.calibration ? "calibration" : "first"].appendChild(el("option", label, {value: s.id}));
  }
  $("scenario").append(groups.first, groups.calibration);
  $("scenario").addEventListener("change", seats);
  if (firstGame) {
    $("first-why").textContent = firstGame.why;
    $("first").hidden = false;
  }
  await seats();
}
// Seats are drawn from the latest request only: a slower answer to an earlier pick (the
// page's first load, a scenario changed twice quickly) must not overwrite a later one.
let drawn = 0;
async function seats() {
  uploaded = null; $("upload").value = "";
  const ticket = ++drawn;
  const r = await fetch(`/api/scenarios/${$("scenario").value.split("/").map(encodeURIComponent).join("/")}`);
  await drawSeats(await r.json(), ticket);
}
$("first-pick").addEventListener("click", async () => {
  $("scenario").value = firstGame.scenario;
  wantedSeats = firstGame.seats;
  await seats();
  $("create").scrollIntoView({behavior: "smooth"});
});
$("upload").addEventListener("change", async () => {
  $("problem").textContent = "";
  const file = $("upload").files[0];
  if (!file) return;
  const text = await file.text();
  const r = await fetch("/api/scenarios/check", {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify({scenario_toml: text})});
  const info = await r.json();
  if (!r.ok) { $("problem").textContent = info.error; uploaded = null; return; }
  uploaded = text;
  await drawSeats(info, ++drawn);
});
function seconds(s) {
  if (s === null || s === undefined) return "its time per decision is not measured";
  if (s < 0.01) return "decides at once";
  return `about ${s < 1 ? s.toFixed(2) : s.toFixed(1)} s a decision`;
}
// The bot named for a seat, with its options and its time limit (a time option).
function seatSpec(side) {
  const pick = $(`seat-${side}`);
  if (pick.value === "human") return "human";
  const parts = [$(`options-${side}`).value.trim()].filter(Boolean);
  const limit = $(`limit-${side}`).value.trim();
  if (limit && about[pick.value] && about[pick.value].time_limit) parts.push(`time=${limit}`);
  return parts.length ? `${pick.value}:${parts.join(",")}` : pick.value;
}
let estimating = {};
async function estimate(side) {
  const pick = $(`seat-${side}`), hint = $(`time-${side}`);
  const bot = about[pick.value];
  $(`limit-${side}`).disabled = !(bot && bot.time_limit);
  for (const id of [`options-${side}`, `limit-row-${side}`, `limit-${side}`]) $(id).hidden = pick.value === "human";
  if (pick.value === "human") { hint.textContent = ""; return; }
  const spec = seatSpec(side);
  const mine = estimating[side] = spec;
  const r = await fetch(`/api/bots/estimate?ruleset=${encodeURIComponent(ruleset)}&bot=${encodeURIComponent(spec)}`);
  const data = await r.json();
  if (estimating[side] !== mine) return;  // a newer question is on its way
  hint.textContent = r.ok ? `${pick.value} ${seconds(data.seconds)} here` + (bot && !bot.time_limit ? " (no time limit to set)" : "")
    : data.error;
  hint.classList.toggle("error", !r.ok);
}
async function drawSeats(info, ticket) {
  if (info.ruleset !== ruleset) {
    const found = await (await fetch(`/api/bots/about?ruleset=${encodeURIComponent(info.ruleset)}`)).json();
    if (ticket !== drawn) return;
    ruleset = info.ruleset;
    about = Object.fromEntries(found.map((b) => [b.name, b]));
  }
  if (ticket !== drawn) return;
  drawSeatRows(info);
}
function drawSeatRows(info) {
  $("goal").innerHTML = "";
  for (const line of info.goal || []) $("goal").appendChild(el("p", line));
  $("seats").innerHTML = "";
  info.sides.forEach((side, i) => {
    const label = el("label", `${side} is played by`, {for: `seat-${side}`});
    const pick = el("select", undefined, {id: `seat-${side}`, "data-side": side});
    const wanted = wantedSeats ? wantedSeats[side] : (i > 0 ? "normal" : "human");
    // A person, then the levels (easy, normal, hard: what each does), then every bot by name.
    const groups = [["", ["human"]], ["Levels", bots.filter((b) => about[b] && about[b].level)],
      ["Bots", bots.filter((b) => !(about[b] && about[b].level))]];
    for (const [title, names] of groups) {
      const parent = title ? el("optgroup", undefined, {label: title}) : pick;
      for (const who of names) {
        const shown = about[who] && about[who].level ? `${who}: ${about[who].about}` : who;
        const o = el("option", shown, {value: who});
        if (who === wanted) o.selected = true;
        parent.appendChild(o);
      }
      if (parent !== pick && names.length) pick.appendChild(parent);
    }
    const options = el("input", undefined, {id: `options-${side}`, "data-side": side,
      placeholder: "bot options, e.g. iterations=50 (see warbench bots)"});
    const limitRow = el("label", "Time limit per decision (seconds, at most 10; blank: none)", {id: `limit-row-${side}`, for: `limit-${side}`});
    const limit = el("input", undefined, {id: `limit-${side}`, type: "number", min: "0.1", max: "10", step: "0.1", "data-side": side});
    const hint = el("p", "", {id: `time-${side}`, class: "hint", "aria-live": "polite"});
    $("seats").append(label, pick, hint, options, limitRow, limit);
    for (const field of [pick, options, limit]) field.addEventListener("change", () => estimate(side));
    estimate(side);
  });
  wantedSeats = null;
  drawOptions(info.options || []);
  seedRow();
}
// The scenario's options, where the text leaves a choice to the players (measuring by eye
// or freely, MGV's core rule...): a list of values each, with what each means.
function drawOptions(options) {
  $("options").innerHTML = "";
  $("options-box").hidden = options.length === 0;
  for (const option of options) {
    const label = el("label", `${option.key} (${option.source})`, {for: `option-${option.key}`});
    const pick = el("select", undefined, {id: `option-${option.key}`, "data-key": option.key});
    const meaning = el("p", "", {class: "hint"});
    const values = {...option.choices};
    if (!(option.value in values)) values[option.value] = "as the scenario sets it";
    for (const [value, means] of Object.entries(values)) {
      const o = el("option", value === option.default ? `${value} (default)` : value, {value});
      if (value === option.value) { o.selected = true; meaning.textContent = means; }
      pick.appendChild(o);
    }
    pick.addEventListener("change", () => { meaning.textContent = values[pick.value]; });
    $("options").append(label, pick, meaning);
  }
}
function chosenOptions() {
  const chosen = {};
  for (const pick of document.querySelectorAll("#options select")) chosen[pick.dataset.key] = pick.value;
  return chosen;
}
// A seed may be chosen for a practice game, or a game of bots alone (nobody to cheat).
function seedRow() {
  const picks = [...document.querySelectorAll("#seats select")];
  const botsAlone = picks.length > 0 && picks.every((p) => p.value !== "human");
  $("seed-row").hidden = !($("practice").checked || botsAlone);
}
$("practice").addEventListener("change", seedRow);
$("seats").addEventListener("change", seedRow);

function copyButton(text) {
  const b = el("button", "Copy", {type: "button", "data-copy": text});
  b.addEventListener("click", async () => {
    let done = false;
    try { await navigator.clipboard.writeText(text); done = true; } catch (e) { done = false; }
    if (!done) {  // no clipboard permission (plain http): select a field and copy from it
      const field = el("input", undefined, {value: text});
      document.body.appendChild(field); field.select();
      done = document.execCommand("copy"); field.remove();
    }
    b.textContent = done ? "Copied" : "Select and copy the link";
  });
  return b;
}
function showLinks(data) {
  $("links").innerHTML = "";
  $("links").appendChild(el("strong", "The game is made. Each human seat has its own secret link:"));
  for (const [side, link] of Object.entries(data.links)) {
    const row = el("div", undefined, {class: "seat", "data-side": side});
    row.appendChild(el("a", `Play ${side}: ${location.origin}${link}`, {href: link}));
    row.appendChild(copyButton(`${location.origin}${link}`));
    $("links").appendChild(row);
  }
  const watch = el("div", undefined, {class: "seat", "data-side": ""});
  watch.appendChild(el("a", `Watch: ${location.origin}${data.spectate}`, {href: data.spectate}));
  watch.appendChild(copyButton(`${location.origin}${data.spectate}`));
  $("links").appendChild(watch);
  $("links").appendChild(el("p", "Open yours to play; send the others to your friends. Your games stay listed under My games in this browser.", {class: "hint"}));
  $("links").hidden = false;
  $("links").scrollIntoView({behavior: "smooth", block: "start"});
}
$("create").addEventListener("submit", async (e) => {
  e.preventDefault();
  $("problem").textContent = ""; $("links").hidden = true;
  const seats = {};
  for (const pick of document.querySelectorAll("#seats select")) seats[pick.dataset.side] = seatSpec(pick.dataset.side);
  const which = uploaded === null ? {scenario: $("scenario").value} : {scenario_toml: uploaded};
  const dice = {};  // by default none: the server draws the dice from a secret seed
  if (!$("seed-row").hidden && $("seed").value.trim() !== "") {
    dice.seed = Number($("seed").value);
    dice.practice = $("practice").checked;
  }
  const r = await fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({...which, seats, ...dice, options: chosenOptions()})});
  const data = await r.json();
  if (!r.ok) { $("problem").textContent = data.error; return; }
  showLinks(data);
});
load();
