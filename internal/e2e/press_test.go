package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// press is the teacher's (or a student's) hand on a control: it must be
// shown, enabled, inside the screen once scrolled to (as a person
// scrolls), and not covered; then the mouse clicks its middle.
func press(t *testing.T, ctx context.Context, testid string) {
	t.Helper()
	pressAt(t, ctx, `[data-testid="`+testid+`"]`)
}

// pressAt is press for the first element sel matches.
func pressAt(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	type spot struct {
		Why  string
		X, Y float64
	}
	s := eval[spot](t, ctx, fmt.Sprintf(`(b => {
		if (!b) return { Why: 'not on the page' };
		if (b.closest('[hidden]') || getComputedStyle(b).display === 'none' || (b.offsetParent === null && getComputedStyle(b).position !== 'fixed')) return { Why: 'hidden' };
		if (b.disabled) return { Why: 'disabled' };
		b.scrollIntoView({ block: 'nearest', inline: 'nearest' });
		const r = b.getBoundingClientRect();
		if (r.width < 4 || r.height < 4) return { Why: 'too small: ' + r.width + 'x' + r.height };
		if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) return { Why: 'off the screen: ' + JSON.stringify(r) };
		const x = r.x + r.width / 2, y = r.y + r.height / 2, hit = document.elementFromPoint(x, y);
		const own = hit && (b === hit || b.contains(hit) || (b.closest('label') || b).contains(hit));
		if (!own) return { Why: 'covered by ' + (hit ? hit.outerHTML.slice(0, 120) : 'nothing') };
		return { Why: '', X: x, Y: y };
	})(document.querySelector(%q))`, sel))
	if s.Why != "" {
		t.Fatalf("%s cannot be pressed: %s", sel, s.Why)
	}
	do(t, ctx, "press "+sel, chromedp.MouseClickXY(s.X, s.Y))
}

// pick chooses value in a select the person can reach (press's rules).
func pick(t *testing.T, ctx context.Context, testid, value string) {
	t.Helper()
	reachable(t, ctx, testid)
	choose(t, ctx, testid, value)
}

// reachable fails the test unless the control is shown, inside the screen
// once scrolled to, and not covered.
func reachable(t *testing.T, ctx context.Context, testid string) {
	t.Helper()
	why := eval[string](t, ctx, fmt.Sprintf(`(b => {
		if (!b) return 'not on the page';
		if (b.closest('[hidden]') || b.offsetParent === null) return 'hidden';
		b.scrollIntoView({ block: 'nearest', inline: 'nearest' });
		const r = b.getBoundingClientRect();
		if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) return 'off the screen: ' + JSON.stringify(r);
		const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
		return hit && (b === hit || b.contains(hit)) ? '' : 'covered by ' + (hit ? hit.outerHTML.slice(0, 120) : 'nothing');
	})(document.querySelector('[data-testid="%s"]'))`, testid))
	if why != "" {
		t.Fatalf("%s cannot be reached: %s", testid, why)
	}
}
