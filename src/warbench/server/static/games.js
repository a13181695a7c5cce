// "My games": every seat this browser holds, with whose move it is and when it changed.
"use strict";
function ago(seconds) {
  const s = Math.max(0, Date.now() / 1000 - seconds);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} days ago`;
}
async function load() {
  const held = mySeats();
  const keys = Object.keys(held);
  $("none").hidden = keys.length > 0;
  if (!keys.length) return;
  const r = await fetch("/api/mine", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({seats: keys.map((k) => ({game: held[k].game, token: held[k].token}))})});
  const rows = await r.json();
  if (!r.ok) { $("problem").textContent = rows.error; return; }
  const listed = rows.map((row, i) => ({...row, key: keys[i]}));
  listed.sort((a, b) => (b.your_move && !b.outcome) - (a.your_move && !a.outcome) || (b.updated || 0) - (a.updated || 0));
  $("games").innerHTML = "";
  for (const g of listed) {
    const seat = held[g.key];
    const tr = el("tr", undefined, {"data-game": g.game});
    if (g.error) {
      tr.append(el("td", seat.scenario || g.game), el("td", seat.side), el("td", g.error, {class: "error"}), el("td", ""));
    } else {
      if (g.your_move && !g.outcome) tr.classList.add("your-move");
      const now = g.outcome ? `Game over: ${resultLine(g.outcome, Object.keys(g.players))}`
        : g.your_move ? `Your move (turn ${g.turn})` : `Waiting for ${g.waiting_for.join(", ")} (turn ${g.turn})`;
      const link = el("td");
      link.appendChild(el("a", g.scenario.title, {href: `/play/${g.game}#seat=${seat.token}`}));
      tr.append(link, el("td", g.side), el("td", now), el("td", ago(g.updated)));
    }
    const cell = el("td");
    const forget = el("button", "Forget", {type: "button", title: "remove it from this list (the game goes on)"});
    forget.addEventListener("click", () => { forgetSeat(g.key); load(); });
    cell.appendChild(forget);
    tr.appendChild(cell);
    $("games").appendChild(tr);
  }
}
load();
setInterval(load, 30_000);
