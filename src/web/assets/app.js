// The audience's page: shows /state.json at once, then follows /events
// (Server-Sent Events, JSON; see docs/web.md) and draws every board with
// chessground, the engines' evaluations (panels, graphs, PV arrows), and a
// tournament's standings and crosstable. Every string that came from a
// client (names, reasons, moves) goes in as text (textContent, SVG
// attributes set one by one), never as markup.
import { Chessground } from '/chessground/chessground.min.js';

const boards = new Map(); // board number -> { card, cg, data, t0 }
let focused = null; // the board shown large, when there are several
let source = null;
let streamed = false; // a state came on the stream (newer than any fetched)
const SVG = 'http://www.w3.org/2000/svg';
// The PV arrows on the boards: on unless the viewer switched them off.
let arrowsOn = readArrowsSetting();

function readArrowsSetting() {
  try {
    return localStorage.getItem('argus.arrows') !== 'off';
  } catch (err) {
    return true;
  }
}

const $ = (sel, root = document) => root.querySelector(sel);

function setLink(text, cls) {
  const el = $('#link');
  el.textContent = text;
  el.className = 'link ' + cls;
}

function connect() {
  source = new EventSource('/events');
  source.addEventListener('open', () => setLink('live', 'live'));
  source.addEventListener('state', (e) => {
    let env;
    try {
      env = JSON.parse(e.data);
    } catch (err) {
      return;
    }
    streamed = true;
    render(env);
    setLink('live', 'live');
  });
  source.addEventListener('error', () => {
    setLink('reconnecting…', 'lost');
    // The browser retries by itself unless the server refused the stream.
    if (source.readyState === EventSource.CLOSED) {
      source.close();
      setTimeout(connect, 3000);
    }
  });
}

// The state now, so that the boards show before the stream's first event;
// dropped if the stream has already brought one.
async function fetchState() {
  try {
    const r = await fetch('/state.json', { cache: 'no-store' });
    if (!r.ok) return;
    const env = await r.json();
    if (!streamed) render(env);
  } catch (err) {
    // The stream brings the state when it can.
  }
}

function render(env) {
  const state = env.state;
  const t0 = performance.now() - (env.age_ms || 0);
  $('#event').textContent = state.event || 'argus';
  document.title = (state.event || 'argus') + ': live';
  const waiting = state.waiting || [];
  $('#waiting').hidden = waiting.length === 0;
  $('#waiting').textContent = waiting.join('; ');
  const seen = new Set();
  for (const b of state.boards) {
    seen.add(b.board);
    let entry = boards.get(b.board);
    if (!entry) entry = addBoard(b);
    entry.data = b;
    entry.t0 = t0;
    drawBoard(entry);
  }
  for (const [n, entry] of boards) {
    if (!seen.has(n)) {
      entry.cg.destroy();
      entry.card.remove();
      boards.delete(n);
    }
  }
  document.body.classList.toggle('single', boards.size === 1);
  if (focused !== null && !boards.has(focused)) focus(null);
  // In the layout the classes just chose: the latest moves in view.
  for (const entry of boards.values()) showLatest(entry.card);
  drawSchedule(state.rounds || [], state.current_round);
  drawBracket(state.knockout);
  drawStandings(state.standings);
  drawCrosstable(state.standings);
  tick();
}

// A new board, drawn at once in its position (no animation from the start).
function addBoard(b) {
  const n = b.board;
  const card = $('#board-template').content.firstElementChild.cloneNode(true);
  card.dataset.board = String(n);
  $('#boards').appendChild(card);
  const cg = Chessground($('.cg', card), {
    fen: b.fen,
    lastMove: b.last_move || undefined,
    viewOnly: true,
    coordinates: true,
    animation: { enabled: true, duration: 200 },
    drawable: { enabled: false, visible: true },
  });
  card.addEventListener('click', () => {
    if (boards.size > 1) focus(focused === n ? null : n);
  });
  const toggle = $('.arrows-toggle input', card);
  toggle.checked = arrowsOn;
  toggle.addEventListener('click', (e) => e.stopPropagation());
  toggle.addEventListener('change', () => setArrows(toggle.checked));
  // The board follows its box's size whatever changed it (the window, a
  // scrollbar, the standings below, a board clicked large), so that it
  // never spills out of its card; the move list keeps its latest moves in
  // view.
  if (window.ResizeObserver) {
    new ResizeObserver(() => cg.redrawAll()).observe($('.boardbox', card));
    new ResizeObserver(() => showLatest(card)).observe($('.moves', card));
    new ResizeObserver(() => entry.data && drawCharts(entry)).observe($('.side', card));
  }
  const entry = { card, cg, data: null, t0: 0 };
  boards.set(n, entry);
  return entry;
}

