// The play page: the board as this seat (or a spectator) sees it, what it can do, live.
"use strict";
const gameId = location.pathname.split("/").pop();
const token = new URLSearchParams(location.hash.slice(1)).get("seat");
const auth = token ? {"Authorization": `Bearer ${token}`} : {};
let state = null;       // the latest message for this seat
let pieces = new Set(); // ids of the pieces drawn on the board
let places = new Set(); // hex labels drawn on the board
let selected = null;    // the piece whose actions are shown
let notes = {};         // action text -> {cost, odds, refusal}

// -- what an action is about: read from its words and the board's own ids --------------
function parse(text) {
  const words = text.split(/\s+/);
  let subject = null;
  const targets = [];
  for (const w of words.slice(1)) {
    if (subject === null && pieces.has(w)) { subject = w; continue; }
    if (pieces.has(w) || places.has(w)) targets.push(w);
  }
  return {text, subject, targets};
}
function parsed() { return (state ? state.legal_actions : []).map(parse); }
function myTurn() { return state && state.you && state.waiting_for.includes(state.you) && !state.outcome; }

// -- the server --------------------------------------------------------------------
async function call(method, path, body) {
  const r = await fetch(path, {method, headers: {"Content-Type": "application/json", ...auth},
    body: body === undefined ? undefined : JSON.stringify(body)});
  let data = null;
  try { data = await r.json(); } catch (e) { data = {error: `${r.status}`}; }
  return [r, data];
}
async function explain(texts) {
  const wanted = texts.filter((t) => !(t in notes));
  if (!wanted.length || !token) return;
  const [r, data] = await call("POST", `/api/games/${gameId}/explain`, {actions: wanted.slice(0, 500)});
  if (r.ok) for (const n of data) notes[n.action] = n;
}
async function act(text) {
  $("problem").textContent = "";
  const [r, data] = await call("POST", `/api/games/${gameId}/actions`, {version: state.version, action: text});
  if (r.ok) {
    selected = null; show(data);
    const next = followUp; followUp = [];
    if (next.length && myTurn()) await propose([next[0]]);  // the plan's next step, with its odds
    return;
  }
  followUp = [];
  $("problem").textContent = data.error;
  if (data.state) show(data.state);
}

// -- drawing ---------------------------------------------------------------------------
let arcsOf = null;  // the piece whose arcs of fire the board shows
let drawings = 0;   // boards asked for so far: only the newest is put up
async function drawBoard() {
  const mine = ++drawings;
  const version = state.version;
  const query = new URLSearchParams();
  if (arcsOf) query.set("arcs", arcsOf);
  if ($("recent").checked) query.set("recent", "1");
  query.set("legend", "below");  // the board gets the page's width; its key follows it
  const r = await fetch(`/api/games/${gameId}/board.svg?${query}`, {headers: auth});
  if (!r.ok) return;
  const text = await r.text();
  if (mine !== drawings) return;  // a newer board is on its way: this one is out of date
  $("board").innerHTML = text;  // our own renderer's SVG: every name escaped
  const svg = $("board").querySelector("svg");
  fitBoard();
  pieces = new Set([...svg.querySelectorAll("[data-unit],[data-figure]")]
    .map((g) => g.dataset.unit || g.dataset.figure));
  places = new Set([...svg.querySelectorAll("polygon[data-hex]")].map((p) => p.dataset.hex));
  const top = svg.querySelector("g.board.table");
  table = top ? {scale: Number(top.dataset.scale), left: Number(top.dataset.left), bottom: Number(top.dataset.bottom)} : null;
  svg.addEventListener("pointerup", (e) => { lastPointer = [e.clientX, e.clientY]; }, true);
  svg.addEventListener("click", onBoardClick);
  svg.addEventListener("pointermove", onTableMove);
  svg.addEventListener("pointerdown", onTableDown);
  svg.addEventListener("pointerup", onTableUp);
  if (drawing) drawPreview(null, null);
  drawChoices();  // which actions are a piece's is known once the board is drawn
  await highlight();
  if (selected !== null) drawReach(selected);
  $("board").dataset.version = String(version);  // the board drawn is this version's
}

