// A web table: draws each message of the seat's WebSocket and sends the seat's answers.
// Everything from the server is written with textContent: game texts are never read as HTML.
"use strict";
(function () {
  const parts = location.pathname.split("/");  // /play/TABLE/TOKEN
  const table = parts[2], token = parts[3];
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const $ = id => document.getElementById(id);
  let socket = null, last = null, retry = 500;
  let glossary = {cards: {}, things: {}};
  const SVG = "http://www.w3.org/2000/svg";

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function card(c) {
    if (c.hidden) {
      const e = el("span", "card hidden", "?");
      e.title = "a card you do not know";
      return e;
    }
    const e = el("span", "card" + (c.face_up === false ? " face-down" : ""));
    e.appendChild(el("span", "card-name", c.name));
    const known = glossary.cards[c.name];
    if (known && known.summary) e.appendChild(el("span", "card-summary", known.summary));
    if (c.marks) e.appendChild(el("span", "card-marks", c.marks.join(", ")));
    e.title = known ? known.text : c.name;
    return e;
  }

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = String(text);
    return e;
  }

  function hue(text) {  // a steady colour for a token's text
    let h = 0;
    for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) % 360;
    return h;
  }

  // A board of the game's `table` as an SVG map: a cell per member, its name, its values as lines, and the
  // values without a label (a Djinn) or yes-or-no values (the Caravan) as coloured tokens.
  function mapOf(b) {
    const W = 280, H = 150, G = 8;
    const cols = Math.max(...b.rows.map(r => r.length));
    const root = svg("svg", {class: "map", viewBox: `0 0 ${cols * (W + G) + G} ${b.rows.length * (H + G) + G}`,
                             role: "img"});
    if (b.doc) root.appendChild(svg("title", {}, b.doc));
    b.rows.forEach((row, y) => row.forEach((cell, x) => {
      const g = svg("g", {class: "area", transform: `translate(${G + x * (W + G)},${G + y * (H + G)})`});
      g.dataset.area = cell.cell;
      g.appendChild(svg("title", {}, glossary.things[cell.cell] || cell.cell));
      g.appendChild(svg("rect", {width: W, height: H, rx: 10, class: "area-box"}));
      g.appendChild(svg("text", {x: 10, y: 22, class: "area-name"}, cell.cell));
      let line = 0, tx = 10;
      for (const it of cell.items || []) {
        if (!it.label || it.value === it.label) {
          const w = 12 + 7.2 * it.value.length;
          if (tx + w > W - 6) tx = 10;
          const t = svg("g", {class: "token", transform: `translate(${tx},${H - 30})`});
          t.appendChild(svg("rect", {width: w, height: 22, rx: 11, fill: `hsl(${hue(it.value)},65%,45%)`}));
          t.appendChild(svg("text", {x: 6, y: 15}, it.value));
          g.appendChild(t);
          tx += w + 6;
        } else {
          g.appendChild(svg("text", {x: 10, y: 44 + 17 * line++, class: "area-item"}, it.label + ": " + it.value));
        }
      }
      for (const z of cell.zones || []) {
        g.appendChild(svg("text", {x: 10, y: 44 + 17 * line++, class: "area-item"},
                          z.zone + ": " + z.cards.map(c => c.hidden ? "?" : c.name).join(", ")));
      }
      root.appendChild(g);
    }));
    return root;
  }

  function zone(z) {
    const box = el("div", "zone");
    box.appendChild(el("div", "zone-name", z.zone + " (" + z.cards.length + ")"));
    const cards = el("div", "cards");
    const rows = z.rows_of ? Number(z.rows_of) : 0;
    z.cards.forEach((c, i) => {
      if (rows > 0 && i > 0 && i % rows === 0) cards.appendChild(el("br"));
      cards.appendChild(card(c));
    });
    box.appendChild(cards);
    if (z.beside && z.beside.length) box.appendChild(el("div", "beside", z.beside.join(" · ")));
    return box;
  }

  function items(list, into) {
    for (const it of list || []) {
      const row = el("div", "item");
      if (it.label && it.value !== it.label) row.appendChild(el("span", "item-label", it.label));
      row.appendChild(el("span", "item-value" + (it.value === it.label ? " badge" : ""), it.value));
      into.appendChild(row);
    }
  }

  function shown(part, into) {
    items(part.items, into);
    for (const z of part.zones || []) into.appendChild(zone(z));
  }

  function drawTable(msg) {
    const board = $("board");
    board.replaceChildren();
    const view = msg.view, t = view.table;
    if (!t) {  // a game without a table declaration: every zone as the view gives it
      const box = el("section", "shared");
      for (const z of view.zones) box.appendChild(zone(z));
      board.appendChild(box);
      return;
    }
    for (const b of t.boards) board.appendChild(mapOf(b));
    const panels = el("section", "panels");
    for (const p of t.panels) {
      for (const pl of p.players) {
        const box = el("div", "panel" + (pl.player === msg.seat ? " mine" : ""));
        box.appendChild(el("h3", null, "Player " + (pl.player + 1) + (pl.player === msg.seat ? " (you)" : "")
                           + " — " + msg.seats[pl.player]));
        shown(pl, box);
        panels.appendChild(box);
      }
    }
    board.appendChild(panels);
    if (t.shared) {
      const box = el("section", "shared");
      shown(t.shared, box);
      board.appendChild(box);
    }
    if (t.score) {
      const box = el("section", "score");
      box.appendChild(el("h3", null, "Score"));
      for (const s of t.score) {
        const points = view.over ? view.scores[s.player] : s.known + (s.complete ? "" : " + ?");
        box.appendChild(el("div", "item", "Player " + (s.player + 1) + ": " + points));
      }
      board.appendChild(box);
    }
  }

  function drawDecision(msg) {
    const prompt = $("prompt"), options = $("options");
    options.replaceChildren();
    $("notice").textContent = msg.broken || "";
    const d = msg.view ? msg.view.decision : null;
    if (msg.view && msg.view.over) {
      const r = msg.view.winners || [];
      const scores = msg.view.scores.map((s, i) => "player " + (i + 1) + " " + s).join(", ");
      prompt.textContent = "Game over. Scores: " + scores + ". "
        + (r.length ? "Winner: " + r.map(p => "player " + (p + 1)).join(" and ") + "." : "Nobody wins.");
      const dl = $("download");
      dl.href = "/api/tables/" + table + "/" + token + "/game.json";
      dl.hidden = false;
      $("replay-open").hidden = false;
      return;
    }
    if (!d) { prompt.textContent = msg.broken ? "" : "…"; return; }
    const waiting = d.waiting_for.map(p => "player " + (p + 1)).join(", ");
    if (msg.options) {
      prompt.textContent = d.prompt + (d.waiting_for.length > 1 ? " (also waiting for " + waiting + ")" : "");
      msg.options.forEach((text, i) => {
        const b = el("button", "option", text);
        b.title = d.options[i];
        b.dataset.label = d.options[i];
        b.addEventListener("click", () => act(msg.decision_number, i));
        options.appendChild(b);
      });
    } else {
      const mine = d.answered ? "You answered “" + d.answered + "”. " : "";
      prompt.textContent = mine + "Waiting for " + waiting + ".";
    }
  }

  function drawLog(msg) {
    const log = $("log");
    if (msg.log_from === 0) log.replaceChildren();
    msg.view.log.forEach((line, i) => {
      const li = el("li", null, line);
      li.dataset.line = String(msg.log_from + i + 1);
      li.title = "Why? Click to see the rules that wrote this line";
      li.addEventListener("click", () => askWhy(Number(li.dataset.line)));
      log.appendChild(li);
    });
    log.scrollTop = log.scrollHeight;
  }

  // Why did that happen: the chain of rules that wrote a line of the log, as this seat may know it.
  function askWhy(line) {
    if (replaying || !socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({type: "why", line: line}));
  }
  function drawWhy(msg) {
    const box = $("why");
    box.replaceChildren(el("h3", null, "Why line " + msg.line + ": " + msg.text.replace(/^\d+\s+/, "")));
    const list = el("ol", "chain");
    for (const step of msg.chain) list.appendChild(el("li", null, step.replace(/^← /, "")));
    box.appendChild(list);
    box.hidden = false;
  }

  function draw(msg) {
    last = msg;
    drawDecision(msg);
    if (!msg.view) return;
    drawTable(msg);
    drawLog(msg);
    document.body.dataset.decision = msg.decision_number;
    document.body.dataset.over = msg.view.over ? "yes" : "no";
  }

  // Replaying a finished game: the table after each decision, as everyone may now see it.
  let replaying = false;
  async function showStep(k) {
    const r = await fetch("/api/tables/" + table + "/" + token + "/step/" + Math.max(0, k));
    if (!r.ok) return;
    const msg = await r.json();
    replaying = true;
    const slider = $("replay-slider");
    slider.max = msg.of; slider.value = msg.step;
    $("replay-step").textContent = "after " + msg.step + " of " + msg.of + " decisions" +
      (msg.next ? " — next: player " + (msg.next.player + 1) + ": " + msg.next.label : " — the end");
    document.body.dataset.step = msg.step;
    $("options").replaceChildren();
    $("prompt").textContent = "Replay";
    drawTable(msg);
    msg.log_from = 0;
    drawLog(msg);
  }
  function step(delta) { showStep(Number($("replay-slider").value) + delta); }
  $("replay-open").addEventListener("click", () => { $("replay").hidden = false; showStep(0); });
  $("replay-first").addEventListener("click", () => showStep(0));
  $("replay-prev").addEventListener("click", () => step(-1));
  $("replay-next").addEventListener("click", () => step(1));
  $("replay-last").addEventListener("click", () => showStep(Number($("replay-slider").max)));
  $("replay-slider").addEventListener("input", () => showStep(Number($("replay-slider").value)));

  function act(decision, option) {
    for (const b of $("options").querySelectorAll("button")) b.disabled = true;
    socket.send(JSON.stringify({type: "act", decision: decision, option: option}));
  }

  function connect() {
    socket = new WebSocket(scheme + "//" + location.host + "/ws/" + table + "/" + token);
    socket.onopen = () => { retry = 500; };
    socket.onmessage = ev => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "glossary") glossary = msg;
      else if (msg.type === "table" && !replaying) draw(msg);
      else if (msg.type === "why") drawWhy(msg);
      else if (msg.type === "refused") {
        $("notice").textContent = msg.reason;
        if (last) drawDecision(last);
        $("notice").textContent = msg.reason;
      }
    };
    socket.onclose = () => {
      $("prompt").textContent = "Connection lost; reconnecting…";
      $("log").replaceChildren();
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
  }
  connect();
})();
