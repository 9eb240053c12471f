// Package e2e holds the browser app's end-to-end tests: the real server on
// a loopback port, driven in real headless Chromium with chromedp.
//
// Run them with `go test ./internal/e2e`. Chromium is looked up at
// /usr/bin/chromium (or $LOCKSTEP_CHROMIUM); without it the tests skip,
// unless CI=true, where a missing browser fails the run. Screenshots go to
// $LOCKSTEP_ARTIFACTS when it is set, else to a temporary directory.
package e2e
