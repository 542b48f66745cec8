// SPDX-License-Identifier: GPL-2.0-or-later

/// The control page (`GET /`): plain HTML whose script (`/control.js`, `ControlPageScript`) and
/// style (`/control.css`, `ControlPageStyle`) come from this server too, so the page needs no
/// network but this server and its Content-Security-Policy allows nothing else. Its texts are
/// set by the script in English or Japanese (`navigator.language`).
enum ControlPage {
    static var script: String { ControlPageScript.text }
    static var style: String { ControlPageStyle.text }

    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>Comment Bar</title>
    <link rel="stylesheet" href="/control.css">
    <script src="/control.js" defer></script>
    </head>
    <body>
    <header>
      <h1 data-text="title">Comment Bar: control</h1>
      <p id="connection" role="status" aria-live="polite"></p>
      <p id="streams"></p>
      <div class="speech" role="group" aria-labelledby="speech-label">
        <span id="speech-label" data-text="speech">Speech</span>
        <button type="button" id="speech-skip" data-text="skip">Skip</button>
        <button type="button" id="speech-pause" aria-pressed="false" data-text="pause">Pause</button>
      </div>
    </header>
    <section id="pinned" hidden aria-labelledby="pinned-label">
      <h2 id="pinned-label" data-text="pinned">Pinned on the bar</h2>
      <div id="pinned-comment"></div>
      <button type="button" id="pinned-unpin" data-text="unpin">Unpin</button>
    </section>
    <form id="search" role="search">
      <label for="search-text" data-text="searchLabel">Search the chat log</label>
      <input id="search-text" type="search" maxlength="200" autocomplete="off">
      <button type="submit" id="search-go" data-text="search">Search</button>
      <button type="button" id="search-back" hidden data-text="back">Back to the live chat</button>
    </form>
    <p id="notice" role="alert"></p>
    <main>
      <ol id="chat" aria-labelledby="chat-label"></ol>
      <ol id="results" hidden aria-labelledby="results-label"></ol>
      <span id="chat-label" class="visually-hidden" data-text="liveChat">Live chat</span>
      <span id="results-label" class="visually-hidden" data-text="results">Search results</span>
    </main>
    <dialog id="viewer-dialog" aria-labelledby="viewer-title">
      <form method="dialog" id="viewer-form">
        <h2 id="viewer-title"></h2>
        <p id="viewer-nickname-row">
          <label for="viewer-nickname" data-text="nicknameLabel">Nickname (up to 16 characters; empty: none)</label>
          <input id="viewer-nickname" maxlength="16" autocomplete="off">
        </p>
        <p id="viewer-colour-row">
          <label for="viewer-colour" data-text="colourLabel">Name colour</label>
          <input id="viewer-colour" type="color" value="#ffb300">
          <label><input id="viewer-colour-none" type="checkbox"> <span data-text="colourNone">the platform's colour</span></label>
        </p>
        <p class="dialog-buttons">
          <button value="save" id="viewer-save" data-text="save">Save</button>
          <button value="cancel" id="viewer-cancel" formnovalidate data-text="cancel">Cancel</button>
        </p>
      </form>
    </dialog>
    </body>
    </html>

    """#
}
