package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// TestBrowserTeach checks the teaching tools on the built-in lessons: the
// code view lights the line of the lock code that sent the current
// command (and the script lines it ran) as the cursor steps, seeks and
// forks; chapters stop paced play at each beat and jump; a challenge is
// won by hand, and another is reached too late.
func TestBrowserTeach(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	dir := artifacts(t)

	t.Run("code", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "reentrant-nested")
		waitFor(t, ctx, "the code view shows A's algorithm", `!!document.querySelector('[data-testid=code] .code-pane[data-file="reentrant.go"]')`)
		// Step until A's nested lock runs: its script finds A's own field
		// (HEXISTS) and counts it up (HINCRBY).
		nested := `(e => !!(e && e.kind === 'exec' && e.client === 'A' && e.src && (e.src.calls || []).includes('HEXISTS') && (e.src.calls || []).includes('HINCRBY')))`
		for i := 0; i < 60 && !eval[bool](t, ctx, nested+`(lockstep.state.model.events.filter(e => ['send','exec','reply','lost','timeout'].includes(e.kind)).pop())`); i++ {
			step(t, ctx)
		}
		seq := eval[int](t, ctx, `lockstep.state.model.events.filter(e => ['send','exec','reply','lost','timeout'].includes(e.kind)).pop().seq`)
		if !eval[bool](t, ctx, nested+`(lockstep.state.model.events.find(e => e.seq === `+fmt.Sprint(seq)+`))`) {
			t.Fatal("A's nested lock never ran")
		}
		waitFor(t, ctx, "the view on that command", fmt.Sprintf(`document.querySelector('[data-testid=code-cmd]') && document.querySelector('[data-testid=code-cmd]').dataset.seq === '%d'`, seq))
		waitFor(t, ctx, "the lit Go line", `!!document.querySelector('[data-testid=code-line-active]')`)
		if got := text(t, ctx, "code-line-active"); !strings.Contains(got, "reentrantLock.Run(") {
			t.Errorf("lit Go line = %q, want the call of reentrantLock.Run", got)
		}
		waitFor(t, ctx, "the lit script lines", `document.querySelectorAll('[data-testid=code-line-ran]').length >= 2`)
		ran := eval[string](t, ctx, `[...document.querySelectorAll('[data-testid=code-line-ran]')].map(l => l.textContent).join('\n')`)
		for _, want := range []string{"'hexists'", "'hincrby'"} {
			if !strings.Contains(ran, want) {
				t.Errorf("lit script lines lack %s:\n%s", want, ran)
			}
		}
		if strings.Contains(ran, "return 0") {
			t.Errorf("the busy branch did not run, yet it is lit:\n%s", ran)
		}
		shot(t, ctx, dir, "teach-code-en")

		// Back: the view follows the cursor to the command before.
		click(t, ctx, "back")
		waitFor(t, ctx, "the view follows back", fmt.Sprintf(`(c => c && Number(c.dataset.seq) < %d)(document.querySelector('[data-testid=code-cmd]'))`, seq))
		if eval[int](t, ctx, `document.querySelectorAll('[data-testid=code-line-active]').length`) != 1 {
			t.Error("after Back: want one lit Go line")
		}

		// Seek by the scrubber to step 0: no command yet.
		do(t, ctx, "seek to 0", chromedp.Evaluate[chromedp.Void](`lockstep.link.send('seek', {step: 0})`))
		waitFor(t, ctx, "step 0", `lockstep.state.snap.step === 0`)
		waitFor(t, ctx, "nothing lit at step 0", `!document.querySelector('[data-testid=code-line-active]')`)

		// Fork: B moves by hand; following the newest command shows B's.
		moveUntil(t, ctx, "B", `e.kind === 'send' && e.client === 'B'`)
		waitFor(t, ctx, "B's code", `document.querySelector('[data-testid=code] h3').textContent.includes('B') && !!document.querySelector('[data-testid=code-line-active]')`)
		// Per client: A's tab shows A's code though B moved last.
		moveUntil(t, ctx, "A", `e.kind === 'send' && e.client === 'A'`)
		moveUntil(t, ctx, "B", `e.kind === 'exec' && e.client === 'B'`)
		do(t, ctx, "pick A", chromedp.Click(chromedp.CSS(`[data-testid=code] .code-client[data-client="A"]`)))
		waitFor(t, ctx, "A's command", `(c => { const e = lockstep.state.model.events.find(x => x.seq === Number(c.dataset.seq)); return e && e.client === 'A'; })(document.querySelector('[data-testid=code-cmd]'))`)
		click(t, ctx, "lang")
		waitFor(t, ctx, "中文", `document.querySelector('[data-testid=code] h3').textContent.includes('运行的锁代码')`)
		shot(t, ctx, dir, "teach-code-zh")
		click(t, ctx, "lang")
		// Hide the code, then show it again; the choice is remembered.
		click(t, ctx, "code-toggle")
		waitFor(t, ctx, "the code hidden", `document.body.classList.contains('no-code') && !document.querySelector('[data-testid=code] .code-pane') && localStorage.getItem('lockstep.code') === 'off'`)
		click(t, ctx, "code-toggle")
		waitFor(t, ctx, "the code shown", `!document.body.classList.contains('no-code') && !!document.querySelector('[data-testid=code] .code-pane[data-file="reentrant.go"]') && localStorage.getItem('lockstep.code') === 'on'`)
	})

	t.Run("redislock code", func(t *testing.T) {
		// redislock's Obtain runs its own obtain script (SET NX in Lua)
		// from redislock.go: the library's file is shown, with its module,
		// version and licence, and the line that sent the command is lit.
		ctx := page(t, b, url)
		load(t, ctx, "redislock-pause-no-watchdog")
		waitFor(t, ctx, "the library's file", `!!document.querySelector('[data-testid=code] .code-pane[data-file="redislock/redislock.go"]')`)
		for i := 0; i < 10 && !eval[bool](t, ctx, `!!document.querySelector('[data-testid=code-line-active]')`); i++ {
			step(t, ctx)
		}
		waitFor(t, ctx, "a lit line in redislock.go", `!!document.querySelector('[data-testid=code] .code-pane[data-file="redislock/redislock.go"] [data-testid=code-line-active]')`)
		head := eval[string](t, ctx, `document.querySelector('[data-testid=code] .code-file').textContent`)
		for _, want := range []string{"github.com/bsm/redislock@v0.9.4", "Apache-2.0", "redislock.go"} {
			if !strings.Contains(head, want) {
				t.Errorf("the file's header %q lacks %s", head, want)
			}
		}
	})

	t.Run("library code", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "redsync-unlock-after-expiry")
		// The first command is A's vote: redsync's own go-redis pool sends
		// SET NX, called from the library's acquire.
		waitFor(t, ctx, "the library's file", `!!document.querySelector('[data-testid=code] .code-pane[data-file="redsync/mutex.go"]')`)
		for i := 0; i < 10 && !eval[bool](t, ctx, `!!document.querySelector('[data-testid=code-line-active]')`); i++ {
			step(t, ctx)
		}
		waitFor(t, ctx, "the lit line of the pool", `!!document.querySelector('[data-testid=code] .code-pane[data-file="redsync/redis/goredis/v9/goredis.go"] [data-testid=code-line-active]')`)
		if got := text(t, ctx, "code-line-active"); !strings.Contains(got, "SetNX(") {
			t.Errorf("lit line = %q, want the library's call of SetNX", got)
		}
		head := eval[string](t, ctx, `document.querySelector('[data-testid=code] .code-file').textContent`)
		for _, want := range []string{"github.com/go-redsync/redsync/v4@v4.18.1", "BSD-3-Clause", "redis/goredis/v9/goredis.go"} {
			if !strings.Contains(head, want) {
				t.Errorf("the file's header %q lacks %s", head, want)
			}
		}
		crumbs := eval[string](t, ctx, `document.querySelector('[data-testid=code] .code-frames').textContent`)
		if !strings.Contains(crumbs, "(*Mutex).acquire (redsync/mutex.go:") {
			t.Errorf("the call's frames %q lack redsync's acquire", crumbs)
		}
		// B's failed vote releases with redsync's delete script, written in
		// scripts.go: its GET line, the one that ran, is lit in it.
		ran := `document.querySelectorAll('[data-testid=code] .code-pane[data-file="redsync/scripts.go"] [data-testid=code-line-ran]').length > 0`
		for i := 0; i < 40 && !eval[bool](t, ctx, ran); i++ {
			step(t, ctx)
		}
		waitFor(t, ctx, "the lit script line", ran)
		lit := eval[string](t, ctx, `[...document.querySelectorAll('[data-testid=code-line-ran]')].map(l => l.dataset.line + ':' + l.textContent).join('\n')`)
		decl := eval[int](t, ctx, `Number([...document.querySelectorAll('[data-file="redsync/scripts.go"] li')].find(l => l.textContent.includes('var deleteScript')).dataset.line)`)
		if !strings.Contains(lit, `redis.call("GET", KEYS[1])`) || strings.Contains(lit, "PEXPIRE") {
			t.Errorf("want deleteScript's GET lit, and nothing of the touch scripts:\n%s", lit)
		}
		var first int
		if _, err := fmt.Sscanf(lit, "%d:", &first); err != nil {
			t.Fatalf("the lit lines do not start with a line number (%v):\n%s", err, lit)
		}
		if first <= decl || first > decl+9 {
			t.Errorf("the lit line %d is not in deleteScript (from line %d):\n%s", first, decl, lit)
		}
		click(t, ctx, "lang")
		waitFor(t, ctx, "中文", `document.querySelector('[data-testid=code] .code-file').textContent.includes('库自己的代码')`)
		shot(t, ctx, dir, "teach-code-library-zh")
		click(t, ctx, "lang")
	})

	t.Run("chapters", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "blind-del-long-work")
		// A chapter ahead is not listed, only counted: at step 0, none.
		waitFor(t, ctx, "the chapters", `document.querySelectorAll('[data-testid=chapters] .chapter').length === 0 && /^5 more ahead/.test(document.querySelector('[data-testid=chapters-ahead]').textContent)`)
		steps := eval[[]int](t, ctx, `lockstep.state.snap.chapters.map(c => c.step)`)
		if !eval[bool](t, ctx, `document.querySelector('[data-testid=paced]').checked`) {
			t.Fatal("paced play should be on by default")
		}
		choose(t, ctx, "speed", "30")
		// Play stops at each of the first two beats, showing its line.
		for i := 0; i < 2; i++ {
			click(t, ctx, "play")
			waitFor(t, ctx, fmt.Sprintf("a stop at chapter %d", i+1), fmt.Sprintf(`!lockstep.state.snap.playing && lockstep.state.snap.step === %d`, steps[i]))
			waitFor(t, ctx, "the stop said", `!!document.querySelector('[data-testid=beat-stop]')`)
			say := eval[string](t, ctx, `lockstep.state.snap.chapters[`+fmt.Sprint(i)+`].text.en`)
			if got := text(t, ctx, "narration"); !strings.Contains(got, say) {
				t.Errorf("stopped at chapter %d: narration %q, want %q", i+1, got, say)
			}
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=chapters] .chapter').length`); n != 2 {
			t.Errorf("at chapter 2, %d chapters listed, want the 2 reached", n)
		}
		shot(t, ctx, dir, "teach-chapters-en")
		// At the end every chapter is listed; jump back to chapter 4.
		click(t, ctx, "end")
		waitFor(t, ctx, "all five chapters", `lockstep.state.snap.ended && document.querySelectorAll('[data-testid=chapters] .chapter').length === 5 && !document.querySelector('[data-testid=chapters-ahead]')`)
		do(t, ctx, "chapter 4", chromedp.Click(chromedp.CSS(`[data-testid=chapters] li:nth-child(4) .chapter`)))
		waitFor(t, ctx, "chapter 4", fmt.Sprintf(`lockstep.state.snap.step === %d && document.querySelector('[data-testid=chapters] li[aria-current]') === document.querySelector('[data-testid=chapters] li:nth-child(4)')`, steps[3]))
		// A jump, or a step by hand onto a chapter, is no stop of paced
		// play: nothing says "press Play".
		if eval[bool](t, ctx, `!!document.querySelector('[data-testid=beat-stop]')`) {
			t.Error("after a jump to chapter 4 the page says play stopped there")
		}
		click(t, ctx, "back")
		waitFor(t, ctx, "one step before chapter 4", fmt.Sprintf(`lockstep.state.snap.step === %d`, steps[3]-1))
		step(t, ctx)
		waitFor(t, ctx, "chapter 4 by hand", fmt.Sprintf(`lockstep.state.snap.step === %d && !!document.querySelector('[data-testid=chapters] li[aria-current]')`, steps[3]))
		if eval[bool](t, ctx, `!!document.querySelector('[data-testid=beat-stop]')`) {
			t.Error("stepping by hand onto chapter 4, the page says play stopped there")
		}
		// Presenter mode keeps the narration in view.
		click(t, ctx, "presenter")
		if pos := eval[string](t, ctx, `getComputedStyle(document.querySelector('.side .narration')).position`); pos != "sticky" {
			t.Errorf("presenter narration position = %q, want sticky", pos)
		}
		// The timeline is narrow beside the code: its gutter has no time
		// column, and its head says so, uncut.
		for _, lang := range []string{"en", "zh"} {
			if lang == "zh" {
				click(t, ctx, "lang")
			}
			head := eval[[]string](t, ctx, `(h => [h.textContent, String(h.scrollWidth <= h.clientWidth), String(lockstep.timeline.L.narrow)])(document.querySelector('.gutter-head'))`)
			saysTime := strings.Contains(head[0], "time") || strings.Contains(head[0], "时间")
			if head[1] != "true" || (head[2] == "true" && saysTime) {
				t.Errorf("presenter (%s): gutter head %q, fits %s, narrow %s: want it uncut and without the time a narrow gutter does not show", lang, head[0], head[1], head[2])
			}
		}
		shot(t, ctx, dir, "teach-chapters-zh-presenter")
		click(t, ctx, "lang")
		click(t, ctx, "presenter")
		// Paced play off (remembered): play runs past the next beat.
		click(t, ctx, "paced")
		if eval[string](t, ctx, `localStorage.getItem('lockstep.paced')`) != "off" {
			t.Error("the paced setting is not remembered")
		}
		click(t, ctx, "play")
		waitFor(t, ctx, "play past chapter 5", fmt.Sprintf(`lockstep.state.snap.step > %d || lockstep.state.snap.ended`, steps[4]))
		click(t, ctx, "paced")
	})

	t.Run("challenge", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "no-lock-oversell")
		waitFor(t, ctx, "the challenge offered", `!!document.querySelector('[data-testid=challenge-take]')`)
		click(t, ctx, "challenge-take")
		waitFor(t, ctx, "the challenge taken", `(c => c && c.active && c.progress && c.progress.moves === 0)(lockstep.state.snap.challenge)`)
		if got := text(t, ctx, "challenge-status"); !strings.Contains(got, "Not yet") {
			t.Errorf("status at the start = %q, want Not yet", got)
		}
		// Won: both read 1 before either writes, by hand, in 10 moves.
		for _, c := range []string{"A", "A", "B", "B", "A", "A", "A", "B", "B", "B"} {
			before := eval[int](t, ctx, `lockstep.state.snap.step`)
			waitFor(t, ctx, c+" can move", `!!document.querySelector('[data-testid="move-`+c+`"]')`)
			click(t, ctx, "move-"+c)
			waitFor(t, ctx, c+" moved", fmt.Sprintf(`lockstep.state.snap.step > %d`, before))
		}
		waitFor(t, ctx, "won", `document.querySelector('[data-testid=challenge-status]').dataset.state === 'won'`)
		if got := text(t, ctx, "challenge-moves"); !strings.Contains(got, "10 of 10") {
			t.Errorf("moves = %q, want 10 of 10", got)
		}
		waitFor(t, ctx, "the debrief", `!!document.querySelector('[data-testid=challenge-debrief]') && document.querySelectorAll('[data-testid=challenge-ref]').length === 2`)
		do(t, ctx, "follow a proof", chromedp.Click(chromedp.CSS(`[data-testid=challenge-ref]`)))
		waitFor(t, ctx, "the proof selected", `lockstep.state.selected === lockstep.state.snap.challenge.progress.refs[0]`)
		shot(t, ctx, dir, "teach-challenge-won-en")
		click(t, ctx, "lang")
		waitFor(t, ctx, "中文", `document.querySelector('[data-testid=challenge-status]').textContent.includes('成功')`)
		shot(t, ctx, dir, "teach-challenge-won-zh")
		click(t, ctx, "lang")

		// Not yet won: try again, a hint, then the engine's own order,
		// which reaches the oversell too late.
		click(t, ctx, "challenge-retry")
		waitFor(t, ctx, "moves back to 0", `lockstep.state.snap.step === 0 && document.querySelector('[data-testid=challenge-status]').dataset.state === 'notyet'`)
		for i := 0; i < 9; i++ {
			step(t, ctx)
		}
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=challenge-status]').dataset.state`); got != "notyet" {
			t.Errorf("after 9 engine steps: state %q, want notyet", got)
		}
		for i := 0; i < 6 && !eval[bool](t, ctx, `lockstep.state.snap.challenge.progress.reached`); i++ {
			step(t, ctx)
		}
		waitFor(t, ctx, "reached too late", `document.querySelector('[data-testid=challenge-status]').dataset.state === 'over' && lockstep.state.snap.challenge.progress.reached && !lockstep.state.snap.challenge.progress.won`)
		// Past the limit the counter says by how much, and the debrief is in view.
		if n, most := eval[int](t, ctx, `lockstep.state.snap.challenge.progress.moves`), eval[int](t, ctx, `lockstep.state.snap.challenge.moves`); n > most {
			if got, want := text(t, ctx, "challenge-moves"), fmt.Sprintf("%d past the limit of %d", n-most, most); !strings.Contains(got, want) {
				t.Errorf("moves past the limit = %q, want it to say %q", got, want)
			}
		} else {
			t.Errorf("reached too late with %d of %d moves", n, most)
		}
		waitFor(t, ctx, "the debrief in view", `(d => { const r = d.getBoundingClientRect(), s = d.closest('.side').getBoundingClientRect(); return r.top >= s.top - 1 && r.top < s.bottom; })(document.querySelector('[data-testid=challenge-debrief]'))`)
		shot(t, ctx, dir, "teach-challenge-late-en")
		click(t, ctx, "lang")
		waitFor(t, ctx, "中文", `document.documentElement.lang === 'zh-CN'`)
		shot(t, ctx, dir, "teach-challenge-late-zh")
		click(t, ctx, "lang")
		// Leave: the lesson again, with its chapters.
		click(t, ctx, "challenge-leave")
		waitFor(t, ctx, "the lesson again", `lockstep.state.snap.challenge && !lockstep.state.snap.challenge.active && (lockstep.state.snap.chapters || []).length === 3`)
	})

	t.Run("challenge-fault", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "failover-lost-lock")
		click(t, ctx, "challenge-take")
		waitFor(t, ctx, "the challenge taken", `(c => c && c.active)(lockstep.state.snap.challenge)`)
		step(t, ctx)
		step(t, ctx)
		do(t, ctx, "fail over", chromedp.SetValue(chromedp.CSS(`[data-testid=fault-node]`), "master"))
		click(t, ctx, "fault-failover")
		waitFor(t, ctx, "the failover counted", `lockstep.state.snap.challenge.progress.faults === 1`)
		for i := 0; i < 40 && !eval[bool](t, ctx, `lockstep.state.snap.challenge.progress.reached`); i++ {
			step(t, ctx)
		}
		waitFor(t, ctx, "won", `document.querySelector('[data-testid=challenge-status]').dataset.state === 'won'`)
		if got := text(t, ctx, "challenge-faults"); !strings.Contains(got, "1 of 1") {
			t.Errorf("faults = %q, want 1 of 1", got)
		}
	})
}
