// The page's socket, opened as the page starts: a classic script written
// into index.html's head (the server puts this file there, and names its
// hash in the page's Content-Security-Policy), so that it runs while the
// page is parsed, before any file is fetched, long before the page's
// modules (which wait for the whole page and page.js). It opens the
// WebSocket, says hello and, on a first visit with nothing to follow (no
// link in the address's #, no session or class kept in this tab), asks
// for the first lesson, the page's first option (data-first on its script
// tag): the server's welcome and the lesson's state then arrive while the
// modules load. It keeps every event of the socket until socket.js takes
// it over (Link.connect: take), and gives each to socket.js's own
// handlers from then on. If the modules run first (they found no
// lockstepEarly), it opens nothing: they opened their own. Not a module,
// and no other file needs it: without it the page opens its socket when
// its modules run.
(function () {
  'use strict';
  if (window.lockstepEarly !== undefined) return;
  var session = sessionStorage.getItem('lockstep.session') || '';
  var first = (document.currentScript && document.currentScript.dataset.first) || '';
  var ws = new WebSocket((location.protocol === 'https:' ? 'wss:' : 'ws:') + '//' + location.host + '/ws');
  var e = { ws: ws, events: [], on: null, next: 3, load: 0 }; // ids 1 and 2 are this script's
  function pass(kind, ev) {
    if (e.on) e.on[kind](ev);
    else e.events.push([kind, ev]);
  }
  ws.onopen = function (ev) {
    ws.send(JSON.stringify({ op: 'hello', session: session, id: 1 }));
    if (first && !session && !location.hash && !sessionStorage.getItem('lockstep.class')) {
      e.load = 2;
      ws.send(JSON.stringify({ scenario: first, op: 'load', id: e.load }));
    }
    pass('open', ev);
  };
  ws.onmessage = function (ev) { pass('message', ev); };
  ws.onclose = function (ev) { pass('close', ev); };
  /** take hands the socket to on ({open, message, close}): the events kept
   * so far, in order, then each as it comes. */
  e.take = function (on) {
    e.on = on;
    var kept = e.events;
    e.events = [];
    for (var i = 0; i < kept.length; i++) on[kept[i][0]](kept[i][1]);
  };
  window.lockstepEarly = e;
})();
