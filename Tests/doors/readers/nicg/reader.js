// SPDX-License-Identifier: GPL-2.0-or-later
// NiCommentGenerator's reading of comment.xml, written fresh for the tests: it decides what to show
// as totoraj930/NiCommentGenerator@773990d1 does (MIT; "loader.js" is js/loader.js, "comment.js"
// js/comment.js, "options.js" options.js). The flowing text is left out: what it would show goes
// into #shown; what its own code swallows (loader.js:52-54) into #errors; #reads counts the files
// read and #empty those whose <log> had no row. `?interval=MS` and `?path=` are its two options.
'use strict';

const query = new URLSearchParams(location.search);
// options.js:54, 57 and loader.js:2-4: "../comment.xml" (the page sits in a folder inside
// HTML5コメジェネ's), every 500 ms, never faster than 500 or slower than 3000.
const path = query.get('path') || '../comment.xml';
const pollMs = Math.min(3000, Math.max(500, Number(query.get('interval')) || 500));
// options.js:50: what a row shows.
const format = '$COMMENT$';

// loader.js:6, 8: the last file read and when.
let previousFile = null;
let previousReadAt = null;

function note(listId, fields, text) {
  const item = document.createElement('li');
  Object.assign(item.dataset, fields);
  item.textContent = text;
  document.getElementById(listId).appendChild(item);
}

function count(id) {
  const counter = document.getElementById(id);
  counter.textContent = String(Number(counter.textContent) + 1);
}

// loader.js:95-107: XHR's responseXML (null for a missing file or one that does not parse); only a
// failed request rejects.
function readFile() {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('GET', path);
    request.onloadend = () => resolve(request.responseXML);
    request.onerror = (event) => reject(new Error(`request failed: ${event.type}`));
    request.send();
  });
}

// loader.js:75-93: the rows whose `time` STRING is greater than the `time` of the previous file's
// last element in <log>. The previous file must have a <log> with an element in it, or this throws
// (null.lastElementChild / null.getAttribute) for every file that has a row.
function newRows(file) {
  const previousLast = previousFile.querySelector('log').lastElementChild;
  return Array.from(file.querySelectorAll('comment'))
    .filter((row) => row.getAttribute('time') > previousLast.getAttribute('time'))
    .map((row) => ({
      // loader.js:87: the row's markup, so "&" shows as "&amp;" (comment.js:60 sets it as text).
      text: row.innerHTML,
      name: row.getAttribute('handle'),
      time: row.getAttribute('time') * 1000,
      no: row.getAttribute('no') || '',
    }));
}

// comment.js:63-68: String.replace, so "$&" or "$$" in a comment is a replacement pattern.
function show(row) {
  const line = format.replace(/\$NAME\$/g, row.name).replace(/\$COMMENT\$/g, row.text);
  note('shown', { no: row.no, time: String(row.time / 1000), name: String(row.name) }, line);
}

// loader.js:61-73: each new row is shown after (its second - the previous read's time), at most one
// interval later: rows of one second come out together, in file order.
function schedule(rows) {
  rows.forEach((row) => {
    setTimeout(() => show(row), Math.max(0, Math.min(row.time - previousReadAt, pollMs)));
  });
}

// loader.js:35-59. The first file read is only remembered: its rows are never shown. No file (or
// one that does not parse) is tried again, still as the first; anything thrown is swallowed, the
// file is then not remembered, and the next read is no longer the first.
async function load(first) {
  try {
    const file = await readFile();
    if (!file) {
      setTimeout(() => load(first), pollMs);
      return;
    }
    count('reads');
    const log = file.querySelector('log');
    if (log && log.firstElementChild === null) count('empty');
    if (!first) schedule(newRows(file));
    previousReadAt = Date.now();
    previousFile = file;
  } catch (error) {
    note('errors', {}, String(error && error.message ? error.message : error));
  }
  setTimeout(() => load(), pollMs);
}

// main.js:114, 73 and loader.js:19-21: it starts reading as soon as its script runs.
load(true);
