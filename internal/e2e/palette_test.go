package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// paletteContrast imports the page's own modules (paint.js, lanes.js,
// served beside page.js, which joins them) and lists every colour a
// client's name or label is written in (the palette and the 34 colours
// clientColor makes past it), and the timeline's ink,
// muted and bad colours, whose WCAG contrast against a background it is
// written on is under 4.5:1. The backgrounds are read from the page as
// it is styled now: the timeline's canvas (white), the page, the lane
// names' buttons and the side panels (the darker grey, where the keys,
// the counters and the detail write owners' names in their colours).
// The ratio is worked out here, not with lanes.js's contrast, which is
// what is under test.
const paletteContrast = `(async () => {
	const base = document.querySelector('script[type=module]').src; // page.js, beside the modules
	const paint = await import(new URL('paint.js', base));
	const { clientColor } = await import(new URL('lanes.js', base));
	const ctx = document.createElement('canvas').getContext('2d');
	const rgb = (css) => {
		ctx.fillStyle = '#010203'; ctx.fillStyle = css;
		const v = ctx.fillStyle;
		if (!/^#[0-9a-f]{6}$/.test(v)) return null; // transparent (rgba): not a background
		return [1, 3, 5].map(i => parseInt(v.slice(i, i + 2), 16) / 255);
	};
	const lum = (c) => c.map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4).reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
	const ratio = (a, b) => { const x = lum(rgb(a)), y = lum(rgb(b)); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
	const bg = (sel) => { const e = document.querySelector(sel); return e && rgb(getComputedStyle(e).backgroundColor) ? getComputedStyle(e).backgroundColor : null; };
	const m = { clients: Array.from({ length: 40 }, (_, i) => 'c' + i) };
	const clients = m.clients.map(n => clientColor(m, n));
	const out = [];
	if (clients.slice(0, paint.PALETTE.length).join() !== paint.PALETTE.join()) out.push('clientColor does not start with the palette');
	if (new Set(clients).size !== clients.length) out.push('clientColor gives two clients one colour');
	const grounds = { canvas: '#ffffff', page: bg('body'), lane: bg('#lanes .lane.client'), side: bg('.side'), 'side by side lanes': bg('.sbs-heads') };
	for (const [where, b] of Object.entries(grounds)) {
		if (!b) continue;
		for (const c of clients) { const r = ratio(c, b); if (r < 4.5) out.push('client ' + c + ' on ' + where + ' ' + b + ': ' + r.toFixed(2) + ':1'); }
	}
	for (const c of [paint.INK, paint.MUTED, paint.BAD]) { const r = ratio(c, '#ffffff'); if (r < 4.5) out.push(c + ' on the canvas: ' + r.toFixed(2) + ':1'); }
	if (!grounds.lane || !grounds.side) out.push('no lane name or side panel to read a background from');
	return out;
})()`

// TestBrowserPaletteContrast checks that every client's colour (the
// palette and the colours past it for many clients) reads at 4.5:1 or
// more on every background it is written on, on a laptop and in Presenter
// mode: the timeline's labels are drawn on a canvas, which axe cannot
// see, so this is their only guard.
func TestBrowserPaletteContrast(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	ctx := page(t, b, url)
	for _, mode := range []string{"laptop", "presenter"} {
		if mode == "presenter" {
			do(t, ctx, "presenter mode", chromedp.KeyEvent("f"))
			waitFor(t, ctx, "presenter mode", `document.body.classList.contains('presenter')`)
		}
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](paletteContrast, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		for _, s := range v {
			t.Errorf("%s: %s", mode, s)
		}
	}
}
