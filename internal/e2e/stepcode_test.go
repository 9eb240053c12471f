package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// codeSide is the text of one column (yours, instead) of the code set
// beside alternative lock's in What to use instead.
func codeSide(t *testing.T, ctx context.Context, lock, side string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`(document.querySelector('[data-testid=report-code][data-lock=%q] [data-side=%s]') || {}).textContent || ''`, lock, side))
}

// layout tells how the two columns of lock's code sit: "side by side"
// (level, the alternative's right of the user's), "stacked" (the
// alternative's under the user's), or what it found.
func layout(t *testing.T, ctx context.Context, lock string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`(() => {
	  const d = document.querySelector('[data-testid=report-code][data-lock=%q]');
	  if (!d || !d.open) return 'closed';
	  const y = d.querySelector('[data-side=yours]').getBoundingClientRect(), i = d.querySelector('[data-side=instead]').getBoundingClientRect();
	  if (Math.abs(y.top - i.top) < 2 && i.left >= y.right - 1 && i.right <= d.getBoundingClientRect().right + 1) return 'side by side';
	  if (i.top >= y.bottom - 1 && Math.abs(y.left - i.left) < 2) return 'stacked';
	  return JSON.stringify({y, i});
	})()`, lock))
}

// checkCode holds the code beside lock in What to use instead: open (the
// first alternative), the user's steps in the column marked yours and
// the alternative's in the other, each column headed in the page's
// language, and the two columns laid out as want says.
func checkCode(t *testing.T, ctx context.Context, lock string, yours, instead, heads []string, want string) {
	t.Helper()
	y, i := codeSide(t, ctx, lock, "yours"), codeSide(t, ctx, lock, "instead")
	for _, w := range yours {
		if !strings.Contains(y, w) || strings.Contains(i, w) {
			t.Errorf("%q: want it in the column of your code only; yours %.200q, %s's %.200q", w, y, lock, i)
		}
	}
	for _, w := range instead {
		if !strings.Contains(i, w) || strings.Contains(y, w) {
			t.Errorf("%q: want it in %s's column only; yours %.200q, its %.200q", w, lock, y, i)
		}
	}
	for _, h := range heads {
		if !strings.Contains(y, h) || !strings.Contains(i, h) {
			t.Errorf("the heading %q is not in both columns", h)
		}
	}
	if got := layout(t, ctx, lock); got != want {
		t.Errorf("the two columns of code: %s, want %s", got, want)
	}
}
