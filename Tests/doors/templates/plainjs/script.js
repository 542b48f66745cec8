// SPDX-License-Identifier: GPL-2.0-or-later
const list = document.getElementById('comments');
const pinned = document.getElementById('pinned');
function add(comments) {
  comments.forEach((comment) => {
    const item = document.createElement('li');
    item.className = 'comment';
    item.dataset.id = comment.data.id;
    item.dataset.first = String(Boolean(comment.data.isFirstTime));
    item.innerHTML = `<span class="name"></span> <span class="text">${comment.data.comment}</span>`;
    item.querySelector('.name').textContent = comment.data.nickname || comment.data.displayName;
    list.appendChild(item);
  });
}
OneSDK.setup({ mode: 'diff', disabledDelay: true, permissions: OneSDK.usePermission([OneSDK.PERM.COMMENT]) });
OneSDK.subscribe({ action: 'connected', callback: (data) => add(data.comments || []) });
OneSDK.subscribe({ action: 'comments', callback: add });
OneSDK.subscribe({
  action: 'deleted',
  callback: (deleted) => deleted.forEach((item) => {
    const element = list.querySelector(`[data-id="${CSS.escape(item.id)}"]`);
    if (element) element.remove();
  }),
});
OneSDK.subscribe({ action: 'clear', callback: () => { list.textContent = ''; } });
OneSDK.subscribe({
  action: 'pinned',
  callback: (comment) => {
    pinned.dataset.id = comment && comment.data ? comment.data.id : '';
    pinned.textContent = comment && comment.data ? comment.data.speechText : '';
  },
});
OneSDK.connect();
