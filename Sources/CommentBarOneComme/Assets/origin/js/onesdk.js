// SPDX-License-Identifier: GPL-2.0-or-later
// OneSDK for OneComme's templates, written for CommentBar from OneComme's documented API
// (onecomme.com/docs/developer/onesdk-js) and the behaviour of OneComme/OneSDK 7.0.0 (MIT,
// src/OneSDK.ts, read, not copied): the same global `OneSDK` with ready, setup, subscribe,
// unsubscribe, connect, reset, getStyleVariable, getCommentStyle, usePermission and PERM, reading
// the bar's chat from the server that served the page.
//
// One deliberate difference: this SDK talks only to its own page's origin. The real SDK connects
// to whatever the page address or a CSS variable names (OneSDK.ts:91-94 reads --one-sdk-protocol,
// -host, -pathname, -port; :105-116 lets ?protocol=, ?host=, ?pathname=, ?port= override them; :331
// opens ws://HOST:PORT/sub, :353-355 polls PROTOCOL://HOST:PORT/PATHNAME, :428-432 builds the REST
// URLs the same way), so any web page could open one of our templates with `?host=attacker` and
// have it load the attacker's `data.comment` as markup on this server's origin, where it could
// read /api/comments. Here the host, the port and the scheme are always the page's own: a
// `?port=` or `--one-sdk-port` equal to the page's port is honoured (it changes nothing), any
// other value, and any `host` or a protocol other than ws/local/http, is ignored with a warning.
// The server is read-only: requests that would change something are refused here and there.
(function () {
  'use strict';

  // Which message types each permission lets through (OneComme's permission groups,
  // OneSDK src/permissions.ts:17-29).
  const PERMISSIONS = {
    COMMENT: ['comments', 'deleted', 'clear', 'pinned', 'bookmarked'],
    META: ['meta', 'meta.clear'],
    ORDER: ['waitingList'],
    REACTION: ['reactions'],
    SETLIST: ['setList', 'setList.request'],
    WORDPARTY: ['wp.update', 'wp.exec'],
    YT_SURVEY: ['yt.survey.start', 'yt.survey.update', 'yt.survey.finish'],
    CONFIG: ['config'],
    SERVICE: ['services'],
    USER: ['userDatas'],
    NOTIFICATION: ['notification'],
  };
  const PERM = {};
  Object.keys(PERMISSIONS).forEach((name) => { PERM[name] = name; });
  // OneComme's own spelling of one group (permissions.ts:9), which templates use.
  PERM.WORDPAETY = 'WORDPARTY';

  // The names this server answers to: a page opened by any of them is on this server.
  const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
  // The protocols that mean "this server": its WebSocket (`ws`, `local`: OneSDK.ts:326) or its
  // comment list read again and again (`http`: OneSDK.ts:350-355).
  const OWN_PROTOCOLS = ['local', 'ws', 'http'];
  // The stylesheet given as ?style= may change looks, never fetch anything: url(), @import,
  // image-set() and CSS escapes (which could spell them) are refused.
  const FETCHING_CSS = /url\s*\(|@import|image(?:-set)?\s*\(|src\s*\(|\\/i;
  // A colour getCommentStyle passes on: a hex or rgb()/rgba() value, nothing that loads.
  const COLOUR = /^(#[0-9a-f]{3,8}|rgba?\(\s*[\d.%,\s/]+\))$/i;

  function pagePort() {
    const port = parseInt(location.port, 10);
    if (Number.isFinite(port)) return port;
    return location.protocol === 'https:' ? 443 : 80;
  }

  // The page's own server, when the page was served over http by one of the loopback names;
  // otherwise (a file, another site) null: there is nothing this SDK may talk to.
  function ownServer() {
    if (location.protocol !== 'http:' || !LOOPBACK_NAMES.includes(location.hostname)) return null;
    return { host: location.hostname, port: pagePort(), origin: location.origin, authority: location.host };
  }

  // `address` (absolute or relative to the page) when it is on the page's own server, else null.
  function ownAddress(address) {
    const own = ownServer();
    if (!own) return null;
    let url;
    try {
      url = new URL(String(address), location.href);
    } catch (error) {
      return null;
    }
    return url.origin === own.origin ? url.href : null;
  }

  function splitList(text) {
    const found = text.match(/"(?:\\"|[^"])+"|[^\s,]+/g) || [];
    return found.map((item) => item.replace(/^["']|["']$/g, ''));
  }

  class CommentBarOneSDK {
    constructor() {
      this.PERM = PERM;
      const own = ownServer();
      // OneSDK.ts:17-20 and :41 default to `local` on location.hostname (else localhost) port
      // 11180; here the page's own host and port, whatever they are.
      this._config = {
        protocol: 'local',
        host: own ? own.host : '',
        port: own ? own.port : 0,
        pathname: '',
        mode: 'all',
        disabledDelay: false,
        intervalTime: 5000,
        maxQueueInterval: 150,
        reconnectInterval: 5000,
        commentLimit: 100,
        requestInterval: 1500,
        lifeTime: Infinity,
        includes: null,
        excludes: null,
        includeIds: null,
        excludeIds: null,
        includeNames: null,
        excludeNames: null,
        permissions: null,
        jsonPath: '',
      };
      this._subscribers = new Map();
      this._nextSubscriber = 0;
      this._comments = new Map();   // shown now, by comment id, oldest first
      this._expiry = new Map();     // comment id -> when it leaves (lifeTime)
      this._waiting = new Map();    // new comments not released yet
      this._releaseTimer = 0;
      this._socket = null;
      this._connected = false;
      this._connecting = false;
      window.setInterval(() => this._expire(), 100);
    }

    get connected() { return this._connected; }
    get config() { return Object.freeze(Object.assign({}, this._config)); }

    ready() {
      if (document.readyState === 'complete') return Promise.resolve();
      return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
    }

    setup(options) {
      Object.assign(this._config, options || {});
      const config = this._config;
      const url = new URL(location.href);
      this._addStyles(url.searchParams);
      // CSS variables first, then the page address's parameters, as OneSDK.ts:91-140 reads them;
      // where they name the server, _keepToOwnServer below has the last word.
      config.protocol = this.getStyleVariable('--one-sdk-protocol', config.protocol);
      config.host = this.getStyleVariable('--one-sdk-host', config.host);
      config.pathname = this.getStyleVariable('--one-sdk-pathname', config.pathname);
      config.port = this.getStyleVariable('--one-sdk-port', config.port, (v) => parseInt(v, 10));
      config.permissions = this.getStyleVariable('--one-sdk-permissions', config.permissions, splitList);
      config.lifeTime = this.getStyleVariable('--one-sdk-life-time', config.lifeTime, (v) => parseInt(v, 10));
      const lists = {
        includes: '--one-sdk-includes', excludes: '--one-sdk-excludes', includeIds: '--one-sdk-include-ids',
        excludeIds: '--one-sdk-exclude-ids', includeNames: '--one-sdk-include-names',
        excludeNames: '--one-sdk-exclude-names',
      };
      Object.keys(lists).forEach((key) => {
        config[key] = this.getStyleVariable(lists[key], config[key], splitList);
        if (url.searchParams.get(key)) config[key] = url.searchParams.getAll(key);
      });
      ['protocol', 'host'].forEach((key) => {
        if (url.searchParams.get(key)) config[key] = url.searchParams.get(key);
      });
      if (url.searchParams.get('pathname')) config.pathname = decodeURIComponent(url.searchParams.get('pathname'));
      if (url.searchParams.get('port')) config.port = parseInt(url.searchParams.get('port'), 10);
      if (url.searchParams.get('lifeTime')) config.lifeTime = parseInt(url.searchParams.get('lifeTime'), 10);
      if (url.searchParams.get('permissions')) config.permissions = url.searchParams.getAll('permissions');
      if (!Number.isFinite(config.lifeTime) || config.lifeTime <= 0) config.lifeTime = Infinity;
      this._keepToOwnServer();
    }

    // ?css= (a stylesheet) and ?style= (CSS text), as OneSDK.ts:78-90 adds them, but a stylesheet
    // only from this server and CSS text only when it loads nothing: either could otherwise send
    // what the page shows to another site (attribute selectors, fonts), or set --one-sdk-*.
    _addStyles(parameters) {
      const css = parameters.get('css');
      if (css) {
        const address = ownAddress(css);
        if (address) {
          const link = document.createElement('link');
          link.rel = 'stylesheet';
          link.href = address;
          document.head.appendChild(link);
        } else {
          console.warn('OneSDK: ?css= must name a stylesheet on this server; ignored:', css);
        }
      }
      const style = parameters.get('style');
      if (style) {
        if (FETCHING_CSS.test(style)) {
          console.warn('OneSDK: ?style= may not load anything (url(), @import, escapes); ignored');
        } else {
          const element = document.createElement('style');
          element.textContent = style;
          document.head.appendChild(element);
        }
      }
    }

    // Whatever was asked, the server is the page's own (see the top of this file).
    _keepToOwnServer() {
      const config = this._config;
      const own = ownServer();
      const asked = { host: config.host, port: config.port, protocol: config.protocol };
      if (!OWN_PROTOCOLS.includes(config.protocol)) config.protocol = 'local';
      config.host = own ? own.host : '';
      config.port = own ? own.port : 0;
      if (asked.host !== config.host || asked.port !== config.port || asked.protocol !== config.protocol) {
        console.warn(`OneSDK: only the server that served this page is read (${config.protocol} on ${location.host}); `
          + `${asked.protocol} on ${asked.host}:${asked.port} is not.`);
      }
      ['jsonPath', 'pathname'].forEach((key) => {
        if (config[key] && !ownAddress(config[key])) {
          console.warn(`OneSDK: ${key} must be on this server; ignored:`, config[key]);
          config[key] = '';
        }
      });
    }

    subscribe(subscriber) {
      this._nextSubscriber += 1;
      this._subscribers.set(this._nextSubscriber, subscriber);
      return this._nextSubscriber;
    }

    unsubscribe(id) { this._subscribers.delete(id); }

    usePermission(names, base) {
      const types = new Set(base || []);
      (names || []).forEach((name) => (PERMISSIONS[PERM[name] || name] || []).forEach((type) => types.add(type)));
      return Array.from(types);
    }

    getStyleVariable(name, fallback, parse) {
      const value = getComputedStyle(document.documentElement).getPropertyValue(name);
      if (!value || !value.trim()) return fallback;
      return parse ? parse(value.trim()) : value.trim();
    }

    // As OneSDK.ts:306-318, but only colours pass: a value such as url(…) would load a picture.
    getCommentStyle(comment) {
      const style = {};
      const data = (comment && comment.data) || {};
      if (data.colors) {
        const colour = (value) => (COLOUR.test(String(value)) ? String(value) : undefined);
        const background = colour(data.colors.bodyBackgroundColor);
        const text = colour(data.colors.bodyTextColor);
        if (background) style['--lcv-background-color'] = background;
        if (text) style['--lcv-text-color'] = text;
        style['--lcv-comment-shadow'] = 'none';
      }
      if (data.isMember) style['--lcv-membership-color'] = '#2ba640';
      return style;
    }

    reset() {
      window.clearTimeout(this._releaseTimer);
      this._waiting.clear();
      this._comments.clear();
      this._expiry.clear();
      this._publish('comments', []);
    }

    async connect() {
      if (this._connected || this._connecting) return;
      if (!ownServer()) {
        console.error('OneSDK: this page was not served by CommentBar\'s OneComme server '
          + '(http://127.0.0.1, localhost or [::1]); it reads no comments. Open it from the server\'s address.');
        return;
      }
      this._connecting = true;
      await this.ready();
      this._connecting = false;
      this._keepToOwnServer();
      if (this._config.protocol === 'ws' || this._config.protocol === 'local') {
        this._openSocket();
      } else {
        this._poll(true, new Map());
      }
    }

    // Read-only helpers of OneComme's API.
    getInfo() { return this._get('info'); }
    getComments() { return this._get('comments'); }
    getPinnedComment() { return this._get('comments/pinned'); }
    getServices() { return this._get('services'); }
    getConfig() { return this._get('config'); }
    // The 参加型 queue (OneSDK's ORDER permission): read as GET /api/orders; the streamer calls
    // and removes viewers in the bar's own controls, never from a template.
    getOrders() { return this._get('orders'); }
    cancelOrder() { return this._readOnly(); }
    completeOrder() { return this._readOnly(); }
    get(url) {
      const address = ownAddress(url);
      if (!address) return Promise.reject(new Error(`CommentBar: only this server is read, not ${url}`));
      return fetch(address).then((response) => response.json()).then((data) => ({ data }));
    }
    post() { return this._readOnly(); }
    put() { return this._readOnly(); }
    delete() { return this._readOnly(); }
    _readOnly() { return Promise.reject(new Error('CommentBar: this server is read-only')); }

    _get(path) {
      const address = ownAddress(`/api/${path}`);
      if (!address) return Promise.reject(new Error('CommentBar: this page was not served by the OneComme server'));
      return fetch(address).then((response) => {
        if (!response.ok) throw new Error(`${path}: ${response.status}`);
        return response.json();
      });
    }

    _openSocket() {
      const types = this._config.permissions;
      const query = Array.isArray(types) && types.length ? `?p=${encodeURIComponent(types.join(','))}` : '';
      let socket;
      try {
        socket = new WebSocket(`ws://${location.host}/sub${query}`);
      } catch (error) {
        window.setTimeout(() => this._openSocket(), this._config.reconnectInterval);
        return;
      }
      this._socket = socket;
      socket.addEventListener('open', () => { this._connected = true; });
      socket.addEventListener('close', () => {
        this._connected = false;
        window.setTimeout(() => this._openSocket(), this._config.reconnectInterval);
      });
      socket.addEventListener('message', (event) => {
        let message;
        try {
          message = JSON.parse(event.data);
        } catch (error) {
          return;
        }
        this._receive(message);
      });
    }

    // The http protocol: the comment list read again and again, what changed told as messages.
    _poll(first, known) {
      const address = ownAddress(this._config.jsonPath || this._config.pathname || '/api/comments');
      if (!address) return;
      fetch(address).then((response) => response.json()).then((body) => {
        const all = Array.isArray(body) ? body : (body && body.comments) || [];
        const list = this._filter(all);
        if (!first && !all.length) {
          // An empty list is a clear (OneSDK.ts:379-383).
          this._receive({ type: 'clear' });
        } else if (first) {
          // The first list is given as new comments, queued as any (OneSDK.ts:366-377).
          this._receive({ type: 'comments', data: { comments: list } });
        } else {
          const gone = new Map(known);
          const fresh = [];
          list.forEach((comment) => {
            if (known.get(comment.data.id) !== comment.data.comment) fresh.push(comment);
            gone.delete(comment.data.id);
          });
          if (gone.size) this._receive({ type: 'deleted', data: Array.from(gone.keys()).map((id) => ({ id })) });
          if (fresh.length) this._receive({ type: 'comments', data: { comments: fresh } });
        }
        const next = new Map(list.map((comment) => [comment.data.id, comment.data.comment]));
        window.setTimeout(() => this._poll(false, next), this._config.requestInterval);
      }).catch(() => window.setTimeout(() => this._poll(first, known), this._config.reconnectInterval));
    }

    _filter(comments) {
      const c = this._config;
      return comments.filter((comment) => {
        if (!comment || !comment.data) return false;
        if (c.includes && !c.includes.includes(comment.service)) return false;
        if (c.excludes && c.excludes.includes(comment.service)) return false;
        if (c.includeIds && !c.includeIds.includes(comment.id)) return false;
        if (c.excludeIds && c.excludeIds.includes(comment.id)) return false;
        if (c.includeNames && !c.includeNames.includes(comment.name)) return false;
        if (c.excludeNames && c.excludeNames.includes(comment.name)) return false;
        return true;
      });
    }

    _receive(message) {
      const data = message.data;
      switch (message.type) {
        case 'connected':
          this._filter((data && data.comments) || []).forEach((comment) => this._keep(comment));
          this._publishList();
          this._publish('connected', data);
          break;
        case 'comments': {
          const comments = this._filter((data && data.comments) || []);
          if (!comments.length) return;
          if (data.options && data.options.init) {
            comments.forEach((comment) => this._keep(comment));
            this._publishList();
            return;
          }
          const fresh = [];
          comments.forEach((comment) => {
            if (this._comments.has(comment.data.id)) {
              this._keep(comment);
            } else if (this._config.disabledDelay) {
              this._keep(comment);
              fresh.push(comment);
            } else {
              this._waiting.set(comment.data.id, comment);
            }
          });
          if (this._config.disabledDelay) {
            this._publishList();
            if (this._config.mode === 'diff' && fresh.length) this._publish('comments', fresh);
          } else {
            this._release();
          }
          break;
        }
        case 'deleted':
          (data || []).forEach((item) => {
            this._waiting.delete(item.id);
            this._comments.delete(item.id);
            this._expiry.delete(item.id);
          });
          this._publishList();
          this._publish('deleted', data);
          break;
        case 'clear':
          this.reset();
          this._publish('clear', []);
          break;
        default:
          this._publish(message.type, data);
      }
    }

    // New comments come out one at a time, faster the more wait, as OneComme's queue releases them.
    _release() {
      window.clearTimeout(this._releaseTimer);
      const first = this._waiting.values().next();
      if (first.done) return;
      const comment = first.value;
      this._waiting.delete(comment.data.id);
      this._keep(comment);
      this._publishList();
      if (this._config.mode === 'diff') this._publish('comments', [comment]);
      if (this._waiting.size) {
        const wait = Math.min(this._config.intervalTime / this._waiting.size, this._config.maxQueueInterval);
        this._releaseTimer = window.setTimeout(() => this._release(), wait);
      }
    }

    _keep(comment) {
      this._comments.delete(comment.data.id);
      this._comments.set(comment.data.id, comment);
      if (this._config.lifeTime !== Infinity) this._expiry.set(comment.data.id, Date.now() + this._config.lifeTime);
      while (this._comments.size > this._config.commentLimit) {
        const oldest = this._comments.keys().next().value;
        this._comments.delete(oldest);
        this._expiry.delete(oldest);
      }
    }

    _expire() {
      const now = Date.now();
      let gone = false;
      this._expiry.forEach((until, id) => {
        if (until <= now) {
          this._expiry.delete(id);
          this._comments.delete(id);
          gone = true;
        }
      });
      if (gone) this._publishList();
    }

    // 'all' mode: every subscriber of comments gets the whole list after each change.
    _publishList() {
      if (this._config.mode === 'all') this._publish('comments', Array.from(this._comments.values()));
    }

    _publish(type, data) {
      this._subscribers.forEach((subscriber) => {
        if (subscriber.action !== type) return;
        try {
          subscriber.callback(data);
        } catch (error) {
          console.error(error);
        }
      });
    }
  }

  window.OneSDK = new CommentBarOneSDK();
})();
