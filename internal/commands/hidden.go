package commands

import (
	"context"
	"slices"
	"time"
)

// hiddenScanTimeout bounds the hidden-content scan: a warning is worth
// little next to a command that answers late.
const hiddenScanTimeout = 2 * time.Second

// AddHiddenWarnings scans the page a DOM-reading command just read (other
// than text, which strips hidden text itself) for hidden text and ARIA
// labels that read as instructions, and adds what it finds to c.Warnings.
// It never fails the command: a scan that errs or runs late adds nothing.
func AddHiddenWarnings(ctx context.Context, c *Call) {
	if c == nil || c.Tab == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, hiddenScanTimeout)
	defer cancel()
	found, err := c.Tab.HiddenContent(ctx, c.Tab.CurrentFrame())
	if err != nil {
		return
	}
	for _, w := range found {
		if !slices.Contains(c.Warnings, w) {
			c.Warnings = append(c.Warnings, w)
		}
	}
}
