package browser

import (
	"fmt"
	"log"
)

// TabWarnThresholds are the tab counts at which the daemon log gets a
// warning: many tabs are the usual way a long session runs out of memory.
var TabWarnThresholds = []int{50, 200}

// tabGuardrail remembers which thresholds have been warned about, so each
// warning is written once per crossing; a threshold is armed again once the
// count has dropped below it.
type tabGuardrail struct {
	warned map[int]bool
}

// check is called with the tab count each time a tab is added. It returns
// the warnings to log (the caller may hold the browser's lock).
func (g *tabGuardrail) check(count int) []string {
	if g.warned == nil {
		g.warned = map[int]bool{}
	}
	var out []string
	for _, limit := range TabWarnThresholds {
		switch {
		case count < limit:
			g.warned[limit] = false
		case !g.warned[limit]:
			g.warned[limit] = true
			out = append(out, tabWarning(count, limit))
		}
	}
	return out
}

func tabWarning(count, limit int) string {
	return fmt.Sprintf("warning: %d tabs open (crossed %d); each tab holds a renderer's memory. Run 'browse memory' to see where it goes, and close tabs no longer needed.", count, limit)
}

// warnTabs logs the guardrail's warnings for the current tab count. It is
// called with b.mu held.
func (b *Browser) warnTabs() {
	for _, w := range b.tabGuard.check(len(b.tabs)) {
		log.Print(w)
	}
}
