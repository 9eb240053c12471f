package report

import (
	"fmt"
	"strings"
)

// Markdown is the card for a user's setup in English and 中文, for a
// design review: the setup, the grid, what to use instead, then each
// lock's cells in words with the id its counterexample replays as.
func (card *SetupCard) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# The card for %s · %s 的报告卡\n\n", card.Scenario, card.Scenario)
	if card.File != "" {
		fmt.Fprintf(&b, "File · 文件：`%s`\n\n", card.File)
	}
	fmt.Fprintf(&b, "%s.\n\n%s。\n\n", mdEscape(card.Setup.En), mdEscape(card.Setup.Zh))
	b.WriteString("| lock · 锁 |")
	for _, c := range card.Columns {
		fmt.Fprintf(&b, " %s<br>%s |", c.Title.En, c.Title.Zh)
	}
	b.WriteString(" round trips<br>往返 |\n|---|")
	for range card.Columns {
		b.WriteString("---|")
	}
	b.WriteString("---|\n")
	for _, r := range card.Rows {
		name := "`" + r.Algorithm + "`"
		if r.Yours {
			name = "**" + name + " (yours · 你的)**"
		}
		fmt.Fprintf(&b, "| %s |", name)
		for _, c := range r.Cells {
			mark := Symbol(c.Kind)
			if c.Kind == Fails {
				mark += " " + c.Verdict
			}
			fmt.Fprintf(&b, " %s |", mark)
		}
		fmt.Fprintf(&b, " %s |\n", r.Trips("en"))
	}
	b.WriteString("\n" + SetupLegend().En + "\n\n" + SetupLegend().Zh + "\n\n")
	if card.Unsearched != nil {
		b.WriteString("**" + card.Unsearched.En + ".**\n\n**" + card.Unsearched.Zh + "。**\n\n")
	}
	t := card.insteadText()
	b.WriteString("## " + mdLines(t.En) + "\n## " + mdLines(t.Zh) + "\n")
	if len(card.Instead) > 0 && card.Yours != nil && card.Instead[0].Code != nil {
		mdSideBySide(&b, card.Yours, card.Instead[0].Code)
	}
	b.WriteString("## Lock by lock · 逐把看\n")
	for _, r := range card.Rows {
		fmt.Fprintf(&b, "\n### %s\n\n%s\n\n", r.Algorithm, mdEscape(r.Title))
		fmt.Fprintf(&b, "- **%s**\n  %s\n", mdEscape(r.Advice.En), mdEscape(r.Advice.Zh))
		fmt.Fprintf(&b, "- round trips (acquire / release): %s · 往返（加锁 / 释放）：%s\n", r.Trips("en"), r.Trips("zh"))
		fmt.Fprintf(&b, "- needs: %s · 需要：%s\n\n", mdEscape(r.needsText("en")), mdEscape(r.needsText("zh")))
		b.WriteString("| fault · 故障 | what the search found | 搜索结果 |\n|---|---|---|\n")
		for i, c := range r.Cells {
			t := c.Text(r)
			en, zh := mdEscape(t.En), mdEscape(t.Zh)
			if id := replayID(c); id != "" {
				en += " (`" + id + "`)"
				zh += "（`" + id + "`）"
			}
			fmt.Fprintf(&b, "| %s · %s | %s | %s |\n", card.Columns[i].Title.En, card.Columns[i].Title.Zh, en, zh)
		}
	}
	if card.failures() > 0 {
		h := card.ReplayHow()
		b.WriteString("\n" + mdEscape(h.En) + ".\n\n" + mdEscape(h.Zh) + "。\n")
	}
	return b.String()
}

// mdLines turns the text of What to use instead into a heading and a
// list: its first line the heading, each further line an item.
func mdLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	out := lines[0] + "\n\n"
	for _, l := range lines[1:] {
		out += "- " + mdEscape(strings.TrimSpace(l)) + "\n"
	}
	return out + "\n"
}

// mdSideBySide writes the user's acquire and release beside the
// recommended lock's: step by step, theirs then the recommended one
// (Markdown has no columns; the HTML page sets them side by side).
func mdSideBySide(b *strings.Builder, yours, rec *StepCode) {
	b.WriteString("## Acquire and release, side by side · 加锁与释放，并排对照\n")
	for _, step := range []struct {
		en, zh string
		of     func(*StepCode) []Snippet
	}{
		{"Acquire", "加锁", func(c *StepCode) []Snippet { return c.Acquire }},
		{"Release", "释放", func(c *StepCode) []Snippet { return c.Release }},
	} {
		fmt.Fprintf(b, "\n### %s · %s\n", step.en, step.zh)
		for _, side := range []struct {
			en, zh string
			c      *StepCode
		}{{"yours", "你的", yours}, {"recommended", "推荐", rec}} {
			fmt.Fprintf(b, "\n**%s · %s: `%s`**\n", side.en, side.zh, side.c.Algorithm)
			for _, s := range step.of(side.c) {
				fmt.Fprintf(b, "\n`%s:%d`\n\n````%s\n%s\n````\n", s.File, s.Line, fence(s.File), strings.TrimRight(s.Text, "\n"))
			}
		}
	}
	b.WriteString("\n")
}

// fence is the language of a code block by its file's extension.
func fence(file string) string {
	switch {
	case strings.HasSuffix(file, ".go"):
		return "go"
	case strings.HasSuffix(file, ".lua"):
		return "lua"
	case strings.HasSuffix(file, ".yaml"):
		return "yaml"
	}
	return ""
}
