// SPDX-License-Identifier: GPL-2.0-or-later
// A comment's `data.comment` made safe to show, for the presets (and any template that loads
// ../__origin/js/comment-parts.js). OneComme's data.comment is HTML: the text escaped, emotes as
// <img>. Templates usually put it into innerHTML or v-html, which runs whatever markup it holds if
// anything upstream ever failed to escape. Here it is parsed in an inert document (DOMParser: no
// script runs, no picture loads) and rebuilt from its text and its pictures only: a text node for
// each piece of text, a new <img> for each picture whose address is https: on a named host (as
// the server's OneCommeHTML.pictureURL allows). No attribute of the original is carried over.
(function () {
  'use strict';

  // Elements whose content is not text a viewer wrote.
  const SKIPPED = new Set(['script', 'style', 'template', 'noscript', 'title', 'iframe', 'object', 'embed',
    'svg', 'math', 'textarea', 'select']);

  // `address` when a browser source may load it: https:, no user name, a host name that is not an
  // IP address, localhost or a .local name (which would lead to this machine or its network).
  function picture(address) {
    let url;
    try {
      url = new URL(String(address));
    } catch (error) {
      return null;
    }
    const host = url.hostname.toLowerCase();
    if (url.protocol !== 'https:' || url.username || url.password) return null;
    if (host.startsWith('[') || /^[\d.]+$/.test(host) || !host.includes('.')) return null;
    if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return null;
    return url.href;
  }

  function emote(source) {
    const address = picture(source.getAttribute('src') || '');
    const name = source.getAttribute('alt') || '';
    if (!address) return document.createTextNode(name);
    const image = document.createElement('img');
    image.className = 'emoji';
    image.alt = name;
    image.referrerPolicy = 'no-referrer';
    image.src = address;
    return image;
  }

  function rebuild(target, parent) {
    parent.childNodes.forEach((node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        target.appendChild(document.createTextNode(node.data));
      } else if (node.nodeType === Node.ELEMENT_NODE) {
        if (node.localName === 'img') {
          target.appendChild(emote(node));
        } else if (!SKIPPED.has(node.localName)) {
          rebuild(target, node);
        }
      }
    });
  }

  // data.comment as a fragment of text nodes and https pictures.
  function fragment(html) {
    const parsed = new DOMParser().parseFromString(html == null ? '' : String(html), 'text/html');
    const parts = document.createDocumentFragment();
    rebuild(parts, parsed.body);
    return parts;
  }

  // `element`'s content replaced by data.comment, made safe.
  function show(element, html) {
    element.replaceChildren(fragment(html));
  }

  window.CommentParts = Object.freeze({ fragment, picture, show });
})();