// -- open tables: a move drawn on the table, leg by leg, then a facing ------------------
let table = null;    // where the table lies in the picture: {scale, left, bottom}
let drawing = null;  // {figure, path: [[x, y], ...], facing, finished}
let verdictTimer = null;
let measuring = null;  // null, or the things picked so far (ids or "x,y" points)
let typingPoints = false;  // clicks on the table add points to the typed action
const r2 = (v) => Math.round(v * 100) / 100;  // a hundredth of an inch
// The board's own group: the picture's coordinates (table.left, table.bottom, a hex's
// corners) are this group's, which the SVG places under its heading.
function boardGroup() { return $("board").querySelector("svg g.board"); }
function boardPoint(clientX, clientY) {
  const point = $("board").querySelector("svg").createSVGPoint();
  point.x = clientX; point.y = clientY;
  return point.matrixTransform(boardGroup().getScreenCTM().inverse());
}
function inchesAt(clientX, clientY) {
  const at = boardPoint(clientX, clientY);
  return [r2((at.x - table.left) / table.scale), r2((table.bottom - at.y) / table.scale)];
}
// A click's own position is in whole pixels (an inch is ~17 of them on a laptop); the
// pointer events before it carry the fraction the screen gave, so a click is read there.
let lastPointer = null;
function clientOf(event) {
  if (event.type === "click" && lastPointer &&
      Math.abs(lastPointer[0] - event.clientX) < 1.5 && Math.abs(lastPointer[1] - event.clientY) < 1.5) {
    return lastPointer;
  }
  return [event.clientX, event.clientY];
}
function inches(event) { return inchesAt(...clientOf(event)); }
function pixels([x, y]) { return [table.left + x * table.scale, table.bottom - y * table.scale]; }
function figureOf(id) { return ((state.view || {}).figures || []).find((f) => f.id === id); }
function canMove(id) { return state.legal_actions.some((a) => a.startsWith(`move ${id} `)); }
function moveText(extra) {
  const points = [...drawing.path, ...(extra ? [extra] : [])];
  let text = `move ${drawing.figure}` + points.map(([x, y]) => ` ${x},${y}`).join("");
  if (drawing.facing !== null) text += ` face ${Math.round(drawing.facing)}`;
  return text;
}
// The page's own layers in the board group, drawn over it and never taking a click:
// "overlay" the move being drawn, "marks" the movement costs, the ruler and the reach ring.
function layer(id) {
  const board = boardGroup();
  let g = board.querySelector(`#${id}`);
  if (!g) {
    g = svgEl("g", {id, "pointer-events": "none"});
    board.appendChild(g);
  }
  return g;
}
const overlay = () => layer("overlay");
const marks = () => layer("marks");
function drawPreview(extra, verdict) {
  const g = overlay();
  g.innerHTML = "";
  if (!drawing) return;
  const figure = figureOf(drawing.figure);
  if (!figure) return;
  const points = [[figure.x, figure.y], ...drawing.path, ...(extra ? [extra] : [])].map(pixels);
  const refused = verdict && verdict.refusal ? " refused" : "";
  g.appendChild(svgEl("polyline", {points: points.map((p) => p.join(",")).join(" "), class: "move-path" + refused}));
  const end = points[points.length - 1];
  if (drawing.facing !== null) {
    const rad = drawing.facing * Math.PI / 180;
    g.appendChild(svgEl("line", {x1: end[0], y1: end[1], x2: end[0] + 30 * Math.cos(rad),
      y2: end[1] - 30 * Math.sin(rad), class: "facing-arrow"}));
  }
  if (verdict) {
    const said = verdict.refusal ? "refused" : (verdict.cost || "");
    g.appendChild(svgEl("text", {x: end[0] + 8, y: end[1] - 8, class: "move-label"}, said));
  }
}
async function judge(text) {
  await explain([text]);
  return notes[text] || null;
}
function showVerdict(text, verdict) {
  $("verdict").textContent = verdict ? `${text}\n${verdict.refusal || verdict.cost || "allowed"}` : text;
}
function startDrawing(id) {
  drawing = {figure: id, path: [], facing: null, finished: false};
  $("board").classList.add("drawing");
  $("drawing").hidden = false;
  $("draw-help").textContent = `Move ${id}: drag from it (or click) to each leg's end; the rules' verdict follows the pointer. Then "Path done" and point where it faces.`;
  $("verdict").textContent = "";
  drawPreview(null, null);
}
function stopDrawing() {
  drawing = null;
  $("board").classList.remove("drawing");
  $("drawing").hidden = true;
  if ($("board").querySelector("svg")) overlay().innerHTML = "";
}
function onTableMove(event) {
  if (!drawing || !table) return;
  const at = inches(event);
  if (dragFrom && Math.hypot(at[0] - dragFrom[0], at[1] - dragFrom[1]) > 0.3) clearTimeout(holdTimer);
  if (drawing.finished) {
    const figure = figureOf(drawing.figure);
    const last = drawing.path.length ? drawing.path[drawing.path.length - 1] : [figure.x, figure.y];
    drawing.facing = (Math.atan2(at[1] - last[1], at[0] - last[0]) * 180 / Math.PI + 360) % 360;
    drawPreview(null, null);
    return;
  }
  const figure = figureOf(drawing.figure);
  const last = drawing.path.length ? drawing.path[drawing.path.length - 1] : [figure.x, figure.y];
  if (Math.hypot(at[0] - last[0], at[1] - last[1]) < 0.3) return;  // no leg to speak of
  drawPreview(at, null);
  clearTimeout(verdictTimer);
  verdictTimer = setTimeout(async () => {
    if (!drawing || drawing.finished) return;
    const end = drawing.path.length ? drawing.path[drawing.path.length - 1] : last;
    if (Math.hypot(at[0] - end[0], at[1] - end[1]) < 0.3) return;  // a leg was just added here
    const text = moveText(at);
    const verdict = await judge(text);
    if (drawing && !drawing.finished) { drawPreview(at, verdict); showVerdict(text, verdict); }
  }, 120);
}
let dragFrom = null;  // where a drag on the table began (its release ends a leg)
let holdTimer = null, held = false;  // a finger held still: preview, as a mouse hovers
async function previewAt(at) {
  if (!drawing || drawing.finished) return;
  const text = moveText(at);
  drawPreview(at, null);
  const verdict = await judge(text);
  if (drawing && !drawing.finished) { drawPreview(at, verdict); showVerdict(text, verdict); }
}
function onTableDown(event) {
  if (!drawing || !table || drawing.finished) return;
  dragFrom = inches(event);
  held = false;
  clearTimeout(holdTimer);
  if (event.pointerType === "touch") {
    const at = dragFrom;
    holdTimer = setTimeout(() => { held = true; previewAt(at); }, 450);
  }
}
async function onTableUp(event) {
  clearTimeout(holdTimer);
  if (!drawing || !table || dragFrom === null) return;
  const at = inches(event);
  const from = dragFrom;
  dragFrom = null;
  if (held) { held = false; suppressClick = true; return; }  // a held finger only previews
  if (Math.hypot(at[0] - from[0], at[1] - from[1]) >= 0.3) await addLeg(at);  // a drag's release
}
async function addLeg(at) {
  const figure = figureOf(drawing.figure);
  const last = drawing.path.length ? drawing.path[drawing.path.length - 1] : [figure.x, figure.y];
  if (Math.hypot(at[0] - last[0], at[1] - last[1]) < 0.3) return;  // the click after a drag
  drawing.path.push(at);
  const text = moveText(null);
  const verdict = await judge(text);
  drawPreview(null, verdict);
  showVerdict(text, verdict);
}
async function onTableClick(event) {
  if (!drawing || !table) return false;
  clearTimeout(verdictTimer);
  const at = inches(event);
  if (drawing.finished) {  // the facing is fixed where the pointer points
    const text = moveText(null);
    showVerdict(text, await judge(text));
    await propose([text]);
    return true;
  }
  await addLeg(at);
  return true;
}

