// SPDX-License-Identifier: GPL-2.0-or-later
// The control page's audience panel (issue 48): start and close a poll, run the 参加型 queue,
// start and draw a giveaway, through the same control API as any tool. It follows the event
// stream control.js reads (the `commentbar:event` and `commentbar:connected` events it
// dispatches) and asks the API for the whole state after each change of its kind. Names and
// poll texts only ever go into the page as text (textContent).
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const notice = (text) => { $('notice').textContent = text; };

  async function call(method, path, body) {
    try {
      const response = await fetch(path, {
        method, credentials: 'same-origin',
        headers: method === 'POST' ? { 'Content-Type': 'application/json' } : {},
        body: method === 'POST' ? JSON.stringify(body || {}) : undefined
      });
      const data = await response.json().catch(() => null);
      if (!response.ok) {
        // 404 on a GET is "none yet"; a refused command says why.
        if (method === 'POST') { notice((data && data.error) || String(response.status)); }
        return null;
      }
      if (method === 'POST') { notice(''); }
      return data;
    } catch (error) {
      return null;
    }
  }

  function list(element, items, text) {
    element.replaceChildren(...items.map((item) => {
      const row = document.createElement('li');
      row.textContent = text(item);
      return row;
    }));
  }

  async function showPoll() {
    const poll = await call('GET', 'api/poll');
    $('poll-state').textContent = poll ? poll.question + (poll.open ? '' : ' ✓') : '';
    list($('poll-result'), poll ? poll.options : [], (option) => option.text + ': ' + option.votes);
    $('poll-close').disabled = !(poll && poll.open);
    $('poll-dismiss').disabled = !(poll && !poll.open && !poll.dismissed);
  }

  // The waiting viewer chosen for Move up, Move down and Remove (kept across refreshes by account).
  let waiting = [];
  let chosen = null;
  const viewer = (entry) => ({ platform: entry.platform, channel: entry.channel, user: entry.user });
  const sameViewer = (a, b) => Boolean(a && b) && a.platform === b.platform && a.channel === b.channel && a.user === b.user;

  function showWaiting() {
    const place = waiting.findIndex((entry) => sameViewer(viewer(entry), chosen));
    if (place < 0) { chosen = null; }
    $('queue-waiting').replaceChildren(...waiting.map((entry, index) => {
      const row = document.createElement('li');
      const label = document.createElement('label');
      const pick = document.createElement('input');
      pick.type = 'radio';
      pick.name = 'queue-pick';
      pick.checked = index === place;
      // In place: rebuilding the list here would take the focus from the radio the arrows move.
      pick.addEventListener('change', () => { chosen = viewer(entry); showChoice(index); });
      label.append(pick, document.createTextNode(' ' + entry.name));
      row.append(label);
      return row;
    }));
    showChoice(place);
  }

  // Move up, Move down and Remove for the chosen place (-1: none chosen).
  function showChoice(place) {
    $('queue-up').disabled = place < 1;
    $('queue-down').disabled = place < 0 || place >= waiting.length - 1;
    $('queue-remove').disabled = place < 0;
  }

  async function showQueue() {
    const queue = await call('GET', 'api/queue');
    const open = Boolean(queue && queue.open);
    list($('queue-playing'), open ? queue.playing : [], (entry) => entry.name);
    waiting = open ? queue.waiting : [];
    showWaiting();
    $('queue-count').textContent = open ? String(queue.waiting.length) : '';
    for (const id of ['queue-next', 'queue-done', 'queue-close']) { $(id).disabled = !open; }
  }

  // A line of words, separated by spaces or commas (、 too).
  const wordsOf = (text) => text.split(/[\s,、]+/).filter((word) => word);

  async function showGiveaway() {
    const giveaway = await call('GET', 'api/giveaway');
    $('giveaway-state').textContent = giveaway ? giveaway.word + ' (' + giveaway.entries + ')' : '';
    list($('giveaway-winners'), giveaway ? giveaway.winners : [], (winner) => winner.name + ' (' + winner.platform + ')');
    $('giveaway-draw').disabled = !giveaway;
    $('giveaway-dismiss').disabled = !(giveaway && giveaway.winners.length && !giveaway.dismissed);
  }

  const shows = { poll: showPoll, queue: showQueue, giveaway: showGiveaway };
  document.addEventListener('commentbar:connected', () => { for (const show of Object.values(shows)) { show(); } });
  document.addEventListener('commentbar:event', (event) => {
    const kind = String(event.detail && event.detail.type).split('_')[0];
    if (shows[kind]) { shows[kind](); }
  });

  $('poll-form').addEventListener('submit', async (submitted) => {
    submitted.preventDefault();
    const options = $('poll-options').value.split('\n').map((line) => line.trim()).filter((line) => line);
    const body = { question: $('poll-question').value.trim(), options };
    const seconds = Number($('poll-seconds').value);
    if (seconds > 0) { body.seconds = seconds; }
    if ($('poll-latest').checked) { body.revote = 'latest'; }
    if ($('poll-bare-numbers').checked) { body.bare_numbers = true; }
    if (await call('POST', 'api/poll', body)) { showPoll(); }
  });
  $('poll-close').addEventListener('click', async () => { if (await call('POST', 'api/poll/close')) { showPoll(); } });
  $('poll-dismiss').addEventListener('click', async () => { if (await call('POST', 'api/poll/dismiss')) { showPoll(); } });
  $('queue-form').addEventListener('submit', async (submitted) => {
    submitted.preventDefault();
    // Opening an open queue gives it these rules: who waits stays.
    const body = {
      capacity: Number($('queue-capacity').value) || 50,
      min_streams: Number($('queue-min-streams').value) || 0,
      first_time_first: $('queue-first-time-first').checked,
      members_only: $('queue-members-only').checked,
      join: wordsOf($('queue-join').value),
      leave: wordsOf($('queue-leave').value),
    };
    if (await call('POST', 'api/queue/open', body)) { showQueue(); }
  });
  $('queue-next').addEventListener('click', async () => { if (await call('POST', 'api/queue/next', { count: 1 })) { showQueue(); } });
  $('queue-done').addEventListener('click', async () => { if (await call('POST', 'api/queue/done')) { showQueue(); } });
  $('queue-close').addEventListener('click', async () => { if (await call('POST', 'api/queue/close')) { showQueue(); } });
  // Places count from 1: one up is the place before the chosen one's, one down the place after.
  async function move(step) {
    const place = waiting.findIndex((entry) => sameViewer(viewer(entry), chosen));
    if (place >= 0 && await call('POST', 'api/queue/move', { ...chosen, place: place + 1 + step })) { showQueue(); }
  }
  $('queue-up').addEventListener('click', () => move(-1));
  $('queue-down').addEventListener('click', () => move(1));
  $('queue-remove').addEventListener('click', async () => {
    if (chosen && await call('POST', 'api/queue/remove', chosen)) { chosen = null; showQueue(); }
  });
  $('giveaway-form').addEventListener('submit', async (submitted) => {
    submitted.preventDefault();
    const body = { word: $('giveaway-word').value.trim() };
    const seconds = Number($('giveaway-seconds').value);
    if (seconds > 0) { body.seconds = seconds; }
    const minComments = Number($('giveaway-min-comments').value);
    if (minComments > 0) { body.min_comments = minComments; }
    if (!$('giveaway-first-time').checked) { body.first_time = false; }
    if (await call('POST', 'api/giveaway', body)) { showGiveaway(); }
  });
  $('giveaway-draw').addEventListener('click', async () => { if (await call('POST', 'api/giveaway/draw')) { showGiveaway(); } });
  $('giveaway-dismiss').addEventListener('click', async () => {
    if (await call('POST', 'api/giveaway/dismiss')) { showGiveaway(); }
  });
})();
