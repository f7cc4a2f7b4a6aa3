package daemon

import (
	"log"
	"os"
	"strings"
	"time"

	"github.com/browsehq/browse/internal/browser"
)

// captureFlusher appends newly captured console, network and dialog entries
// to .gstack/browse-{console,network,dialog}.log once a second. Commands read
// the in-memory buffers; the files are for looking back after the fact, and
// survive a crash with at most a second lost. A request is written once it
// has finished (or after a minute still pending), so its line is complete.
type captureFlusher struct {
	d                     *Daemon
	consoleSeq, dialogSeq int
	netSeq                int
	pendingNet            []*browser.NetEntry
}

const (
	flushEvery     = time.Second
	pendingTooLong = time.Minute
)

func (d *Daemon) flushCaptures(stop <-chan struct{}) {
	f := &captureFlusher{d: d}
	tick := time.NewTicker(flushEvery)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			f.flush(true)
			return
		case <-tick.C:
			f.flush(false)
		}
	}
}

func (f *captureFlusher) flush(final bool) {
	b := f.d.browser
	var lines []string
	var console, dialogs []browser.LogEntry
	console, f.consoleSeq = b.Console.ItemsSince(f.consoleSeq)
	for _, e := range console {
		lines = append(lines, e.String())
	}
	f.appendTo("console", lines)

	lines = lines[:0]
	dialogs, f.dialogSeq = b.Dialogs.ItemsSince(f.dialogSeq)
	for _, e := range dialogs {
		lines = append(lines, e.String())
	}
	f.appendTo("dialog", lines)

	var fresh []*browser.NetEntry
	fresh, f.netSeq = b.Network.ItemsSince(f.netSeq)
	f.pendingNet = append(f.pendingNet, fresh...)
	lines = lines[:0]
	kept := f.pendingNet[:0]
	for _, n := range f.pendingNet {
		rec := n.Snapshot()
		if rec.Done || final || time.Since(rec.Time) > pendingTooLong {
			lines = append(lines, rec.String())
		} else {
			kept = append(kept, n)
		}
	}
	f.pendingNet = kept
	f.appendTo("network", lines)
}

func (f *captureFlusher) appendTo(kind string, lines []string) {
	if len(lines) == 0 {
		return
	}
	path := f.d.cfg.Paths.CaptureLog(kind)
	file, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		log.Printf("writing %s: %v", path, err)
		return
	}
	defer file.Close()
	file.WriteString(strings.Join(lines, "\n") + "\n")
}