function clearMarks() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.querySelectorAll(".dest,.chosen,.selected,.target").forEach((e) => e.classList.remove("dest", "chosen", "selected", "target"));
  svg.querySelectorAll("text.cost").forEach((t) => t.remove());
}

async function highlight() {
  clearMarks();
  const svg = $("board").querySelector("svg");
  $("selected").hidden = selected === null;
  if (!svg || selected === null) return;
  svg.querySelectorAll(`[data-unit="${CSS.escape(selected)}"],[data-figure="${CSS.escape(selected)}"]`)
    .forEach((g) => g.classList.add("selected"));
  const mine = parsed().filter((a) => a.subject === selected);
  await explain(mine.map((a) => a.text));
  for (const a of mine) {
    for (const t of a.targets) {
      if (places.has(t)) {
        const hex = svg.querySelector(`polygon[data-hex="${CSS.escape(t)}"]`);
        if (!hex) continue;
        hex.classList.add("dest");
        const note = notes[a.text];
        if (note && note.cost) {
          const box = hex.getBBox();
          const label = svgEl("text", {x: box.x + box.width / 2, y: box.y + box.height * 0.8,
            "text-anchor": "middle", class: "cost", "data-hex": t}, note.cost.split(" ")[0] + " MP");
          marks().appendChild(label);  // in the hex's own coordinates, over the counters
        }
      } else {
        svg.querySelectorAll(`[data-unit="${CSS.escape(t)}"],[data-figure="${CSS.escape(t)}"]`)
          .forEach((g) => g.classList.add("target"));
      }
    }
  }
  $("unit-actions").innerHTML = "";
  let list = $("unit-actions");
  if (mine.length > 8) {
    list = el("details");
    list.appendChild(el("summary", `${mine.length} actions (or click the board)`));
    $("unit-actions").appendChild(list);
  }
  for (const a of mine) {
    const n = notes[a.text] || {};
    const b = el("button", a.text + (n.cost ? ` (${n.cost})` : ""), {type: "button"});
    if (n.odds) b.appendChild(el("div", n.odds.replace(`${a.text}: `, ""), {class: "odds"}));
    b.addEventListener("click", () => propose([a.text]));
    list.appendChild(b);
  }
}

