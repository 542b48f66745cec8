// SPDX-License-Identifier: GPL-2.0-or-later
// Written for CommentBar's tests to behave as Pintocuru/OmikenTemplates' templates start
// (public/common/api/PingOneSDK.ts:3-31, Apache-2.0; read, not copied): fetch
// http://localhost:11180/api/info with an AbortController aborted after 1000 ms (lines 4-12,
// 16); a 2xx answer means "OneComme is running" (20-22), anything else or an error means it is not
// (23-30), and the template never subscribes then. The real one always names `localhost` (line
// 16), so a page served from 127.0.0.1 asks across origins; this one asks the other loopback name
// than its own page's, on its page's port (the test's server is not on 11180), so both directions
// are tried.
const list = document.getElementById('comments');

async function pingOneComme(address) {
  const controller = new AbortController();
  const timeout = new Promise((_, reject) => {
    setTimeout(() => {
      controller.abort();
      reject(new Error('Request timeout'));
    }, 1000);
  });
  try {
    const response = await Promise.race([fetch(address, { signal: controller.signal }), timeout]);
    return response.ok;
  } catch (error) {
    return false;
  }
}

function show(comments) {
  comments.forEach((comment) => {
    const item = document.createElement('li');
    item.className = 'comment';
    item.dataset.id = comment.data.id;
    item.textContent = `${comment.data.displayName}: ${comment.data.speechText}`;
    list.appendChild(item);
  });
}

const other = location.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
pingOneComme(`http://${other}:${location.port}/api/info`).then((running) => {
  document.body.dataset.ping = running ? 'ok' : 'failed';
  if (!running) return;
  OneSDK.setup({ mode: 'diff', disabledDelay: true, permissions: OneSDK.usePermission([OneSDK.PERM.COMMENT]) });
  OneSDK.subscribe({ action: 'connected', callback: (data) => show(data.comments || []) });
  OneSDK.subscribe({ action: 'comments', callback: show });
  OneSDK.connect();
});
