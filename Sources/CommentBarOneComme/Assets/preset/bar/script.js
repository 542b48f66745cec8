// SPDX-License-Identifier: GPL-2.0-or-later
// The bar's look: new comments added at the bottom (OneSDK's diff mode), the oldest leaving at the
// top, deletions and clears honoured, the pin shown above. data.comment is rebuilt from its text
// and https pictures (CommentParts), never put in as HTML; every other field goes in as text.
(function () {
  'use strict';
  const KEEP = 30;
  const list = document.getElementById('comments');
  const pin = document.getElementById('pin');

  function colour(comment) {
    const c = comment.color || {};
    const part = (value) => Math.min(Math.max(Number(value) || 0, 0), 255);
    return comment.color ? `rgb(${part(c.r)}, ${part(c.g)}, ${part(c.b)})` : 'rgb(136, 136, 136)';
  }

  function shownName(data) {
    return data.nickname || data.displayName || data.name || '';
  }

  function row(comment) {
    const data = comment.data;
    const item = document.createElement('li');
    item.className = 'comment';
    item.dataset.id = data.id;
    if (data.isFirstTime) item.classList.add('first');
    if (data.isMember) item.classList.add('is-member');
    const style = OneSDK.getCommentStyle(comment);
    Object.keys(style).forEach((key) => item.style.setProperty(key, style[key]));
    if (data.colors) item.classList.add('paid');
    const mark = document.createElement('span');
    mark.className = 'mark';
    mark.style.background = colour(comment);
    mark.title = String(comment.name || '');
    item.appendChild(mark);
    if (data.isFirstTime) {
      const first = document.createElement('span');
      first.className = 'first-time';
      first.textContent = '初見';
      item.appendChild(first);
    }
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = shownName(data);
    item.appendChild(name);
    const text = document.createElement('span');
    text.className = 'text';
    if (data.paidText) {
      const paid = document.createElement('span');
      paid.className = 'paid';
      paid.textContent = `${data.paidText} `;
      text.appendChild(paid);
    }
    text.appendChild(CommentParts.fragment(data.comment));
    item.appendChild(text);
    return item;
  }

  function add(comments) {
    comments.forEach((comment) => {
      if (list.querySelector(`[data-id="${CSS.escape(comment.data.id)}"]`)) return;
      list.appendChild(row(comment));
    });
    while (list.children.length > KEEP) list.removeChild(list.firstElementChild);
  }

  function showPin(comment) {
    if (!comment || !comment.data) {
      pin.hidden = true;
      delete pin.dataset.id;
      return;
    }
    pin.dataset.id = comment.data.id;
    pin.querySelector('.name').textContent = shownName(comment.data);
    CommentParts.show(pin.querySelector('.text'), comment.data.comment);
    pin.hidden = false;
  }

  OneSDK.setup({ mode: 'diff', commentLimit: KEEP, permissions: OneSDK.usePermission([OneSDK.PERM.COMMENT]) });
  OneSDK.subscribe({ action: 'connected', callback: (data) => add((data && data.comments) || []) });
  OneSDK.subscribe({ action: 'comments', callback: add });
  OneSDK.subscribe({
    action: 'deleted',
    callback: (deleted) => (deleted || []).forEach((item) => {
      const element = list.querySelector(`[data-id="${CSS.escape(item.id)}"]`);
      if (element) element.remove();
      if (pin.dataset.id === item.id) showPin(null);
    }),
  });
  OneSDK.subscribe({ action: 'clear', callback: () => { list.textContent = ''; showPin(null); } });
  OneSDK.subscribe({ action: 'pinned', callback: showPin });
  OneSDK.connect();
})();