async function info(ref) {
  const r = await fetch(`/api/games/${gameId}/info?ref=${encodeURIComponent(ref)}`, {headers: auth});
  const data = await r.json();
  $("info").innerHTML = "";
  $("info").appendChild(el("strong", ref));
  for (const line of (r.ok ? data.lines : [data.error])) $("info").appendChild(el("div", line));
}

// A click on an enemy that no action of the selected piece names now: what the rules say
// of acting on it (why not, and a way that works, such as holding the hex and then
// attacking), with one button for each way whose first step may be taken.
let followUp = [];  // the steps left of a plan whose first step was just taken
async function offerPlans(piece, target) {
  const r = await fetch(`/api/games/${gameId}/against?piece=${encodeURIComponent(piece)}&target=${encodeURIComponent(target)}`, {headers: auth});
  if (!r.ok) return false;
  const {plans} = await r.json();
  if (!plans.length) return false;
  $("pending-list").innerHTML = "";
  for (const plan of plans) {
    const box = el("div", undefined, {class: "plan"});
    box.appendChild(el("div", plan.steps.join(", then "), {class: "action-text"}));
    if (plan.refusal) box.appendChild(el("div", plan.refusal, {class: "error"}));
    else {
      const go = el("button", plan.label[0].toUpperCase() + plan.label.slice(1), {type: "button", "data-plan": plan.steps.join(" | ")});
      go.addEventListener("click", () => { $("pending").hidden = true; followUp = plan.steps.slice(1); act(plan.steps[0]); });
      box.appendChild(go);
    }
    $("pending-list").appendChild(box);
  }
  $("pending").hidden = false;
  return true;
}

// The odds as a small table (a column per outcome, a row for the attack and one for each
// unit a spillover may hit), built from the odds' own data, not from their words.
function oddsTable(spec) {
  const wrap = el("div", undefined, {class: "odds odds-table"});
  const table = el("table");
  const head = el("tr");
  for (const c of spec.columns) head.appendChild(el("th", c));
  table.appendChild(head);
  for (const row of spec.rows) {
    const tr = el("tr");
    row.forEach((cell, i) => tr.appendChild(el(i ? "td" : "th", cell)));
    table.appendChild(tr);
  }
  wrap.appendChild(table);
  for (const note of spec.notes) wrap.appendChild(el("div", note));
  return wrap;
}

async function propose(texts) {
  await explain(texts);
  $("pending-list").innerHTML = "";
  for (const text of texts) {
    const n = notes[text] || {};
    const box = el("div");
    box.appendChild(el("div", text, {class: "action-text"}));
    if (n.cost) box.appendChild(el("div", `Cost: ${n.cost}`));
    if (n.table) box.appendChild(oddsTable(n.table));
    if (n.odds) box.appendChild(el("div", n.odds, {class: "odds"}));
    if (n.refusal) box.appendChild(el("div", n.refusal, {class: "error"}));
    const go = el("button", "Do it", {type: "button", "data-action": text});
    go.disabled = Boolean(n.refusal) || !myTurn();
    go.addEventListener("click", () => { $("pending").hidden = true; act(text); });
    box.appendChild(go);
    $("pending-list").appendChild(box);
  }
  $("pending").hidden = false;
}

