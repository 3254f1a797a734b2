"use strict";
// Draws the steps of fcsim.viewer.steps (embedded as JSON above): no rule of the game is
// worked out here, every card, count and total is read from the step being shown.
(() => {
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const steps = data.steps;
  const players = data.seats.length;
  const stepIndex = new Map(steps.map((step, i) => [step.id, i]));
  const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b"];
  const SUIT_SHOWN = { X: "★" };
  const $ = (id) => document.getElementById(id);
  let current = 0;
  let viewer = null; // null: every hand; a seat number: what that seat saw
  let timer = null;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function cardEl(card, step, extra) {
    const node = el("span", "card");
    node.dataset.card = card;
    if (card === "JK") {
      node.classList.add("joker");
      node.textContent = "JK";
    } else {
      const suit = card.slice(-1);
      node.classList.add("s-" + suit);
      node.textContent = card.slice(0, -1) + (SUIT_SHOWN[suit] || suit);
    }
    if (data.wild_cards[step.wild_rank].includes(card)) {
      node.classList.add("wild");
      node.title = "wild";
    }
    if (extra) node.classList.add(extra);
    return node;
  }

  function backEl() {
    const node = el("span", "card back", "?");
    node.dataset.card = "?";
    node.title = "not seen";
    return node;
  }

  function seatName(seat) {
    return `seat ${seat} (${data.seats[seat]})`;
  }

  function rankName(step) {
    return data.wild_cards[step.wild_rank][0].slice(0, -1);
  }

  // What the page may show of `seat`'s hand: the hand itself, or (another seat's view)
  // only the cards it was seen taking from the pile: fcsim.viewer.steps.seat_view.
  function handShown(step, seat) {
    return viewer === null || viewer === seat ? step.hands[seat] : null;
  }

  function drawnShown(step) {
    if (viewer === null || viewer === step.seat) return step.drawn;
    return step.action.drawn;
  }

  function renderSeat(step, seat) {
    const box = el("div", "seat");
    box.id = "seat-" + seat;
    if (step.seat === seat && step.event !== "end") box.classList.add("acting");
    if (viewer === seat) box.classList.add("viewer");
    const head = el("h3");
    head.append(el("span", "", `Seat ${seat}`), el("span", "name", data.seats[seat]));
    if (seat === step.dealer) head.append(el("span", "note", "dealer"));
    head.append(el("span", "total", `total ${step.totals[seat]}`));
    box.append(head);
    const hand = el("div", "cards hand");
    const shown = step.shown[seat];
    let note = "";
    if (shown) {
      hand.dataset.state = "laid-down";
      for (const meld of shown.melds) {
        const group = el("span", "meld");
        for (const card of meld) group.append(cardEl(card, step));
        hand.append(group);
      }
      for (const card of shown.deadwood) hand.append(cardEl(card, step, "deadwood"));
      note = shown.went_out ? "went out" : `laid down: ${shown.penalty} points left over`;
    } else {
      const cards = handShown(step, seat);
      if (cards) {
        hand.dataset.state = "hand";
        const drawn = step.seat === seat && step.event === "turn" ? drawnShown(step) : null;
        let marked = false;
        for (const card of cards) {
          const isNew = !marked && card === drawn && card !== step.action.discard;
          marked = marked || isNew;
          hand.append(cardEl(card, step, isNew ? "new" : ""));
        }
      } else {
        hand.dataset.state = "hidden";
        for (const card of step.known[seat]) hand.append(cardEl(card, step, "known"));
        for (let i = step.known[seat].length; i < step.sizes[seat]; i++) hand.append(backEl());
        note = step.known[seat].length ? "outlined: taken from the pile, still held" : "";
      }
    }
    box.append(hand);
    if (note) box.append(el("div", "note", note));
    return box;
  }

  function caption(step) {
    const a = step.action;
    const who = step.seat === null ? "" : seatName(step.seat);
    switch (step.event) {
      case "deal":
        return `Round ${step.round}: ${step.sizes[0]} cards each, ${rankName(step)}s wild; ` +
          `seat ${step.dealer} deals, upcard ${a.upcard}.`;
      case "turn": {
        const drawn = drawnShown(step);
        const from = a.source === "discard" ? "the discard pile" : "the stock";
        const take = drawn ? `draws ${drawn} from ${from}` : `draws from ${from}`;
        let text = `Round ${step.round}, turn ${step.turn}: ${who} ${take}, discards ${a.discard}`;
        if (a.out && a.last_turn) return text + " and melds every card (last turn).";
        if (a.out) return text + " and goes out!";
        if (a.last_turn) text += " (last turn)";
        return text + ".";
      }
      case "reshuffle":
        return `The stock is empty: the discard pile under its top card is shuffled into ` +
          `a new stock of ${a.stock_size} cards.`;
      case "capped":
        return `Turn cap reached: round ${step.round} stops here and is flagged capped.`;
      case "score":
        return a.went_out ? `${who} went out: ${a.penalty} points, total ${a.total}.`
          : `${who} scores ${a.penalty} points (natural ${a.penalty - a.wild_pts - a.joker_pts}` +
            `, wild ${a.wild_pts}, jokers ${a.joker_pts}), total ${a.total}.`;
      case "end": {
        const winners = a.winners.map(seatName).join(" and ");
        return `Game over. Totals ${a.totals.join(", ")}; ${winners} ` +
          (a.winners.length > 1 ? "share the win." : "wins.");
      }
      default:
        return step.event;
    }
  }

  function renderScores(step) {
    $("score-round").textContent = step.round;
    const body = $("score-rows");
    body.replaceChildren();
    step.shown.forEach((shown, seat) => {
      if (!shown) return;
      const row = el("tr");
      row.dataset.seat = seat;
      const melds = el("td");
      for (const meld of shown.melds) {
        const group = el("span", "meld");
        for (const card of meld) group.append(cardEl(card, step));
        melds.append(group);
      }
      const left = el("td");
      for (const card of shown.deadwood) left.append(cardEl(card, step));
      const natural = shown.penalty - shown.wild_pts - shown.joker_pts;
      row.append(el("td", "", seatName(seat) + (shown.went_out ? " — out" : "")), melds, left,
        el("td", "num points", String(shown.penalty)),
        el("td", "num", `${natural} / ${shown.wild_pts} / ${shown.joker_pts}`),
        el("td", "num", String(step.totals[seat])));
      body.append(row);
    });
    $("score-table").hidden = body.childElementCount === 0;
    $("no-scores").hidden = body.childElementCount > 0;
  }

  const SVG = "http://www.w3.org/2000/svg";
  function svgEl(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const chart = { width: 640, height: 230, left: 44, right: 130, top: 10, bottom: 28 };
  function chartX(k) {
    const span = Math.max(1, data.chart.totals.length - 1);
    return chart.left + (k * (chart.width - chart.left - chart.right)) / span;
  }
  function buildChart() {
    const totals = data.chart.totals;
    const highest = Math.max(1, ...totals.flat());
    const tick = highest > 200 ? 100 : 50;
    const top = Math.ceil(highest / tick) * tick;
    const y = (v) => chart.top + (1 - v / top) * (chart.height - chart.top - chart.bottom);
    const svg = svgEl("svg", { viewBox: `0 0 ${chart.width} ${chart.height}`,
      width: chart.width, height: chart.height, role: "img",
      "aria-label": "running totals by round" });
    for (let v = 0; v <= top; v += tick) {
      svg.append(svgEl("line", { x1: chart.left, x2: chart.width - chart.right, y1: y(v),
        y2: y(v), stroke: "#ddd" }));
      svg.append(svgEl("text", { x: chart.left - 6, y: y(v) + 4, "text-anchor": "end" },
        String(Math.round(v))));
    }
    totals.forEach((_, k) => {
      const label = k === 0 ? "start" : "R" + data.chart.rounds[k - 1];
      svg.append(svgEl("text", { x: chartX(k), y: chart.height - 8, "text-anchor": "middle" },
        label));
    });
    svg.append(svgEl("line", { id: "chart-marker", x1: 0, x2: 0, y1: chart.top,
      y2: chart.height - chart.bottom, stroke: "#2b5d8a", "stroke-dasharray": "4 3" }));
    for (let seat = 0; seat < players; seat++) {
      const color = COLORS[seat % COLORS.length];
      const points = totals.map((row, k) => `${chartX(k)},${y(row[seat])}`).join(" ");
      svg.append(svgEl("polyline", { points, fill: "none", stroke: color, "stroke-width": 2,
        "data-seat": seat }));
      totals.forEach((row, k) => svg.append(svgEl("circle", { cx: chartX(k), cy: y(row[seat]),
        r: 2.5, fill: color })));
    }
    // End labels, top to bottom, pushed apart where lines end close together.
    const ends = totals[totals.length - 1].map((total, seat) => ({ seat, total, at: y(total) }))
      .sort((a, b) => a.at - b.at);
    let below = -Infinity;
    for (const end of ends) {
      end.at = Math.max(end.at, below + 13);
      below = end.at;
      svg.append(svgEl("text", { x: chart.width - chart.right + 8, y: end.at + 4,
        fill: COLORS[end.seat % COLORS.length] }, `${seatName(end.seat)} ${end.total}`));
    }
    $("chart").append(svg);
  }

  function moveChartMarker(step) {
    const k = data.chart.rounds.indexOf(step.round);
    const done = step.event === "score" || step.event === "end" ? 1 : 0;
    const x = chartX(Math.max(0, k) + done);
    const marker = $("chart-marker");
    marker.setAttribute("x1", x);
    marker.setAttribute("x2", x);
  }

  function renderViews() {
    for (const button of $("views").querySelectorAll("button")) {
      const seat = button.dataset.seat === "" ? null : Number(button.dataset.seat);
      button.setAttribute("aria-pressed", String(seat === viewer));
    }
  }

  function render() {
    const step = steps[current];
    $("slider").value = current;
    $("position").textContent = `step ${current + 1} of ${steps.length}`;
    $("step-link").href = "#" + step.id;
    $("step-link").textContent = "#" + step.id;
    $("caption").textContent = caption(step);
    $("seats").replaceChildren(...data.seats.map((_, seat) => renderSeat(step, seat)));
    $("pile").replaceChildren(...step.pile.map((card) => cardEl(card, step)));
    $("stock").textContent = step.stock;
    $("wilds").textContent = `${rankName(step)}s and jokers`;
    renderScores(step);
    moveChartMarker(step);
    renderViews();
    document.body.dataset.step = step.id;
    document.body.dataset.viewer = viewer === null ? "all" : String(viewer);
  }

  // The address follows the step, but at most every HASH_EVERY_MS: Chromium ignores
  // history updates made faster than that for long (holding an arrow key, say).
  const HASH_EVERY_MS = 100;
  let hashTimer = null;
  let hashWritten = 0;
  function writeHash() {
    hashWritten = Date.now();
    const id = steps[current].id;
    if (decodeURIComponent(location.hash.slice(1)) === id) return;
    try {
      history.replaceState(null, "", "#" + id);
    } catch (err) {
      location.replace("#" + id);
    }
  }

  function setHash() {
    clearTimeout(hashTimer);
    const wait = hashWritten + HASH_EVERY_MS - Date.now();
    if (wait <= 0) writeHash();
    else hashTimer = setTimeout(writeHash, wait);
  }

  function go(index, updateHash = true) {
    current = Math.min(steps.length - 1, Math.max(0, index));
    render();
    if (updateHash) setHash();
  }

  // `#round-3-turn-7` opens that step; `#round-3` the deal of round 3.
  function indexOfHash() {
    const id = decodeURIComponent(location.hash.slice(1));
    if (stepIndex.has(id)) return stepIndex.get(id);
    if (stepIndex.has(id + "-deal")) return stepIndex.get(id + "-deal");
    return null;
  }

  function setPlaying(on) {
    clearInterval(timer);
    timer = null;
    if (on) {
      if (current >= steps.length - 1) go(0);
      timer = setInterval(() => {
        if (current >= steps.length - 1) setPlaying(false);
        else go(current + 1);
      }, Number($("speed").value));
    }
    $("play").textContent = timer ? "⏸ pause" : "▶ play";
    $("play").setAttribute("aria-pressed", String(timer !== null));
  }

  function setViewer(seat) {
    viewer = seat;
    render();
  }

  function buildViews() {
    const views = $("views");
    views.append(el("span", "", "show:"));
    const all = el("button", "", "every hand");
    all.type = "button";
    all.dataset.seat = "";
    all.addEventListener("click", () => setViewer(null));
    views.append(all);
    for (let seat = 0; seat < players; seat++) {
      const button = el("button", "", `what seat ${seat} saw`);
      button.type = "button";
      button.dataset.seat = seat;
      button.title = `only seat ${seat}'s hand and what it could know of the others`;
      button.addEventListener("click", () => setViewer(viewer === seat ? null : seat));
      views.append(button);
    }
  }

  const KEYS = {
    ArrowRight: () => go(current + 1),
    ArrowLeft: () => go(current - 1),
    Home: () => go(0),
    End: () => go(steps.length - 1),
    " ": () => setPlaying(timer === null),
  };

  function start() {
    $("slider").max = steps.length - 1;
    buildViews();
    buildChart();
    $("slider").addEventListener("input", (event) => go(Number(event.target.value)));
    $("first").addEventListener("click", () => go(0));
    $("prev").addEventListener("click", () => go(current - 1));
    $("next").addEventListener("click", () => go(current + 1));
    $("last").addEventListener("click", () => go(steps.length - 1));
    $("play").addEventListener("click", () => setPlaying(timer === null));
    $("speed").addEventListener("change", () => { if (timer) setPlaying(true); });
    window.addEventListener("keydown", (event) => {
      const action = KEYS[event.key];
      if (!action || event.target.tagName === "SELECT" || event.altKey || event.ctrlKey ||
          event.metaKey) return;
      event.preventDefault();
      action();
    }, true);
    window.addEventListener("hashchange", () => {
      const index = indexOfHash();
      if (index !== null && index !== current) go(index, false);
    });
    const opened = indexOfHash();
    go(opened === null ? 0 : opened, opened === null);
  }

  start();
})();
