// SPDX-License-Identifier: GPL-2.0-or-later
// The control page's script: the live chat from the event API (newest at the bottom, the newest 500
// kept), search, and the commands. Chat text only ever goes into the page as text (textContent),
// never as HTML; colours are checked before use. Every address is relative: the page and its API
// live under the server's page path (docs/control-api.md).
'use strict';
(() => {
  // The page's words (T.pin, …): the Page.* keys of the OBS locale files (plugin/data/locale, one
  // file per language for OBS, the dock and this page), in the browser's language, from this server
  // (showWords). A word it could not give shows as its key.
  const words = Object.create(null);
  const T = new Proxy(words, { get: (known, key) => known[key] ?? String(key) });
  // The server closes the event socket with this code when its token was changed (rotated).
  const TOKEN_CHANGED = 4001;
  const MAX_ROWS = 500;
  const $ = (id) => document.getElementById(id);
  const chat = $('chat');
  const results = $('results');
  const rows = new Map();
  const hiddenViewers = new Set();
  const streams = new Map();
  let pinnedId = null;
  let lastSeq = 0;
  let retryDelay = 1000;
  let catchingUp = false;
  const waiting = [];
  let speechPaused = false;
  let dialogTarget = null;

  function notice(text) { $('notice').textContent = text; }
  function colourOf(value) { return /^#[0-9a-fA-F]{6}$/.test(value || '') ? value : null; }
  function viewerKey(c) { return [c.platform, c.channel, String(c.user).toLowerCase()].join('\u0001'); }

  async function post(path, body) {
    let response;
    try {
      response = await fetch(path, {
        method: 'POST', credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body || {})
      });
    } catch (error) {
      notice(T.failed);
      return null;
    }
    let data = null;
    try { data = await response.json(); } catch (error) { data = null; }
    if (response.status === 401) {
      signedOut(T.noToken);
      return null;
    }
    if (!response.ok) {
      notice(T.failed + ' (' + response.status + ')' + (data && data.error ? ': ' + data.error : ''));
      return null;
    }
    notice('');
    return data || {};
  }

  async function get(path) {
    const response = await fetch(path, { credentials: 'same-origin' });
    if (response.status === 401) { throw new Error('token'); }
    if (!response.ok) { throw new Error(String(response.status)); }
    return response.json();
  }

  // The page's session ended (the server started again, or the token was changed): it stops
  // trying and says how to open it again.
  let ended = false;
  function signedOut(text) {
    ended = true;
    $('connection').textContent = text;
    notice(text);
  }

  function button(className, text, label, action) {
    const element = document.createElement('button');
    element.type = 'button';
    element.className = className;
    element.textContent = text;
    element.setAttribute('aria-label', label);
    element.addEventListener('click', action);
    return element;
  }

  function describe(c) {
    const shown = c.nickname ? c.nickname : c.name;
    return shown + (c.nickname ? ' (' + c.name + ')' : '');
  }

  function commentContent(c) {
    const parts = [];
    const mark = document.createElement('span');
    mark.className = 'mark';
    mark.textContent = String(c.platform || '?').slice(0, 3);
    mark.title = (c.platform || '') + ' ' + (c.channel || '');
    mark.style.backgroundColor = colourOf(c.platform_colour) || '#78909c';
    parts.push(mark);
    if (c.first_time) {
      const first = document.createElement('span');
      first.className = 'first';
      first.textContent = T.first;
      parts.push(first);
    }
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = c.nickname ? c.nickname : c.name;
    const colour = colourOf(c.colour);
    if (colour) { name.style.color = colour; }
    parts.push(name);
    if (c.nickname) {
      const real = document.createElement('span');
      real.className = 'real-name';
      real.textContent = '(' + c.name + ')';
      parts.push(real);
    }
    const text = document.createElement('span');
    text.className = 'text';
    if (c.kind === 'gift') {
      const gift = document.createElement('span');
      gift.className = 'gift';
      gift.textContent = '🎁 ' + (c.gift || '') + (c.count > 1 ? ' ×' + c.count : '') + ' ';
      text.append(gift);
    }
    text.append(document.createTextNode(c.text || ''));
    parts.push(text);
    return parts;
  }

  function makeRow(c) {
    const row = document.createElement('li');
    row.className = 'comment' + (c.history ? ' history' : '');
    row.dataset.id = c.id;
    row.dataset.viewer = viewerKey(c);
    row.append(...commentContent(c));
    const actions = document.createElement('span');
    actions.className = 'actions';
    const who = describe(c);
    const pin = button('pin', T.pin, T.pinLabel, () => {
      if (pinnedId === c.id) { post('api/unpin', { id: c.id }); } else { post('api/pin', { id: c.id }); }
    });
    actions.append(
      pin,
      button('nickname', T.nickname, T.nicknameFor + ' ' + who, () => openViewerDialog(c, 'nickname')),
      button('colour', T.colour, T.colourFor + ' ' + who, () => openViewerDialog(c, 'colour')),
      button('voice', T.voice, T.voiceFor + ' ' + who, () => openViewerDialog(c, 'voice')),
      button('hide', T.hide, T.hideLabel, () => toggleHidden(c))
    );
    row.append(actions);
    showPinState(row);
    showHiddenState(row);
    return row;
  }

  function showPinState(row) {
    const pinned = row.dataset.id === pinnedId;
    row.classList.toggle('is-pinned', pinned);
    const pin = row.querySelector('button.pin');
    pin.textContent = pinned ? T.unpin : T.pin;
    pin.setAttribute('aria-label', pinned ? T.unpinLabel : T.pinLabel);
    pin.setAttribute('aria-pressed', pinned ? 'true' : 'false');
  }

  function showHiddenState(row) {
    const hidden = hiddenViewers.has(row.dataset.viewer);
    row.classList.toggle('viewer-hidden', hidden);
    const hide = row.querySelector('button.hide');
    hide.textContent = hidden ? T.show : T.hide;
    hide.setAttribute('aria-label', hidden ? T.showLabel : T.hideLabel);
  }

  function atBottom() {
    const main = chat.parentElement;
    return main.scrollHeight - main.scrollTop - main.clientHeight < 40;
  }

  function addComment(c) {
    const follow = atBottom();
    const row = makeRow(c);
    const old = rows.get(c.id);
    if (old) { old.replaceWith(row); } else { chat.append(row); }
    rows.set(c.id, row);
    while (chat.children.length > MAX_ROWS) {
      const first = chat.firstElementChild;
      rows.delete(first.dataset.id);
      first.remove();
    }
    if (follow && results.hidden) { chat.parentElement.scrollTop = chat.parentElement.scrollHeight; }
  }

  function removeRows(matches) {
    for (const [id, row] of rows) {
      if (matches(row, id)) { row.remove(); rows.delete(id); }
    }
  }

  function showPin(pin) {
    pinnedId = pin && pin.pinned ? pin.id : null;
    const box = $('pinned-comment');
    box.replaceChildren();
    if (pinnedId && pin.comment) { box.append(...commentContent(pin.comment)); }
    $('pinned').hidden = !pinnedId;
    for (const row of document.querySelectorAll('li.comment')) { showPinState(row); }
  }

  function showStream(platform, channel, update) {
    const key = platform + '/' + channel;
    const entry = Object.assign(streams.get(key) || {}, update);
    streams.set(key, entry);
    const parts = [];
    for (const [name, value] of streams) {
      let part = name + ': ' + (value.state || '…');
      if (value.count !== undefined && value.count !== null) { part += ' · ' + value.count + ' ' + T.viewers; }
      parts.push(part);
    }
    $('streams').textContent = parts.join('  |  ');
  }

  function showSpeech(paused) {
    speechPaused = paused;
    $('speech-pause').setAttribute('aria-pressed', paused ? 'true' : 'false');
  }

  function handle(event) {
    const isNew = typeof event.seq !== 'number' || event.seq > lastSeq;
    if (!isNew && (event.type === 'comment' || event.type === 'gift')) { return; }
    if (typeof event.seq === 'number' && event.seq > lastSeq) { lastSeq = event.seq; }
    // The audience panel (audience.js) follows the same events.
    document.dispatchEvent(new CustomEvent('commentbar:event', { detail: event }));
    switch (event.type) {
      case 'comment':
      case 'gift':
        addComment(event);
        break;
      case 'delete':
        removeRows((row, id) => id === event.id);
        break;
      case 'ban': {
        const key = viewerKey(event);
        removeRows((row) => row.dataset.viewer === key);
        break;
      }
      case 'clear': {
        const prefix = [event.platform, event.channel].join('\u0001') + '\u0001';
        removeRows((row) => row.dataset.viewer.startsWith(prefix));
        break;
      }
      case 'pin':
        showPin(event);
        break;
      case 'viewers':
        showStream(event.platform, event.channel, { count: event.count });
        break;
      case 'status':
        showStream(event.platform, event.channel, { state: event.state });
        break;
      case 'channel': {
        // The stream typed (a video, a programme) goes by its channel from now on.
        const typed = event.platform + '/' + event.stream;
        if (streams.has(typed)) {
          const entry = streams.get(typed);
          streams.delete(typed);
          showStream(event.platform, event.channel, entry);
        }
        break;
      }
      case 'speech':
        if (event.action === 'pause') { showSpeech(true); }
        if (event.action === 'resume') { showSpeech(false); }
        break;
      default:
        break;
    }
  }

  function connect() {
    $('connection').textContent = T.connecting;
    // Beside the page, under its path (the page's cookie is sent only there).
    const address = new URL('api/events', location.href);
    address.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(address.href);
    socket.addEventListener('open', async () => {
      $('connection').textContent = T.connected;
      retryDelay = 1000;
      // What came while there was no connection: comments, deletions, bans and clears after the
      // last event seen. Events arriving meanwhile wait, so the rows stay in order.
      catchingUp = true;
      try { await catchUp(); } catch (error) { notice(T.failed); }
      catchingUp = false;
      for (const event of waiting.splice(0)) { handle(event); }
      document.dispatchEvent(new CustomEvent('commentbar:connected'));
    });
    socket.addEventListener('message', (message) => {
      let event;
      try { event = JSON.parse(message.data); } catch (error) { return; }
      if (catchingUp) { waiting.push(event); } else { handle(event); }
    });
    socket.addEventListener('close', (closed) => {
      if (closed.code === TOKEN_CHANGED) {
        signedOut(T.rotated);
        return;
      }
      if (ended) { return; }
      $('connection').textContent = T.disconnected;
      setTimeout(start, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 10000);
    });
  }

  // The comments and removals after the last event seen, in the order they happened. When the
  // server no longer keeps every removal since then, the rows are read anew from the start.
  async function catchUp() {
    let missed = await get('api/comments?limit=' + MAX_ROWS + '&since=' + lastSeq);
    if (missed.removed_complete === false && lastSeq > 0) {
      removeRows(() => true);
      lastSeq = 0;
      missed = await get('api/comments?limit=' + MAX_ROWS + '&since=0');
    }
    const removals = (missed.removed || []).filter((event) => event.seq > lastSeq);
    const events = missed.comments.concat(removals).sort((a, b) => a.seq - b.seq);
    for (const event of events) { handle(event); }
  }

  // The words first, then the texts the page shows before anything happens.
  async function showWords() {
    try {
      const answer = await get('api/words?lang=' + encodeURIComponent(navigator.language || 'en'));
      Object.assign(words, answer.words);
      document.documentElement.lang = answer.language.split('-')[0];
    } catch (error) {
      // The keys stand in; start() says what is wrong.
    }
    for (const element of document.querySelectorAll('[data-text]')) {
      element.textContent = T[element.dataset.text];
    }
    document.title = T.title;
  }

  async function start() {
    try {
      const state = await get('api/state');
      // A server started again counts from 1.
      if (state.seq < lastSeq) { lastSeq = 0; }
      showPin(state.pin || null);
      for (const stream of state.streams || []) {
        showStream(stream.platform, stream.channel, { state: stream.state, count: stream.viewers === null ? undefined : stream.viewers });
      }
    } catch (error) {
      if (error.message === 'token') {
        signedOut(T.noToken);
        return;
      }
      $('connection').textContent = T.disconnected;
      setTimeout(start, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 10000);
      return;
    }
    connect();
  }

  function toggleHidden(c) {
    const key = viewerKey(c);
    const hidden = !hiddenViewers.has(key);
    post('api/viewer', { platform: c.platform, channel: c.channel, user: c.user, hidden: hidden }).then((done) => {
      if (!done) { return; }
      if (hidden) { hiddenViewers.add(key); } else { hiddenViewers.delete(key); }
      for (const row of document.querySelectorAll('li.comment')) { showHiddenState(row); }
    });
  }

  // The dialog's title and first field for each viewer choice.
  const VIEWER_FIELDS = {
    nickname: { title: 'nicknameFor', focus: 'viewer-nickname' },
    colour: { title: 'colourFor', focus: 'viewer-colour' },
    voice: { title: 'voiceFor', focus: 'viewer-voice' }
  };

  function openViewerDialog(c, field) {
    dialogTarget = { comment: c, field: field };
    $('viewer-title').textContent = T[VIEWER_FIELDS[field].title] + ' ' + describe(c);
    for (const name of Object.keys(VIEWER_FIELDS)) { $('viewer-' + name + '-row').hidden = field !== name; }
    $('viewer-nickname').value = c.nickname || '';
    $('viewer-colour').value = colourOf(c.colour) || '#ffb300';
    $('viewer-colour-none').checked = false;
    // The events do not say a viewer's voice: the field starts empty (saving it empty goes back
    // to the source's voice).
    $('viewer-voice').value = '';
    $('viewer-dialog').showModal();
    $(VIEWER_FIELDS[field].focus).focus();
  }

  $('viewer-dialog').addEventListener('close', () => {
    const target = dialogTarget;
    dialogTarget = null;
    if (!target || $('viewer-dialog').returnValue !== 'save') { return; }
    const c = target.comment;
    const body = { platform: c.platform, channel: c.channel, user: c.user };
    if (target.field === 'nickname') {
      body.nickname = $('viewer-nickname').value.trim();
    } else if (target.field === 'voice') {
      body.voice = $('viewer-voice').value.trim();
    } else {
      body.colour = $('viewer-colour-none').checked ? '' : $('viewer-colour').value;
    }
    post('api/viewer', body);
  });

  $('speech-skip').addEventListener('click', () => post('api/speech/skip', {}));
  $('speech-pause').addEventListener('click', () => {
    post('api/speech/pause', { paused: !speechPaused }).then((done) => {
      if (done && typeof done.paused === 'boolean') { showSpeech(done.paused); }
    });
  });
  $('pinned-unpin').addEventListener('click', () => post('api/unpin', pinnedId ? { id: pinnedId } : {}));

  // One search at a time: the button is off while one runs (the server answers 429 to a
  // second one of this page's while the first runs).
  $('search').addEventListener('submit', async (submitted) => {
    submitted.preventDefault();
    const text = $('search-text').value.trim();
    const go = $('search-go');
    if (!text || go.disabled) { return; }
    go.disabled = true;
    try {
      const found = await get('api/search?limit=200&q=' + encodeURIComponent(text));
      results.replaceChildren(...found.comments.map(makeRow));
      notice(found.comments.length + ' ' + T.found);
      results.hidden = false;
      chat.hidden = true;
      $('search-back').hidden = false;
    } catch (error) {
      if (error.message === 'token') { signedOut(T.noToken); }
      else { notice(error.message === '429' ? T.searching : T.failed); }
    } finally {
      go.disabled = false;
    }
  });
  $('search-back').addEventListener('click', () => {
    results.hidden = true;
    results.replaceChildren();
    chat.hidden = false;
    $('search-back').hidden = true;
    notice('');
    chat.parentElement.scrollTop = chat.parentElement.scrollHeight;
  });

  showWords().then(start);
})();

