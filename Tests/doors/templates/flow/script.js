// SPDX-License-Identifier: GPL-2.0-or-later
// Written for CommentBar's tests to behave as kkkaoru/my-onecomme-plugins' flow-comment starts
// (MIT; read, not copied): apps/flow-comment/src/template-main.ts:18 names the plugin API at
// http://127.0.0.1:11180/api/plugins/<uid>, :60 awaits that GET before anything else, and :66-78
// then sets OneSDK up in diff mode with the COMMENT permission and subscribes to comments;
// packages/flow-comment-ui/src/api.ts:36-52 fetches with `cache: 'no-store'`, takes a status
// other than 200, or any error, as "no settings" (null) and goes on. So an answer that never
// comes keeps the template blank, and an answer it cannot read (no CORS from a page on
// localhost) is only a console line. The real one names port 11180; this one its page's port.
const list = document.getElementById('comments');
const PLUGIN_API = `http://127.0.0.1:${location.port}/api/plugins/flow-comment-test`;

async function fetchSettings() {
  try {
    const response = await fetch(PLUGIN_API, { cache: 'no-store', method: 'GET' });
    const body = await response.json();
    document.body.dataset.settings = `${response.status} ${JSON.stringify(body)}`;
    return response.status === 200 ? body : null;
  } catch (error) {
    document.body.dataset.settings = `unreadable: ${error}`;
    return null;
  }
}

async function start() {
  await fetchSettings();
  await OneSDK.ready();
  OneSDK.setup({ mode: 'diff', permissions: OneSDK.usePermission([OneSDK.PERM.COMMENT]) });
  OneSDK.subscribe({
    action: 'comments',
    callback: (comments) => comments.forEach((comment) => {
      const item = document.createElement('li');
      item.className = 'comment';
      item.dataset.id = comment.data.id;
      item.textContent = comment.data.speechText;
      list.appendChild(item);
    }),
  });
  OneSDK.connect();
}

start();