function focus(n) {
  focused = n;
  document.body.classList.toggle('focus', n !== null);
  for (const [m, entry] of boards) {
    entry.card.classList.toggle('large', m === n);
  }
  redrawAll();
}

function redrawAll() {
  for (const entry of boards.values()) entry.cg.redrawAll();
}

function drawBoard(entry) {
  const b = entry.data;
  const card = entry.card;
  entry.cg.set({
    fen: b.fen,
    turnColor: b.turn,
    check: b.check ? b.turn : false,
    lastMove: b.last_move || undefined,
  });
  // White at the bottom.
  $('.top .name', card).textContent = b.black;
  $('.bottom .name', card).textContent = b.white;
  const top = $('.top', card);
  const bottom = $('.bottom', card);
  top.classList.toggle('to-move', b.clocks[1].running);
  bottom.classList.toggle('to-move', b.clocks[0].running);
  top.classList.toggle('flagged', b.clocks[1].flagged);
  bottom.classList.toggle('flagged', b.clocks[0].flagged);
  const total = b.games_total === null ? '' : ' of ' + b.games_total;
  $('.game', card).textContent = 'game ' + b.game + total;
  $('.tc', card).textContent = b.time_control === '-' ? '' : '· ' + b.time_control;
  const result = $('.result', card);
  if (b.result) {
    result.textContent = b.result.result + ' · ' + b.result.reason;
  } else if (b.phase === 'paused') {
    result.textContent = 'paused' + (b.paused ? ': ' + b.paused : '');
  } else if (b.phase === 'waiting') {
    result.textContent = 'waiting for the programs to sign on';
  } else if (b.phase === 'starting') {
    result.textContent = 'the game is about to start';
  } else {
    result.textContent = '';
  }
  card.classList.toggle('over', !!b.result);
  drawMoves($('.moves', card), b);
  drawPanels(card, b);
  drawArrows(entry);
  drawCharts(entry);
}

// Switches the PV arrows on or off on every board, remembered.
function setArrows(on) {
  arrowsOn = on;
  try {
    localStorage.setItem('argus.arrows', on ? 'on' : 'off');
  } catch (err) {
    // Not remembered; still switched.
  }
  for (const entry of boards.values()) {
    $('.arrows-toggle input', entry.card).checked = on;
    drawArrows(entry);
  }
}

// The last mover's expected continuation as arrows: its first move blue,
// the next pale.
function drawArrows(entry) {
  const arrows = (arrowsOn && entry.data && entry.data.pv_arrows) || [];
  const brushes = ['blue', 'paleBlue'];
  entry.cg.setAutoShapes(arrows.map(([orig, dest], i) => ({ orig, dest, brush: brushes[Math.min(i, 1)] })));
}

// The move number and the side of ply `ply` (0 is the first move played).
function moveLabel(b, ply) {
  const offset = b.black_first ? 1 : 0;
  const number = b.first_move_number + Math.floor((ply + offset) / 2);
  return (ply + offset) % 2 === 0 ? number + '.' : number + '…';
}

function count(n) {
  if (n >= 1e9) return (n / 1e9).toFixed(1) + 'G';
  if (n >= 1e6) return (n / 1e6).toFixed(1) + 'M';
  if (n >= 1e3) return (n / 1e3).toFixed(1) + 'k';
  return String(n);
}

function seconds(ms) {
  return ms < 10000 ? (ms / 1000).toFixed(1) + 's' : Math.round(ms / 1000) + 's';
}

