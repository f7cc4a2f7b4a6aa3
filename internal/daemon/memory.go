package daemon

import (
	"context"
	"net/http"
	"time"

	"github.com/browsehq/browse/internal/commands"
)

// handleMemory serves the memory snapshot of 'memory --json': the daemon's
// heap and RSS, each tab's JS heap and DOM nodes, the Chromium processes
// and the bounded buffers.
func (d *Daemon) handleMemory(w http.ResponseWriter, r *http.Request) {
	timeout := d.cfg.QuickTimeout
	if timeout <= 0 {
		timeout = 15 * time.Second
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	writeJSON(w, http.StatusOK, commands.MemorySnapshot(ctx, d.browser))
}
