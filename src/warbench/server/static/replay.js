// The replay of a finished game: a timeline, step by step or played on its own, with what
// each step did drawn over the board and the score as it stood.
"use strict";
const gameId = location.pathname.split("/").pop();
let busy = false, wanted = null, playing = null;

async function go(n) {
  wanted = n;
  if (busy) return;
  busy = true;
  while (wanted !== null) {
    const at = wanted; wanted = null;
    const r = await fetch(`/api/games/${gameId}/at/${at}`);
    const data = await r.json();
    if (!r.ok) { $("problem").textContent = data.error; stop(); break; }
    $("title").textContent = `Replay: ${data.scenario.title}`;
    $("timeline").max = data.actions_total; $("total").textContent = data.actions_total;
    $("timeline").value = at; $("at").textContent = at;
    $("status").textContent = `Turn ${data.turn}` + (data.outcome ? `: ${resultLine(data.outcome, data.sides)}` : "");
    $("score").textContent = data.outcome ? `Game over: ${resultLine(data.outcome, data.sides)}`
      : data.scores ? `Score: ${scoreLine(data.scores, data.sides)}` : "";
    $("events").innerHTML = "";
    for (const e of data.events.slice(-60).reverse()) $("events").appendChild(el("p", e.text));
    const svg = await fetch(`/api/games/${gameId}/board.svg?at=${at}&legend=below${$("recent").checked ? "&recent=1" : ""}`);
    if (svg.ok) $("board").innerHTML = await svg.text();
    document.body.dataset.at = String(at);  // for tests and tools: the step shown
  }
  busy = false;
}
function stop() {
  clearTimeout(playing); playing = null;
  $("play").textContent = "▶ Play";
}
async function tick() {
  const at = Number($("timeline").value), end = Number($("timeline").max);
  if (at >= end) { stop(); return; }
  await go(at + 1);
  if (playing !== null) playing = setTimeout(tick, Number($("speed").value));
}
$("play").addEventListener("click", () => {
  if (playing !== null) { stop(); return; }
  if (Number($("timeline").value) >= Number($("timeline").max)) $("timeline").value = "0";
  $("play").textContent = "❚❚ Pause";
  playing = setTimeout(tick, 0);
});
$("timeline").addEventListener("input", () => { stop(); go(Number($("timeline").value)); });
$("back").addEventListener("click", () => { stop(); go(Math.max(0, Number($("timeline").value) - 1)); });
$("next").addEventListener("click", () => { stop(); go(Math.min(Number($("timeline").max), Number($("timeline").value) + 1)); });
$("recent").addEventListener("change", () => go(Number($("timeline").value)));
$("record").addEventListener("click", async (e) => {
  e.preventDefault();
  const r = await fetch(`/api/games/${gameId}/record`);
  if (!r.ok) { $("problem").textContent = (await r.json()).error; return; }
  const a = el("a", "", {href: URL.createObjectURL(await r.blob()), download: `${gameId}.json`});
  a.click();
});
(async () => {
  const r = await fetch(`/api/games/${gameId}`);
  const data = await r.json();
  if (!r.ok) { $("problem").textContent = data.error; return; }
  go(data.actions_total);
})();
