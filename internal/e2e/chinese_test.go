package e2e

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/server"
	"github.com/lockstep/lockstep/internal/sim"
)

// corpus is what the server really says that the page must say in 中文:
// the words the engine, the locks and the lessons put on events (their
// facts, as the server renders them for the page: {en, zh}), the names of
// marks and faults, the problems the scenario checker finds, and the
// reasons a fault is refused (as the server sends them with the
// bad-fault code: {en, zh}).
type corpus struct {
	Notes    []sim.Text `json:"notes"`
	Names    []string   `json:"names"`
	Problems []sim.Text `json:"problems"`
	Refusals []sim.Text `json:"refusals"`
}

// texts collects distinct texts in both languages, by their English.
type texts map[string]sim.Text

func (s texts) add(x sim.Text) {
	if x.En != "" {
		s[x.En] = x
	}
}

func (s texts) list() []sim.Text {
	out := make([]sim.Text, 0, len(s))
	for _, x := range s {
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].En < out[j].En })
	return out
}

// said collects distinct texts.
type said map[string]bool

func (s said) add(x string) {
	if x != "" {
		s[x] = true
	}
}

func (s said) list() []string {
	out := make([]string, 0, len(s))
	for x := range s {
		out = append(out, x)
	}
	sort.Strings(out)
	return out
}

// userFaults are the faults a user can inject (the page's fault menu and a
// scenario file's faults:), aimed at the first client and the first node.
func userFaults(sc *scenario.Scenario) []scenario.Fault {
	client := ""
	if len(sc.Clients) > 0 {
		client = sc.Clients[0].Name
	}
	node := lesson.NodeNames(sc)[0]
	d := func(s string) scenario.Duration {
		v, err := time.ParseDuration(s)
		if err != nil {
			panic(err)
		}
		return scenario.Duration(v)
	}
	return []scenario.Fault{
		{Do: "crash", Client: client},
		{Do: "restart", Client: client},
		{Do: "pause", Client: client, For: d("1s")},
		{Do: "drop-request", Client: client},
		{Do: "drop-reply", Client: client},
		{Do: "skew", Client: client, By: d("2s")},
		{Do: "partition", Node: node, For: d("2s")},
		{Do: "heal", Node: node},
		{Do: "node-crash", Node: node},
		{Do: "node-crash", Node: node, KeepData: true, For: d("1s")},
		{Do: "node-restart", Node: node},
		{Do: "clock-jump", Node: node, By: d("5s")},
		{Do: "failover", Node: node},
	}
}

// collect runs every lesson and lab to its end, and again with each user
// fault injected at a few moments, and gathers what the server says.
func collect(t *testing.T) corpus {
	t.Helper()
	notes, names, problems, refusals := texts{}, said{}, texts{}, texts{}
	all := append([]scenario.Scenario(nil), catalog(t).Scenarios...)
	all = append(all, labs(t).Scenarios...)
	gather := func(s *lesson.Session) {
		for _, e := range s.Log() {
			if e.Kind == sim.KindSay || e.Kind == sim.KindVerdict {
				continue
			}
			notes.add(e.Words())
			if e.Kind == sim.KindMark || e.Kind == sim.KindFault || e.Kind == sim.KindLost {
				names.add(e.Name)
			}
		}
	}
	for i := range all {
		sc := &all[i]
		s, err := lesson.NewSession(sc, lesson.Config{Seed: 1, Servers: embedded.Servers{}})
		if err != nil {
			t.Fatalf("%s: %v", sc.ID, err)
		}
		if err := s.RunToEnd(); err != nil {
			t.Fatalf("%s: %v", sc.ID, err)
		}
		gather(s)
		s.Close()
		for _, at := range []int{2, 9, 30} {
			for _, f := range userFaults(sc) {
				s, err := lesson.NewSession(sc, lesson.Config{Seed: 1, Servers: embedded.Servers{}})
				if err != nil {
					t.Fatalf("%s: %v", sc.ID, err)
				}
				if err := s.Seek(at); err == nil && !s.Run().World.Ended() {
					if err := s.Inject(f); err != nil {
						if !errors.Is(err, sim.ErrBadFault) {
							t.Fatalf("%s: inject %s at step %d: %v", sc.ID, f.Do, at, err)
						}
						why := fact.Error(err)
						if why.Key == fact.BadFault && why.Reason != nil {
							why = why.Reason // as the server sends it (internal/server, inject)
						}
						refusals.add(why.Render())
					} else if err := s.RunToEnd(); err != nil {
						t.Fatalf("%s: %s at step %d, to the end: %v", sc.ID, f.Do, at, err)
					}
				}
				gather(s)
				s.Close()
			}
		}
	}
	// The checker's problems: every one it finds in its tests' bad files,
	// as the server sends them ({msg, zh}).
	bads, err := filepath.Glob(filepath.Join("..", "scenario", "testdata", "bad", "*.yaml"))
	if err != nil || len(bads) == 0 {
		t.Fatalf("the scenario checker's bad files: %v (%d found)", err, len(bads))
	}
	for _, p := range bads {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		_, errs := scenario.Check(filepath.Base(p), b)
		for _, e := range errs {
			problems.add(sim.Text{En: e.Msg, Zh: e.Zh})
		}
	}
	return corpus{Notes: notes.list(), Names: names.list(), Problems: problems.list(), Refusals: refusals.list()}
}

