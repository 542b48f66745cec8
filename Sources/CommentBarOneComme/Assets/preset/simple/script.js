// SPDX-License-Identifier: GPL-2.0-or-later
// OneSDK's "all" mode: every change gives the whole list, which Vue renders. The server escapes
// data.comment, so v-html shows emotes as pictures and text as text.
Vue.createApp({
  data() {
    return { comments: [], pinned: null };
  },
  methods: {
    nameOf(comment) {
      const data = comment.data;
      return data.nickname || data.displayName || data.name;
    },
    styleOf(comment) {
      return OneSDK.getCommentStyle(comment);
    },
  },
  mounted() {
    OneSDK.setup({ permissions: OneSDK.usePermission([OneSDK.PERM.COMMENT]), commentLimit: 30 });
    OneSDK.subscribe({ action: 'comments', callback: (comments) => { this.comments = comments; } });
    OneSDK.subscribe({ action: 'pinned', callback: (comment) => { this.pinned = comment && comment.data ? comment : null; } });
    OneSDK.subscribe({ action: 'clear', callback: () => { this.pinned = null; } });
    OneSDK.connect();
  },
}).mount('#app');