async function pickForMeasure(event) {
  const piece = event.target.closest("[data-unit],[data-figure]");
  const hex = event.target.closest("[data-hex]");
  let what = piece ? (piece.dataset.unit || piece.dataset.figure) : hex ? hex.dataset.hex : null;
  let where = null;  // where the ruler ends on the table, in inches
  if (piece && table) { const f = figureOf(what); where = f ? [f.x, f.y] : null; }
  if (!what && table) { where = inches(event); what = where.join(","); }
  if (!what) return;
  measuring.push({what, where});
  $("selected").hidden = false;
  $("info").textContent = `Measuring from ${measuring[0].what}` + (measuring.length > 1 ? ` to ${measuring[1].what}` : ": click the second");
  if (measuring.length < 2) return;
  const [a, b] = measuring;
  measuring = null;
  clearRuler();
  const r = await fetch(`/api/games/${gameId}/measure?a=${encodeURIComponent(a.what)}&b=${encodeURIComponent(b.what)}`, {headers: auth});
  const data = await r.json();
  $("info").textContent = r.ok ? data.answer : data.error;
  // Where the rules forbid measuring (a photon guess, a barrage marker set by hand), the
  // refusal is all there is: nothing is drawn on the table.
  if (r.ok && a.where && b.where) drawRuler(a.where, b.where, data.answer);
}

// -- marks of our own over the board: the ruler and a selected piece's reach ---------------
function clearRuler() { if (boardGroup()) marks().querySelectorAll(".ruler-mark").forEach((e) => e.remove()); }
function drawRuler(from, to, answer) {
  const lines = answer.split("\n");
  const blocked = lines.some((line) => /blocked/.test(line));
  const [x1, y1] = pixels(from), [x2, y2] = pixels(to);
  const g = svgEl("g", {class: "ruler-mark", "data-blocked": String(blocked)});
  g.appendChild(svgEl("line", {x1, y1, x2, y2, class: "ruler" + (blocked ? " blocked" : "")}));
  const distance = (lines[0].split(": ")[1] || lines[0]).split(" ")[0];
  const label = `${distance}${blocked ? ", sight blocked" : ""}`;
  g.appendChild(svgEl("text", {x: (x1 + x2) / 2 + 6, y: (y1 + y2) / 2 - 6, class: "ruler-label"}, label));
  marks().appendChild(g);
}
async function drawReach(id) {
  if (!boardGroup()) return;
  marks().querySelectorAll(".reach-mark").forEach((e) => e.remove());
  if (!table || !token || !myTurn() || !canMove(id)) return;
  const r = await fetch(`/api/games/${gameId}/reach?piece=${encodeURIComponent(id)}`, {headers: auth});
  if (!r.ok) return;
  const {reach} = await r.json();
  if (!reach || selected !== id) return;
  const [cx, cy] = pixels(reach.at);
  const g = svgEl("g", {class: "reach-mark", "data-figure": id, "data-range": reach.range});
  g.appendChild(svgEl("circle", {cx, cy, r: reach.range * table.scale, class: "reach"}));
  g.appendChild(svgEl("text", {x: cx + 6, y: cy - reach.range * table.scale - 4, class: "ruler-label"}, reach.label));
  marks().appendChild(g);
}

// What a click on ``target`` is about: a piece (its element) and the hex it is in or on.
function pick(target) {
  const piece = target ? target.closest("[data-unit],[data-figure]") : null;
  const hex = target ? (target.closest("polygon[data-hex]") ||
    (piece ? null : target.closest("[data-hex]"))) : null;
  return {piece, hex, label: hex ? hex.dataset.hex : piece ? piece.dataset.hex || null : null};
}
let suppressClick = false;  // the click that ends a held finger's preview
async function onBoardClick(event) {
  if (suppressClick) { suppressClick = false; return; }
  if (measuring !== null) { await pickForMeasure(event); return; }
  if (!drawing && table && typingPoints) {  // a point for the typed action (a barrage, a split)
    const [x, y] = inches(event);
    $("typed").value = `${$("typed").value.trimEnd()} ${x},${y}`.trim();
    return;
  }
  const {piece, hex} = pick(event.target);
  const all = parsed();
  if (piece) {
    const id = piece.dataset.unit || piece.dataset.figure;
    if (selected !== null && id !== selected) {
      const against = all.filter((a) => a.subject === selected && a.targets.includes(id));
      if (against.length) { await propose(against.map((a) => a.text)); return; }
      if (myTurn() && piece.dataset.side !== state.you && await offerPlans(selected, id)) return;
    }
    if (drawing && drawing.figure === id && !drawing.path.length) return;
    selected = id;
    $("pending").hidden = true;
    if (table && myTurn() && canMove(id)) startDrawing(id); else stopDrawing();
    drawReach(id);
    $("arcs").hidden = !(table && state.you && piece.dataset.side === state.you);
    $("arcs").textContent = arcsOf === id ? "Hide its arcs of fire" : "Show its arcs of fire";
    await info(id);
    await highlight();
    return;
  }
  if (table && drawing && await onTableClick(event)) return;
  if (hex) {
    const label = hex.dataset.hex;
    if (selected !== null) {
      const there = all.filter((a) => a.subject === selected && a.targets.includes(label));
      if (there.length) {
        clearMarks(); await highlight();
        $("board").querySelector(`polygon[data-hex="${CSS.escape(label)}"]`)?.classList.add("chosen");
        await propose(there.map((a) => a.text));
        return;
      }
    }
    selected = null;
    $("pending").hidden = true;
    await highlight();
    $("selected").hidden = false;
    await info(label);
  }
}