// Each side's last evaluation: score (White's view), depth, nodes, speed,
// time, and its PV from the move it came with. Hidden when neither side
// sent one.
function drawPanels(card, b) {
  const analysis = b.analysis || [null, null];
  const box = $('.evals', card);
  box.hidden = !analysis[0] && !analysis[1];
  ['white', 'black'].forEach((side, i) => {
    const a = analysis[i];
    const panel = $('.panel[data-side="' + side + '"]', card);
    panel.hidden = !a;
    if (!a) return;
    $('.ev-side', panel).textContent = side === 'white' ? b.white : b.black;
    $('.ev-score', panel).textContent = a.score;
    const meta = [];
    if (a.depth !== null) {
      meta.push('depth ' + a.depth + (a.seldepth !== null && a.seldepth !== undefined ? '/' + a.seldepth : ''));
    }
    if (a.nodes !== null) meta.push(count(a.nodes) + ' nodes');
    if (a.nps !== null) meta.push(count(a.nps) + ' n/s');
    meta.push(seconds(a.time_ms));
    const metaEl = $('.ev-meta', panel);
    metaEl.textContent = meta.join(' · ');
    metaEl.dataset.depth = a.depth === null ? '' : String(a.depth);
    metaEl.dataset.nodes = a.nodes === null ? '' : String(a.nodes);
    const pvEl = $('.ev-pv', panel);
    pvEl.textContent = '';
    a.pv.forEach((san, k) => {
      const ply = a.ply + k;
      // A move with its number, if it gets one, never split across lines.
      const mv = document.createElement('span');
      mv.className = 'mv';
      if (k === 0 || byWhite(b, ply)) {
        const num = document.createElement('span');
        num.className = 'num';
        num.textContent = moveLabel(b, ply);
        mv.appendChild(num);
      }
      const m = document.createElement('span');
      m.className = 'san';
      m.textContent = san;
      mv.appendChild(m);
      pvEl.appendChild(mv);
      pvEl.appendChild(document.createTextNode(' '));
    });
  });
}

