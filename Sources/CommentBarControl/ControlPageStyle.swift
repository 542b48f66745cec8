// SPDX-License-Identifier: GPL-2.0-or-later

/// The control page's style (`/control.css`): a dark page like the bar, every control a real
/// button with a visible focus ring.
enum ControlPageStyle {
    static let text = #"""
    :root { color-scheme: dark; --accent: #ffb300; --bg: #15161a; --row: #1f2026; --muted: #9ea3ad; }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: #f2f2f2;
      font: 15px/1.45 system-ui, "Noto Sans CJK JP", "Noto Sans", sans-serif; display: flex;
      flex-direction: column; height: 100vh; }
    header { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem 1rem; padding: .5rem .8rem;
      border-bottom: 1px solid #333; }
    h1 { font-size: 1.05rem; margin: 0; }
    h2 { font-size: .95rem; margin: 0 0 .3rem; }
    header p { margin: 0; color: var(--muted); font-size: .85rem; }
    .speech { margin-left: auto; display: flex; gap: .4rem; align-items: center; }
    button { font: inherit; color: inherit; background: #2c2e36; border: 1px solid #4a4d58; border-radius: 6px;
      padding: .15rem .6rem; cursor: pointer; }
    button:hover { background: #393c46; }
    button[aria-pressed="true"] { background: var(--accent); color: #111; border-color: var(--accent); }
    :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
    input { font: inherit; color: inherit; background: #101114; border: 1px solid #4a4d58; border-radius: 6px;
      padding: .2rem .4rem; }
    #pinned { margin: .5rem .8rem 0; padding: .5rem .7rem; border: 1px solid var(--accent); border-radius: 8px;
      background: rgba(255, 179, 0, .12); }
    #pinned-comment { display: flex; flex-wrap: wrap; align-items: baseline; gap: .2rem .5rem; margin-bottom: .3rem; }
    form#search { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem; padding: .5rem .8rem; }
    #search-text { flex: 1 1 12rem; }
    #notice { margin: 0 .8rem; color: #ffb74d; min-height: 1.2em; }
    main { flex: 1; overflow-y: auto; padding: 0 .8rem .8rem; }
    ol { list-style: none; margin: 0; padding: 0; }
    li.comment { display: flex; flex-wrap: wrap; align-items: baseline; gap: .2rem .5rem; padding: .3rem .5rem;
      margin-top: .25rem; background: var(--row); border-radius: 6px; }
    li.comment.is-pinned { outline: 2px solid var(--accent); }
    li.comment.viewer-hidden .text, li.comment.viewer-hidden .name { opacity: .35; }
    li.comment.history { opacity: .75; }
    .mark { font-size: .7rem; font-weight: 700; color: #fff; border-radius: 4px; padding: 0 .3rem; text-transform: uppercase; }
    .first { font-size: .75rem; font-weight: 700; color: #111; background: #4db6ac; border-radius: 4px; padding: 0 .35rem; }
    .name { font-weight: 700; }
    .real-name { color: var(--muted); font-weight: 400; font-size: .85rem; }
    .text { flex: 1 1 16rem; overflow-wrap: anywhere; }
    .gift { color: #ffd54f; font-weight: 700; }
    .actions { display: flex; gap: .3rem; margin-left: auto; }
    .actions button { font-size: .8rem; padding: 0 .45rem; }
    dialog { background: #23252c; color: inherit; border: 1px solid #4a4d58; border-radius: 10px; min-width: 18rem; }
    dialog::backdrop { background: rgba(0, 0, 0, .5); }
    dialog label { display: block; margin-bottom: .2rem; }
    .dialog-buttons { display: flex; gap: .5rem; justify-content: flex-end; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }

    """#
}
