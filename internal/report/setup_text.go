package report

import (
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Text is the card for a user's setup as the command line prints it, in
// lang (en or zh): the setup, the grid of marks with the user's rows
// first, each lock's cells in words (✓ and ~ with their bound, ✗ with
// the id its counterexample replays as), then what to use instead, the
// user's acquire and release beside the first alternative's.
func (card *SetupCard) Text(lang string) string {
	var b strings.Builder
	say := func(en, zh string, args ...any) {
		fmt.Fprintf(&b, Pick(sim.Text{En: en, Zh: zh}, lang), args...)
	}
	say("Your setup: scenario %s%s: %s.\nEvery lock below is placed in it (every client runs the lock; your own faults and schedule are left out: the columns are the faults), each cell decided by a schedule search.\n\n",
		"你的设置：场景 %s%s：%s。\n下面每一把锁都放进这个设置（每个客户端都运行这把锁；你自己的故障和调度不算在内：各列就是故障），每一格由调度搜索决定。\n\n",
		card.Scenario, card.fileNote(lang), Pick(card.Setup, lang))
	card.grid(&b, lang)
	b.WriteString("\n" + Pick(SetupLegend(), lang) + "\n")
	if card.Unsearched != nil {
		b.WriteString("\n" + Pick(*card.Unsearched, lang) + ".\n")
	}
	for _, c := range card.Columns {
		fmt.Fprintf(&b, "  %s: %s\n", Pick(c.Title, lang), Pick(c.What, lang))
	}
	b.WriteString("\n" + Pick(card.insteadText(), lang))
	card.codeText(&b, lang)
	for _, r := range card.Rows {
		name := r.Algorithm
		if r.Yours {
			name += Pick(sim.Text{En: " (yours)", Zh: "（你的）"}, lang)
		}
		fmt.Fprintf(&b, "\n%s: %s\n", name, r.Title)
		say("  round trips (acquire / release): %s; needs: %s\n", "  往返（加锁 / 释放）：%s；需要：%s\n", r.Trips(lang), r.needsText(lang))
		for i, c := range r.Cells {
			fmt.Fprintf(&b, "  %s: %s", Pick(card.Columns[i].Title, lang), Pick(c.Text(r), lang))
			if c.Counterexample != nil {
				say(" [replays as %s]", "［重放为 %s］", c.Counterexample.ID)
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "  %s\n", Pick(r.Advice, lang))
	}
	if card.failures() > 0 {
		b.WriteString("\n" + Pick(card.ReplayHow(), lang) + "\n")
	}
	return b.String()
}

// codeText writes the user's acquire and release and the first
// alternative's, step by step, each piece of code under its file and
// line, indented, its tabs two spaces (the Markdown's side by side, in
// the terminal's few columns); nothing when either is missing.
func (card *SetupCard) codeText(b *strings.Builder, lang string) {
	if card.Yours == nil || len(card.Instead) == 0 || card.Instead[0].Code == nil {
		return
	}
	rec := card.Instead[0].Code
	fmt.Fprint(b, Pick(sim.Text{En: "\nYour acquire and release beside " + rec.Algorithm + "'s (the first of What to use instead):\n",
		Zh: "\n你的加锁和释放，与 " + rec.Algorithm + "（改用什么的第一把）的并排：\n"}, lang))
	for _, step := range []struct {
		name sim.Text
		of   func(*StepCode) []Snippet
	}{
		{sim.Text{En: "acquire", Zh: "加锁"}, func(c *StepCode) []Snippet { return c.Acquire }},
		{sim.Text{En: "release", Zh: "释放"}, func(c *StepCode) []Snippet { return c.Release }},
	} {
		fmt.Fprintf(b, "  %s\n", Pick(step.name, lang))
		for _, side := range []struct {
			who string
			c   *StepCode
		}{{Pick(sim.Text{En: "yours", Zh: "你的"}, lang) + " (" + card.Yours.Algorithm + ")", card.Yours}, {rec.Algorithm, rec}} {
			for _, sn := range step.of(side.c) {
				fmt.Fprintf(b, "    %s · %s:%d\n", side.who, sn.File, sn.Line)
				for _, l := range strings.Split(strings.TrimRight(sn.Text, "\n"), "\n") {
					b.WriteString(strings.TrimRight("      "+strings.ReplaceAll(l, "\t", "  "), " ") + "\n")
				}
			}
		}
	}
}

// fileNote is " of FILE" when the card knows its file.
func (card *SetupCard) fileNote(lang string) string {
	if card.File == "" {
		return ""
	}
	return Pick(sim.Text{En: " of " + card.File, Zh: "（" + card.File + "）"}, lang)
}

// grid writes the marks: a row a lock, a column a fault, ✗ with its
// verdict.
func (card *SetupCard) grid(b *strings.Builder, lang string) {
	width := 0
	for _, r := range card.Rows {
		width = max(width, len(r.Algorithm)+len(" (yours)"))
	}
	// Column widths count a Chinese character as two.
	fmt.Fprintf(b, "%-*s", width+2, "")
	for _, c := range card.Columns {
		fmt.Fprintf(b, "%-15s", c.ID)
	}
	b.WriteString("\n")
	for _, r := range card.Rows {
		name := r.Algorithm
		if r.Yours {
			name += Pick(sim.Text{En: " (yours)", Zh: " (你的)"}, lang)
		}
		b.WriteString(name + strings.Repeat(" ", max(1, width+2-displayWidth(name))))
		for _, c := range r.Cells {
			b.WriteString(pad(Symbol(c.Kind), 15))
		}
		b.WriteString("\n")
	}
}

// SetupLegend says what each mark of the card for a setup means.
func SetupLegend() sim.Text {
	return sim.Text{
		En: "✗ a schedule of your setup breaks it (its shrunk counterexample replays with visualizer test)   " +
			"✓ no schedule within the bound written beside it breaks it (the search covered them all)   " +
			"~ none found in the schedules sampled (not a proof)   ? not searched: the time limit stopped it, it says nothing   n/a the fault cannot apply",
		Zh: "✗ 你的设置中有调度能打破它（精简后的反例可以用 visualizer test 重放）   " +
			"✓ 在旁边写明的界限内没有任何调度能打破它（搜索覆盖了全部调度）   " +
			"~ 在抽样的调度中没有发现（不是证明）   ? 未搜索：时限让它提前停止，它什么也没说明   n/a 这种故障不适用",
	}
}

// insteadText is the section What to use instead.
func (card *SetupCard) insteadText() sim.Text {
	t := sim.Text{En: "What to use instead", Zh: "改用什么"}
	if len(card.Instead) == 0 {
		t.En += ": no other lock was searched to the end of every column.\n"
		t.Zh += "：没有其他锁在每一列都搜索完。\n"
		return t
	}
	if card.Instead[0].Everywhere {
		t.En += " (holds in every column; ranked by what it needs beyond one Redis node, then round trips):\n"
		t.Zh += "（在每一列都成立；先按除一个 Redis 节点之外还需要什么排序，再按往返次数）：\n"
	} else {
		t.En += ": no lock was shown to hold (✓ or ~) in every column of your setup; the closest (fewest columns failed or n/a, then what it needs, then round trips):\n"
		t.Zh += "：在你的设置中没有一把锁被证明在每一列都成立（✓ 或 ~）；最接近的是（先按失败或不适用的列数，再按需要什么，再按往返次数）：\n"
	}
	for i, a := range card.Instead {
		fails := sim.Text{}
		if len(a.Fails) > 0 {
			fails = sim.Text{En: "; fails " + strings.Join(a.Fails, ", "), Zh: "；在 " + strings.Join(a.Fails, "、") + " 失败"}
		}
		if len(a.NA) > 0 {
			fails.En += "; n/a " + strings.Join(a.NA, ", ")
			fails.Zh += "；" + strings.Join(a.NA, "、") + " 不适用"
		}
		t.En += fmt.Sprintf("  %d. %s: %d ✓, %d ~%s; %s\n", i+1, a.Algorithm, a.Holds, a.Sampled, fails.En, a.Difference.En)
		t.Zh += fmt.Sprintf("  %d. %s：%d ✓，%d ~%s；%s\n", i+1, a.Algorithm, a.Holds, a.Sampled, fails.Zh, a.Difference.Zh)
	}
	return t
}

// failures counts the card's ✗ cells.
func (card *SetupCard) failures() int {
	n := 0
	for _, r := range card.Rows {
		for _, c := range r.Cells {
			if c.Counterexample != nil {
				n++
			}
		}
	}
	return n
}

// ReplayHow says how to run the card's counterexamples.
func (card *SetupCard) ReplayHow() sim.Text {
	cmd := "visualizer report --file " + card.File + " --scenario " + card.Scenario + " --yaml > mine.yaml"
	return sim.Text{
		En: "Every ✗ replays on your setup: " + cmd + " writes them all, each expecting the verdicts it reaches; visualizer test --file mine.yaml checks them, visualizer run --file mine.yaml ID prints one",
		Zh: "每个 ✗ 都能在你的设置上重放：" + cmd + " 把它们全部写出，每个都期望它得到的裁决；visualizer test --file mine.yaml 检查它们，visualizer run --file mine.yaml ID 打印其中一个",
	}
}

// Counterexamples are every ✗ cell's shrunk schedule on the user's
// setup, and every example of a storage refusing a late write, as one
// scenario file: each expects the verdicts it replays to (visualizer test
// --file).
func (card *SetupCard) Counterexamples() *scenario.File {
	return (&Card{Rows: card.Rows}).Counterexamples()
}

// displayWidth is how many columns a terminal gives s: two for each
// wide (Chinese, full-width) character, one for any other.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= 0x2E80 && r <= 0xA4CF, r >= 0xAC00 && r <= 0xD7A3, r >= 0xF900 && r <= 0xFAFF,
			r >= 0xFE30 && r <= 0xFE4F, r >= 0xFF00 && r <= 0xFF60, r >= 0xFFE0 && r <= 0xFFE6:
			n += 2
		default:
			n++
		}
	}
	return n
}
