// SPDX-License-Identifier: GPL-2.0-or-later
// OneSDK's "all" mode: every change gives the whole list, which Vue renders. data.comment goes
// through v-comment (CommentParts: its text and https pictures rebuilt), never v-html; every other
// field is text ({{ }}).
const app = Vue.createApp({
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
});
app.directive('comment', {
  mounted(element, binding) { CommentParts.show(element, binding.value); },
  updated(element, binding) {
    if (binding.value !== binding.oldValue) CommentParts.show(element, binding.value);
  },
});
app.mount('#app');
