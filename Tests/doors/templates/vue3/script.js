// SPDX-License-Identifier: GPL-2.0-or-later
Vue.createApp({
  data() {
    return { comments: [], pinned: null };
  },
  mounted() {
    OneSDK.setup({ permissions: OneSDK.usePermission([OneSDK.PERM.COMMENT]) });
    OneSDK.subscribe({ action: 'comments', callback: (comments) => { this.comments = comments; } });
    OneSDK.subscribe({ action: 'pinned', callback: (comment) => { this.pinned = comment && comment.data ? comment : null; } });
    OneSDK.connect();
  },
}).mount('#app');