function drawSealed() {
  const decision = (state.view || {}).decision || {};
  const mine = state.view.my_sealed_choice || state.view.my_held_choice;
  $("sealed").hidden = !(state.you && (decision.kind === "sealed" || mine));
  $("my-choice").innerHTML = "";
  if (mine) {
    $("my-choice").appendChild(el("div", `Your choice: ${mine}`));
    const back = el("button", "Withdraw it (while the rules allow)", {type: "button"});
    back.addEventListener("click", () => $("undo").click());
    $("my-choice").appendChild(back);
  }
}

function formText() {
  // The ruleset's template with each {key} replaced by its field's value: the page
  // knows no rule, the rules judge the text as any typed action.
  let text = state.form.template;
  for (const input of $("form-fields").querySelectorAll("[data-key]")) {
    text = text.split(`{${input.dataset.key}}`).join(input.value.trim());
  }
  return text;
}

function drawForm() {
  const form = myTurn() ? state.form : null;
  $("choice-form").hidden = !form;
  const drawn = $("choice-form").dataset.version;
  if (form && drawn === String(state.version)) return;  // keep what the player typed
  $("form-fields").innerHTML = "";
  $("choice-form").dataset.version = form ? String(state.version) : "";
  if (!form) return;
  $("form-title").textContent = form.title;
  let group = null, box = null;
  for (const f of form.fields) {
    if (f.group !== group || !box) {
      group = f.group;
      box = el("fieldset");
      box.appendChild(el("legend", group || ""));
      $("form-fields").appendChild(box);
    }
    const label = el("label", `${f.label} `);
    let input;
    if (f.kind === "choice") {
      input = el("select");
      for (const o of f.options) input.appendChild(el("option", o, {value: o}));
    } else {
      input = el("input", undefined, {type: f.kind === "number" ? "number" : "text"});
      for (const k of ["min", "max", "step"]) if (f[k] !== undefined) input.setAttribute(k, f[k]);
    }
    input.value = String(f.value);
    input.dataset.key = f.key;
    input.setAttribute("aria-label", `${group || ""} ${f.label}`);
    label.appendChild(input);
    box.appendChild(label);
  }
}

$("choice-form").addEventListener("submit", (event) => {
  event.preventDefault();
  propose([formText()]);
});

function drawChoices() {
  drawSealed();
  drawForm();
  $("choices").innerHTML = "";
  if (!myTurn()) return;
  const loose = parsed().filter((a) => a.subject === null);
  for (const a of loose) {
    const b = el("button", a.text, {type: "button"});
    b.addEventListener("click", () => propose([a.text]));
    $("choices").appendChild(b);
  }
  const subjects = new Set(parsed().map((a) => a.subject).filter(Boolean));
  if (subjects.size) $("choices").appendChild(el("p", `Click one of ${[...subjects].join(", ")} on the board to see what it can do.`));
}

function drawAll() {
  const wanted = $("filter").value.toLowerCase().split(/\s+/).filter(Boolean);
  $("all-actions").innerHTML = "";
  const shown = state.legal_actions.filter((a) => wanted.every((w) => a.toLowerCase().includes(w)));
  for (const a of shown.slice(0, 150)) {
    const b = el("button", a, {type: "button"});
    b.addEventListener("click", () => propose([a]));
    $("all-actions").appendChild(b);
  }
  if (shown.length > 150) $("all-actions").appendChild(el("p", `${shown.length - 150} more: filter to find them.`));
}

