// Every page: times in the reader's own time zone and manner; UTC stays in each one's title.
// The game page's script calls it again for the times a live update writes.
"use strict";
window.bredonLocalize = function (root) {
  root.querySelectorAll("time[data-ms]").forEach(function (t) {
    if (!t.title) t.title = t.textContent;
    const at = new Date(Number(t.dataset.ms));
    t.textContent = at.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  });
};
window.bredonLocalize(document);
