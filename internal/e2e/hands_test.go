package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/lockstep/lockstep/internal/server"
)

// scrollUpByHand scrolls the timeline to its top as a user does: a wheel
// turn, then the scroll it makes.
const scrollUpByHand = `(() => {
	const sc = document.getElementById('tl-scroll');
	sc.dispatchEvent(new WheelEvent('wheel', {deltaY: -400, bubbles: true}));
	sc.scrollTop = 0;
})()`

// TestBrowserHands checks what a user does by hand: following the newest
// step and leaving it, being the scheduler to the end of a run and taking
// another branch, the keyboard after picking a lesson, exports with a
// caption, and a session taken over by another tab.
func TestBrowserHands(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	dir := artifacts(t)

	t.Run("follow", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "redlock-one-node-down")
		for i := 0; i < 40; i++ {
			step(t, ctx)
		}
		waitFor(t, ctx, "the newest row in view", inView)
		// A verdict or narration #ref jumps back; the next step follows again.
		do(t, ctx, "jump to the first event", chromedp.Evaluate[chromedp.Void](`document.querySelector('#narration-history button, #verdict .ref') ? document.querySelector('#narration-history button, #verdict .ref').click() : document.querySelector('[data-testid=event]').click()`))
		step(t, ctx)
		waitFor(t, ctx, "following after a jump and a step", inView)
		// Scrolled away on purpose: new rows do not pull the view down, and
		// the follow button brings it back.
		do(t, ctx, "scroll up by hand", chromedp.Evaluate[chromedp.Void](scrollUpByHand))
		waitFor(t, ctx, "the follow button", `!document.querySelector('[data-testid=follow-newest]').hidden`)
		step(t, ctx)
		step(t, ctx)
		if eval[bool](t, ctx, inView) || eval[int](t, ctx, `document.getElementById('tl-scroll').scrollTop`) > 0 {
			t.Errorf("after scrolling away by hand, a step should not move the view")
		}
		click(t, ctx, "follow-newest")
		waitFor(t, ctx, "back to the newest row", inView)
		// The next lesson follows from its start, whatever happened before.
		do(t, ctx, "scroll up by hand", chromedp.Evaluate[chromedp.Void](scrollUpByHand))
		load(t, ctx, "watch-six-buyers")
		for i := 0; i < 30; i++ {
			step(t, ctx)
		}
		waitFor(t, ctx, "the next lesson follows", inView)
	})

	t.Run("hand-oversell", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "no-lock-oversell")
		moveUntil(t, ctx, "A", `e.kind === 'exec' && e.client === 'A' && e.cmd[0].toLowerCase() === 'get'`)
		moveUntil(t, ctx, "B", `e.kind === 'exec' && e.client === 'B' && e.cmd[0].toLowerCase() === 'get'`)
		branchAt := eval[int](t, ctx, `lockstep.state.snap.step`)
		// Be the scheduler to the very end: A first, then whoever can move.
		for i := 0; i < 60 && !eval[bool](t, ctx, `lockstep.state.snap.ended`); i++ {
			who := eval[string](t, ctx, `(p => p.includes('A') ? 'A' : p[0] || '')(lockstep.state.snap.pending)`)
			if who == "" {
				t.Fatalf("nobody can move, yet the run has not ended (step %d)", eval[int](t, ctx, `lockstep.state.snap.step`))
			}
			before := eval[int](t, ctx, `lockstep.state.snap.step`)
			click(t, ctx, "move-"+who)
			waitFor(t, ctx, who+" moved", fmt.Sprintf(`lockstep.state.snap.step > %d`, before))
		}
		waitFor(t, ctx, "the verdict right after the last hand move", `lockstep.state.snap.ended && document.querySelectorAll('[data-testid=verdict] .v').length > 0`)
		if got := eval[[]string](t, ctx, `lockstep.state.model.verdicts.map(v => v.name)`); strings.Join(got, ",") != "oversell" {
			t.Errorf("hand-made race: expected [oversell], got %v", got)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid^="move-"]').length`); n != 0 {
			t.Errorf("at the end of the run %d moves are still offered", n)
		}
		end := eval[int](t, ctx, `lockstep.state.snap.step`)
		if c := text(t, ctx, "cursor"); !strings.Contains(c, fmt.Sprintf("/ %d", end)) {
			t.Errorf("cursor at the end: expected / %d in %q", end, c)
		}
		// The detail of B's SET: the stock it overwrote, before and after.
		set := eval[int](t, ctx, `[...lockstep.state.model.events].reverse().find(e => e.kind === 'exec' && e.cmd[0].toLowerCase() === 'set').seq`)
		do(t, ctx, "select B's SET", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector('[data-testid=event][data-seq="%d"]').click()`, set)))
		waitFor(t, ctx, "its detail", fmt.Sprintf(`document.querySelector('[data-testid=event-detail]').dataset.seq === '%d'`, set))
		if d := text(t, ctx, "event-detail"); !strings.Contains(d, "before") || !strings.Contains(d, "after") || !strings.Contains(d, "SET") {
			t.Errorf("detail of the SET: expected the command and the keys before and after, got %q", d)
		}
		shot(t, ctx, dir, "hand-oversell-en")
		click(t, ctx, "lang")
		waitFor(t, ctx, "中文", `document.documentElement.lang === 'zh-CN' && document.getElementById('timeline').dataset.lang === 'zh'`)
		if en := eval[[]string](t, ctx, english); len(en) > 0 {
			t.Errorf("English in 中文 mode: %q", en)
		}
		shot(t, ctx, dir, "hand-oversell-zh")
		click(t, ctx, "lang")
		// Back to where both had read, and another choice: B writes first.
		// The old branch's end no longer counts.
		do(t, ctx, "seek back", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`lockstep.link.send('seek', {step: %d})`, branchAt)))
		waitFor(t, ctx, "back at the branch", fmt.Sprintf(`lockstep.state.snap.step === %d`, branchAt))
		click(t, ctx, "move-B")
		waitFor(t, ctx, "B moved", fmt.Sprintf(`lockstep.state.snap.step > %d`, branchAt))
		if c := text(t, ctx, "cursor"); strings.Contains(c, fmt.Sprintf("/ %d", end)) {
			t.Errorf("after another choice the old branch's length %d is still shown: %q", end, c)
		}
		if most := eval[int](t, ctx, `Number(document.querySelector('[data-testid=scrubber]').max)`); most == end {
			t.Errorf("after another choice the scrubber keeps the old branch's length %d", end)
		}
	})

	t.Run("keyboard", func(t *testing.T) {
		ctx := tab(t, b, true)
		open(t, ctx, url)
		do(t, ctx, "focus the picker", chromedp.Focus(chromedp.CSS(`[data-testid=scenario-select]`)))
		load(t, ctx, "blind-del-long-work")
		do(t, ctx, "right arrow", chromedp.KeyEvent(kb.ArrowRight)) // → steps, not the next lesson
		waitFor(t, ctx, "a step by →", `lockstep.state.snap.step === 1 && lockstep.state.snap.scenario === 'blind-del-long-work'`)
		do(t, ctx, "space", chromedp.KeyEvent(" "))
		waitFor(t, ctx, "a step by space", `lockstep.state.snap.step === 2`)
		// Space on a focused fault button presses it; it does not step.
		do(t, ctx, "focus Crash", chromedp.Focus(chromedp.CSS(`[data-testid=fault-crash]`)))
		do(t, ctx, "space on Crash", chromedp.KeyEvent(" "))
		waitFor(t, ctx, "the crash", `lockstep.state.model.events.some(e => e.kind === 'fault' && e.name === 'crash')`)
		if got := eval[int](t, ctx, `lockstep.state.snap.step`); got != 2 {
			t.Errorf("space on a fault button should not step: step %d", got)
		}
		// Only the faults that apply: no Fail over without a replica.
		if eval[bool](t, ctx, `!document.querySelector('[data-testid=fault-failover]').hidden`) {
			t.Errorf("Fail over is offered in a scenario without a replica")
		}
	})

	t.Run("stuck-and-faults", func(t *testing.T) {
		ctx := tab(t, b, true)
		open(t, ctx, url)
		load(t, ctx, "failover-lost-lock")
		if eval[bool](t, ctx, `document.querySelector('[data-testid=fault-failover]').hidden`) {
			t.Errorf("Fail over is not offered in a scenario with a replica")
		}
		load(t, ctx, "no-lock-oversell")
		step(t, ctx)
		click(t, ctx, "fault-node-crash")
		waitFor(t, ctx, "nobody can make progress", `!document.querySelector('[data-testid=stuck]').hidden`)
		if eval[bool](t, ctx, `document.querySelector('[data-testid=fault-node-restart]').hidden`) {
			t.Errorf("with the node down, Restart node should be offered")
		}
		shot(t, ctx, dir, "stuck")
	})

	// A second Pause 1s of a client already paused for longer changes
	// nothing: the page says so (in both languages) rather than record a
	// move that does nothing.
	t.Run("pause-a-paused-client", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "blind-del-slow-release")
		step(t, ctx)
		choose(t, ctx, "fault-client", "A")
		click(t, ctx, "fault-pause")
		waitFor(t, ctx, "A paused", `lockstep.state.snap.actions.length === 1`)
		click(t, ctx, "fault-pause")
		waitFor(t, ctx, "the refusal", `(e => !!e && /A is already paused until/.test(e.textContent))(document.querySelector('[data-testid=error]'))`)
		if n := eval[int](t, ctx, `lockstep.state.snap.actions.length`); n != 1 {
			t.Errorf("the refused pause was recorded: %d actions, want 1", n)
		}
		click(t, ctx, "lang")
		waitFor(t, ctx, "the refusal in 中文", `/A 已经停顿到/.test(document.querySelector('[data-testid=error]').textContent)`)
		click(t, ctx, "lang")
	})

	t.Run("export-caption", func(t *testing.T) {
		ctx := tab(t, b, false)
		down := t.TempDir()
		if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: down}); err != nil {
			t.Fatal(err)
		}
		open(t, ctx, url)
		load(t, ctx, "no-lock-oversell")
		click(t, ctx, "end")
		waitFor(t, ctx, "the end", `lockstep.state.snap.ended`)
		click(t, ctx, "export-svg")
		svg := string(downloaded(t, down, ".svg"))
		step := eval[int](t, ctx, `lockstep.state.snap.step`)
		for _, want := range []string{"No lock: two buyers, one item", "seed 1", fmt.Sprintf("step %d", step), "oversell"} {
			if !strings.Contains(svg, want) {
				t.Errorf("the SVG's caption lacks %q", want)
			}
		}
		click(t, ctx, "export-png")
		_ = os.WriteFile(filepath.Join(dir, "export-caption.png"), downloaded(t, down, ".png"), 0o644)
		names, _ := filepath.Glob(filepath.Join(down, "*.svg"))
		if len(names) != 1 || !strings.HasPrefix(filepath.Base(names[0]), fmt.Sprintf("no-lock-oversell-seed1-step%d-rows", step)) {
			t.Errorf("SVG file name: expected no-lock-oversell-seed1-step%d-rowsA-B.svg, got %v", step, names)
		}
		_ = os.RemoveAll(down)
	})

	t.Run("your-file", func(t *testing.T) {
		ctx := tab(t, b, true)
		probs := watch(t, ctx)
		open(t, ctx, url)
		// The editor opens with the current scenario, not empty.
		do(t, ctx, "open the editor", chromedp.Evaluate[chromedp.Void](`document.getElementById('editor-panel').open = true`))
		waitFor(t, ctx, "the editor holds the current scenario", `document.querySelector('[data-testid=editor]').value.includes('id: ')`)
		// A file of three scenarios: all three are offered, under their titles.
		market, err := os.ReadFile(filepath.Join("..", "..", "labs", "market.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		js := fmt.Sprintf("%q", string(market))
		do(t, ctx, "run the market file", chromedp.Evaluate[chromedp.Void](`(() => {
			const ta = document.querySelector('[data-testid=editor]');
			ta.value = `+js+`;
			document.querySelector('[data-testid=editor-run]').click();
		})()`))
		waitFor(t, ctx, "the file's scenarios in the picker", `document.querySelectorAll('#group-file option').length === 3`)
		if got := eval[string](t, ctx, `(s => s.options[s.selectedIndex].textContent)(document.querySelector('[data-testid=scenario-select]'))`); !strings.Contains(got, "Market lab") {
			t.Errorf("the picker should show the file's scenario title, got %q", got)
		}
		choose(t, ctx, "scenario-select", "file:market-one-lock")
		waitFor(t, ctx, "the second scenario", `lockstep.state.snap.scenario === 'market-one-lock'`)
		click(t, ctx, "end")
		waitFor(t, ctx, "the end", `lockstep.state.snap.ended`)
		waitFor(t, ctx, "the counters", `!document.getElementById('counters-panel').hidden && /bought|买到/.test(document.querySelector('[data-testid=counters]').textContent)`)
		shot(t, ctx, dir, "your-file-market")
		// An expect: the run contradicts is flagged at its line.
		src := "scenarios:\n  - id: mine\n    title: {en: \"Mine\", zh: \"我的\"}\n    data: {stock: \"1\"}\n    clients:\n      - {name: A, algorithm: no-lock}\n      - {name: B, algorithm: no-lock}\n    expect: [safe]\n"
		do(t, ctx, "run a wrong expect", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
			const ta = document.querySelector('[data-testid=editor]');
			ta.value = %q;
			document.querySelector('[data-testid=editor-run]').click();
		})()`, src)))
		waitFor(t, ctx, "mine loaded", `lockstep.state.snap.scenario === 'mine'`)
		click(t, ctx, "end")
		waitFor(t, ctx, "the end", `lockstep.state.snap.ended`)
		waitFor(t, ctx, "the expect flagged on line 8", `[...document.querySelectorAll('[data-testid=editor-errors] li')].some(li => li.dataset.line === '8' && /expect/.test(li.textContent))`)
		if got := eval[string](t, ctx, `(s => s.options[s.selectedIndex].textContent)(document.querySelector('[data-testid=scenario-select]'))`); got != "Mine" {
			t.Errorf("the picker should show the edited scenario's title Mine, got %q", got)
		}
		do(t, ctx, "show the editor", chromedp.Evaluate[chromedp.Void](`document.getElementById('editor-panel').scrollIntoView()`))
		shot(t, ctx, dir, "your-file-expect")
		for _, p := range probs.take() {
			if !strings.Contains(p, "expect") {
				t.Error(p)
			}
		}
	})

	t.Run("taken-over", func(t *testing.T) {
		one := tab(t, b, true)
		open(t, one, url)
		load(t, one, "no-lock-oversell")
		id := eval[string](t, one, `sessionStorage.getItem('lockstep.session')`)
		two := tab(t, b, true)
		do(t, two, "open", chromedp.Navigate(url+"/healthz"))
		do(t, two, "the same session", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sessionStorage.setItem('lockstep.session', %q)`, id)))
		open(t, two, url)
		waitFor(t, one, "the first tab says it was taken over", `!document.querySelector('[data-testid=taken-over]').hidden`)
		shot(t, one, dir, "taken-over")
		click(t, one, "take-back")
		waitFor(t, one, "taken back", `document.querySelector('[data-testid=taken-over]').hidden`)
		waitFor(t, two, "the second tab says it was taken over", `!document.querySelector('[data-testid=taken-over]').hidden`)
		step(t, one)
	})
}
