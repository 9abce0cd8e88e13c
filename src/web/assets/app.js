// The audience's page: shows /state.json at once, then follows /events
// (Server-Sent Events, JSON; see docs/web.md) and draws every board with
// chessground, and a tournament's standings and crosstable. Every string that
// came from a client (names, reasons) goes in as text (textContent), never
// as markup.
import { Chessground } from '/chessground/chessground.min.js';

const boards = new Map(); // board number -> { card, cg, data, t0 }
let focused = null; // the board shown large, when there are several
let source = null;
let streamed = false; // a state came on the stream (newer than any fetched)

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
    drawable: { enabled: false, visible: false },
  });
  card.addEventListener('click', () => {
    if (boards.size > 1) focus(focused === n ? null : n);
  });
  // The board follows its box's size whatever changed it (the window, a
  // scrollbar, the standings below, a board clicked large), so that it
  // never spills out of its card; the move list keeps its latest moves in
  // view.
  if (window.ResizeObserver) {
    new ResizeObserver(() => cg.redrawAll()).observe($('.boardbox', card));
    new ResizeObserver(() => showLatest(card)).observe($('.moves', card));
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
}

function drawMoves(list, b) {
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
    if (i === b.moves.length - 1) m.classList.add('last');
    m.textContent = san;
    li.appendChild(m);
    if (!white) number += 1;
    white = !white;
  });
  list.replaceChildren(...items);
  showLatest(list.closest('.card'));
}

// Scrolls a card's move list to its latest move.
function showLatest(card) {
  const list = $('.moves', card);
  list.scrollTop = list.scrollHeight;
}

function drawStandings(standings) {
  const section = $('#standings');
  section.hidden = !standings;
  if (!standings) return;
  const rows = standings.rows.map((r, i) => {
    const rank = r.rank === undefined ? i + 1 : r.rank;
    return row('td', [String(rank), r.name, String(r.points_halves / 2), String(r.games)]);
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
  if (e.key === 'Escape' && focused !== null) focus(null);
});
window.addEventListener('resize', redrawAll);
setInterval(tick, 100);
fetchState();
connect();