// Who the game waits for, and whether that is a bot thinking.
const thinkTime = {};  // bot seat -> its expected seconds a decision here (measured)
async function learnBots(s) {
  for (const [side, player] of Object.entries(s.players)) {
    if (player === "human" || side in thinkTime) continue;
    thinkTime[side] = null;
    const r = await fetch(`/api/bots/estimate?ruleset=${encodeURIComponent(s.ruleset)}&bot=${encodeURIComponent(player)}`);
    if (r.ok) thinkTime[side] = (await r.json()).seconds;
  }
}
function waitingFor(s) {
  return s.waiting_for.map((side) => {
    const player = s.players[side] || "human";
    if (player === "human") return side;
    const t = thinkTime[side];
    const usual = t && t >= 0.05 ? `, usually about ${t < 1 ? t.toFixed(1) : Math.round(t)} s a decision` : "";
    return `${side} (${player.split(":")[0]} is thinking${usual}…)`;
  }).join(", ");
}

// The tab's title says when it is your move; a notification too, if you asked for them.
let wasMyTurn = false;
function tellTurn(s) {
  const mine = myTurn();
  document.title = `${mine ? "● Your move · " : s.outcome ? "Game over · " : ""}${s.scenario.title} · warbench`;
  if (mine && !wasMyTurn && document.hidden && window.Notification && Notification.permission === "granted") {
    new Notification(`warbench: your move in ${s.scenario.title}`, {body: `Turn ${s.turn}`, tag: gameId});
  }
  wasMyTurn = mine;
  $("notify").hidden = !s.you || !window.Notification || Notification.permission !== "default";
}

function show(s) {
  if (!state) learnBots(s);
  // Never a state older than one shown: the reply to an action may arrive after the live
  // updates of what followed it (a bot's answer), and must not roll the page back.
  if (state && s.revision < state.revision) return;
  const changed = !state || s.revision !== state.revision || s.version !== state.version;
  state = s;
  document.body.dataset.version = String(s.version);  // for tests and tools: what is shown
  if (changed) { notes = {}; stopDrawing(); }
  $("title").textContent = s.scenario.title;
  const who = s.you ? `You play ${s.you}.` : "You are watching.";
  let status;
  if (s.outcome) status = `Game over: ${resultLine(s.outcome, s.sides)}.`;
  else if (myTurn()) status = `Turn ${s.turn}: your move.`;
  else status = `Turn ${s.turn}: waiting for ${waitingFor(s)}.`;
  $("status").textContent = `${who} ${status}`;
  $("score").textContent = s.scores && !s.outcome ? `Score: ${scoreLine(s.scores, s.sides)}` : "";
  // Only the seat asked reads the prompt: the others see whom the game waits for.
  const prompt = s.view.decision && s.view.decision.prompt ? s.view.decision.prompt : "";
  $("prompt").textContent = myTurn() ? prompt : "";
  tellTurn(s);
  $("chat-form").hidden = !s.you;  // spectators read the chat; seats speak
  if (s.you && token) rememberSeat(gameId, token, s.you, s.scenario.title);
  $("goal").innerHTML = "";
  for (const line of s.goal || []) $("goal").appendChild(el("div", line));
  $("events").innerHTML = "";
  for (const e of s.events.slice(-80).reverse()) $("events").appendChild(el("p", e.text));
  $("more").hidden = !myTurn();
  $("undo").hidden = !s.you || Boolean(s.outcome);
  $("measure").hidden = !s.you;
  $("replay").hidden = !s.outcome;
  drawChoices();
  drawAll();
  if (changed) drawBoard(); else highlight();
  updateBar();
}

$("cancel").addEventListener("click", () => { $("pending").hidden = true; highlight(); });
$("arcs").addEventListener("click", async () => {
  arcsOf = arcsOf === selected ? null : selected;
  $("arcs").textContent = arcsOf ? "Hide its arcs of fire" : "Show its arcs of fire";
  await drawBoard();
});
$("measure").addEventListener("click", () => {
  measuring = [];
  stopDrawing();
  $("selected").hidden = false;
  $("info").textContent = "Measuring: click the first thing or point on the board.";
});
$("finish").addEventListener("click", () => {
  if (!drawing) return;
  drawing.finished = true;
  $("draw-help").textContent = "Point where it should face and click the table (or propose it as it is).";
});
$("propose-move").addEventListener("click", async () => {
  if (!drawing) return;
  const text = moveText(null);
  showVerdict(text, await judge(text));
  await propose([text]);
});
$("clear-move").addEventListener("click", () => { if (drawing) startDrawing(drawing.figure); });
$("filter").addEventListener("input", drawAll);
$("free").addEventListener("submit", (e) => { e.preventDefault(); typingPoints = false; propose([$("typed").value.trim()]); $("typed").value = ""; });
$("typed").addEventListener("focus", () => { typingPoints = true; stopDrawing(); });
$("undo").addEventListener("click", async () => {
  $("problem").textContent = "";
  const [r, data] = await call("POST", `/api/games/${gameId}/undo`, {version: state.version});
  if (r.ok) show(data); else { $("problem").textContent = data.error; if (data.state) show(data.state); }
});
async function download(path, name) {
  const r = await fetch(path, {headers: auth});
  if (!r.ok) { $("problem").textContent = (await r.json()).error; return; }
  const a = el("a", "", {href: URL.createObjectURL(await r.blob()), download: name});
  document.body.appendChild(a); a.click(); a.remove();
}
$("png").addEventListener("click", (e) => { e.preventDefault(); download(`/api/games/${gameId}/board.png`, `${gameId}.png`); });
$("record").addEventListener("click", (e) => { e.preventDefault(); download(`/api/games/${gameId}/record`, `${gameId}.json`); });
$("replay").addEventListener("click", (e) => { e.preventDefault(); location.href = `/replay/${gameId}`; });

