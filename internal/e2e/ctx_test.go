package e2e

import "context"

// chromedpCtx is a tab's context.
type chromedpCtx = context.Context
