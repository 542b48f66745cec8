// SPDX-License-Identifier: GPL-2.0-or-later
// Written for CommentBar's tests as a OneComme template reads the 参加型 queue with
// OneComme/OneSDK 7.0.0 (MIT; read, not copied): the ORDER permission is ['waitingList']
// (src/permissions.ts:6, :20), turned into the types to subscribe to by usePermission
// (src/OneSDK.ts:60, src/permissions.ts:31-40) and given to setup (src/OneSDK.ts:75), so connect
// opens /sub?p=waitingList (src/OneSDK.ts:327-331). The list comes first in `connected`
// (src/types/OneSDK.ts:42-48, published at src/OneSDK.ts:248), then whole after every change as a
// `waitingList` message handed to its subscribers unchanged (src/OneSDK.ts:158-162, :302-303;
// src/types/OneSDK.ts:53, :134-137); each entry an OrderItem (src/types/Order.ts:3-19): username,
// count, service/serviceName, playing, completed.
const list = document.getElementById('orders');
let lists = 0;

function entry(order, place) {
  const item = document.createElement('li');
  item.className = 'order';
  item.dataset.id = String(order.id);
  item.dataset.service = String(order.service);
  item.dataset.state = order.playing ? 'playing' : (order.completed ? 'done' : 'waiting');
  const parts = [
    ['place', String(place)],
    ['state', order.playing ? '参加中' : (order.completed ? '済' : '待機')],
    ['name', String(order.username)],
    ['count', `${Number(order.count) || 0}回`],
    ['service', String(order.serviceName || order.service)],
  ];
  parts.forEach(([name, text]) => {
    const span = document.createElement('span');
    span.className = name;
    span.textContent = text;
    item.appendChild(span);
    item.appendChild(document.createTextNode(' '));
  });
  return item;
}

function show(orders) {
  lists += 1;
  document.body.dataset.lists = String(lists);
  list.replaceChildren(...(Array.isArray(orders) ? orders : []).map((order, index) => entry(order, index + 1)));
}

OneSDK.setup({ permissions: OneSDK.usePermission([OneSDK.PERM.ORDER]) });
OneSDK.subscribe({ action: 'connected', callback: (data) => show((data && data.waitingList) || []) });
OneSDK.subscribe({ action: 'waitingList', callback: show });
OneSDK.connect();