function svgEl(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

// A score as a height between -1 (Black wins) and 1 (White wins): mates
// at the edge, centipawns squeezed so that a pawn or two stay readable.
function scoreHeight(p) {
  if (p.mate_for) return p.mate_for === 'white' ? 1 : -1;
  return Math.tanh(p.cp / 400) * 0.92;
}

function drawCharts(entry) {
  const b = entry.data;
  const card = entry.card;
  const plies = b.plies || [];
  const scored = plies.some((p) => p.cp !== undefined || p.mate_for);
  const timed = plies.some((p) => p.emt_ms !== undefined);
  $('.eval-chart', card).hidden = !scored;
  $('.time-chart', card).hidden = !timed;
  if (scored) drawEvalGraph($('.eval-graph', card), b, plies, b.moves.length - 1);
  if (timed) drawTimeChart($('.time-graph', card), b, plies);
}

// The moves along the width: ply i's x at the middle of its slot.
function slots(width, n) {
  const w = width / Math.max(n, 20);
  return (i) => (i + 0.5) * w;
}

// Whether ply i was White's move.
function byWhite(b, i) {
  return (i + (b.black_first ? 1 : 0)) % 2 === 0;
}

// Both engines' scores over the game, from White's view: one point per
// move that carried a score, a line per engine, the move `current` (an
// index into the moves; -1 before the first) marked.
function drawEvalGraph(svg, b, plies, current) {
  const width = Math.max(svg.clientWidth, 100);
  const height = Math.max(svg.clientHeight, 40);
  svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
  const x = slots(width, b.moves.length);
  const y = (v) => height / 2 - v * (height / 2 - 4);
  const parts = [
    svgEl('rect', { class: 'adv-white', x: 0, y: 0, width, height: height / 2 }),
    svgEl('line', { class: 'axis', x1: 0, y1: height / 2, x2: width, y2: height / 2 }),
  ];
  if (current >= 0 && current < b.moves.length) {
    const cx = x(current);
    parts.push(svgEl('line', { class: 'current', x1: cx, y1: 0, x2: cx, y2: height }));
  }
  for (const white of [true, false]) {
    const pts = [];
    plies.forEach((p, i) => {
      if (byWhite(b, i) !== white || (p.cp === undefined && !p.mate_for)) return;
      pts.push([x(i), y(scoreHeight(p)), i, p]);
    });
    const cls = white ? 'white' : 'black';
    if (pts.length > 1) {
      parts.push(svgEl('polyline', { class: 'line ' + cls, points: pts.map(([px, py]) => px + ',' + py).join(' ') }));
    }
    for (const [px, py, i] of pts) {
      const dot = svgEl('circle', { class: 'pt ' + cls, cx: px, cy: py, r: 3 });
      dot.dataset.ply = String(i);
      if (i === current) dot.classList.add('current');
      parts.push(dot);
    }
  }
  svg.replaceChildren(...parts);
}

// Each move's time as a bar (White's above the middle, Black's below),
// and each side's time left after its moves as a line.
function drawTimeChart(svg, b, plies) {
  const width = Math.max(svg.clientWidth, 100);
  const height = Math.max(svg.clientHeight, 40);
  svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
  const x = slots(width, b.moves.length);
  const slot = width / Math.max(b.moves.length, 20);
  const mid = height / 2;
  const maxEmt = Math.max(1, ...plies.map((p) => p.emt_ms || 0));
  const maxClk = Math.max(1, ...plies.map((p) => p.clk_ms || 0));
  const parts = [svgEl('line', { class: 'axis', x1: 0, y1: mid, x2: width, y2: mid })];
  plies.forEach((p, i) => {
    if (p.emt_ms === undefined) return;
    const h = (p.emt_ms / maxEmt) * (mid - 2);
    const white = byWhite(b, i);
    parts.push(svgEl('rect', {
      class: 'bar ' + (white ? 'white' : 'black'),
      x: x(i) - slot * 0.4,
      y: white ? mid - h : mid,
      width: Math.max(1, slot * 0.8),
      height: Math.max(0.5, h),
    }));
  });
  for (const white of [true, false]) {
    const pts = [];
    plies.forEach((p, i) => {
      if (byWhite(b, i) !== white || p.clk_ms === undefined) return;
      pts.push(x(i) + ',' + (height - 2 - (p.clk_ms / maxClk) * (height - 4)));
    });
    if (pts.length > 1) {
      parts.push(svgEl('polyline', { class: 'clk ' + (white ? 'white' : 'black'), points: pts.join(' ') }));
    }
  }
  svg.replaceChildren(...parts);
}

// The moves, numbered; `current` (default: the last) marked, and each
// move a button to `pick` when given (a finished game stepped through).
function drawMoves(list, b, current = b.moves.length - 1, pick = null) {
  const items = [];
  let number = b.first_move_number;
  let white = !b.black_first;
  let li = null;
  b.moves.forEach((san, i) => {
    if (white || li === null) {
      li = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = number + (white ? '.' : '…');
      li.appendChild(num);
      items.push(li);
    }
    const m = document.createElement('span');
    m.className = 'san';
    if (i === current) m.classList.add('last');
    m.textContent = san;
    if (pick) {
      m.dataset.ply = String(i);
      m.addEventListener('click', () => pick(i));
    }
    li.appendChild(m);
    if (!white) number += 1;
    white = !white;
  });
  list.replaceChildren(...items);
  if (pick) {
    const mark = $('.last', list);
    if (mark) mark.scrollIntoView({ block: 'nearest' });
  } else {
    showLatest(list.closest('.card'));
  }
}

// Scrolls a card's move list to its latest move.
function showLatest(card) {
  const list = $('.moves', card);
  list.scrollTop = list.scrollHeight;
}

// The schedule round by round: each game's table number, players and
// result (or the board it is on); the current round open. A finished game
// opens in the step-through view when clicked.
function drawSchedule(rounds, current) {
  const section = $('#schedule');
  section.hidden = rounds.length === 0;
  if (rounds.length === 0) return;
  const box = $('.rounds', section);
  // Keep what the viewer opened or closed.
  const open = new Map();
  for (const d of box.querySelectorAll('details')) open.set(d.dataset.round, d.open);
  const parts = rounds.map((r) => {
    const d = document.createElement('details');
    d.dataset.round = String(r.round);
    const key = String(r.round);
    d.open = open.has(key) ? open.get(key) : r.round === current;
    if (r.round === current) d.classList.add('current');
    const summary = document.createElement('summary');
    const done = r.pairings.filter((p) => p.result !== null).length;
    summary.textContent = 'Round ' + r.round + ' · ' + done + '/' + r.pairings.length + ' played' + (r.round === current ? ' · now' : '');
    d.appendChild(summary);
    const table = document.createElement('table');
    const body = document.createElement('tbody');
    for (const p of r.pairings) {
      const status = p.result !== null ? p.result : p.on_board !== null ? 'on board ' + p.on_board : '';
      const tr = row('td', [r.round + '.' + p.board, p.white, status, p.black]);
      tr.dataset.game = String(p.game);
      tr.children[2].className = 'res';
      if (p.result !== null) {
        tr.classList.add('finished');
        tr.tabIndex = 0;
        tr.title = 'step through game ' + p.game;
        tr.addEventListener('click', () => openReplay(p.game));
        tr.addEventListener('keydown', (e) => {
          if (e.key === 'Enter') openReplay(p.game);
        });
      } else if (p.on_board !== null) {
        tr.classList.add('playing');
      }
      body.appendChild(tr);
    }
    table.appendChild(body);
    d.appendChild(table);
    if (r.byes && r.byes.length > 0) {
      const byes = document.createElement('p');
      byes.className = 'byes';
      // A rest (a round robin's odd one out) or a bye, with its points.
      byes.textContent = 'bye: ' + r.byes
        .map((b) => (b.kind === 'R' ? b.player : b.player + ' (' + b.points_halves / 2 + ')'))
        .join(', ');
      d.appendChild(byes);
    }
    return d;
  });
  box.replaceChildren(...parts);
}

// The finished game being stepped through: its view (/game/N.json) and
// the move shown (-1: the start position).
const replay = { cg: null, view: null, ply: -1 };

async function openReplay(game) {
  let view;
  try {
    const r = await fetch('/game/' + game + '.json', { cache: 'no-store' });
    if (!r.ok) {
      showReplayError('game ' + game + ': ' + (await r.text()));
      return;
    }
    view = await r.json();
  } catch (err) {
    showReplayError('game ' + game + ' could not be loaded');
    return;
  }
  const section = $('#replay');
  section.hidden = false;
  if (!replay.cg) {
    replay.cg = Chessground($('.cg', section), {
      viewOnly: true,
      coordinates: true,
      animation: { enabled: true, duration: 150 },
      drawable: { enabled: false, visible: true },
    });
    if (window.ResizeObserver) {
      new ResizeObserver(() => replay.cg.redrawAll()).observe($('.boardbox', section));
      new ResizeObserver(() => replay.view && drawReplayCharts()).observe($('.side', section));
    }
  }
  replay.view = view;
  $('.replay-title', section).textContent = 'Game ' + view.game + ' · round ' + view.round + ' · ' + view.white + ' – ' + view.black;
  $('.top .name', section).textContent = view.black;
  $('.bottom .name', section).textContent = view.white;
  $('.result', section).textContent = view.result + (view.termination ? ' · ' + view.termination : '');
  section.dataset.game = String(view.game);
  stepTo(view.moves.length - 1);
  section.scrollIntoView({ block: 'start' });
  replay.cg.redrawAll();
}

function showReplayError(text) {
  const section = $('#replay');
  section.hidden = false;
  replay.view = null;
  section.dataset.game = '';
  $('.replay-title', section).textContent = text;
  $('.moves', section).replaceChildren();
}

function closeReplay() {
  $('#replay').hidden = true;
  replay.view = null;
}

// Shows the position after move `ply` (-1: the start).
function stepTo(ply) {
  const v = replay.view;
  if (!v) return;
  const section = $('#replay');
  replay.ply = Math.max(-1, Math.min(ply, v.moves.length - 1));
  const at = replay.ply;
  const fen = at < 0 ? v.start_fen : v.fens[at];
  const turn = fen.split(' ')[1] === 'b' ? 'black' : 'white';
  replay.cg.set({
    fen,
    turnColor: turn,
    check: at >= 0 && v.checks[at] ? turn : false,
    lastMove: at >= 0 ? v.last_moves[at] : undefined,
  });
  section.dataset.ply = String(at);
  section.dataset.fen = fen;
  $('.at', section).textContent = at < 0 ? 'start' : moveLabel(v, at) + ' ' + v.moves[at];
  drawMoves($('.moves', section), v, at, stepTo);
  drawReplayCharts();
}

function drawReplayCharts() {
  const v = replay.view;
  const section = $('#replay');
  const plies = v.plies || [];
  const scored = plies.some((p) => p.cp !== undefined || p.mate_for);
  const timed = plies.some((p) => p.emt_ms !== undefined);
  $('.eval-chart', section).hidden = !scored;
  $('.time-chart', section).hidden = !timed;
  if (scored) drawEvalGraph($('.eval-graph', section), v, plies, replay.ply);
  if (timed) drawTimeChart($('.time-graph', section), v, plies);
}

// A knockout's bracket: a row per match, round by round, each side with
// its seed, each stage's score, who went on and how (names as text).
function drawBracket(k) {
  const section = $('#bracket');
  section.hidden = !k;
  if (!k) return;
  const side = (sd) => (sd ? sd.name + ' (' + sd.seed + ')' : 'bye');
  const stage = (sc) => {
    // Half points as the report writes them: 0, ½, 1, 1½.
    const pts = (h) => (h >= 2 || h % 2 === 0 ? String(Math.floor(h / 2)) : '') + (h % 2 ? '½' : '');
    const name = sc.stage === 'regular' ? '' : sc.stage + ' ';
    return name + pts(sc.halves[0]) + '-' + pts(sc.halves[1]);
  };
  const rows = [];
  for (const r of k.rounds) {
    r.matches.forEach((m, i) => {
      rows.push(
        row('td', [
          r.name,
          String(i + 1),
          side(m.sides[0]),
          side(m.sides[1]),
          m.scores.map(stage).join(', '),
          m.winner || '',
          m.decided_by || '',
        ]),
      );
    });
  }
  $('tbody', section).replaceChildren(...rows);
  $('.winner', section).textContent = k.winner ? 'Winner: ' + k.winner : '';
}

// The standings, with a column for each tie-break the rows carry (in
// their order, named as the first row names them).
function drawStandings(standings) {
  const section = $('#standings');
  section.hidden = !standings;
  if (!standings) return;
  const first = standings.rows[0];
  const names = first && first.tiebreaks ? first.tiebreaks.map((t) => t.short || t.name) : [];
  $('thead', section).replaceChildren(row('th', ['#', 'player', 'points', ...names, 'games']));
  const rows = standings.rows.map((r, i) => {
    const rank = r.rank === undefined ? i + 1 : r.rank;
    const tbs = names.map((_, k) => (r.tiebreaks && r.tiebreaks[k] ? r.tiebreaks[k].value : ''));
    return row('td', [String(rank), r.name, String(r.points_halves / 2), ...tbs, String(r.games)]);
  });
  $('tbody', section).replaceChildren(...rows);
}

// A table row of `tag` cells holding `texts`, as text.
function row(tag, texts) {
  const tr = document.createElement('tr');
  for (const v of texts) {
    const cell = document.createElement(tag);
    cell.textContent = v;
    tr.appendChild(cell);
  }
  return tr;
}

// Rows and columns in ranking order, numbered as the rows; each cell the
// row player's results against the column player, game by game.
function drawCrosstable(standings) {
  const section = $('#crosstable');
  const rows = standings ? standings.rows : [];
  const has = rows.length > 0 && rows.every((r) => Array.isArray(r.cells));
  section.hidden = !has;
  if (!has) return;
  const numbers = rows.map((_, j) => String(j + 1));
  $('thead', section).replaceChildren(row('th', ['#', 'player', ...numbers, 'points']));
  const body = rows.map((r, i) => {
    const cells = rows.map((_, j) => (r.cells[j] === null || r.cells[j] === undefined ? '×' : r.cells[j]));
    const tr = row('td', [String(i + 1), r.name, ...cells, String(r.points_halves / 2)]);
    tr.children[2 + i].className = 'self';
    return tr;
  });
  $('tbody', section).replaceChildren(...body);
}

function clockText(ms) {
  if (ms === null || ms === undefined) return '';
  const tenths = ms < 10000;
  const s = tenths ? Math.floor(ms / 100) / 10 : Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const ss = tenths ? sec.toFixed(1).padStart(4, '0') : String(sec).padStart(2, '0');
  return h > 0 ? h + ':' + String(m).padStart(2, '0') + ':' + ss : m + ':' + ss;
}

function tick() {
  const now = performance.now();
  for (const entry of boards.values()) {
    const b = entry.data;
    if (!b) continue;
    [1, 0].forEach((i, k) => {
      const c = b.clocks[i];
      let ms = c.remaining_ms;
      if (ms !== null && c.running) ms = Math.max(0, ms - (now - entry.t0));
      const el = $(k === 0 ? '.top .clock' : '.bottom .clock', entry.card);
      el.textContent = clockText(ms);
    });
  }
}

document.addEventListener('keydown', (e) => {
  const stepping = !$('#replay').hidden && replay.view;
  if (stepping) {
    const v = replay.view;
    const to = { ArrowLeft: replay.ply - 1, ArrowRight: replay.ply + 1, Home: -1, End: v.moves.length - 1 }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      stepTo(to);
      return;
    }
  }
  if (e.key === 'Escape') {
    if (!$('#replay').hidden) closeReplay();
    else if (focused !== null) focus(null);
  }
});
document.querySelectorAll('#replay [data-step]').forEach((button) => {
  button.addEventListener('click', () => {
    const v = replay.view;
    if (!v) return;
    const to = { first: -1, prev: replay.ply - 1, next: replay.ply + 1, last: v.moves.length - 1 }[button.dataset.step];
    stepTo(to);
  });
});
$('#replay .close').addEventListener('click', closeReplay);
window.addEventListener('resize', redrawAll);
setInterval(tick, 100);
fetchState();
connect();
