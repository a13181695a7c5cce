// What every page of the browser client shares: finding and making elements, calling the
// API, and the seats this browser holds (kept in localStorage for the "My games" page).
"use strict";
const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";

function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
function svgEl(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// The seats this browser holds: {game: {token, side, scenario, added}}. A token is kept
// only here, on this machine, never sent anywhere but its own game's API.
const SEATS_KEY = "warbench.seats";
function mySeats() {
  try { return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}") || {}; } catch (e) { return {}; }
}
function rememberSeat(game, token, side, scenario) {
  const seats = mySeats();
  const key = `${game}/${side}`;
  seats[key] = {game, token, side, scenario, added: seats[key]?.added || Date.now()};
  try { localStorage.setItem(SEATS_KEY, JSON.stringify(seats)); } catch (e) { /* private mode */ }
}
function forgetSeat(key) {
  const seats = mySeats();
  delete seats[key];
  try { localStorage.setItem(SEATS_KEY, JSON.stringify(seats)); } catch (e) { /* private mode */ }
}

// A result in words: "blue wins 16-0 (reason)", "a draw 3-3 (reason)".
function scoreLine(scores, sides) {
  const shown = (sides || Object.keys(scores || {})).filter((s) => scores && s in scores);
  return shown.length ? shown.map((s) => `${s} ${+Number(scores[s]).toFixed(1)}`).join(" – ") : "";
}
function resultLine(outcome, sides) {
  const scores = outcome.scores || {};
  let text = outcome.winner ? `${outcome.winner} wins` : "a draw";
  const order = outcome.winner ? [outcome.winner, ...(sides || Object.keys(scores)).filter((s) => s !== outcome.winner)] : sides;
  const numbers = (order || Object.keys(scores)).filter((s) => s in scores).map((s) => +Number(scores[s]).toFixed(1));
  if (numbers.length) text += ` ${numbers.join("-")}`;
  return `${text} (${outcome.reason})`;
}
