// Command bench measures the real CLI end to end, the way an agent uses it:
// a fresh `browse` process per command against a page served locally. It
// prints a table of cold start, warm p50/p95 per command, the bare process
// floor, and the daemon's memory; then the screenshot and PDF commands timed
// against agent-browser, a peer with the same design (peers.go).
package main

import (
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/browsehq/browse/bench/peer"
	"github.com/browsehq/browse/internal/state"
)

func main() {
	bin := flag.String("bin", "bin/browse", "the browse binary")
	runs := flag.Int("n", 60, "warm runs per command")
	colds := flag.Int("cold", 5, "cold starts")
	peers := flag.Bool("peers", true, "compare the visual commands with agent-browser")
	agentBin := flag.String("agent-browser", "", "agent-browser's native binary (scripts/install-agent-browser.sh prints it)")
	peerRuns := flag.Int("peer-n", 20, "runs per visual command and tool in the peer comparison")
	flag.Parse()
	abs, err := filepath.Abs(*bin)
	if err != nil {
		fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/page", peer.LinksPage)
	mux.HandleFunc("/clicks", clicks)
	mux.HandleFunc("/big", peer.BigPage)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ws, err := os.MkdirTemp("", "browse-bench")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(ws)
	b := &bencher{bin: abs, dir: ws}
	defer b.run("stop")

	pageURL := srv.URL + "/page"
	fmt.Printf("browse end-to-end benchmark (%d warm runs per command; a fresh CLI process each)\n\n", *runs)

	var cold []time.Duration
	for range *colds {
		b.run("stop")
		waitNoDaemon(ws)
		d, out := b.timed("goto", pageURL)
		if !strings.Contains(out, "Navigated") {
			fatal(fmt.Errorf("cold goto failed: %s", out))
		}
		cold = append(cold, d)
	}
	rows := [][]string{{"what", "p50", "p95", "min"}}
	rows = append(rows, row("cold first command (goto, incl. daemon + Chromium start)", cold))
	rows = append(rows, row("process floor: browse --version (no daemon)", b.repeat(*runs, "--version")))
	for _, args := range [][]string{{"url"}, {"text"}, {"goto", pageURL}, {"js", "1+1"}, {"tabs"}} {
		rows = append(rows, row("warm "+strings.Join(args, " ")[:min(len(strings.Join(args, " ")), 40)], b.repeat(*runs, args...)))
	}
	// Snapshot and click: refs from one snapshot stay valid while the page
	// does not change, so click @ref can be repeated.
	b.run("goto", pageURL)
	snap := b.run("snapshot", "-i")
	rows = append(rows, row("warm snapshot -i (200 links + form)", b.repeat(*runs, "snapshot", "-i")))
	b.run("goto", srv.URL+"/clicks")
	b.run("snapshot", "-i")
	rows = append(rows, row("warm click @e1 (a button)", b.repeat(*runs, "click", "@e1")))
	b.run("goto", srv.URL+"/big")
	rows = append(rows, row("warm snapshot (2,000-element page)", b.repeat(*runs/3+1, "snapshot")))
	peer.PrintTable(rows)
	fmt.Printf("\nsnapshot -i of the 200-link page: %d bytes, %d lines\n", len(snap), strings.Count(snap, "\n"))
	st, err := state.Read(filepath.Join(ws, ".gstack", "browse.json"))
	if err == nil {
		fmt.Printf("\ndaemon RSS (excluding Chromium): %s\n", rss(st.PID))
	}
	compareComposition(b, pageURL, 10)
	compareSecurity(abs, map[string]string{"bench page": pageURL, "2,000-element page": srv.URL + "/big"}, *runs)
	if *peers {
		comparePeers(b, *agentBin, pageURL, max(*peerRuns, 1))
	}
}

type bencher struct {
	bin, dir string
	env      []string // nil: this process's
}

func (b *bencher) run(args ...string) string {
	cmd := exec.Command(b.bin, args...)
	cmd.Dir = b.dir
	cmd.Env = b.env
	out, _ := cmd.CombinedOutput()
	return string(out)
}

func (b *bencher) timed(args ...string) (time.Duration, string) {
	start := time.Now()
	out := b.run(args...)
	return time.Since(start), out
}

func (b *bencher) repeat(n int, args ...string) []time.Duration {
	b.run(args...) // warm-up
	ds := make([]time.Duration, n)
	for i := range ds {
		ds[i], _ = b.timed(args...)
	}
	return ds
}

func row(name string, ds []time.Duration) []string {
	pct := func(p float64) string { return peer.MS(peer.Percentile(ds, p)) }
	return []string{name, pct(0.50), pct(0.95), peer.MS(slices.Min(ds))}
}

func waitNoDaemon(ws string) {
	for range 200 {
		if _, err := os.Stat(filepath.Join(ws, ".gstack", "browse.json")); os.IsNotExist(err) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func rss(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.Fields(v)[0])
			return fmt.Sprintf("%.1f MB", float64(kb)/1024)
		}
	}
	return "unknown"
}

// clicks is a page with one button whose clicks are counted.
func clicks(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte(`<!doctype html><title>Clicks</title><button onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Count</button>`))
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}
