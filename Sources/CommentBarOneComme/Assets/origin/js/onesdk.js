// SPDX-License-Identifier: GPL-2.0-or-later
// OneSDK for OneComme's templates, written for CommentBar from OneComme's documented API
// (onecomme.com/docs/developer/onesdk-js; the OneComme/OneSDK types): the same global `OneSDK`
// with ready, setup, subscribe, unsubscribe, connect, reset, getStyleVariable, getCommentStyle,
// usePermission and PERM, reading the bar's chat from the server that served the page.
// The server is read-only: requests that would change something are refused here and there.
(function () {
  'use strict';

  // Which message types each permission lets through (OneComme's permission groups).
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
  // OneComme's own spelling of one group, which templates use.
  PERM.WORDPAETY = 'WORDPARTY';

  function pagePort() {
    const port = parseInt(location.port, 10);
    return Number.isFinite(port) ? port : 11180;
  }

  function splitList(text) {
    const found = text.match(/"(?:\\"|[^"])+"|[^\s,]+/g) || [];
    return found.map((item) => item.replace(/^["']|["']$/g, ''));
  }

  class CommentBarOneSDK {
    constructor() {
      this.PERM = PERM;
      this._config = {
        protocol: 'ws',
        host: (!location.hostname || location.hostname === 'absolute') ? 'localhost' : location.hostname,
        port: pagePort(),
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
      const css = url.searchParams.get('css');
      if (css) {
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        link.href = css;
        document.head.appendChild(link);
      }
      const style = url.searchParams.get('style');
      if (style) {
        const element = document.createElement('style');
        element.textContent = style;
        document.head.appendChild(element);
      }
      // CSS variables first, then the page address's parameters, as OneComme reads them.
      config.protocol = this.getStyleVariable('--one-sdk-protocol', config.protocol);
      config.host = this.getStyleVariable('--one-sdk-host', config.host);
      config.pathname = this.getStyleVariable('--one-sdk-pathname', config.pathname);
      config.port = this.getStyleVariable('--one-sdk-port', config.port, (v) => parseInt(v, 10));
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
      if (!Number.isFinite(config.lifeTime) || config.lifeTime <= 0) config.lifeTime = Infinity;
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

    getCommentStyle(comment) {
      const style = {};
      const data = (comment && comment.data) || {};
      if (data.colors) {
        style['--lcv-background-color'] = data.colors.bodyBackgroundColor;
        style['--lcv-text-color'] = data.colors.bodyTextColor;
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
      this._connecting = true;
      await this.ready();
      this._connecting = false;
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
    get(url) { return fetch(url).then((response) => response.json()).then((data) => ({ data })); }
    post() { return this._readOnly(); }
    put() { return this._readOnly(); }
    delete() { return this._readOnly(); }
    _readOnly() { return Promise.reject(new Error('CommentBar: this server is read-only')); }

    _base() { return `http://${this._config.host}:${this._config.port}`; }

    _get(path) {
      return fetch(`${this._base()}/api/${path}`).then((response) => {
        if (!response.ok) throw new Error(`${path}: ${response.status}`);
        return response.json();
      });
    }

    _openSocket() {
      const types = this._config.permissions;
      const query = Array.isArray(types) && types.length ? `?p=${encodeURIComponent(types.join(','))}` : '';
      let socket;
      try {
        socket = new WebSocket(`ws://${this._config.host}:${this._config.port}/sub${query}`);
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
      const address = this._config.jsonPath || `${this._base()}/api/comments`;
      fetch(address).then((response) => response.json()).then((body) => {
        const list = this._filter(Array.isArray(body) ? body : (body && body.comments) || []);
        if (first) {
          this._receive({ type: 'comments', data: { comments: list, options: { init: true } } });
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
