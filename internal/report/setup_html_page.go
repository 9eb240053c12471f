package report

// setupPageText is the page of SetupCard.HTML: every sentence in English,
// then in Chinese (lang="zh"), its words the catalogue's (.W, pageWords);
// nothing it shows is fetched.
const setupPageText = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.W.Title.En}} · {{.W.Title.Zh}}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; color: #1a1a1a; margin: 1.5rem auto; max-width: 72rem; padding: 0 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ccc; } h3 { font-size: 1rem; }
[lang=zh] { display: block; color: #333; }
h1 span[lang=zh], h2 span[lang=zh], h3 span[lang=zh], h4 span[lang=zh] { display: inline; }
details.file { margin: .3rem 0; } details.file summary { cursor: pointer; } details.file pre { max-height: 40rem; }
table { border-collapse: collapse; font-size: .85rem; margin: .5rem 0; }
th, td { border: 1px solid #d0d0d0; padding: 3px 6px; text-align: left; vertical-align: top; }
thead th { background: #f3f3f3; }
.fails { background: #fdecec; color: #9a3200; } .holds { background: #e7f6ef; color: #00573f; }
.none-found { background: #fff7dc; color: #5c4700; } .unsearched, .n\/a { color: #545454; }
.yours th { background: #eef3fb; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: .5rem; overflow: auto; font-size: .8rem; }
.q { font-size: 1.05rem; font-weight: 600; }
.sbs { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); grid-template-rows: repeat(5, auto); gap: 0 1rem; }
.sbs > section { display: grid; grid-row: span 5; grid-template-rows: subgrid; grid-template-columns: minmax(0, 1fr); min-width: 0; }
.sbs h4, .sbs h5 { margin: .6rem 0 .2rem; font-size: .95rem; } .sbs pre { tab-size: 4; } .sbs .at { margin: .2rem 0; font-size: .8rem; color: #545454; }
@media (max-width: 48rem) { .sbs { grid-template-columns: minmax(0, 1fr); } .sbs > section { display: block; grid-row: auto; } }
</style>
</head>
<body>
<h1>{{.W.Title.En}} <span lang="zh">· {{.W.Title.Zh}}</span></h1>
<p class="q" data-part="question">{{.W.Question.En}}
<span lang="zh">{{.W.Question.Zh}}</span></p>
{{if .Card.File}}<p>{{.W.File.En}} · {{.W.File.Zh}}：<code>{{.Card.File}}</code></p>{{end}}

<h2 id="setup">{{.W.Setup.En}} <span lang="zh">· {{.W.Setup.Zh}}</span></h2>
<p data-part="setup">{{.Card.Setup.En}}.<span lang="zh">{{.Card.Setup.Zh}}。</span></p>

<h2 id="verdicts">{{.W.Verdicts.En}} <span lang="zh">· {{.W.Verdicts.Zh}}</span></h2>
<table data-part="grid">
<thead><tr><th>{{.W.Lock.En}} · {{.W.Lock.Zh}}</th>{{range .Card.Columns}}<th>{{.Title.En}}<br><span lang="zh">{{.Title.Zh}}</span></th>{{end}}<th>{{.W.Trips.En}} · {{.W.Trips.Zh}}</th></tr></thead>
<tbody>
{{range .Rows}}<tr{{if .Row.Yours}} class="yours"{{end}}><th><code>{{.Row.Algorithm}}</code>{{if .Row.Yours}} ({{$.W.Yours.En}} · {{$.W.Yours.Zh}}){{end}}</th>{{range .Cells}}<td class="{{.Kind}}" title="{{.Text.En}}">{{if .Anchor}}<a href="#{{.Anchor}}">{{.Mark}} {{.Verdict}}</a>{{else}}{{.Mark}}{{end}}</td>{{end}}<td>{{.Trips.En}}</td></tr>
{{end}}</tbody>
</table>
<p>{{.Legend.En}}<span lang="zh">{{.Legend.Zh}}</span></p>
{{with .Card.Unsearched}}<p><strong>{{.En}}.</strong><span lang="zh"><strong>{{.Zh}}。</strong></span></p>{{end}}

<h2 id="instead">{{.W.Instead.En}} <span lang="zh">· {{.W.Instead.Zh}}</span></h2>
<div data-part="instead">
<p>{{first .Instead.En}}</p>
<ol>{{range rest .Instead.En}}<li>{{.}}</li>{{end}}</ol>
<div lang="zh"><p>{{first .Instead.Zh}}</p>
<ol>{{range rest .Instead.Zh}}<li>{{.}}</li>{{end}}</ol></div>
</div>

{{if or .Code (and .Yours .Recommended)}}<h2 id="code">{{.W.Code.En}} <span lang="zh">· {{.W.Code.Zh}}</span></h2>
{{if and .Yours .Recommended}}<h3 id="side-by-side">{{.W.SideBySide.En}} <span lang="zh">· {{.W.SideBySide.Zh}}</span></h3>
<p>{{.W.SideBySideWhat.En}}<span lang="zh">{{.W.SideBySideWhat.Zh}}</span></p>
<div class="sbs" data-part="side-by-side">{{template "side" (side "yours" .W.YoursTitle .Yours)}}{{template "side" (side "instead" .W.RecommendedTitle .Recommended)}}</div>{{end}}
{{if .Code}}<h3 id="files">{{.W.Files.En}} <span lang="zh">· {{.W.Files.Zh}}</span></h3>
<div data-part="code">{{range .Code}}<details class="file"><summary><code>{{.File}}</code> — <code>{{.Algorithm}}</code></summary><pre>{{.Text}}</pre></details>{{end}}</div>{{end}}{{end}}

<h2 id="locks">{{.W.Locks.En}} <span lang="zh">· {{.W.Locks.Zh}}</span></h2>
{{range .Rows}}<section data-part="lock"><h3><code>{{.Row.Algorithm}}</code>{{if .Row.Yours}} ({{$.W.Yours.En}} · {{$.W.Yours.Zh}}){{end}}</h3>
<p>{{.Row.Title}}</p>
<p><strong>{{.Row.Advice.En}}</strong><span lang="zh"><strong>{{.Row.Advice.Zh}}</strong></span></p>
<p>{{.TripsLine.En}} · {{.TripsLine.Zh}}<br>{{.NeedsLine.En}} · {{.NeedsLine.Zh}}</p>
<table><thead><tr><th>{{$.W.Fault.En}} · {{$.W.Fault.Zh}}</th><th>{{$.W.Found.En}}</th><th>{{$.W.Found.Zh}}</th></tr></thead><tbody>
{{range .Cells}}<tr><td>{{.Column.En}} · {{.Column.Zh}}</td><td class="{{.Kind}}">{{.Text.En}}{{if .ID}} (<code>{{.ID}}</code>){{end}}{{if .Anchor}} <a href="#{{.Anchor}}">YAML</a>{{end}}</td><td class="{{.Kind}}" lang="zh">{{.Text.Zh}}{{if .ID}}（<code>{{.ID}}</code>）{{end}}</td></tr>
{{end}}</tbody></table></section>
{{end}}
{{if .Counterexamples}}<h2 id="counterexamples">{{.W.Counterexamples.En}} <span lang="zh">· {{.W.Counterexamples.Zh}}</span></h2>
{{with .Replay}}<p>{{.En}}.<span lang="zh">{{.Zh}}。</span></p>{{end}}
{{range .Counterexamples}}<section id="{{.Anchor}}" data-part="counterexample"><h3><code>{{.Lock}}</code> · {{.Column.En}} · <span lang="zh">{{.Column.Zh}}</span> — ✗ {{.Verdict}}</h3>
<p>{{.Text.En}}<span lang="zh">{{.Text.Zh}}</span></p>
<pre>{{.YAML}}</pre></section>
{{end}}{{end}}
</body>
</html>
{{define "side"}}<section data-side="{{.Side}}"><h4>{{.Name.En}} <span lang="zh">· {{.Name.Zh}}</span>: <code>{{.Code.Algorithm}}</code></h4>
<h5>{{.Acquire.En}} · {{.Acquire.Zh}}</h5><div>{{range .Code.Acquire}}<p class="at"><code>{{.File}}:{{.Line}}</code></p><pre>{{.Text}}</pre>{{end}}</div>
<h5>{{.Release.En}} · {{.Release.Zh}}</h5><div>{{range .Code.Release}}<p class="at"><code>{{.File}}:{{.Line}}</code></p><pre>{{.Text}}</pre>{{end}}</div></section>{{end}}`