// leftEnglish is a JS function: the English left in zh, a text shown in
// 中文 that came from x: a phrase of two English words outside quotes, or
// x unchanged while it has an English word (an identifier, a command, a
// number or a name alone is fine).
const leftEnglish = `(zh, x) => {
	const s = zh.replace(/"(?:[^"\\]|\\.)*"/g, '""');
	const out = [];
	const m = /\b[A-Za-z]?[a-z]{2,}[ '’]+[a-z]{3,}\b/.exec(s);
	if (m) out.push(m[0]);
	if (zh === x && /(^|[\s(])[a-z]{3,}([\s),:;]|$)/.test(s) && !/^[\w.:\/-]+$/.test(x)) out.push('unchanged');
	return out;
}`

// untranslated is a JS function of the catalogue module and a corpus: the
// texts that come out of it in 中文 with English left outside code and
// identifiers.
const untranslated = `async (c) => {
	const m = await import('/static/i18n.js');
	const left = ` + leftEnglish + `;
	const out = [];
	const check = (what, x, zh) => { const l = left(zh, x); if (l.length) out.push(what + ': ' + x + ' => ' + zh + ' (' + l.join(', ') + ')'); };
	for (const x of c.notes) check('note', x.en, m.pick(x, 'zh'));
	for (const x of c.names) if (m.name(x, 'zh') === x) out.push('name: ' + x + ' has no Chinese');
	for (const x of c.problems) check('problem', x.en, m.pick(x, 'zh'));
	for (const x of c.refusals) check('refusal', x.en, m.serverError({ code: 'bad-fault', args: { detail: x } }, 'zh'));
	return out;
}`

// TestBrowserChinese checks what the page shows in 中文 of what the server
// really says: the words on every event of every lesson and lab run to its
// end and with each fault a user can inject (rendered by the server's
// catalogue, package fact, and picked by the page), every mark's and
// fault's name, every problem the scenario checker's tests find, every
// reason a fault is refused. In 中文 none may keep English outside code and
// identifiers: a fact whose Chinese is missing shows its English, and fails.
func TestBrowserChinese(t *testing.T) {
	chromium(t)
	c := collect(t)
	t.Logf("%d notes, %d names, %d problems, %d refusals", len(c.Notes), len(c.Names), len(c.Problems), len(c.Refusals))
	if len(c.Notes) < 50 || len(c.Problems) < 30 || len(c.Refusals) < 3 {
		t.Fatalf("the corpus is too small to say anything: %d notes, %d problems, %d refusals", len(c.Notes), len(c.Problems), len(c.Refusals))
	}
	url := startServer(t, server.Options{})
	ctx := tab(t, startBrowser(t), true)
	open(t, ctx, url)
	arg, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string]("("+untranslated+")("+string(arg)+")", chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("English left in 中文: %s", b)
	}
	// On the page: a refused fault's error, said in 中文 with its reason.
	load(t, ctx, "no-lock-oversell")
	click(t, ctx, "lang")
	waitFor(t, ctx, "中文", `document.getElementById('timeline').dataset.lang === 'zh'`)
	do(t, ctx, "fail over a node without a replica", chromedp.Evaluate[chromedp.Void](`lockstep.link.send('inject', {fault: {do: 'failover', node: lockstep.state.snap.nodes[0].name}})`))
	waitFor(t, ctx, "the error", `!!document.querySelector('[data-testid=error]')`)
	got := text(t, ctx, "error")
	if want := "没有可以提升的副本"; !strings.Contains(got, want) || strings.Contains(got, "replica") {
		t.Errorf("a refused fault in 中文: expected its reason %q and no English, got %q", want, got)
	}
	shot(t, ctx, artifacts(t), "refused-fault-zh")

	// A scenario file with a misspelt field on line 6, column 5, typed into
	// the editor in 中文: the editor gives its line and column and the
	// problem in Chinese, as the server words it (the scenario. ids of the catalogue);
	// loaded anyway, the error says the same in Chinese.
	src := "scenarios:\n  - id: mine\n    title: {en: \"Mine\"}\n    clients:\n      - {name: A, algorithm: no-lock}\n    expcet: [oversell]\n"
	js, _ := json.Marshal(src)
	do(t, ctx, "type a bad scenario", chromedp.Evaluate[chromedp.Void](`(() => {
		document.getElementById('editor-panel').open = true;
		const ta = document.querySelector('[data-testid=editor]');
		ta.value = `+string(js)+`;
		ta.dispatchEvent(new Event('input'));
	})()`))
	waitFor(t, ctx, "a problem on line 6", `[...document.querySelectorAll('[data-testid=editor-errors] li')].some(li => li.dataset.line === '6')`)
	got = eval[string](t, ctx, `[...document.querySelectorAll('[data-testid=editor-errors] li')].find(li => li.dataset.line === '6').textContent`)
	for _, want := range []string{"第 6 行第 5 列", "未知字段", `"expcet"`, `"expect"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the editor's problem in 中文: want %q in it, got %q", want, got)
		}
	}
	if strings.Contains(got, "did you mean") {
		t.Errorf("the editor's problem in 中文 keeps its English: %q", got)
	}
	do(t, ctx, "load the bad scenario", chromedp.Evaluate[chromedp.Void](`lockstep.link.send('load', {yaml: `+string(js)+`})`))
	waitFor(t, ctx, "the file's error", `(document.querySelector('[data-testid=error]') || {}).textContent.includes('场景文件有错误')`)
	got = text(t, ctx, "error")
	if !strings.Contains(got, "第 6 行") || !strings.Contains(got, "未知字段") || strings.Contains(got, "did you mean") {
		t.Errorf("a bad file loaded in 中文: want its line and the problem in Chinese, got %q", got)
	}
	shot(t, ctx, artifacts(t), "bad-file-zh")
}
