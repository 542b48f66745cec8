// SPDX-License-Identifier: GPL-2.0-or-later
// HTML5コメジェネ's reading of comment.xml, written fresh for the tests: it decides what to show
// as kilin's HTML5CommentGenerator 0.0.8a does (MIT; so2akt/HTML5CommentGenerator@8115aed7,
// "CommentGenerator.html"; 0.0.7 is kilinbox/HTML5CommentGenerator@99d6bb85, cited as "0.0.7").
// Drawing on a canvas is left out: what it would draw goes into #shown for a test to read, what it
// skips into #hidden, what throws into #errors. `?interval=MS` shortens the poll for a test.
'use strict';

const query = new URLSearchParams(location.search);
// 0.0.8a:76 polls every 500 ms (0.0.7:75, every 1000 ms).
const pollMs = Number(query.get('interval')) || 500;

// 0.0.8a:45-46: the page's own second, a NUMBER, and -1. Once a comment is taken both become the
// attribute STRINGS (0.0.8a:101-102), so every later `<` compares text: "10" < "9".
let lastTime = Math.floor(Date.now() / 1000);
let lastNo = -1;
// 0.0.8a:48, 81: no comment is read before setting.xml was.
let settings = null;

function note(listId, fields, text) {
  const item = document.createElement('li');
  Object.assign(item.dataset, fields);
  item.textContent = text;
  document.getElementById(listId).appendChild(item);
}

function noteError(where, error) {
  note('errors', { where }, String(error && error.message ? error.message : error));
}

// jQuery's $.ajax with dataType "xml" (0.0.8a:91-95, 170-174): a document, or the error callback
// for a failed request or a file that does not parse.
function fetchXML(path, done) {
  const request = new XMLHttpRequest();
  request.open('GET', path);
  request.onloadend = () => {
    if (request.status !== 200 || !request.responseXML) {
      // 0.0.8a:151-153, 216-218 alert("ロード失敗"); noted instead (an alert stops the test).
      noteError(path, `load failed (${request.status})`);
      return;
    }
    try {
      done(request.responseXML);
    } catch (error) {
      // An exception in a success callback leaves jQuery's handler: the page goes on polling.
      noteError(path, error);
    }
  };
  request.send();
}

// 0.0.8a:175-213: every field is `getElementsByTagName(NAME)[0].firstChild.nodeValue`, so a missing
// or empty one throws and the settings are not taken (SkinFile and SkinFolder may be empty, 178-183).
function loadSettings() {
  fetchXML('setting.xml', (xml) => {
    const field = (name) => xml.getElementsByTagName(name)[0].firstChild.nodeValue;
    const optional = (name) => {
      const child = xml.getElementsByTagName(name)[0].firstChild;
      return child === null ? '' : child.nodeValue;
    };
    const read = { SkinFolder: optional('SkinFolder') };
    for (const name of ['HandleVisible', 'HandleOrder', 'Honorific', 'NoHandleType', 'NoHandleName',
      'OwnerCommentVisible', 'SlashCommentVisible', 'BSPCommentVisible', 'userBGColor', 'userSkinName']) {
      read[name] = field(name);
    }
    settings = read;
    document.body.dataset.settings = 'read';
  });
}

// 0.0.8a:99-100 (0.0.7:87-88): loose `<` and `==` on purpose, for the number-then-string mix above.
// A row without `time` (or, in the same second, without `no`) throws here, before anything moves.
function isNew(row) {
  const time = row.getAttributeNode('time').value;
  if (lastTime < time) return true;
  // eslint-disable-next-line eqeqeq
  return lastTime == time && lastNo < row.getAttributeNode('no').value;
}

// 0.0.8a:259-276: "/press show …" (niconico's BSP) and any other leading "/" are shown only when
// the streamer allows them (0.0.7:91 called it wrongly and so showed them all).
function isShownKind(text) {
  // eslint-disable-next-line eqeqeq
  if (text.substring(0, 11) === '/press show') return settings.BSPCommentVisible == 1;
  // eslint-disable-next-line eqeqeq
  if (text.substring(0, 1) === '/') return settings.SlashCommentVisible == 1;
  return true;
}

// 0.0.8a:279-310: the command word(s) go, "/" goes, entities are decoded once more, tags go, trimmed.
function displayedText(text) {
  let out = text;
  if (out.substring(0, 11) === '/press show') {
    out = out.split(' ').slice(3).map((word) => `${word} `).join('');
  } else if (out.substring(0, 5) === '/perm') {
    out = out.split(' ').slice(1).map((word) => `${word} `).join('');
  } else if (out.substring(0, 1) === '/') {
    out = out.substr(1);
  }
  out = out.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  return out.replace(/<("[^"]*"|'[^']*'|[^'">])*>/g, '').trim();
}