// -- zoom: the board fits the width; + and − enlarge it inside its scrolling frame ---------
let zoom = 1;
function setZoom(value) {
  zoom = Math.min(4, Math.max(1, value));
  $("zoom-level").textContent = `${Math.round(zoom * 100)}%`;
  fitBoard();
}
// At 100% the whole picture shows: as wide as its frame, and no taller than most of the
// window (a tall map on a laptop), whatever the screen.
function fitBoard() {
  const svg = $("board").querySelector("svg");
  const map = svg && svg.querySelector("g.board");
  if (!map) return;
  svg.style.width = `${$("board").clientWidth}px`;
  const frame = svg.getBoundingClientRect();
  const tall = (map.getBoundingClientRect().bottom - frame.top) / frame.width;  // the key may follow
  const room = Math.max(320, window.innerHeight * 0.85);
  const wide = Math.min($("board").clientWidth, room / tall);
  svg.style.width = `${Math.floor(wide * zoom)}px`;
}
window.addEventListener("resize", fitBoard);
$("zoom-in").addEventListener("click", () => setZoom(zoom * 1.5));
$("zoom-out").addEventListener("click", () => setZoom(zoom / 1.5));
$("zoom-fit").addEventListener("click", () => setZoom(1));

// On a phone the boxes of what to do next sit in a bar at the bottom of the screen; it
// folds away when there is nothing in it.
function updateBar() {
  const bar = $("actionbar");
  const busy = [...bar.children].some((c) => !c.hidden && (c.id !== "choices" || c.children.length));
  bar.classList.toggle("idle", !busy);
}
new MutationObserver(updateBar).observe($("actionbar"), {subtree: true, childList: true, attributes: true, attributeFilter: ["hidden"]});

// -- the game's chat: what the players say to each other (only text: textContent) ------
const chatSeen = new Set();
function addChat(lines) {
  for (const line of lines) {
    if (chatSeen.has(line.number)) continue;
    chatSeen.add(line.number);
    const p = el("p", undefined, {"data-number": line.number});
    p.appendChild(el("strong", `${line.side}: `));
    p.appendChild(document.createTextNode(line.text));
    $("chat-lines").appendChild(p);
  }
  $("chat-lines").scrollTop = $("chat-lines").scrollHeight;
}
async function loadChat() {
  const r = await fetch(`/api/games/${gameId}/chat`);
  if (r.ok) addChat(await r.json());
}
$("chat-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text) return;
  const [r, data] = await call("POST", `/api/games/${gameId}/chat`, {text});
  if (!r.ok) { $("problem").textContent = data.error; return; }
  $("chat-text").value = "";
  addChat([data]);
});
$("recent").checked = localStorage.getItem("warbench.recent") !== "off";
$("recent").addEventListener("change", () => {
  try { localStorage.setItem("warbench.recent", $("recent").checked ? "on" : "off"); } catch (e) { /* private mode */ }
  drawBoard();
});
$("notify").addEventListener("click", async () => {
  await Notification.requestPermission();
  $("notify").hidden = Notification.permission !== "default";
});

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${gameId}/live`);
  ws.onopen = () => ws.send(JSON.stringify(token ? {token} : {}));
  ws.onmessage = (m) => {
    const data = JSON.parse(m.data);
    if (data.chat) { addChat(data.chat); return; }
    if (data.error) $("problem").textContent = data.error;
    else if (!state || data.revision !== state.revision) show(data);
  };
  ws.onclose = () => setTimeout(connect, 2000);
}
connect();
loadChat();
