// lang.js: the page's one classic script, run in the head before the page
// is first drawn (the modules run only after). On a visit in 中文 (chosen
// before, or the browser's first language the page speaks: the rule of
// i18n.js firstLanguage, which the page then follows) the page as the
// server writes it is in English; drawn so, it would reflow as app.js
// translates it (the header's buttons, the lesson's title and text), a
// layout shift. So it marks <html> lang zh-CN and "unworded", which keeps
// the page unseen until app.js has written it in 中文 with its first
// lesson (app.css: and at most 3 s, should the script never run).
(function () {
  var stored = null;
  try { stored = localStorage.getItem('lockstep.lang'); } catch (e) { /* storage refused */ }
  var langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  var lang = stored === 'zh' || stored === 'en' ? stored : '';
  for (var i = 0; !lang && i < langs.length; i++) {
    var s = String(langs[i]).toLowerCase();
    if (s === 'zh' || s.indexOf('zh-') === 0) lang = 'zh';
    else if (s === 'en' || s.indexOf('en-') === 0) lang = 'en';
  }
  if (lang === 'zh') {
    document.documentElement.lang = 'zh-CN';
    document.documentElement.classList.add('unworded');
  }
})();