// 0.0.8a:108-119: the handle attribute as it is (even empty); without one, "NNNコメ" or a fixed name.
function rawHandle(row) {
  const handle = row.getAttributeNode('handle');
  if (handle !== null) return handle.value;
  const no = row.getAttributeNode('no');
  if (no === null) return '';
  // eslint-disable-next-line eqeqeq
  if (settings.NoHandleType == 0) return `${no.value}コメ`;
  // eslint-disable-next-line eqeqeq
  if (settings.NoHandleType == 1) return settings.NoHandleName;
  return '';
}

// CommentGenerator.js (0.0.7:10-47, the same in 0.0.8a): with the streamer's options on, "{RRGGBB}"
// or "{#RRGGBB}" anywhere in the handle is the row's colour and "[name]" its skin image, and the
// handle is cut where the first of them begins; then the honorific.
function styledHandle(handle) {
  let colour = '';
  let skin = '';
  const colourAt = handle.indexOf('{');
  // eslint-disable-next-line eqeqeq
  if (settings.userBGColor == 1 && colourAt !== -1) {
    colour = handle.substr(colourAt + 1, 1) === '#' ? handle.substr(colourAt + 2, 6) : handle.substr(colourAt + 1, 6);
  }
  const skinStart = handle.indexOf('[');
  const skinEnd = handle.indexOf(']');
  // eslint-disable-next-line eqeqeq
  if (settings.userSkinName == 1 && skinStart !== -1 && skinEnd !== -1 && skinEnd - skinStart - 1 !== 0) {
    skin = `${settings.SkinFolder}/skin_${handle.substr(skinStart + 1, skinEnd - skinStart - 1)}.png`;
  }
  let shown = handle;
  if (colour !== '' && skin !== '') shown = handle.substr(0, Math.min(colourAt, skinStart));
  else if (colour !== '') shown = handle.substr(0, colourAt);
  else if (skin !== '') shown = handle.substr(0, skinStart);
  // eslint-disable-next-line eqeqeq
  if (settings.HandleOrder == 1) shown += settings.Honorific;
  // eslint-disable-next-line eqeqeq
  else if (settings.HandleOrder == 2) shown = settings.Honorific + shown;
  return { shown, colour, skin };
}

// 0.0.8a:103-146 for the one row taken this poll.
function show(row) {
  const no = row.getAttributeNode('no') ? row.getAttributeNode('no').value : '';
  // 0.0.8a:106: `firstChild.nodeValue` of an empty <comment/> throws (the row is already taken).
  const text = row.firstChild.nodeValue;
  if (!isShownKind(text)) {
    note('hidden', { no, reason: 'slash or BSP' }, text);
    return;
  }
  // 0.0.8a:107: the streamer's own comments need OwnerCommentVisible (a row without `owner` throws).
  const owner = settings.OwnerCommentVisible;
  // eslint-disable-next-line eqeqeq
  if (!(owner == 1 || (owner == 0 && row.getAttributeNode('owner').value != 1))) {
    note('hidden', { no, reason: 'owner' }, text);
    return;
  }
  const handle = styledHandle(rawHandle(row));
  const body = displayedText(text);
  // CommentGenerator.js 0.0.7:152-156, 169: the name only when HandleVisible is "1".
  const line = settings.HandleVisible === '1' ? `${handle.shown}「${body}」` : `「${body}」`;
  note('shown', { no, time: lastTime, handle: handle.shown, colour: handle.colour, skin: handle.skin, text: body }, line);
}

// 0.0.8a:97-149 (0.0.7:85-132): every <comment> anywhere in the file, in file order; the FIRST new
// one is taken, the mark moves to it, and the loop stops (`break`, 0.0.8a:147): one per poll.
function poll() {
  if (settings === null) return;
  fetchXML('comment.xml', (xml) => {
    const rows = xml.getElementsByTagName('comment');
    for (let i = 0; i < rows.length; i++) {
      if (isNew(rows[i])) {
        lastTime = rows[i].getAttributeNode('time').value;
        lastNo = rows[i].getAttributeNode('no').value;
        show(rows[i]);
        break;
      }
    }
  });
}

window.addEventListener('load', () => {
  // 0.0.8a:69-70, 76: setting.xml now and every 5 s; comment.xml on a timer that does not wait for
  // the previous request.
  loadSettings();
  setInterval(loadSettings, 5000);
  setInterval(poll, pollMs);
});
